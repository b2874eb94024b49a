/**
 * dsync's SCIM writes against two "ceiling" servers on the same machine, in one run: one on express with dsync's
 * body parsing, one on plain node:http (ceiling-server.ts: parse, store nothing, answer, one signed webhook per
 * change to the same receiver); and a third, express + Redis, that also keeps each request in one Redis round
 * trip before answering (the least any durable store costs here: how much of the gap is storing at all). The same
 * generator drives each server in turn, phase by phase, with a fresh
 * directory per round and the receiver drained before the next measurement; rounds alternate the order and go on
 * until every phase's median ratio moved by less than BENCH_STABLE between two rounds (BENCH_MIN_ROUNDS to
 * BENCH_MAX_ROUNDS). Prints per phase dsync's rate, both ceilings', the ratios and dsync's p50/p99, with the load
 * average of each round beside it, and what the load does not move: dsync's store commands per request (its own
 * metric) and the CPU ms per request of dsync and its Redis (/proc; Redis' part apart), delivery of the phase's events
 * included.
 *
 *   npx tsx test/bench/scim-ceiling.bench.ts
 *   BENCH_TREES=before=/path/to/old/checkout npx tsx test/bench/scim-ceiling.bench.ts   # old dsync side by side
 *   BENCH_TREES=semi64=.=--max-semi-space-size=64 ...   # this checkout again, with NODE_OPTIONS of its own (else the image's)
 *   BENCH_TREES=tsx=tsx:. ...   # this checkout's sources under tsx (`npm start`) beside its build (the image's)
 *   BENCH_PROFILE=/tmp/prof ...   # --cpu-prof of each server (in <dir>/<name>/), the phases' windows in <dir>/windows.json
 *   BENCH_SLOWEST=25 ...   # after each measured phase, its 25 slowest requests as <ms into the phase>+<ms taken>
 *
 * Knobs: BENCH_USERS (5000), BENCH_PUTS, BENCH_GROUPS, BENCH_PATCHES, BENCH_DEACTIVATES (2000 each),
 * BENCH_MEMBERS (25 per PATCH), BENCH_CONCURRENCY (32), BENCH_PHASES (comma list, default all).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { CountingReceiver, median, percentile, phase } from './lib.js';
import { check, oktaUser } from './okta-workload.js';
import { ceilingTarget, type Directory, dsyncTarget, IMAGE_NODE_OPTIONS, type Target } from './scim-ceiling-targets.js';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const USERS = env('BENCH_USERS', 5000);
const PUTS = env('BENCH_PUTS', 2000);
const GROUPS = env('BENCH_GROUPS', 2000);
const PATCHES = env('BENCH_PATCHES', 2000);
const MEMBERS = env('BENCH_MEMBERS', 25);
const DEACTIVATES = env('BENCH_DEACTIVATES', 2000);
const CONCURRENCY = env('BENCH_CONCURRENCY', 32);
const MIN_ROUNDS = env('BENCH_MIN_ROUNDS', 3);
const MAX_ROUNDS = env('BENCH_MAX_ROUNDS', 8);
const STABLE = env('BENCH_STABLE', 0.02);
const PROFILE = process.env.BENCH_PROFILE;
const SLOWEST = env('BENCH_SLOWEST', 0);
const enc = encodeURIComponent;

/**
 * The best rate of the peer (an established open-source directory-sync server) in two runs on this machine: the bar
 * each phase must reach.
 */
const PEER: Record<string, number> = {
  create: 128,
  put: 1935,
  'group create': 1681,
  'member PATCH': 79,
  deactivate: 1861,
};
/** p99 bars (ms) at concurrency 32. */
const P99_BAR: Record<string, number> = { 'member PATCH': 60 };

/** What one round keeps per target between phases. */
interface RoundState {
  dir: Directory;
  users: string[];
  groups: string[];
}

type Timed = <T>(fn: () => Promise<T>) => Promise<T>;

interface PhaseSpec {
  name: string;
  requests: number;
  events: number;
  /** The task of request i (a create is two requests: the lookup and the POST). */
  task(s: RoundState, tag: string): (i: number, timed: Timed) => Promise<void>;
  count: number;
}

