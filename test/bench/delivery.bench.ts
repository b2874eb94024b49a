/**
 * Webhook delivery benchmark: real `dsync serve` processes on a throwaway redis-server, a local receiver that
 * counts events and answers 204 at once.
 *
 * To measure delivery alone (not SCIM request cost), the throughput phases pre-load the events while delivery
 * is idle: they are written straight into each directory's log with the store's layout
 * (`XADD dsync:{<dirId>}:ev * e <json>`, events shaped by src/core/events.ts `buildEvent`), then released
 * with one `ZADD dsync:due <now> <dirIds…>` (real time: the poll loop picks them up; batch mode: one cron
 * pass). The clock runs from the release until the receiver has counted them all.
 *
 * Phases:
 *   - real time, BENCH_DIRS directories (one event per POST, at most 64 directories in flight per process), with
 *     each of BENCH_ORDERINGS (`directory`: one POST in flight per directory; `resource`: many)
 *   - real time, one directory, with each of BENCH_ORDERINGS
 *   - batch mode, BENCH_BATCH_SIZES (one `POST /api/v1/dsync/cron/process-events`, which drains everything)
 *   - steady state: SCIM user creates at BENCH_RATE/s spread over the directories for BENCH_STEADY_SECONDS,
 *     healthy receiver; lag = event created_at → receiver got it
 *   - latency (delivery-latency.ts): a receiver answering after 50 ms; one directory's first sync of BENCH_USERS
 *     users and BENCH_GROUPS groups with `resource` ordering at DSYNC_WEBHOOK_CONCURRENCY=BENCH_CONCURRENCY (unset:
 *     dsync's default),
 *     checked by the resource-order checker, beside `directory` ordering on BENCH_DIRECTORY_USERS users
 *     (extrapolated)
 *   - poison (delivery-latency.ts): the 50 ms receiver refusing every event of one user for 60 s while SCIM
 *     writes go on at BENCH_POISON_RATE/s for 70 s (`resource`; retries at 5, 10, 20, 40, 80 s); the other
 *     events' lag beside the same writes without the poison
 *
 *   npx tsx test/bench/delivery.bench.ts
 *   BENCH_PROFILE=/tmp/prof npx tsx test/bench/delivery.bench.ts   # --cpu-prof on each dsync child
 *   BENCH_NODE_ARGS=--trace-gc-nvp npx tsx test/bench/delivery.bench.ts   # more flags for each dsync child's node
 *
 * Env: BENCH_DIRS=100 BENCH_RT_EVENTS=50000 BENCH_SINGLE_EVENTS=10000 BENCH_BATCH_EVENTS=200000
 *      BENCH_BATCH_SIZES=100,500 BENCH_RATE=500 BENCH_STEADY_SECONDS=10 BENCH_ORDERINGS=directory,resource
 *      BENCH_USERS=100000 BENCH_GROUPS=2000 BENCH_DIRECTORY_USERS=500 BENCH_CONCURRENCY=<default> BENCH_POISON_RATE=100
 *      BENCH_ONLY=realtime|batch|steady|latency|poison
 */
import { Redis } from 'ioredis';
import { DELIVERY_DEFAULTS } from '../../src/delivery/options.js';
import { firstSyncPhase, poisonPhase, type LatencyRow, type PoisonRow } from './delivery-latency.js';
import { batchPhase, createDirectories, realtimePhase, steadyPhase, type Row } from './delivery-phases.js';
import { client, CountingReceiver, startDsync, startRedis } from './lib.js';

const DIRS = Number(process.env.BENCH_DIRS ?? 100);
const RT_EVENTS = Number(process.env.BENCH_RT_EVENTS ?? 50_000);
const SINGLE_EVENTS = Number(process.env.BENCH_SINGLE_EVENTS ?? 10_000);
const BATCH_EVENTS = Number(process.env.BENCH_BATCH_EVENTS ?? 200_000);
const BATCH_SIZES = (process.env.BENCH_BATCH_SIZES ?? '100,500').split(',').map(Number);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const STEADY_SECONDS = Number(process.env.BENCH_STEADY_SECONDS ?? 10);
const ORDERINGS = (process.env.BENCH_ORDERINGS ?? 'directory,resource').split(',');
const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const GROUPS = Number(process.env.BENCH_GROUPS ?? 2_000);
const DIRECTORY_USERS = Number(process.env.BENCH_DIRECTORY_USERS ?? 500);
/** Unset: the service runs with its own default, which the figures then describe. */
const CONCURRENCY = process.env.BENCH_CONCURRENCY;
const POISON_RATE = Number(process.env.BENCH_POISON_RATE ?? 100);
const ONLY = process.env.BENCH_ONLY;
const concurrency = CONCURRENCY ?? String(DELIVERY_DEFAULTS.postsPerDirectory);
const run = (what: string) => !ONLY || ONLY.split(',').includes(what);

