/**
 * What a string made inside a Redis Lua script costs, by its size: the Lua of the Redis here (Debian's 7.0) hashes
 * every byte of every string it makes (stock Lua 5.1 about 32 of a long string's), so a script's strings cost in
 * proportion to their length (docs/design/performance.md, "Strings in Redis' Lua"). A member PATCH's script makes
 * three record-sized strings a member (the record GET gives, the body cut from it, the joined event): this prints,
 * per size, one EVAL that makes 25 strings each way against one that makes none, in µs per call by Redis' own
 * accounting (`INFO commandstats`), median of alternating rounds.
 *
 *   npx tsx test/bench/lua-strings.bench.ts
 *
 * Knobs: BENCH_ROUNDS (5), BENCH_CALLS (2,000 per round and script).
 */
import { Redis } from 'ioredis';
import { median, startRedis } from './lib.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const SIZES = [100, 1000, 4000];

/** Each script touches ARGV[1] (a string of the size measured) 25 times; KEYS are 25 records of that size. */
const SCRIPTS = {
  'no new string': `local s = ARGV[1] local n = 0 for i = 1, 25 do n = n + #s end return n`,
  'string.sub': `local s = ARGV[1] for i = 1, 25 do local t = string.sub(s, 2, -2 - i) end return 1`,
  concatenation: `local s = ARGV[1] for i = 1, 25 do local t = '{"id":' .. i .. ',"raw":' .. s .. '}' end return 1`,
  GET: `for i = 1, 25 do local t = redis.call('GET', KEYS[i]) end return 1`,
};

async function main(): Promise<void> {
  const redis = await startRedis();
  const r = new Redis(redis.url);
  try {
    const shas = new Map<string, string>();
    for (const [name, src] of Object.entries(SCRIPTS)) shas.set(name, (await r.script('LOAD', src)) as string);
    console.log(`| script (25 strings a call) | ${SIZES.map((s) => `${s} bytes`).join(' | ')} |`);
    console.log(`|---|${SIZES.map(() => '---:').join('|')}|`);
    const rows = new Map<string, string[]>([...shas.keys()].map((n) => [n, []]));
    for (const size of SIZES) {
      const keys = Array.from({ length: 25 }, (_, i) => `rec:${i}`);
      for (const key of keys) await r.set(key, 'r'.repeat(size - 1) + key.at(-1));
      const samples = new Map<string, number[]>([...shas.keys()].map((n) => [n, []]));
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 ? [...shas].reverse() : [...shas];
        for (const [name, sha] of order) {
          await r.config('RESETSTAT');
          // A different argument each call: Lua reuses a string it already holds.
          await Promise.all(
            Array.from({ length: CALLS }, (_, i) => r.evalsha(sha, 25, ...keys, String(i).padEnd(size, 'a'))),
          );
          const m = /cmdstat_evalsha:calls=(\d+),usec=(\d+)/.exec((await r.info('commandstats')) as string)!;
          samples.get(name)!.push(Number(m[2]) / Number(m[1]));
        }
      }
      for (const [name, xs] of samples) rows.get(name)!.push(median(xs).toFixed(1));
    }
    for (const [name, cells] of rows) console.log(`| ${name} | ${cells.join(' | ')} |`);
  } finally {
    r.disconnect();
    await redis.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
