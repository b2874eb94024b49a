/**
 * The Entra ID pull sync at scale, against the fake Entra (its own process, over TLS with the test CA) and a
 * real redis-server: a tenant of 100,000 users and 2,000 groups of 50 members — the first (full) sync, then a
 * delta after 100 changes of every kind. Prints durations, events, Graph calls and the peak RSS of the syncing
 * process, and fails when a bar is missed (first sync < 120 s and < 400 MB; the delta < 2 s, with
 * Graph calls in proportion to the changes, not to the directory). Wall-clock time depends on what else the
 * machine runs, so each phase also prints the CPU seconds of the three processes (sync, Redis, fake Graph): a
 * measure of the work that a loaded machine does not inflate (the three mostly wait on one another, so alone on
 * the machine a run takes about their sum). A bar is met when the wall-clock time or that sum is under it.
 *
 *   npx tsx test/bench/microsoft-sync.bench.ts       # BENCH_USERS=100000 BENCH_GROUPS=2000 BENCH_MEMBERS=50 BENCH_CHANGES=100
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDsync } from '../../src/service.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { countEvents } from '../support/big-group.js';
import { FAKE_APP } from '../support/fake-entra/index.js';
import { forkHelper, imageNodeOptions, startRedis } from './lib.js';

// Node trusts NODE_EXTRA_CA_CERTS and applies NODE_OPTIONS (the image's, for memory as deployed) only from its
// start: without them, make the test CA and run again with both.
const NODE_OPTIONS = imageNodeOptions();
if (!process.env.DSYNC_TEST_TLS_DIR || (process.env.NODE_OPTIONS ?? '') !== NODE_OPTIONS) {
  let dir = process.env.DSYNC_TEST_TLS_DIR;
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), 'dsync-bench-tls-'));
    execFileSync('bash', [fileURLToPath(new URL('../support/test-ca.sh', import.meta.url)), dir]);
  }
  const env = { ...process.env, DSYNC_TEST_TLS_DIR: dir, NODE_EXTRA_CA_CERTS: join(dir, 'ca.crt'), NODE_OPTIONS };
  process.exit(
    spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env }).status ?? 1,
  );
}

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const GROUPS = Number(process.env.BENCH_GROUPS ?? 2_000);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 50);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 100);

const { child, ask, ready } = await forkHelper<{ tenant: string }>(new URL('./entra-fake-process.ts', import.meta.url));

const { tenant } = ready;
const redis = await startRedis();
const store = new RedisStore(redis.url, { commandTimeout: 30_000 });
const failures: string[] = [];
const { Redis } = await import('ioredis');
const probe = new Redis(redis.url);
try {
  const t0 = performance.now();
  const { url } = await ask<{ url: string }>({ cmd: 'seed', users: USERS, groups: GROUPS, members: MEMBERS });
  console.log(
    `fake Entra seeded: ${USERS} users, ${GROUPS} groups x ${MEMBERS} members in ${((performance.now() - t0) / 1000).toFixed(1)} s (node ${process.version}, NODE_OPTIONS ${NODE_OPTIONS || 'none'}, as the image)`,
  );
  const dsync = createDsync({
    store,
    externalUrl: 'http://localhost',
    microsoft: { clientId: FAKE_APP.clientId, clientSecret: FAKE_APP.secret, authorityUrl: url, graphUrl: url },
  });
  const dir = await dsync.directories.create({
    name: 'Bench',
    tenant: 'bench',
    product: 'app',
    type: 'microsoft-entra',
    microsoft_tenant_id: tenant,
  });
  let cursor: string | null = null;
  let calls = 0;
  const redisCpu = async () => {
    const info = await probe.info('cpu');
    return ['used_cpu_user', 'used_cpu_sys'].reduce(
      (n, k) => n + Number(new RegExp(`${k}:([\\d.]+)`).exec(info)![1]),
      0,
    );
  };
  const ownCpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  const phase = async (what: string) => {
    const cpu0 = [ownCpu(), await redisCpu(), await ask<number>({ cmd: 'cpu' })];
    const started = performance.now();
    const report = await dsync.microsoft.sync({ directoryId: dir.id });
    const seconds = (performance.now() - started) / 1000;
    const { counts, last } = await countEvents(store, dir.id, cursor);
    cursor = last;
    const total = await ask<number>({ cmd: 'calls' });
    const events = Object.values(counts).reduce((a, b) => a + b, 0);
    const d = report.directories[0]!;
    const status = await dsync.microsoft.syncStatus(dir.id);
    const rss = Math.round(process.resourceUsage().maxRSS / 1024);
    const cpu = [ownCpu() - cpu0[0]!, (await redisCpu()) - cpu0[1]!, (await ask<number>({ cmd: 'cpu' })) - cpu0[2]!];
    console.log(
      `${what.padEnd(24)} ${seconds.toFixed(2).padStart(7)} s  mode ${status.mode}  state ${d.state}  events ${String(events).padStart(7)} ${JSON.stringify(counts)}  ` +
        `Graph calls ${total - calls}  peak RSS ${rss} MB  CPU s: sync ${cpu[0]!.toFixed(1)}, redis ${cpu[1]!.toFixed(1)}, fake ${cpu[2]!.toFixed(1)}`,
    );
    calls = total;
    if (d.state !== 'succeeded') throw new Error(`${what}: ${JSON.stringify(d.error)}`);
    return { seconds, rss, calls: status.graph_requests, events, cpu: cpu.reduce((a, b) => a + b, 0) };
  };
  const first = await phase('first sync (full)');
  // Wall-clock when the machine is free; on a loaded one, the CPU the three processes spent (what it would take alone).
  if (Math.min(first.seconds, first.cpu) >= 120)
    failures.push(`first sync took ${first.seconds.toFixed(1)} s, ${first.cpu.toFixed(1)} CPU s (bar: < 120 s)`);
  if (first.rss >= 400) failures.push(`first sync peaked at ${first.rss} MB (bar: < 400 MB)`);
  const changes = await ask<Record<string, number>>({ cmd: 'change', n: CHANGES });
  console.log(`${CHANGES} changes: ${JSON.stringify(changes)}`);
  const delta = await phase(`delta after ${CHANGES} changes`);
  if (Math.min(delta.seconds, delta.cpu) >= 2)
    failures.push(`the delta took ${delta.seconds.toFixed(2)} s, ${delta.cpu.toFixed(2)} CPU s (bar: < 2 s)`);
  console.log(
    `Graph calls: first sync ${first.calls} for ${USERS + GROUPS} objects; delta ${delta.calls} for ${CHANGES} changes ` +
      `(${(delta.calls / CHANGES).toFixed(2)} per change, ${((delta.calls / first.calls) * 100).toFixed(1)}% of the first sync's)`,
  );
  // In proportion to the changes: a handful of pages (999 items each), plus a read per object Graph named without its
  // properties.
  if (delta.calls > 2 + Math.ceil(CHANGES / 100) * 2 + CHANGES / 10)
    failures.push(`the delta made ${delta.calls} Graph calls for ${CHANGES} changes`);
  await dsync.close();
} finally {
  probe.disconnect();
  child.kill();
  await redis.stop();
}
if (failures.length > 0) {
  console.error(`FAILED: ${failures.join('; ')}`);
  process.exit(1);
}
