/**
 * What the activity record costs the SCIM write path. Two services in this one process, identical but for the
 * record (on / off), on one redis-server, take the Okta-shaped create workload (filter lookup + POST, both
 * recorded) through the embeddable request handler, in short batches that alternate between them: the
 * machine's drift (it is shared) falls on both alike, and the same JIT-compiled code serves both. A batch of
 * the record's side ends with the record written (its flush is counted in its time, not left to a timer that
 * could run in the other side's batch). Prints both throughputs, their ratio (over all batches, and the median of the
 * batch pairs' ratios,
 * which bursts of other load on the machine barely move), and CPU time per request.
 *
 *   npx tsx test/bench/activity.bench.ts      # BENCH_BATCHES=80 BENCH_BATCH=200 BENCH_CONCURRENCY=16
 *   BENCH_AA=1 npx tsx test/bench/activity.bench.ts   # both sides without the record: the noise floor
 */
import { pino } from 'pino';
import { createDsync, type Dsync } from '../../src/service.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { startRedis } from './lib.js';
import { check, oktaUser } from './okta-workload.js';

const BATCHES = Number(process.env.BENCH_BATCHES ?? 80);
const BATCH = Number(process.env.BENCH_BATCH ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

const sides: { off?: Side } = {};

interface Side {
  name: string;
  dsync: Dsync;
  directoryId: string;
  secret: string;
  next: number;
  requests: number;
  seconds: number;
  cpuUs: number;
}

/** One side: a service over the shared store and directory, with or without the record. */
function side(
  name: string,
  store: RedisStore,
  directory: { id: string; scim: { secret: string } },
  recordActivity: boolean,
): Side {
  const dsync = createDsync({
    store,
    externalUrl: 'http://bench.local',
    logger: pino({ level: 'silent' }),
    recordActivity,
  });
  return {
    name,
    dsync,
    directoryId: directory.id,
    secret: directory.scim.secret,
    next: 0,
    requests: 0,
    seconds: 0,
    cpuUs: 0,
  };
}

/** `users` Okta creates (lookup, then POST) on one side, `CONCURRENCY` at a time; timed when `measured`. */
async function batch(s: Side, users: number, measured: boolean): Promise<number> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  const handle = (method: string, query: Record<string, string>, body?: unknown) =>
    s.dsync.requests.handle({
      method,
      directoryId: s.directoryId,
      resourceType: 'Users',
      apiSecret: s.secret,
      query,
      ...(body !== undefined && { body }),
    });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < users) {
        next++;
        const user = oktaUser(s.name, s.next++);
        check(
          (await handle('GET', { filter: `userName eq "${user.userName}"`, startIndex: '1', count: '100' })).status,
          [200],
          'lookup',
        );
        check((await handle('POST', {}, user)).status, [201], 'create');
      }
    }),
  );
  // The record's side ends with its entries written; the other side makes the same one round trip.
  if (s === sides.off) await s.dsync.store.ping();
  else await s.dsync.activity.flush();
  const seconds = (performance.now() - started) / 1000;
  if (!measured) return 0;
  const used = process.cpuUsage(cpu);
  s.requests += users * 2;
  s.seconds += seconds;
  s.cpuUs += used.user + used.system;
  return (users * 2) / seconds;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const redis = await startRedis();
  // One store and one directory for both: they differ in the record alone. A long command timeout: the
  // shared machine can stall Redis for longer than the product's fail-fast 500 ms.
  const store = new RedisStore(redis.url, { commandTimeout: 10_000 });
  const directory = await createDsync({ store, externalUrl: 'http://bench.local' }).directories.create({
    name: 'bench',
    tenant: 'bench',
    product: 'bench',
    type: 'okta-scim-v2',
  });
  const on = side('with', store, directory, !process.env.BENCH_AA);
  const off = side('without', store, directory, false);
  sides.off = off;
  try {
    console.log(
      `${BATCHES} batches of ${BATCH} users (${BATCH * 2} requests) per side, alternating, concurrency ${CONCURRENCY}, one redis-server`,
    );
    for (let i = 0; i < 5; i++) for (const s of [on, off]) await batch(s, BATCH, false); // warm-up: JIT, connections
    // Each pair of batches gives a ratio; its median shrugs off the bursts of others' load on a shared machine.
    const ratios: number[] = [];
    for (let b = 0; b < BATCHES; b++) {
      // Who goes first alternates too, so neither always follows the other.
      const rates = new Map<Side, number>();
      for (const s of b % 2 === 0 ? [on, off] : [off, on]) rates.set(s, await batch(s, BATCH, true));
      ratios.push(rates.get(on)! / rates.get(off)!);
    }
    const rps = (s: Side) => s.requests / s.seconds;
    const cpuPerRequest = (s: Side) => s.cpuUs / s.requests;
    const recorded = await on.dsync.activity.read(on.directoryId, 1);
    console.log(
      `\nwrite path with the activity record:    ${Math.round(rps(on))} req/s, ${cpuPerRequest(on).toFixed(1)} µs CPU/request`,
    );
    console.log(
      `write path without the activity record: ${Math.round(rps(off))} req/s, ${cpuPerRequest(off).toFixed(1)} µs CPU/request`,
    );
    const ratio = median(ratios);
    console.log(`throughput with / without, all batches: ${((rps(on) / rps(off)) * 100).toFixed(1)}%`);
    console.log(
      `throughput with / without, median of the ${BATCHES} batch pairs: ${(ratio * 100).toFixed(1)}% (${ratio >= 0.97 ? 'within' : 'NOT within'} 3%)`,
    );
    console.log(`CPU per request with / without: ${((cpuPerRequest(on) / cpuPerRequest(off)) * 100).toFixed(1)}%`);
    console.log(
      `(the record kept the last request: ${recorded.recent[0]?.method} ${recorded.recent[0]?.path} ${recorded.recent[0]?.status})`,
    );
  } finally {
    await on.dsync.close(); // closes the shared store too
    await off.dsync.delivery.stop();
    await redis.stop();
  }
}

await main();
