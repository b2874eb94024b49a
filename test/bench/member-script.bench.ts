/**
 * Redis' own time for a member PATCH's script, this checkout's Lua beside an older checkout's, call by call. A
 * `dsync serve` of this checkout takes a real member add and remove PATCH (BENCH_MEMBERS users each) while
 * MONITOR records its script calls; then both calls are replayed, add then remove, thousands of times against
 * each side's `dsyncUpdateGroup`, the two sides interleaved call by call, and Redis' slowlog times every call
 * (µs inside Redis, threshold 20 µs so the commands a script runs are not logged themselves). Interleaving cancels
 * the machine's drift, which moves a whole run of scim-ceiling or redis-cost by 10–30%: two identical scripts come
 * out within 0.5% a round of 300 pairs here (5% in one round of 100). Without BENCH_TREES this checkout runs
 * against itself (its script under a second SHA): the noise floor.
 *
 *   npx tsx test/bench/member-script.bench.ts
 *   BENCH_TREES=before=/path/to/old/checkout npx tsx test/bench/member-script.bench.ts
 *
 * Knobs: BENCH_MEMBERS (25), BENCH_USER_EXTRA (0: characters more in each user, as in redis-cost.bench.ts),
 * BENCH_CALLS (1,000 add + remove pairs per side a round), BENCH_ROUNDS (4).
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { SCRIPTS } from '../../src/store/redis/lua/scripts.js';
import { client, importFirst, median, startDsync, startRedis, tscBuild } from './lib.js';
import { biggerOktaUser, check } from './okta-workload.js';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const MEMBERS = env('BENCH_MEMBERS', 25);
const USER_EXTRA = env('BENCH_USER_EXTRA', 0);
const CALLS = env('BENCH_CALLS', 1000);
const ROUNDS = env('BENCH_ROUNDS', 4);
const SLOWLOG_US = 20;
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** MONITOR prints arguments as Redis quotes them (sdscatrepr): back to their bytes. */
const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b' };
const unquote = (arg: string) =>
  arg.replace(/\\(x[0-9a-f]{2}|.)/g, (_m, e: string) =>
    e.length === 3 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (ESCAPES[e] ?? e),
  );
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/** The EVALSHA arguments (numkeys, keys, argv) of a member add and a member remove PATCH, as dsync sent them. */
async function capture(redisUrl: string): Promise<string[][]> {
  const proc = await startDsync({ REDIS_URL: redisUrl });
  try {
    const api = client(proc.url, `Api-Key ${proc.apiKey}`, 2);
    const res = await api.request('POST', '/api/v1/directory-sync', {
      name: 'member script',
      tenant: 't',
      product: 'bench',
      type: 'okta-scim-v2',
    });
    check(res.status, [201], 'directory');
    const scim = client(proc.url, `Bearer ${res.body.data.scim.secret}`, 4);
    const base = res.body.data.scim.path as string;
    const users: string[] = [];
    for (let i = 0; i < MEMBERS; i++) {
      const created = await scim.request('POST', `${base}/Users`, biggerOktaUser('m', i, USER_EXTRA));
      check(created.status, [201], 'user');
      users.push(created.body.id);
    }
    const group = await scim.request('POST', `${base}/Groups`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'G',
      members: [],
    });
    check(group.status, [201], 'group');
    const watcher = new Redis(redisUrl);
    const monitor = await watcher.monitor();
    const calls: string[][] = [];
    const updateGroup = sha1(SCRIPTS.dsyncUpdateGroup);
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (String(args[0]).toLowerCase() === 'evalsha' && args[1] === updateGroup)
        calls.push(args.slice(2).map(unquote));
    });
    for (const op of ['add', 'remove']) {
      const patched = await scim.request('PATCH', `${base}/Groups/${group.body.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op, path: 'members', value: users.map((value) => ({ value })) }],
      });
      check(patched.status, [204], `member ${op}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    monitor.disconnect();
    watcher.disconnect();
    if (calls.length !== 2)
      throw new Error(`expected 2 dsyncUpdateGroup calls (add, remove), MONITOR saw ${calls.length}`);
    return calls;
  } finally {
    await proc.stop();
  }
}