const PHASES: PhaseSpec[] = [
  {
    name: 'create',
    count: USERS,
    requests: USERS * 2,
    events: USERS,
    task: (s, tag) => async (i, timed) => {
      const user = oktaUser(tag, i);
      const found = await timed(() =>
        s.dir.scim.request(
          'GET',
          `${s.dir.base}/Users?filter=${enc(`userName eq "${user.userName}"`)}&startIndex=1&count=100`,
        ),
      );
      check(found.status, [200], 'lookup');
      const created = await timed(() => s.dir.scim.request('POST', `${s.dir.base}/Users`, user));
      check(created.status, [201], 'create');
      s.users[i] = created.body.id;
    },
  },
  {
    name: 'put',
    count: PUTS,
    requests: PUTS,
    events: PUTS,
    task: (s, tag) => async (i, timed) => {
      const res = await timed(() =>
        s.dir.scim.request('PUT', `${s.dir.base}/Users/${s.users[i]}`, {
          ...oktaUser(tag, i),
          displayName: `Renamed ${i}`,
        }),
      );
      check(res.status, [200], 'PUT');
    },
  },
  {
    name: 'group create',
    count: GROUPS,
    requests: GROUPS,
    events: GROUPS,
    task: (s) => async (i, timed) => {
      const body = { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: `Group ${i}`, members: [] };
      const res = await timed(() => s.dir.scim.request('POST', `${s.dir.base}/Groups`, body));
      check(res.status, [201], 'group create');
      s.groups[i] = res.body.id;
    },
  },
  {
    name: 'member PATCH',
    count: PATCHES,
    requests: PATCHES,
    events: PATCHES * MEMBERS,
    task: (s) => async (i, timed) => {
      const value = Array.from({ length: MEMBERS }, (_, j) => ({ value: s.users[(i * MEMBERS + j) % s.users.length] }));
      const res = await timed(() =>
        s.dir.scim.request('PATCH', `${s.dir.base}/Groups/${s.groups[i % s.groups.length]}`, {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'add', path: 'members', value }],
        }),
      );
      check(res.status, [204], 'member PATCH');
    },
  },
  {
    name: 'deactivate',
    count: DEACTIVATES,
    requests: DEACTIVATES,
    events: DEACTIVATES,
    task: (s) => async (i, timed) => {
      const id = s.users[(i + Math.floor(s.users.length / 2)) % s.users.length];
      const res = await timed(() =>
        s.dir.scim.request('PATCH', `${s.dir.base}/Users/${id}`, {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'replace', value: { active: false } }],
        }),
      );
      check(res.status, [200], 'deactivate');
    },
  },
];
const SELECTED = process.env.BENCH_PHASES
  ? new Set(process.env.BENCH_PHASES.split(',').map((p) => p.trim()))
  : undefined;
// A phase not selected still runs (later phases need its users and groups), unmeasured.
const measured = (p: PhaseSpec) => !SELECTED || SELECTED.has(p.name);

interface Sample {
  round: number;
  load: number;
  rps: number;
  latencies: number[];
  /** Per request, delivery of its events included (dsync only). */
  commands?: number;
  cpuMs?: number;
  redisCpuMs?: number;
}

