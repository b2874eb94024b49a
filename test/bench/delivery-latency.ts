/**
 * The delivery benchmark's phases against a receiver that answers after 50 ms (a real application across a
 * network), for delivery.bench.ts:
 *   - first sync: one directory, the events of a first sync of U users and G groups (every user created, every
 *     group created, then each group's members, U / G each), pre-loaded into the log like the store's scripts
 *     write them, then released; `resource` ordering timed to the last event, judged by the resource-order
 *     checker; `directory` ordering timed on a shorter run of the same shape and extrapolated (at 20 events/s the
 *     whole run would take hours);
 *   - poison: SCIM writes at a steady rate for 70 s, one user among them whose every event the receiver refuses
 *     for the first 60 s; the lag (created_at → 2xx) of the other events, beside the same writes with no poison.
 */
import type { Redis } from 'ioredis';
import { buildEvent, groupData, userData } from '../../src/core/events.js';
import { newId } from '../../src/core/ids.js';
import { checkResourceOrder, type ArrivedPost } from '../support/resource-order.js';
import { client, cpuSeconds, percentile, type CountingReceiver, type Proc } from './lib.js';

export interface BenchDir {
  id: string;
  tenant: string;
  product: string;
  scim: { path: string; secret: string };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Appends a first sync's events to the directory's log: users, groups, then each group's members. */
export async function preloadFirstSync(redis: Redis, dir: BenchDir, users: number, groups: number): Promise<number> {
  let pipe = redis.pipeline();
  let queued = 0;
  const add = async (json: string) => {
    pipe.xadd(`dsync:{${dir.id}}:ev`, '*', 'e', json);
    if (++queued % 2000 === 0) {
      await pipe.exec();
      pipe = redis.pipeline();
    }
  };
  const userIds: string[] = [];
  const bodyOf = (i: number) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName: `user${i}@${dir.tenant}.example.com`,
    name: { givenName: `Given${i}`, familyName: `Family${i}` },
    emails: [{ primary: true, value: `user${i}@${dir.tenant}.example.com`, type: 'work' }],
    active: true,
  });
  for (let i = 0; i < users; i++) {
    const id = newId();
    userIds.push(id);
    await add(buildEvent(dir, 'user.created', userData(id, bodyOf(i))).json);
  }
  const groupIds: string[] = [];
  for (let g = 0; g < groups; g++) {
    const id = newId();
    groupIds.push(id);
    await add(buildEvent(dir, 'group.created', groupData(id, { displayName: `Group ${g}` })).json);
  }
  for (let g = 0; g < groups; g++) {
    const group = groupData(groupIds[g]!, { displayName: `Group ${g}` });
    for (let i = g; i < users; i += groups) {
      await add(buildEvent(dir, 'group.user_added', { ...userData(userIds[i]!, bodyOf(i)), group }).json);
    }
  }
  await pipe.exec();
  return queued;
}

export interface LatencyRow {
  ordering: string;
  events: number;
  seconds: number;
  eventsPerSec: number;
  meanInFlight: number;
  maxInFlight: number;
  cpuUs: number;
  note: string;
}

/** Pre-loads a first sync, releases it, waits for the last event; checks the order when the receiver recorded. */
export async function firstSyncPhase(
  ordering: string,
  dsync: Proc,
  redis: Redis,
  receiver: CountingReceiver,
  dir: BenchDir,
  users: number,
  groups: number,
  extrapolateTo?: number,
): Promise<LatencyRow> {
  const base = receiver.events;
  const n = await preloadFirstSync(redis, dir, users, groups);
  receiver.resetInFlight();
  const started = performance.now();
  const cpu = cpuSeconds(dsync.child.pid!);
  await redis.zadd('dsync:due', Date.now(), dir.id);
  await receiver.waitFor(base + n, 3_600_000);
  const seconds = (performance.now() - started) / 1000;
  const row: LatencyRow = {
    ordering,
    events: n,
    seconds,
    eventsPerSec: n / seconds,
    meanInFlight: receiver.meanInFlight,
    maxInFlight: receiver.maxInFlight,
    cpuUs: ((cpuSeconds(dsync.child.pid!) - cpu) * 1e6) / n,
    note: '',
  };
  if (extrapolateTo !== undefined) {
    row.note = `measured on ${n} events; ${extrapolateTo} events at this rate: ${(extrapolateTo / row.eventsPerSec / 60).toFixed(1)} min (extrapolated)`;
  }
  if (receiver.recorded) {
    const check = checkResourceOrder(await logOf(redis, dir.id), receiver.recorded as ArrivedPost[]);
    const problems = check.missing.length + check.unknown.length + check.violations.length;
    row.note = `checker: ${problems === 0 ? 'per-resource order and at-least-once hold' : `${problems} PROBLEMS (${check.violations.slice(0, 2).join('; ')})`}, ${check.duplicates} re-sent`;
    receiver.recorded = [];
  }
  console.log(`  ${ordering}: ${JSON.stringify(row)}`);
  return row;
}