async function main(): Promise<void> {
  const trees = (process.env.BENCH_TREES ?? '')
    .split(',')
    .filter(Boolean)
    .map((t) => t.split('=') as [string, string]);
  if (trees.length > 1) throw new Error('BENCH_TREES: one older checkout (name=dir)');
  const redis = await startRedis();
  const r = new Redis(redis.url);
  try {
    const calls = await capture(redis.url);
    const sides: Array<{ name: string; script: string }> = [
      { name: 'this checkout', script: SCRIPTS.dsyncUpdateGroup },
    ];
    if (trees[0]) {
      const [name, dir] = trees[0];
      await tscBuild(dir, 'tsconfig.build.json');
      const older = await importFirst<{ SCRIPTS: typeof SCRIPTS }>(dir, [
        'dist/store/redis/lua/scripts.js',
        'dist/store/redis-scripts.js',
      ]);
      sides.unshift({ name, script: older.SCRIPTS.dsyncUpdateGroup });
    } else {
      // The same script under a second SHA: what two identical scripts differ by here.
      sides.unshift({ name: 'this checkout again', script: `${SCRIPTS.dsyncUpdateGroup}\n-- again` });
    }
    const shas = await Promise.all(sides.map(async (s) => (await r.script('LOAD', s.script)) as string));
    const side = new Map(shas.map((sha, i) => [sha, i]));
    const evKey = calls[0]![1]!.replace(/dir$/, 'ev');
    await r.config('SET', 'slowlog-log-slower-than', String(SLOWLOG_US));
    await r.config('SET', 'slowlog-max-len', '100000');
    const flags = '1'.repeat(MEMBERS);
    const perRound: number[][] = sides.map(() => []);
    console.log(
      `member PATCH script (dsyncUpdateGroup), ${MEMBERS} members added then removed, users ${USER_EXTRA} characters above Okta's; ${CALLS} pairs per side a round, interleaved`,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      const timed: number[][] = sides.map(() => []);
      const collect = async () => {
        const log = (await r.slowlog('GET', -1)) as Array<[number, number, number, string[]]>;
        await r.slowlog('RESET');
        for (const [, , us, args] of log) {
          const i = String(args[0]).toLowerCase() === 'evalsha' ? side.get(args[1]!) : undefined;
          if (i !== undefined) timed[i]!.push(us);
        }
      };
      await r.slowlog('RESET');
      for (let n = 0; n < CALLS; n++) {
        for (let k = 0; k < sides.length; k++) {
          const i = (n + round + k) % sides.length;
          for (const args of calls) {
            const out = (await r.evalsha(shas[i]!, ...(args as [string]))) as string[];
            if (out[0] !== 'ok' || out[3] !== flags)
              throw new Error(`${sides[i]!.name}: the replayed call answered ${JSON.stringify(out).slice(0, 200)}`);
          }
        }
        if (n % 100 === 99) await collect();
      }
      await collect();
      await r.xtrim(evKey, 'MAXLEN', 0);
      const line = sides.map((s, i) => {
        const us = timed[i]!;
        const pair = (us.reduce((a, b) => a + b, 0) / us.length) * 2;
        perRound[i]!.push(pair);
        return `${s.name} ${pair.toFixed(0)} µs a pair (${us.length} of ${CALLS * 2} calls timed)`;
      });
      console.log(`round ${round}: ${line.join(' · ')}`);
    }
    const ratios = perRound[1]!.map((after, i) => after / perRound[0]![i]!);
    console.log(
      `\n| script | µs per add + remove pair, median of ${ROUNDS} rounds |\n|---|---:|\n` +
        sides.map((s, i) => `| ${s.name} | ${median(perRound[i]!).toFixed(0)} |`).join('\n') +
        `\n\nthis checkout / ${sides[0]!.name}, per round: ${ratios.map((x) => x.toFixed(3)).join(' ')} (median ${median(ratios).toFixed(3)})`,
    );
  } finally {
    r.disconnect();
    await redis.stop();
  }
}

await main();
