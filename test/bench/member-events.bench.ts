/**
 * The CPU a write spends building its events, this checkout beside older ones in alternating rounds, without
 * the HTTP, Redis and delivery around it (an in-process memory store):
 * - a small membership change (core/memberships.ts memberChanges: the users read, one event per member), a
 *   member PATCH's share of the SCIM write path;
 * - a user update (core/users.ts UserWriter.update: its `user.updated` event with `previous_attributes`, the body
 *   serialised for the store, the store's write), a PUT's or a deactivation's.
 *
 *   npx tsx test/bench/member-events.bench.ts
 *   BENCH_TREES=before=/path/to/old/checkout npx tsx test/bench/member-events.bench.ts
 *
 * Knobs: BENCH_MEMBERS (25 per change), BENCH_CHANGES (4,000 per round), BENCH_ROUNDS (7), BENCH_USERS (5,000).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importFirst } from './lib.js';
import { oktaUser } from './okta-workload.js';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const MEMBERS = env('BENCH_MEMBERS', 25);
const CHANGES = env('BENCH_CHANGES', 4000);
const ROUNDS = env('BENCH_ROUNDS', 7);
// Users cycled through: 5,000 fit the user data memory (core/user-data-cache.ts), 50,000 do not (every read misses).
const USERS = env('BENCH_USERS', 5000);
const HERE = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

type MemberChanges = (
  store: unknown,
  directory: unknown,
  type: string,
  refs: Array<{ value: string }>,
  group: unknown,
  now: number,
) => Promise<Array<{ event: { json: string } }>>;

interface Tree {
  name: string;
  /** CPU µs per membership change. */
  run: () => Promise<number>;
  /** CPU µs per user update. */
  updates: () => Promise<number>;
}
type Writer = { update: (dir: unknown, id: string, change: () => unknown) => Promise<unknown> };

/** CPU µs per call of `step` over `count` calls. */
async function cpuPer(count: number, step: (i: number) => Promise<void>): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < count; i++) await step(i);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / count;
}

async function tree(name: string, dir: string): Promise<Tree> {
  const { memberChanges } = (await import(join(dir, 'src/core/memberships.ts'))) as { memberChanges: MemberChanges };
  const { MemoryStore } = await importFirst<{ MemoryStore: new () => any }>(dir, [
    'src/store/memory/users-groups.ts',
    'src/store/memory.ts',
  ]);
  const { UserWriter } = (await import(join(dir, 'src/core/users.ts'))) as {
    UserWriter: new (deps: unknown) => Writer;
  };
  const store = new MemoryStore();
  const at = new Date().toISOString();
  const directory = {
    id: 'd1',
    name: 'Bench',
    tenant: 'acme',
    product: 'bench',
    type: 'okta-scim-v2',
    log_webhook_events: false,
    deactivated: false,
    scim: { path: '/s', secret: 's', endpoint: 'http://x/s' },
    webhook: { endpoint: '', secret: '' },
    created_at: at,
    updated_at: at,
  };
  await store.createDirectory(directory);
  for (let i = 0; i < USERS; i++) {
    const body = oktaUser('bench', i);
    await store.createUser(
      'd1',
      { id: `u${i}`, body, created: 1, lastModified: 1, version: 1 },
      { userName: body.userName, emails: [] },
      [],
    );
  }
  const writer = new UserWriter({ store, committed: () => undefined });
  // Two versions of every user, written in turn: each update changes its displayName.
  const versions = [0, 1].map((v) =>
    Array.from({ length: USERS }, (_, i) =>
      Object.assign(oktaUser('bench', i), { displayName: `Version ${v} of ${i}` }),
    ),
  );
  let updated = 0;
  const group = {
    id: 'g1',
    body: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Engineering',
      externalId: '00gbench0001',
    },
  };
  return {
    name,
    /** CPU µs per change, the store appending nothing (the events are read once, as the store would). */
    async run() {
      let bytes = 0;
      const us = await cpuPer(CHANGES, async (c) => {
        const refs = Array.from({ length: MEMBERS }, (_, i) => ({ value: `u${(c * MEMBERS + i) % USERS}` }));
        for (const change of await memberChanges(store, directory, 'group.user_added', refs, group, Date.now()))
          bytes += change.event.json.length;
      });
      if (bytes === 0) throw new Error('no events built');
      return us;
    },
    /** CPU µs per user update, its event committed to the memory store's log. */
    async updates() {
      const next = versions[updated++ % 2]!;
      return cpuPer(CHANGES, async (c) => {
        const id = `u${c % USERS}`;
        await writer.update(directory, id, () => next[c % USERS]);
      });
    },
  };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const specs = (process.env.BENCH_TREES ?? '')
    .split(',')
    .filter(Boolean)
    .map((s) => s.split('=') as [string, string]);
  const trees = [
    ...(await Promise.all(specs.map(([name, dir]) => tree(name, dir)))),
    await tree('this checkout', HERE),
  ];
  const samples = new Map<string, number[]>(trees.map((t) => [t.name, []]));
  const updates = new Map<string, number[]>(trees.map((t) => [t.name, []]));
  // Warm-up: every tree's code optimised before anything is measured.
  for (const t of trees) await t.run();
  for (const t of trees) await t.updates();
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...trees].reverse() : trees;
    for (const t of order) samples.get(t.name)!.push(await t.run());
    for (const t of order) updates.get(t.name)!.push(await t.updates());
  }
  const rounds = (xs: number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(', ');
  console.log(
    `membership changes of ${MEMBERS} members (Okta-shaped users, ${USERS} in turn), ${CHANGES} per round, median of ${ROUNDS} alternating rounds:\n`,
  );
  console.log('| tree | CPU µs per change | per member | rounds (µs per change) |');
  console.log('|---|---:|---:|---|');
  for (const t of trees) {
    const xs = samples.get(t.name)!;
    console.log(`| ${t.name} | ${median(xs).toFixed(0)} | ${(median(xs) / MEMBERS).toFixed(1)} | ${rounds(xs, 0)} |`);
  }
  console.log(
    `\nuser updates (a new displayName, Okta-shaped users), ${CHANGES} per round, median of ${ROUNDS} alternating rounds (${process.version}):\n`,
  );
  console.log('| tree | CPU µs per update | rounds |');
  console.log('|---|---:|---|');
  for (const t of trees)
    console.log(`| ${t.name} | ${median(updates.get(t.name)!).toFixed(1)} | ${rounds(updates.get(t.name)!, 1)} |`);
}

await main();