async function logOf(
  redis: Redis,
  dirId: string,
): Promise<Array<{ id: string; event: string; sequence: number; data: any }>> {
  const out: Array<{ id: string; event: string; sequence: number; data: any }> = [];
  let from = '-';
  for (;;) {
    const entries = await redis.xrange(`dsync:{${dirId}}:ev`, from, '+', 'COUNT', 5000);
    for (const [, fields] of entries) {
      const e = JSON.parse(fields[1]!) as { id: string; event: string; data: any };
      // Pre-loaded with XADD * (sequence 0): the log's order stands for it.
      out.push({
        id: e.id,
        event: e.event,
        sequence: out.length + 1,
        data: { id: e.data.id, ...(e.data.group && { group: { id: e.data.group.id } }) },
      });
    }
    if (entries.length < 5000) return out;
    const [ms, n] = entries.at(-1)![0].split('-').map(Number) as [number, number];
    from = `${ms}-${n + 1}`;
  }
}

export interface PoisonRow {
  ordering: string;
  poisoned: boolean;
  writes: number;
  othersLagP50: number;
  othersLagP99: number;
  othersLagMax: number;
}

/**
 * SCIM writes at `rate`/s for `seconds`: user creates, and every tenth write an update of one user; with
 * `poisoned`, the receiver refuses that user's events for the first `failSeconds`. Reports the others' lag.
 */
export async function poisonPhase(
  ordering: string,
  dsyncUrl: string,
  receiver: CountingReceiver,
  dir: BenchDir,
  o: { rate: number; seconds: number; failSeconds: number; poisoned: boolean; tag: string },
): Promise<PoisonRow> {
  const api = client(dsyncUrl, `Bearer ${dir.scim.secret}`, 8);
  const userSchema = ['urn:ietf:params:scim:schemas:core:2.0:User'];
  const poisonName = `poison-${o.tag}@${dir.tenant}.example.com`;
  const created = await api.request('POST', `${dir.scim.path}/Users`, { schemas: userSchema, userName: poisonName });
  const poisonId = created.body.id as string;
  const failUntil = Date.now() + o.failSeconds * 1000;
  receiver.fails = (e) => o.poisoned && e.data?.id === poisonId && Date.now() < failUntil;
  receiver.selected = (e) => e.data?.id !== poisonId;
  receiver.selectedLags = [];
  const base = receiver.events;
  const total = o.rate * o.seconds;
  const started = performance.now();
  const inflight = new Set<Promise<unknown>>();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * o.rate));
    while (sent < due) {
      const i = sent++;
      const p =
        i % 10 === 0
          ? api.request('PATCH', `${dir.scim.path}/Users/${poisonId}`, {
              schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
              Operations: [{ op: 'replace', path: 'title', value: `t${i}` }],
            })
          : api.request('POST', `${dir.scim.path}/Users`, {
              schemas: userSchema,
              userName: `${o.tag}-${i}@${dir.tenant}.example.com`,
            });
      const tracked = p.finally(() => inflight.delete(tracked));
      inflight.add(tracked);
    }
    await sleep(5);
  }
  await Promise.all(inflight);
  // Every event, the poison user's included once its failures end (they wait for their retry).
  await receiver.waitFor(base + total + 1, 600_000);
  receiver.fails = undefined;
  receiver.selected = undefined;
  await api.close();
  const lags = [...receiver.selectedLags].sort((a, b) => a - b);
  const row: PoisonRow = {
    ordering,
    poisoned: o.poisoned,
    writes: total,
    othersLagP50: percentile(lags, 50),
    othersLagP99: percentile(lags, 99),
    othersLagMax: lags.at(-1) ?? 0,
  };
  console.log(`  ${JSON.stringify(row)}`);
  return row;
}