const TARGETS = { batch: 20_000, realtime: 3_000, lagP99: 1_000 };

const rows: Row[] = [];

const latencyRows: LatencyRow[] = [];
const poisonRows: PoisonRow[] = [];

/** Against the receiver answering after 50 ms: a first sync in each ordering, then the poison user. */
async function latencyPhases(common: Record<string, string>, redis: Redis, slow: CountingReceiver): Promise<void> {
  const resource = await startDsync({
    ...common,
    DSYNC_WEBHOOK_ORDERING: 'resource',
    ...(CONCURRENCY && { DSYNC_WEBHOOK_CONCURRENCY: CONCURRENCY }),
    DSYNC_WEBHOOK_RETRY_SCHEDULE: '5s,10s,20s,40s,80s',
  });
  const api = client(resource.url, `Api-Key ${resource.apiKey}`, 4);
  let total = USERS * 2 + GROUPS;
  try {
    if (run('latency')) {
      console.log(
        `receiver answering after 50 ms: first sync of ${USERS} users and ${GROUPS} groups, one directory, resource ordering, ${concurrency} POSTs in flight:`,
      );
      const [dir] = await createDirectories(api, 1, slow.url, 'first-sync-resource');
      slow.recorded = [];
      const row = await firstSyncPhase(
        `resource (DSYNC_WEBHOOK_CONCURRENCY=${concurrency}${CONCURRENCY ? '' : ', the default'})`,
        resource,
        redis,
        slow,
        dir!,
        USERS,
        GROUPS,
      );
      slow.recorded = undefined;
      latencyRows.push(row);
      total = row.events;
    }
    if (run('poison')) {
      console.log(
        `receiver answering after 50 ms: ${POISON_RATE} SCIM writes/s for 70 s, resource ordering; one user refused for 60 s:`,
      );
      const [dir] = await createDirectories(api, 1, slow.url, 'poison');
      poisonRows.push(
        await poisonPhase('resource', resource.url, slow, dir!, {
          rate: POISON_RATE,
          seconds: 70,
          failSeconds: 60,
          poisoned: false,
          tag: 'base',
        }),
      );
      poisonRows.push(
        await poisonPhase('resource', resource.url, slow, dir!, {
          rate: POISON_RATE,
          seconds: 70,
          failSeconds: 60,
          poisoned: true,
          tag: 'poison',
        }),
      );
    }
  } finally {
    await api.close();
    await resource.stop();
  }
  if (!run('latency')) return;
  const directory = await startDsync({ ...common, DSYNC_WEBHOOK_ORDERING: 'directory' });
  const dapi = client(directory.url, `Api-Key ${directory.apiKey}`, 4);
  try {
    const groups = Math.max(1, Math.round((DIRECTORY_USERS * GROUPS) / USERS));
    console.log(
      `receiver answering after 50 ms: first sync of ${DIRECTORY_USERS} users and ${groups} groups, directory ordering:`,
    );
    const [dir] = await createDirectories(dapi, 1, slow.url, 'first-sync-directory');
    latencyRows.push(await firstSyncPhase('directory', directory, redis, slow, dir!, DIRECTORY_USERS, groups, total));
  } finally {
    await dapi.close();
    await directory.stop();
  }
}

