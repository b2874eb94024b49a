/**
 * What the activity record costs the SCIM write path: two servers on one redis-server, identical but for the
 * record (on / off), take the same Okta-shaped create workload (filter lookup + POST, both recorded) in
 * alternating rounds, so drift of a shared machine falls on both alike. Prints each round, the throughput of
 * both, their ratio, and the servers' CPU time per request (read from /proc, less sensitive to the machine's
 * other load than wall time).
 *
 *   npx tsx test/bench/activity.bench.ts      # BENCH_ROUNDS=8 BENCH_USERS=1500 BENCH_CONCURRENCY=16
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { client, freePort, phase, startRedis, type Client } from './lib.js';
import { check, createUsers } from './okta-workload.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const USERS = Number(process.env.BENCH_USERS ?? 1500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const API_KEY = 'bench-key';
const TICKS_PER_S = 100; // USER_HZ on Linux

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
}

interface Variant {
  name: string;
  pid: number;
  scim: Client;
  base: string;
  next: number;
  requests: number;
  seconds: number;
  cpu: number;
  stop(): void;
}

async function startVariant(name: string, activity: 'on' | 'off', redisUrl: string): Promise<Variant> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/activity-server.ts'], {
    env: { ...process.env, PORT: String(port), REDIS_URL: redisUrl, ACTIVITY: activity, API_KEY },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const up = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (up) break;
    if (i > 200) throw new Error(`${name} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const api = client(url, `Api-Key ${API_KEY}`, 2);
  const res = await api.request('POST', '/api/v1/directory-sync', { name, tenant: name, product: 'bench', type: 'okta-scim-v2' });
  check(res.status, [201], 'create directory');
  await api.close();
  const dir = res.body.data as { scim: { secret: string; path: string } };
  return {
    name,
    pid: child.pid!,
    scim: client(url, `Bearer ${dir.scim.secret}`, CONCURRENCY),
    base: dir.scim.path,
    next: 0,
    requests: 0,
    seconds: 0,
    cpu: 0,
    stop: () => child.kill('SIGTERM'),
  };
}

async function round(v: Variant, users: number, measured: boolean): Promise<number> {
  const cpuBefore = cpuSeconds(v.pid);
  const result = await phase(v.name, users, CONCURRENCY, createUsers(v.scim, v.base, v.name, v.next));
  v.next += users;
  if (measured) {
    v.requests += result.requests;
    v.seconds += result.seconds;
    v.cpu += cpuSeconds(v.pid) - cpuBefore;
  }
  return result.rps;
}

async function main(): Promise<void> {
  const redis = await startRedis();
  const on = await startVariant('with-activity', 'on', redis.url);
  const off = await startVariant('without-activity', 'off', redis.url);
  try {
    console.log(`${ROUNDS} rounds of ${USERS} users (${USERS * 2} requests) per server, concurrency ${CONCURRENCY}, one redis-server`);
    await round(on, 1000, false); // warm-up: JIT, connection pools
    await round(off, 1000, false);
    console.log('\n| round | with activity req/s | without req/s |\n|---:|---:|---:|');
    for (let r = 1; r <= ROUNDS; r++) {
      // Alternate who goes first, so a trend in the machine's load favours neither.
      const [a, b] = r % 2 === 1 ? [on, off] : [off, on];
      const first = await round(a, USERS, true);
      const second = await round(b, USERS, true);
      const [withRps, withoutRps] = a === on ? [first, second] : [second, first];
      console.log(`| ${r} | ${Math.round(withRps)} | ${Math.round(withoutRps)} |`);
    }
    const rps = (v: Variant) => v.requests / v.seconds;
    const cpuPerRequestUs = (v: Variant) => (v.cpu / v.requests) * 1e6;
    const ratio = rps(on) / rps(off);
    console.log(`\nwrite path with the activity record:    ${Math.round(rps(on))} req/s, ${Math.round(cpuPerRequestUs(on))} µs CPU/request`);
    console.log(`write path without the activity record: ${Math.round(rps(off))} req/s, ${Math.round(cpuPerRequestUs(off))} µs CPU/request`);
    console.log(`throughput with / without: ${(ratio * 100).toFixed(1)}% (${ratio >= 0.97 ? 'within' : 'NOT within'} 3%)`);
    console.log(`CPU per request with / without: ${((cpuPerRequestUs(on) / cpuPerRequestUs(off)) * 100).toFixed(1)}%`);
  } finally {
    await on.scim.close();
    await off.scim.close();
    on.stop();
    off.stop();
    await redis.stop();
  }
}

await main();
