/**
 * The Google pull sync at scale, against the fake Google (its own process, pacing off) and a real redis-server:
 * a domain of 100,000 users and 2,000 groups of 50 members — the first sync, a re-sync with no change, a re-sync
 * after 1% of changes. Prints durations, events, Directory API calls and the peak RSS of the syncing process.
 *
 *   npx tsx test/bench/google-sync.bench.ts          # BENCH_USERS=100000 BENCH_GROUPS=2000 BENCH_MEMBERS=50
 */
import { createDsync } from '../../src/service.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { FAKE_CLIENT } from '../support/fake-google.js';
import { countEvents } from '../support/big-group.js';
import { forkHelper, startRedis } from './lib.js';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const GROUPS = Number(process.env.BENCH_GROUPS ?? 2_000);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 50);

const { child, ask } = await forkHelper(new URL('./google-fake-process.ts', import.meta.url));

const redis = await startRedis();
const store = new RedisStore(redis.url, { commandTimeout: 30_000 });
try {
  const t0 = performance.now();
  const urls = await ask<{ apiUrl: string; tokenUrl: string; authUrl: string }>({
    cmd: 'seed',
    users: USERS,
    groups: GROUPS,
    members: MEMBERS,
  });
  console.log(
    `fake Google seeded: ${USERS} users, ${GROUPS} groups x ${MEMBERS} members in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const dsync = createDsync({
    store,
    externalUrl: 'http://localhost',
    google: { clientId: FAKE_CLIENT.id, clientSecret: FAKE_CLIENT.secret, ...urls, queriesPerMinute: 0 },
  });
  const tokens = await ask<{ access_token: string; refresh_token: string }>({ cmd: 'tokens' });
  const dir = await dsync.directories.create({
    name: 'Bench',
    tenant: 'bench',
    product: 'app',
    type: 'google',
    google_access_token: tokens.access_token,
    google_refresh_token: tokens.refresh_token,
  });
  let cursor: string | null = null;
  let calls = 0;
  const phase = async (what: string) => {
    const started = performance.now();
    const report = await dsync.google.sync({ directoryId: dir.id });
    const seconds = (performance.now() - started) / 1000;
    const { counts, last } = await countEvents(store, dir.id, cursor);
    cursor = last;
    const total = await ask<number>({ cmd: 'calls' });
    const events = Object.values(counts).reduce((a, b) => a + b, 0);
    const d = report.directories[0]!;
    console.log(
      `${what.padEnd(22)} ${seconds.toFixed(1).padStart(6)} s  state ${d.state}  events ${String(events).padStart(7)} ${JSON.stringify(counts)}  ` +
        `Google calls ${total - calls}  peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
    );
    calls = total;
    if (d.state !== 'succeeded') throw new Error(`${what}: ${JSON.stringify(d.error)}`);
  };
  await phase('first sync');
  await phase('no-change re-sync');
  const changes = await ask<Record<string, number>>({ cmd: 'change', share: 0.01 });
  console.log(`1% changes: ${JSON.stringify(changes)}`);
  await phase('re-sync after 1%');
  await dsync.close();
} finally {
  child.kill();
  await redis.stop();
}