async function main(): Promise<void> {
  const receiver = await new CountingReceiver().start();
  const trees = (process.env.BENCH_TREES ?? '')
    .split(',')
    .filter(Boolean)
    .map((spec) => {
      const [name, where = '.', ...options] = spec.split('=');
      const source = where.startsWith('tsx:');
      const dir = source ? where.slice(4) : where;
      return { name: name!, cwd: dir === '.' ? undefined : dir, source, nodeOptions: options.join('=') || undefined };
    });
  const targets: Target[] = [];
  const samples = new Map<string, Sample[]>(); // `${target}|${phase}`
  const windows: Array<{
    target: string;
    phase: string;
    round: number;
    startUs: number;
    endUs: number;
    requests: number;
  }> = [];
  try {
    for (const tree of trees) targets.push(await dsyncTarget(tree, receiver.url, CONCURRENCY));
    targets.push(await dsyncTarget({ name: 'dsync', source: false }, receiver.url, CONCURRENCY));
    targets.push(await ceilingTarget('express', receiver.url, CONCURRENCY, PROFILE));
    targets.push(await ceilingTarget('http', receiver.url, CONCURRENCY, PROFILE));
    targets.push(await ceilingTarget('express-redis', receiver.url, CONCURRENCY, PROFILE));
    const dsyncs = targets.filter((t) => t.dsync);
    const express = targets.find((t) => t.name === 'express')!;
    console.log(
      `targets: ${targets.map((t) => t.name).join(', ')}; concurrency ${CONCURRENCY}; per round ${USERS} users (lookup + POST), ${PUTS} PUTs, ` +
        `${GROUPS} groups, ${PATCHES} member PATCHes of ${MEMBERS}, ${DEACTIVATES} deactivations; Node.js ${process.versions.node}, ` +
        `NODE_OPTIONS ${IMAGE_NODE_OPTIONS || '(none)'} (the image's) where a tree names none`,
    );

    const runRound = async (round: number, warmup: boolean) => {
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      const states = new Map<Target, RoundState>();
      for (const t of order) states.set(t, { dir: await t.directory(round), users: [], groups: [] });
      const line: string[] = [];
      for (const spec of PHASES) {
        for (const t of order) {
          const state = states.get(t)!;
          const tag = `r${round}`;
          const load = loadavg()[0]!;
          const before = await t.work?.();
          const startUs = Number(process.hrtime.bigint() / 1000n);
          const task = spec.task(state, tag);
          // Where a phase's tail sits (its start, a pause, spread): each request's start and duration.
          const times: Array<[number, number]> = [];
          const started = performance.now();
          const result = await phase(
            spec.name,
            spec.count,
            CONCURRENCY,
            SLOWEST === 0
              ? task
              : (i, timed) =>
                  task(i, async (fn) => {
                    const at = performance.now();
                    try {
                      return await timed(fn);
                    } finally {
                      times.push([at - started, performance.now() - at]);
                    }
                  }),
          );
          const endUs = Number(process.hrtime.bigint() / 1000n);
          t.expected += spec.events;
          // The next measurement starts with every server idle: this one's webhooks all delivered.
          await receiver.waitForPath(t.hook, t.expected, 600_000);
          const after = await t.work?.();
          if (warmup || !measured(spec)) continue;
          const rps = spec.requests / result.seconds;
          const key = `${t.name}|${spec.name}`;
          const work =
            before && after
              ? {
                  commands: (after.commands - before.commands) / spec.requests,
                  cpuMs: (after.cpuMs - before.cpuMs) / spec.requests,
                  redisCpuMs: (after.redisCpuMs - before.redisCpuMs) / spec.requests,
                }
              : {};
          samples.set(key, [...(samples.get(key) ?? []), { round, load, rps, latencies: result.latencies, ...work }]);
          windows.push({ target: t.profileDir, phase: spec.name, round, startUs, endUs, requests: spec.requests });
          line.push(`${spec.name}/${t.name} ${Math.round(rps)}`);
          if (SLOWEST > 0) {
            const slowest = times
              .sort((a, b) => b[1] - a[1])
              .slice(0, SLOWEST)
              .map(([at, ms]) => `${at.toFixed(0)}+${ms.toFixed(0)}`);
            console.log(`  ${spec.name}/${t.name}, slowest (ms into the phase + ms taken): ${slowest.join(' ')}`);
          }
        }
      }
      if (!warmup) console.log(`round ${round} (load ${loadavg()[0]!.toFixed(2)}): ${line.join(' · ')}`);
    };

    // Warm-up (JIT, connection pools) with a round of its own, not reported.
    await runRound(0, true);
    const ratioMedians = (upTo: number): number[] =>
      PHASES.filter(measured).flatMap((spec) =>
        dsyncs.map((d) => {
          const ours = samples.get(`${d.name}|${spec.name}`)!.filter((s) => s.round <= upTo);
          const theirs = samples.get(`${express.name}|${spec.name}`)!.filter((s) => s.round <= upTo);
          return median(ours.map((s, i) => s.rps / theirs[i]!.rps));
        }),
      );
    let round = 1;
    for (; round <= MAX_ROUNDS; round++) {
      await runRound(round, false);
      if (round < MIN_ROUNDS) continue;
      const now = ratioMedians(round);
      const before = ratioMedians(round - 1);
      const moved = Math.max(...now.map((r, i) => Math.abs(r - before[i]!)));
      console.log(`  median ratios moved by at most ${(moved * 100).toFixed(1)} points`);
      if (moved < STABLE) break;
    }
    printSummary(samples, dsyncs, round);
    if (PROFILE) {
      // The servers' profiles are written as they exit, after this: the directory may not exist yet.
      mkdirSync(PROFILE, { recursive: true });
      writeFileSync(join(PROFILE, 'windows.json'), JSON.stringify(windows, null, 1));
    }
  } finally {
    for (const t of targets) await t.stop();
    await receiver.stop();
  }
}

