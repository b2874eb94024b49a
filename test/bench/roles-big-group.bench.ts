/**
 * Roles on a 200,000-member group, over real HTTP SCIM on each store: the group is named by a rule, so every
 * membership change re-evaluates its members' roles (one `user.updated` each). Builds it (POST + PATCHes of
 * 20,000), changes the role mapping, then sets an attribute mapping (each time every user evaluated again: one
 * `user.updated` per user whose roles or custom attributes changed), then empties it (PATCH remove `members`). One
 * line per store: seconds and events per step, each with its own longest /healthz wait and event-loop block
 * (see StallProbe).
 *
 *   npx tsx test/bench/roles-big-group.bench.ts            # BENCH_GROUP=200000; BENCH_MEMORY=0 / BENCH_REDIS=0 skip a store
 */
import type { Store } from '../../src/core/store-port.js';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { countEvents, expectStatus, fillGroup, ops, seedUsers, StallProbe } from '../support/big-group.js';
import { sleep, startService, type Service } from '../support/harness.js';
import { startRedis } from './lib.js';

const SIZE = Number(process.env.BENCH_GROUP ?? 200_000);
const BATCH = 20_000;

async function run(kind: string, store: Store): Promise<string> {
  const svc: Service = await startService(store);
  try {
    const dir = await svc.createDirectory({
      role_mapping: { rules: [{ group: 'All employees', role: 'employee', priority: 1 }] },
    });
    const users = await seedUsers(store, dir.id, SIZE);
    const probe = new StallProbe(svc.url);
    let cursor = await store.lastEventSeq(dir.id);
    // Each step's own longest wait and block: the maxima start again at each step.
    const timed = async (what: string, fn: () => Promise<void>) => {
      probe.maxMs = probe.loopMaxMs = probe.cpuMaxMs = 0;
      probe.start();
      const t0 = performance.now();
      await fn();
      const s = (performance.now() - t0) / 1000;
      await probe.stop();
      const { counts, last } = await countEvents(store, dir.id, cursor);
      cursor = last;
      const events = Object.entries(counts)
        .map(([type, n]) => `${n} ${type}`)
        .join(', ');
      return `${what} ${s.toFixed(1)} s (${events}; /healthz max ${probe.maxMs.toFixed(0)} ms, block ${probe.loopMaxMs.toFixed(0)} ms wall / ${probe.cpuMaxMs.toFixed(0)} ms CPU)`;
    };
    let id = '';
    const create = await timed('create', async () => {
      id = await fillGroup(svc, dir, users, SIZE, BATCH);
    });
    // A mapping change answers within 5 s and goes on in the background: timed until its status says done.
    const remapped = async (change: Record<string, unknown>) => {
      const res = await svc.api('PATCH', `/api/v1/directory-sync/${dir.id}`, change);
      expectStatus(res.status, 200, 'PATCH directory');
      while ((await svc.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.reevaluation?.state !== 'done')
        await sleep(100);
    };
    const remap = await timed('mapping change', () =>
      remapped({ role_mapping: { rules: [{ group: 'All employees', role: 'staff', priority: 1 }] } }),
    );
    const attributes = await timed('attribute mapping change', () =>
      remapped({ attribute_mapping: { login: 'userName' } }),
    );
    const empty = await timed('empty', async () => {
      const res = await svc.scim(dir, 'PATCH', `/Groups/${id}`, ops({ op: 'remove', path: 'members' }));
      expectStatus(res.status, 204, 'PATCH remove');
    });
    return `roles ${kind}: ${SIZE.toLocaleString('en-US')} members · ${create} · ${remap} · ${attributes} · ${empty}`;
  } finally {
    await svc.close();
  }
}

if (process.env.BENCH_MEMORY !== '0') console.log(await run('memory', new MemoryStore()));
if (process.env.BENCH_REDIS !== '0') {
  const redis = await startRedis();
  try {
    console.log(await run('redis', new RedisStore(redis.url)));
  } finally {
    await redis.stop();
  }
}
