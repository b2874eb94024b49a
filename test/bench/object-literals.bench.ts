/**
 * What an object literal costs by its shape, on the Node.js running it: Node.js 20's V8 builds a literal that
 * starts with a spread and adds anything after it (`{ ...a, b }`) on a slow path, Node.js 24's does not; every
 * conditional spread (`...(c && { c })`) is a copy at run time on both. Why the per-request code writes such
 * objects property by property (docs/design/performance.md). And a timestamp: `toISOString` against the
 * per-second table every write formats its times with (core/iso-time.ts). And an array: the 25 users of a
 * member PATCH turned into the keys its script declares, by `flatMap` and by a loop (store/redis/lua/keys.ts).
 * And that PATCH's script call (80 arguments) made into an ioredis `Command`, which runs `args.flat()`, and made
 * empty and given its list (store/redis/flat-command.ts); its 51 keys prefixed and deduplicated by a Set, and
 * prefixed only (store/redis/script-runner.ts).
 *
 *   npx tsx test/bench/object-literals.bench.ts      (and with another node: PATH=/path/to/node/bin:$PATH ...)
 *
 * Knobs: BENCH_CALLS (1,000,000 per shape and round), BENCH_ROUNDS (5).
 */
import { Command } from 'ioredis';
import { isoTime } from '../../src/core/iso-time.js';
import { oktaUser } from './okta-workload.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const deps = { reads: 1, users: 2, groups: 3 };
// A body as JSON.parse makes it (a request's, a stored record's).
const body = JSON.parse(JSON.stringify(oktaUser('bench', 1))) as Record<string, unknown>;

/** An optional part, present every other call. */
const maybe = (i: number): number | undefined => (i & 1 ? i : undefined);
const NOW = Date.UTC(2026, 10, 28, 12);
const USER_IDS = Array.from({ length: 25 }, (_, i) => `0193a1b2-c3d4-7e5f-8a9b-${String(i).padStart(12, '0')}`);
// A 25-member PATCH's EVALSHA: the script, the key count, 51 keys, the 25 entries and a few more arguments.
const SCRIPT_CALL = [
  '0123456789abcdef0123456789abcdef01234567',
  '51',
  'dsync:{d}:dir',
  ...USER_IDS.flatMap((id) => [`dsync:{d}:u:${id}`, `dsync:{d}:ug:${id}`]),
  ...USER_IDS.map((id) => `+${id}\x1f\x1fevt_1\x1f`),
  '1',
  '2',
  '3',
];
const UTF8 = { replyEncoding: 'utf8' } as const;
const PREFIX = 'dsync:{0193a1b2-c3d4-7e5f-8a9b-aaaaaaaaaaaa}:';
// A member PATCH's keys after the prefix (each call prefixes them anew: new strings, hashed anew by a Set).
const MEMBER_KEYS = ['m:g1', 'md:g1', 'seq', 'ev', ...USER_IDS.flatMap((id) => [`u:${id}`, `ug:${id}`])];

const SHAPES: Array<[name: string, build: (i: number) => unknown]> = [
  ['{ ...deps, i } (spread first)', (i) => ({ ...deps, i })],
  [
    '{ reads, users, groups, i } (written out)',
    (i) => ({ reads: deps.reads, users: deps.users, groups: deps.groups, i }),
  ],
  ['{ i, ...deps } (a property first)', (i) => ({ i, ...deps })],
  ['{ ...body, id } (spread first)', (i) => ({ ...body, id: i })],
  ['{ schemas, id, ...body } (a property first)', (i) => ({ schemas: body.schemas, id: i, ...body })],
  ['{ ...body } (a spread alone)', () => ({ ...body })],
  [
    '{ a, b, ...(c !== undefined && { c }), d } (conditional spreads)',
    (i) => ({ a: i, b: deps, ...(maybe(i) !== undefined && { c: maybe(i) }), d: i, ...(i < 0 && { e: i }) }),
  ],
  [
    '{ a, b, d }, then c assigned when present',
    (i) => {
      const o: Record<string, unknown> = { a: i, b: deps, d: i };
      const c = maybe(i);
      if (c !== undefined) o.c = c;
      return o;
    },
  ],
  ['new Date(ms).toISOString() (a timestamp)', (i) => new Date(NOW + (i & 4095)).toISOString()],
  ['isoTime(ms), this second', (i) => isoTime(NOW + (i & 511))],
  ['isoTime(ms), a new second each time', (i) => isoTime(NOW + i * 1000)],
  ['25 ids → 50 keys, flatMap', () => USER_IDS.flatMap((id) => [`u:${id}`, `ug:${id}`])],
  [
    '25 ids → 50 keys, a loop',
    () => {
      const out: string[] = [];
      for (const id of USER_IDS) out.push(`u:${id}`, `ug:${id}`);
      return out;
    },
  ],
  [
    `an 80-argument script call, new Command(name, args) (args.flat())`,
    () => new Command('evalsha', SCRIPT_CALL, UTF8),
  ],
  [
    `the same, new Command(name, []) given its list`,
    () => {
      const command = new Command('evalsha', [], UTF8);
      command.args = SCRIPT_CALL;
      return command;
    },
  ],
  [
    "a member PATCH's 51 keys prefixed and deduplicated by a Set",
    () => {
      const out = [`${PREFIX}dir`];
      const seen = new Set(out);
      for (const key of MEMBER_KEYS) {
        const name = PREFIX + key;
        if (seen.has(name)) continue;
        seen.add(name);
        out.push(name);
      }
      return out;
    },
  ],
  [
    'the same keys prefixed only',
    () => {
      const out = [`${PREFIX}dir`];
      for (const key of MEMBER_KEYS) out.push(PREFIX + key);
      return out;
    },
  ],
];

/** Where each result is kept a while, so the allocation cannot be optimised away. */
const sink: unknown[] = new Array(1024);

/** ns per call for one shape. */
function time(build: (i: number) => unknown): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) sink[i & 1023] = build(i);
  const ns = Number(process.hrtime.bigint() - started) / CALLS;
  if (sink.some((o) => (typeof o === 'object' ? Object.keys(o!).length === 0 : !o)))
    throw new Error('a result came out empty');
  return ns;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const samples = SHAPES.map(() => [] as number[]);
for (const [, build] of SHAPES) time(build); // warm-up
for (let round = 0; round < ROUNDS; round++) SHAPES.forEach(([, build], i) => samples[i]!.push(time(build)));

console.log(
  `object literals on Node.js ${process.version}, ${CALLS.toLocaleString('en')} per shape, median of ${ROUNDS} rounds:\n`,
);
console.log('| shape | ns per call |');
console.log('|---|---:|');
SHAPES.forEach(([name], i) => console.log(`| \`${name}\` | ${median(samples[i]!).toFixed(0)} |`));