async function main(): Promise<void> {
  const redisProc = await startRedis();
  const redis = new Redis(redisProc.url);
  const receiver = await new CountingReceiver().start();
  const common = { REDIS_URL: redisProc.url, DSYNC_WEBHOOK_ALLOW_PRIVATE: 'true' };
  console.log(`redis ${redisProc.url}; ${DIRS} directories; node ${process.version}`);
  let steady: Awaited<ReturnType<typeof steadyPhase>> | undefined;
  try {
    for (const ordering of ORDERINGS) {
      if (!run('realtime') && !(run('steady') && ordering === ORDERINGS.at(-1))) continue;
      const dsync = await startDsync({ ...common, DSYNC_WEBHOOK_ORDERING: ordering });
      const api = client(dsync.url, `Api-Key ${dsync.apiKey}`, 4);
      try {
        const dirs = await createDirectories(api, DIRS, receiver.url, `rt-${ordering}`);
        const [single] = await createDirectories(api, 1, receiver.url, `single-${ordering}`);
        console.log(`real time, ${ordering} ordering:`);
        await realtimePhase('warm-up (not reported)', dsync, redis, receiver, dirs, 50);
        if (run('realtime')) {
          rows.push(
            await realtimePhase(
              `real time, ${DIRS} directories, ${ordering}`,
              dsync,
              redis,
              receiver,
              dirs,
              Math.ceil(RT_EVENTS / DIRS),
              TARGETS.realtime,
            ),
          );
          rows.push(
            await realtimePhase(
              `real time, 1 directory, ${ordering}`,
              dsync,
              redis,
              receiver,
              [single!],
              SINGLE_EVENTS,
            ),
          );
        }
        if (run('steady') && ordering === ORDERINGS.at(-1)) {
          console.log(
            `steady state (${ordering}): ${RATE} SCIM user creates/s for ${STEADY_SECONDS} s over ${DIRS} directories`,
          );
          steady = await steadyPhase(dsync.url, receiver, dirs, RATE, STEADY_SECONDS);
          console.log(`  ${JSON.stringify(steady)}`);
        }
      } finally {
        await api.close();
        await dsync.stop();
      }
    }

    if (run('latency') || run('poison')) {
      const slow = await new CountingReceiver().start();
      slow.delayMs = 50;
      try {
        await latencyPhases(common, redis, slow);
      } finally {
        await slow.stop();
      }
    }

    if (run('batch')) {
      for (const [size, ordering] of BATCH_SIZES.flatMap((size) => ORDERINGS.map((o) => [size, o] as const))) {
        const dsync = await startDsync({
          ...common,
          DSYNC_WEBHOOK_BATCH_SIZE: String(size),
          DSYNC_WEBHOOK_ORDERING: ordering,
        });
        const api = client(dsync.url, `Api-Key ${dsync.apiKey}`, 4);
        try {
          console.log(`batch mode, DSYNC_WEBHOOK_BATCH_SIZE=${size}, ${ordering} ordering:`);
          const dirs = await createDirectories(api, DIRS, receiver.url, `b${size}-${ordering}`);
          await batchPhase('warm-up', dsync, redis, api, receiver, dirs, size);
          rows.push(
            await batchPhase(
              `batch ${size}, ${DIRS} directories, one cron pass, ${ordering}`,
              dsync,
              redis,
              api,
              receiver,
              dirs,
              Math.ceil(BATCH_EVENTS / DIRS),
              TARGETS.batch,
            ),
          );
          rows.push(
            await batchPhase(
              `batch ${size}, 1 directory, one cron pass, ${ordering}`,
              dsync,
              redis,
              api,
              receiver,
              dirs.slice(0, 1),
              Math.ceil(BATCH_EVENTS / 10),
            ),
          );
        } finally {
          await api.close();
          await dsync.stop();
        }
      }
    }

    console.log(
      '\n| phase | events | POSTs | seconds | events/s | dsync CPU µs / event | target |\n|---|---:|---:|---:|---:|---:|---|',
    );
    for (const r of rows) {
      console.log(
        `| ${r.phase} | ${r.events} | ${r.posts} | ${r.seconds.toFixed(2)} | ${Math.round(r.eventsPerSec)} | ${r.cpuUs.toFixed(1)} | ${r.target} |`,
      );
    }
    if (latencyRows.length > 0) {
      console.log(
        '\n| receiver at 50 ms: first sync, one directory | events | seconds | events/s | POSTs in flight (mean, max) | dsync CPU µs / event | |\n|---|---:|---:|---:|---|---:|---|',
      );
      for (const r of latencyRows) {
        console.log(
          `| ${r.ordering} | ${r.events} | ${r.seconds.toFixed(1)} | ${Math.round(r.eventsPerSec)} | ${r.meanInFlight.toFixed(1)}, ${r.maxInFlight} | ${Math.round(r.cpuUs)} | ${r.note} |`,
        );
      }
    }
    if (poisonRows.length > 0) {
      console.log(
        "\n| receiver at 50 ms: SCIM writes, one user refused for 60 s | writes | other events' lag p50 | p99 | max |\n|---|---:|---:|---:|---:|",
      );
      for (const r of poisonRows) {
        console.log(
          `| ${r.ordering}, ${r.poisoned ? 'poisoned' : 'no poison'} | ${r.writes} | ${r.othersLagP50} ms | ${r.othersLagP99} ms | ${r.othersLagMax} ms |`,
        );
      }
    }
    if (steady) {
      console.log(
        `| steady state: ${RATE} creates/s × ${STEADY_SECONDS} s (achieved ${Math.round(steady.writeRate)}/s, SCIM p50 ${steady.scimP50.toFixed(1)} ms, p99 ${steady.scimP99.toFixed(1)} ms, ${steady.failed} failed) | ` +
          `${steady.writes} | | | | | lag p50 ${steady.lagP50} ms, p99 ${steady.lagP99} ms, max ${steady.lagMax} ms: p99 < ${TARGETS.lagP99} ms ${steady.lagP99 < TARGETS.lagP99 ? 'met' : 'MISSED'} |`,
      );
    }
  } finally {
    redis.disconnect();
    await receiver.stop();
    await redisProc.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
