/**
 * A 200,000-member group over real HTTP SCIM, on each store (in-process service, real redis-server): create
 * (POST + PATCHes of 20,000 members: a request body holds about that many), replace (PUT with 20,000 other
 * members: 200,000 removals and 20,000 additions), empty (PATCH remove `members` after refilling to 200,000). One line
 * per store with
 * seconds and events/s per step, the longest a concurrent /healthz poll waited, and the longest event-loop block
 * measured in-process: in wall time (perf_hooks), without the time the main thread waited for a core (which
 * other processes' load inflates), and in the main thread's CPU time (see StallProbe).
 *
 *   npx tsx test/bench/big-group.bench.ts            # BENCH_GROUP=200000
 */
import type { Store } from '../../src/core/store-port.js';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { countEvents, expectStatus, fillGroup, ops, refs, seedUsers, StallProbe } from '../support/big-group.js';
import { startService, type Service } from '../support/harness.js';
import { startRedis } from './lib.js';

const SIZE = Number(process.env.BENCH_GROUP ?? 200_000);
const BATCH = 20_000;

async function run(kind: string, store: Store): Promise<string> {
  const svc: Service = await startService(store);
  try {
    const dir = await svc.createDirectory();
    const users = await seedUsers(store, dir.id, SIZE + BATCH);
    const probe = new StallProbe(svc.url);
    let cursor = await store.lastEventSeq(dir.id);
    const timed = async (what: string, fn: () => Promise<void>) => {
      probe.start();
      const t0 = performance.now();
      await fn();
      const s = (performance.now() - t0) / 1000;
      await probe.stop();
      const { counts, last } = await countEvents(store, dir.id, cursor);
      cursor = last;
      const events = Object.values(counts).reduce((a, b) => a + b, 0);
      return `${what} ${s.toFixed(1)} s (${Math.round(events / s).toLocaleString('en-US')} events/s)`;
    };
    let id = '';
    const create = await timed('create', async () => {
      id = await fillGroup(svc, dir, users, SIZE, BATCH);
    });
    const replace = await timed('replace', async () => {
      const res = await svc.scim(dir, 'PUT', `/Groups/${id}?excludedAttributes=members`, {
        displayName: 'All employees',
        members: refs(users.slice(SIZE)),
      });
      expectStatus(res.status, 200, 'PUT');
    });
    // Back to SIZE members (untimed), so that emptying removes all of them.
    for (let i = 0; i < SIZE - BATCH; i += BATCH) {
      const patched = await svc.scim(
        dir,
        'PATCH',
        `/Groups/${id}`,
        ops({ op: 'add', path: 'members', value: refs(users.slice(i, i + BATCH)) }),
      );
      expectStatus(patched.status, 204, 'PATCH add');
    }
    cursor = await store.lastEventSeq(dir.id);
    const empty = await timed('empty', async () => {
      const res = await svc.scim(dir, 'PATCH', `/Groups/${id}`, ops({ op: 'remove', path: 'members' }));
      expectStatus(res.status, 204, 'PATCH remove');
    });
    return `big-group ${kind}: ${SIZE.toLocaleString('en-US')} members · ${create} · ${replace} · ${empty} · longest /healthz wait ${probe.maxMs.toFixed(0)} ms, longest event-loop block in-process ${probe.loopMaxMs.toFixed(0)} ms wall, ${probe.ownMaxMs.toFixed(0)} ms without waits for a core, ${probe.cpuMaxMs.toFixed(0)} ms CPU`;
  } finally {
    await svc.close();
  }
}

console.log(await run('memory', new MemoryStore()));
const redis = await startRedis();
try {
  console.log(await run('redis', new RedisStore(redis.url)));
} finally {
  await redis.stop();
}
process.exit(0);
