/**
 * What each SCIM write costs the Redis server itself, by Redis' own accounting (`INFO commandstats`, reset before
 * each phase) and its process CPU (`/proc`), this checkout beside older ones in alternating rounds. On a member
 * PATCH Redis is the busiest process beside dsync. Its figures move less with the machine's load than the request
 * rates of scim-ceiling.bench.ts, but a phase's script time still moves by up to 30% between rounds: a change of a
 * few percent to one script shows in member-script.bench.ts, which times its calls one by one, interleaved.
 *
 *   npx tsx test/bench/redis-cost.bench.ts
 *   BENCH_TREES=before=/path/to/old/checkout npx tsx test/bench/redis-cost.bench.ts
 *
 * Each phase's events are delivered before its figures are read, so delivery's commands (XRANGE, the cursor,
 * the trim) count too. Knobs: BENCH_ROUNDS (3), BENCH_USERS (3,000), BENCH_COUNT (1,000 PUTs, groups, member
 * PATCHes and deactivations), BENCH_MEMBERS (25 per PATCH), BENCH_USER_EXTRA (0: characters more in each user, as
 * an enterprise extension's department; the bench's users are ~350 bytes of JSON, real directories' often 1–2 KB).
 */
import { Redis } from 'ioredis';
import { client, CountingReceiver, cpuSeconds, median, phase, startDsync, startRedis } from './lib.js';
import { biggerOktaUser, check } from './okta-workload.js';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const ROUNDS = env('BENCH_ROUNDS', 3);
const USERS = env('BENCH_USERS', 3000);
const COUNT = env('BENCH_COUNT', 1000);
const MEMBERS = env('BENCH_MEMBERS', 25);
const USER_EXTRA = env('BENCH_USER_EXTRA', 0);
/** A user as the bench sends it: Okta's, with USER_EXTRA characters more. */
const benchUser = (round: number, i: number) => biggerOktaUser(`r${round}`, i, USER_EXTRA);
const CONCURRENCY = 32;
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

interface Figures {
  /** Redis process CPU, µs per request. */
  cpuUs: number;
  /** Time Redis accounts to script calls (EVALSHA, EVAL: the commands they run included), µs per request. */
  scriptUs: number;
  /** Commands per request by name (a script's own commands counted under their names too). */
  calls: Map<string, number>;
}

/** `cmdstat_<name>:calls=…,usec=…` lines of INFO commandstats. */
function commandStats(info: string): Map<string, { calls: number; usec: number }> {
  const out = new Map<string, { calls: number; usec: number }>();
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm))
    out.set(m[1]!, { calls: Number(m[2]), usec: Number(m[3]) });
  return out;
}

interface Target {
  name: string;
  measure(round: number): Promise<Map<string, Figures>>;
  stop(): Promise<void>;
}

