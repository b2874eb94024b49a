/**
 * The throughput phases of delivery.bench.ts (its header says what each measures): the directories, the
 * pre-load straight into the store's event logs, real time, batch and steady state. Apart from the bench so that
 * file holds the run's order and its tables.
 */
import type { Redis } from 'ioredis';
import { buildEvent, userData } from '../../src/core/events.js';
import { newId } from '../../src/core/ids.js';
import { client, cpuSeconds, percentile, type Client, type CountingReceiver, type Proc } from './lib.js';

export interface Dir {
  id: string;
  tenant: string;
  product: string;
  scim: { path: string; secret: string };
}

export interface Row {
  phase: string;
  events: number;
  posts: number;
  seconds: number;
  eventsPerSec: number;
  /** CPU µs of `dsync serve` per event (/proc): what the rate does not show when the machine is noisy. */
  cpuUs: number;
  target: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function createDirectories(api: Client, n: number, webhookUrl: string, tag: string): Promise<Dir[]> {
  const dirs: Dir[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < n) {
        const i = next++;
        const res = await api.request('POST', '/api/v1/directory-sync', {
          name: `${tag} ${i}`,
          tenant: `${tag}-${i}`,
          product: 'bench',
          type: 'generic-scim-v2',
          webhook_url: webhookUrl,
        });
        if (res.status !== 201) throw new Error(`create directory: ${res.status} ${JSON.stringify(res.body)}`);
        dirs[i] = res.body.data as Dir;
      }
    }),
  );
  return dirs;
}

/** Appends `perDir` user.created events to each directory's log, exactly as the store's scripts do. */
async function preload(redis: Redis, dirs: Dir[], perDir: number): Promise<number> {
  let pipe = redis.pipeline();
  let queued = 0;
  for (let i = 0; i < perDir; i++) {
    for (const dir of dirs) {
      const id = newId();
      const body = {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: `user${i}@${dir.tenant}.example.com`,
        name: { givenName: `Given${i}`, familyName: `Family${i}` },
        emails: [{ primary: true, value: `user${i}@${dir.tenant}.example.com`, type: 'work' }],
        active: true,
      };
      const event = buildEvent(dir, 'user.created', userData(id, body));
      pipe.xadd(`dsync:{${dir.id}}:ev`, '*', 'e', event.json);
      if (++queued % 2000 === 0) {
        await pipe.exec();
        pipe = redis.pipeline();
      }
    }
  }
  await pipe.exec();
  return perDir * dirs.length;
}

async function release(redis: Redis, dirs: Dir[]): Promise<void> {
  const now = Date.now();
  await redis.zadd('dsync:due', ...dirs.flatMap((d) => [now, d.id]));
}

function report(phase: string, events: number, posts: number, ms: number, cpuS: number, target?: number): Row {
  const eventsPerSec = events / (ms / 1000);
  const row = {
    phase,
    events,
    posts,
    seconds: ms / 1000,
    eventsPerSec,
    cpuUs: (cpuS * 1e6) / events,
    target: target === undefined ? '' : `≥ ${target.toLocaleString('en')} ${eventsPerSec >= target ? 'met' : 'MISSED'}`,
  };
  console.log(
    `  ${phase}: ${events} events in ${(ms / 1000).toFixed(2)} s = ${Math.round(eventsPerSec)} events/s (${posts} POSTs), ${row.cpuUs.toFixed(1)} µs of dsync's CPU an event`,
  );
  return row;
}

/** Pre-loads, checks nothing moved (delivery idle), releases, waits for the receiver to count them all. */
export async function realtimePhase(
  name: string,
  dsync: Proc,
  redis: Redis,
  receiver: CountingReceiver,
  dirs: Dir[],
  perDir: number,
  target?: number,
): Promise<Row> {
  const base = receiver.events;
  const basePosts = receiver.posts;
  const n = await preload(redis, dirs, perDir);
  await sleep(300);
  if (receiver.events !== base)
    throw new Error(`${name}: delivery was not idle during the pre-load (${receiver.events - base} events moved)`);
  const started = performance.now();
  const cpu = cpuSeconds(dsync.child.pid!);
  await release(redis, dirs);
  await receiver.waitFor(base + n, 600_000);
  return report(
    name,
    n,
    receiver.posts - basePosts,
    performance.now() - started,
    cpuSeconds(dsync.child.pid!) - cpu,
    target,
  );
}

export async function batchPhase(
  name: string,
  dsync: Proc,
  redis: Redis,
  api: Client,
  receiver: CountingReceiver,
  dirs: Dir[],
  perDir: number,
  target?: number,
): Promise<Row> {
  const base = receiver.events;
  const basePosts = receiver.posts;
  const n = await preload(redis, dirs, perDir);
  await release(redis, dirs);
  await sleep(300);
  if (receiver.events !== base) throw new Error(`${name}: events moved before the trigger`);
  const started = performance.now();
  const cpu = cpuSeconds(dsync.child.pid!);
  const res = await api.request('POST', '/api/v1/dsync/cron/process-events');
  const ms = performance.now() - started;
  const cpuS = cpuSeconds(dsync.child.pid!) - cpu;
  if (res.status !== 200 || res.body.data.delivered !== n || res.body.data.failed !== 0) {
    throw new Error(`${name}: cron answered ${res.status} ${JSON.stringify(res.body)}`);
  }
  if (receiver.events !== base + n) throw new Error(`${name}: receiver counted ${receiver.events - base} of ${n}`);
  return report(name, n, receiver.posts - basePosts, ms, cpuS, target);
}

/** SCIM user creates at `rate`/s (open loop, spread over the directories) for `seconds`; lag at the receiver. */
export async function steadyPhase(
  dsyncUrl: string,
  receiver: CountingReceiver,
  dirs: Dir[],
  rate: number,
  seconds: number,
) {
  const clients = new Map(dirs.map((d) => [d.id, client(dsyncUrl, `Bearer ${d.scim.secret}`, 4)]));
  const base = receiver.events;
  receiver.lags = [];
  const total = rate * seconds;
  const latencies: number[] = [];
  let sent = 0;
  let failed = 0;
  const inflight = new Set<Promise<void>>();
  const started = performance.now();
  while (sent < total) {
    // Open loop: issue what the schedule says is due now, every ~5 ms.
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
    while (sent < due) {
      const i = sent++;
      const dir = dirs[i % dirs.length]!;
      const t = performance.now();
      const p = clients
        .get(dir.id)!
        .request('POST', `${dir.scim.path}/Users`, {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          userName: `steady${i}@${dir.tenant}.example.com`,
        })
        .then((res) => {
          latencies.push(performance.now() - t);
          if (res.status !== 201) failed++;
        })
        .finally(() => inflight.delete(p));
      inflight.add(p);
    }
    await sleep(5);
  }
  await Promise.all(inflight);
  const writeSeconds = (performance.now() - started) / 1000;
  await receiver.waitFor(base + total - failed, 120_000);
  await Promise.all([...clients.values()].map((c) => c.close()));
  const lags = [...receiver.lags].sort((a, b) => a - b);
  latencies.sort((a, b) => a - b);
  return {
    writes: total,
    failed,
    writeRate: total / writeSeconds,
    scimP50: percentile(latencies, 50),
    scimP99: percentile(latencies, 99),
    lagP50: percentile(lags, 50),
    lagP99: percentile(lags, 99),
    lagMax: lags.at(-1) ?? 0,
  };
}
