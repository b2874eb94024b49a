/**
 * What an object literal costs by its shape, on the Node.js running it: Node.js 20's V8 builds a literal that
 * starts with a spread and adds anything after it (`{ ...a, b }`) on a slow path, Node.js 24's does not. Why the
 * per-request code writes such objects property by property (docs/design/performance.md).
 *
 *   npx tsx test/bench/object-literals.bench.ts      (and with another node: PATH=/path/to/node/bin:$PATH ...)
 *
 * Knobs: BENCH_CALLS (1,000,000 per shape and round), BENCH_ROUNDS (5).
 */
import { oktaUser } from './okta-workload.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const deps = { reads: 1, users: 2, groups: 3 };
// A body as JSON.parse makes it (a request's, a stored record's).
const body = JSON.parse(JSON.stringify(oktaUser('bench', 1))) as Record<string, unknown>;

const SHAPES: Array<[name: string, build: (i: number) => Record<string, unknown>]> = [
  ['{ ...deps, i } (spread first)', (i) => ({ ...deps, i })],
  ['{ reads, users, groups, i } (written out)', (i) => ({ reads: deps.reads, users: deps.users, groups: deps.groups, i })],
  ['{ i, ...deps } (a property first)', (i) => ({ i, ...deps })],
  ['{ ...body, id } (spread first)', (i) => ({ ...body, id: i })],
  ['{ schemas, id, ...body } (a property first)', (i) => ({ schemas: body.schemas, id: i, ...body })],
  ['{ ...body } (a spread alone)', () => ({ ...body })],
];

/** Where each literal is kept a while, so the allocation cannot be optimised away. */
const sink: Array<Record<string, unknown>> = new Array(1024);

/** ns per literal for one shape. */
function time(build: (i: number) => Record<string, unknown>): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) sink[i & 1023] = build(i);
  const ns = Number(process.hrtime.bigint() - started) / CALLS;
  if (sink.some((o) => Object.keys(o).length === 0)) throw new Error('a literal came out empty');
  return ns;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const samples = SHAPES.map(() => [] as number[]);
for (const [, build] of SHAPES) time(build); // warm-up
for (let round = 0; round < ROUNDS; round++) SHAPES.forEach(([, build], i) => samples[i]!.push(time(build)));

console.log(`object literals on Node.js ${process.version}, ${CALLS.toLocaleString('en')} per shape, median of ${ROUNDS} rounds:\n`);
console.log('| shape | ns per literal |');
console.log('|---|---:|');
SHAPES.forEach(([name], i) => console.log(`| \`${name}\` | ${median(samples[i]!).toFixed(0)} |`));