async function target(name: string, cwd: string | undefined, receiver: CountingReceiver): Promise<Target> {
  const redis = await startRedis();
  const proc = await startDsync({ REDIS_URL: redis.url, DSYNC_WEBHOOK_ALLOW_PRIVATE: 'true' }, cwd ? { cwd } : {});
  const admin = new Redis(redis.url);
  const api = client(proc.url, `Api-Key ${proc.apiKey}`, 2);
  let expected = 0;

  type Task = Parameters<typeof phase>[3];
  async function measured(requests: number, events: number, task: Task): Promise<Figures> {
    await admin.config('RESETSTAT');
    const cpu = cpuSeconds(redis.child.pid!);
    await phase(name, requests, CONCURRENCY, task);
    expected += events;
    await receiver.waitForPath(`/${name}`, expected, 600_000);
    const cpuUs = ((cpuSeconds(redis.child.pid!) - cpu) * 1e6) / requests;
    const stats = commandStats((await admin.info('commandstats')) as string);
    // The figures' own commands (CONFIG, INFO) are left out.
    for (const own of ['config|resetstat', 'config', 'info']) stats.delete(own);
    const script = (stats.get('evalsha')?.usec ?? 0) + (stats.get('eval')?.usec ?? 0);
    const calls = new Map([...stats].map(([cmd, s]) => [cmd, s.calls / requests]));
    return { cpuUs, scriptUs: script / requests, calls };
  }

  return {
    name,
    async measure(round) {
      const res = await api.request('POST', '/api/v1/directory-sync', {
        name: `cost ${round}`,
        tenant: `t${round}`,
        product: 'bench',
        type: 'okta-scim-v2',
        webhook_url: `${receiver.url}/${name}`,
      });
      check(res.status, [201], 'directory');
      const scim = client(proc.url, `Bearer ${res.body.data.scim.secret}`, CONCURRENCY);
      const base = res.body.data.scim.path as string;
      const users: string[] = [];
      const groups: string[] = [];
      const out = new Map<string, Figures>();
      out.set(
        'create',
        await measured(USERS, USERS, async (i, timed) => {
          const r = await timed(() => scim.request('POST', `${base}/Users`, benchUser(round, i)));
          check(r.status, [201], 'create');
          users[i] = r.body.id;
        }),
      );
      out.set(
        'PUT',
        await measured(COUNT, COUNT, async (i, timed) => {
          const r = await timed(() =>
            scim.request('PUT', `${base}/Users/${users[i % USERS]}`, {
              ...benchUser(round, i % USERS),
              displayName: `R ${i}`,
            }),
          );
          check(r.status, [200], 'PUT');
        }),
      );
      out.set(
        'group create',
        await measured(COUNT, COUNT, async (i, timed) => {
          const r = await timed(() =>
            scim.request('POST', `${base}/Groups`, {
              schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
              displayName: `G ${i}`,
              members: [],
            }),
          );
          check(r.status, [201], 'group create');
          groups[i] = r.body.id;
        }),
      );
      out.set(
        `member PATCH (${MEMBERS})`,
        await measured(COUNT, COUNT * MEMBERS, async (i, timed) => {
          const value = Array.from({ length: MEMBERS }, (_, j) => ({ value: users[(i * MEMBERS + j) % USERS] }));
          const r = await timed(() =>
            scim.request('PATCH', `${base}/Groups/${groups[i]}`, {
              schemas: [PATCH_OP],
              Operations: [{ op: 'add', path: 'members', value }],
            }),
          );
          check(r.status, [204], 'member PATCH');
        }),
      );
      out.set(
        'deactivate',
        await measured(COUNT, COUNT, async (i, timed) => {
          const r = await timed(() =>
            scim.request('PATCH', `${base}/Users/${users[i % USERS]}`, {
              schemas: [PATCH_OP],
              Operations: [{ op: 'replace', value: { active: false } }],
            }),
          );
          check(r.status, [200], 'deactivate');
        }),
      );
      await scim.close();
      return out;
    },
    async stop() {
      await api.close();
      admin.disconnect();
      await proc.stop();
      await redis.stop();
    },
  };
}

async function main(): Promise<void> {
  const receiver = await new CountingReceiver().start();
  const specs = (process.env.BENCH_TREES ?? '')
    .split(',')
    .filter(Boolean)
    .map((spec) => spec.split('=') as [string, string]);
  const targets: Target[] = [];
  try {
    for (const [name, dir] of specs) targets.push(await target(name, dir, receiver));
    targets.push(await target('dsync', undefined, receiver));
    const results = new Map<string, Array<Map<string, Figures>>>(targets.map((t) => [t.name, []]));
    // A warm-up round (JIT, connections, script cache), then alternating rounds.
    for (const t of targets) await t.measure(0);
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? targets : [...targets].reverse();
      for (const t of order) results.get(t.name)!.push(await t.measure(round));
      // Each round's script time, so a difference can be told from one noisy round.
      const scripts = (t: Target) =>
        [...results.get(t.name)!.at(-1)!].map(([p, f]) => `${p} ${f.scriptUs.toFixed(0)}`).join(' · ');
      console.log(`round ${round}, script µs / req: ${targets.map((t) => `${t.name}: ${scripts(t)}`).join('; ')}`);
    }
    console.log(
      `\nRedis' cost per request, median of ${ROUNDS} rounds (${USERS} creates, ${COUNT} of each other write; users ${USER_EXTRA} characters above Okta's; delivery included):\n`,
    );
    console.log(
      "| write | tree | Redis CPU µs / req | script time µs / req | commands / req (by name, a script's own included) |",
    );
    console.log('|---|---|---:|---:|---|');
    const phases = [...results.get(targets[0]!.name)![0]!.keys()];
    for (const p of phases) {
      for (const t of targets) {
        const rounds = results.get(t.name)!.map((r) => r.get(p)!);
        const names = [...new Set(rounds.flatMap((r) => [...r.calls.keys()]))].sort();
        const calls = names
          .map((n) => [n, median(rounds.map((r) => r.calls.get(n) ?? 0))] as const)
          .filter(([, c]) => c >= 0.01)
          .map(([n, c]) => `${n} ${c.toFixed(2)}`)
          .join(', ');
        console.log(
          `| ${p} | ${t.name} | ${median(rounds.map((r) => r.cpuUs)).toFixed(0)} | ${median(rounds.map((r) => r.scriptUs)).toFixed(0)} | ${calls} |`,
        );
      }
    }
  } finally {
    for (const t of targets) await t.stop();
    await receiver.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