function printSummary(samples: Map<string, Sample[]>, dsyncs: Target[], rounds: number): void {
  const rate = (target: string, phaseName: string) => median(samples.get(`${target}|${phaseName}`)!.map((s) => s.rps));
  const loads = samples.get(`${dsyncs[0]!.name}|${PHASES.find(measured)!.name}`)!.map((s) => s.load.toFixed(1));
  console.log(
    `\nmedian of ${Math.min(rounds, MAX_ROUNDS)} rounds (load average at each round's start: ${loads.join(', ')}):\n`,
  );
  console.log(
    '| phase | server | req/s | express ceiling | node:http ceiling | express+Redis | / express | / node:http | / express+Redis | p50 ms | p99 ms | peer req/s | store commands / req | CPU ms / req: dsync + Redis (Redis) |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const floors: string[] = [];
  const verdicts: string[] = [];
  for (const spec of PHASES.filter(measured)) {
    const ex = rate('express', spec.name);
    const nh = rate('node:http', spec.name);
    const er = rate('express+Redis', spec.name);
    const cpu = (target: string) => median(samples.get(`${target}|${spec.name}`)!.map((s) => s.cpuMs!)).toFixed(2);
    const p99Of = (target: string) =>
      percentile(
        samples
          .get(`${target}|${spec.name}`)!
          .flatMap((s) => s.latencies)
          .sort((a, b) => a - b),
        99,
      ).toFixed(1);
    floors.push(
      `| ${spec.name} | ${Math.round(er)} | ${((er / ex) * 100).toFixed(0)}% | ${cpu('express')} | ${cpu('node:http')} | ${cpu('express+Redis')} | ` +
        `${p99Of('express')} | ${p99Of('express+Redis')} |`,
    );
    for (const d of dsyncs) {
      const ours = samples.get(`${d.name}|${spec.name}`)!;
      const perRound = ours.map((s, i) => s.rps / samples.get(`express|${spec.name}`)![i]!.rps);
      const ratio = median(perRound);
      const lat = ours.flatMap((s) => s.latencies).sort((a, b) => a - b);
      const p99 = percentile(lat, 99);
      const rps = rate(d.name, spec.name);
      console.log(
        `| ${spec.name} | ${d.name} | ${Math.round(rps)} | ${Math.round(ex)} | ${Math.round(nh)} | ${Math.round(er)} | ${(ratio * 100).toFixed(0)}% | ` +
          `${((rps / nh) * 100).toFixed(0)}% | ${((rps / er) * 100).toFixed(0)}% | ${percentile(lat, 50).toFixed(1)} | ${p99.toFixed(1)} | ${PEER[spec.name]} | ` +
          `${median(ours.map((s) => s.commands!)).toFixed(2)} | ${median(ours.map((s) => s.cpuMs!)).toFixed(2)} (${median(ours.map((s) => s.redisCpuMs!)).toFixed(2)}) |`,
      );
      if (d.name !== 'dsync') continue;
      const bar = P99_BAR[spec.name] ?? 30;
      const ok = ratio >= 0.85 && p99 < bar && rps >= PEER[spec.name]!;
      verdicts.push(
        `${spec.name}: ${ok ? 'meets' : 'MISSES'} (≥ 85% of express: ${(ratio * 100).toFixed(0)}%, p99 < ${bar} ms: ${p99.toFixed(1)}, ≥ peer ${PEER[spec.name]}: ${Math.round(rps)})`,
      );
    }
  }
  console.log(
    '\nthe ceilings: what keeping each request in one Redis round trip costs, CPU ms per request (server + its Redis) and p99:\n',
  );
  console.log(
    '| phase | express+Redis req/s | / express | express CPU ms | node:http CPU ms | express+Redis CPU ms | express p99 ms | express+Redis p99 ms |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  console.log(floors.join('\n'));
  console.log(`\n${verdicts.join('\n')}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
