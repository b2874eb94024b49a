/**
 * The truth delivery fault tests compare with: each directory's own event log (the Redis stream
 * `dsync:{<id>}:ev`). The first delivery of each event must follow it exactly (all events, in order per
 * directory); a repeat is allowed only as a re-send under the same `webhook-id`. Works on one server and on a
 * cluster alike (every key is routed by its directory's hash tag).
 */
import { expect } from 'chai';
import type { RedisClient } from '../../src/store/redis/client.js';
import { sequenceOfId } from '../../src/store/redis/event-ids.js';
import { entryEventJson } from '../../src/store/redis/records.js';
import { expectResourceOrder, type OrderCheck } from './resource-order.js';
import type { Dir, DsyncProc } from './dsync-process.js';
import type { FaultReceiver, Seen } from './fault-receiver.js';
import { until } from './harness.js';

export async function logIds(redis: RedisClient, dirId: string): Promise<string[]> {
  const entries = await redis.xrange(`dsync:{${dirId}}:ev`, '-', '+');
  return entries.map(([, fields]) => (JSON.parse(entryEventJson(fields)) as { id: string }).id);
}

export interface DirReport {
  firstSeen: string[];
  acked: Set<string>;
  duplicates: number;
}

export function reportFor(events: Array<{ event: any; d: Seen }>, dirId: string): DirReport {
  const firstSeen: string[] = [];
  const seen = new Set<string>();
  const acked = new Set<string>();
  let duplicates = 0;
  for (const { event, d } of events) {
    if (event.directory_id !== dirId) continue;
    if (seen.has(event.id)) duplicates++;
    else {
      seen.add(event.id);
      firstSeen.push(event.id);
    }
    if (d.acked) acked.add(event.id);
  }
  return { firstSeen, acked, duplicates };
}

/** `actual` must be exactly `expected`: nothing missing, nothing extra, same order. */
export function expectSequence(actual: string[], expected: string[], what: string): void {
  const want = new Set(expected);
  const got = new Set(actual);
  const missing = expected.filter((id) => !got.has(id));
  const extra = actual.filter((id) => !want.has(id));
  expect(
    missing.length,
    `${what}: ${missing.length} of ${expected.length} events never arrived (first missing: ${missing[0]})`,
  ).to.equal(0);
  expect(extra.length, `${what}: ${extra.length} events not in the log (first: ${extra[0]})`).to.equal(0);
  const firstBad = actual.findIndex((id, i) => id !== expected[i]);
  expect(
    firstBad,
    `${what}: out of log order from position ${firstBad} (got ${actual[firstBad]}, log has ${expected[firstBad]})`,
  ).to.equal(-1);
}

/** Real-time checks for one directory: complete, in log order on first delivery, every event acknowledged. */
export async function expectDelivered(
  redis: RedisClient,
  receiver: FaultReceiver,
  dirs: Dir[],
  perDir: number,
): Promise<DirReport[]> {
  const events = receiver.events();
  const reports: DirReport[] = [];
  for (const dir of dirs) {
    const log = await logIds(redis, dir.id);
    expect(log.length, `directory ${dir.id}: log length`).to.equal(perDir);
    const r = reportFor(events, dir.id);
    expectSequence(r.firstSeen, log, `directory ${dir.id} (first deliveries)`);
    const unacked = log.filter((id) => !r.acked.has(id));
    expect(
      unacked.length,
      `directory ${dir.id}: ${unacked.length} events were never acknowledged by the receiver`,
    ).to.equal(0);
    expect(await redis.xlen(`dsync:{${dir.id}}:dlq`), `directory ${dir.id}: dead letters`).to.equal(0);
    reports.push(r);
  }
  // Real time: webhook-id is the event id, so a re-send necessarily carries the original webhook-id.
  for (const d of receiver.seen) expect(d.id, 'webhook-id of a real-time delivery').to.equal(d.body.id);
  expect(receiver.rejected, 'deliveries with a bad signature').to.equal(0);
  return reports;
}

/** Directory id → owner of its delivery lease, for the directories whose lease is held. */
export async function heldLeases(redis: RedisClient, dirs: Dir[]): Promise<Map<string, string>> {
  const held = new Map<string, string>();
  for (const dir of dirs) {
    const owner = await redis.get(`dsync:{${dir.id}}:lease`);
    if (owner) held.set(dir.id, owner);
  }
  return held;
}

/**
 * Stops a process (SIGSTOP) at a moment it holds no delivery lease. A lease free just before the signal may
 * still be taken in between (a pass started by a late due mark); a process stopped with a lease would keep
 * the other one out for the lease's 30 s. So: stop, and if a lease stays held, let the process go on and try
 * again.
 */
export async function stopHoldingNoLease(redis: RedisClient, proc: DsyncProc, dirs: Dir[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await until(
      async () => (await heldLeases(redis, dirs)).size === 0,
      'every delivery pass ended and released its lease',
      10_000,
    );
    proc.child.kill('SIGSTOP');
    // Leases of the running process end within its pass; only the stopped one's would stay.
    const free = await until(async () => (await heldLeases(redis, dirs)).size === 0, 'no lease held', 2_000).then(
      () => true,
      () => false,
    );
    if (free) return;
    proc.child.kill('SIGCONT');
    if (attempt === 5) throw new Error('the process held a delivery lease at each of 5 stops');
  }
}

/**
 * A killed process's leases stay in Redis until they lapse (leaseMs: 60 s by default, not settable from the
 * environment). Waiting that long would dominate the suite, so tests expire them in Redis instead: the state
 * Redis reaches by itself after the TTL. Only leases still held by the given (dead) owners are touched.
 */
export async function lapseLeases(redis: RedisClient, dirs: Dir[], deadOwners: Set<string>): Promise<void> {
  for (const dir of dirs) {
    const key = `dsync:{${dir.id}}:lease`;
    if (deadOwners.has((await redis.get(key)) ?? '')) await redis.pexpire(key, 1);
  }
}

/** A directory's events as logged, each with the `sequence` its entry id carries. */
export async function logEvents(redis: RedisClient, dirId: string): Promise<any[]> {
  const entries = await redis.xrange(`dsync:{${dirId}}:ev`, '-', '+');
  return entries.map(([id, fields]) => ({ ...JSON.parse(entryEventJson(fields)), sequence: sequenceOfId(id) }));
}

/**
 * `resource` ordering's checks for each directory (test/support/resource-order.ts): every logged event
 * acknowledged, none sent before an earlier one naming the same user or group was acknowledged, no dead letters,
 * every re-send under the original webhook-id (real time).
 */
export async function expectResourceDelivered(
  redis: RedisClient,
  receiver: FaultReceiver,
  dirs: Dir[],
  perDir?: number,
): Promise<OrderCheck[]> {
  const checks: OrderCheck[] = [];
  for (const dir of dirs) {
    const log = await logEvents(redis, dir.id);
    if (perDir !== undefined) expect(log.length, `directory ${dir.id}: log length`).to.equal(perDir);
    checks.push(expectResourceOrder(`directory ${dir.id}`, log, receiver.posts(dir.id)));
    expect(await redis.xlen(`dsync:{${dir.id}}:dlq`), `directory ${dir.id}: dead letters`).to.equal(0);
  }
  for (const d of receiver.seen)
    if (!Array.isArray(d.body)) expect(d.id, 'webhook-id of a real-time delivery').to.equal(d.body.id);
  expect(receiver.rejected, 'deliveries with a bad signature').to.equal(0);
  return checks;
}
