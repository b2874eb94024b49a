/**
 * The checker of `resource` ordering, from what a receiver saw: given a directory's events in log order and the
 * POSTs that arrived (in arrival order, each with the tick it arrived at and the tick its 2xx answer left, on one
 * clock), it proves
 *   - at least once: every event of the log was acknowledged at least once (or dead-lettered, when allowed);
 *   - per-resource order: an event that names a user or group (a membership names both) first arrived only after
 *     every earlier event naming the same user or group had been acknowledged (or dead-lettered: after its last
 *     attempt), or in the
 *     same POST before it (batch mode);
 *   - `sequence` on every event, increasing in log order.
 * It knows nothing of dsync's code: the rule is restated here from the documented contract.
 */
import { expect } from 'chai';

export interface ArrivedPost {
  /** The events of the POST, in its order (one in real time, an array in batch mode). */
  events: Array<{ id: string; event: string; directory_id: string; sequence?: number; data: any }>;
  /** Tick the POST arrived at. */
  arrived: number;
  /** Tick the receiver's 2xx answer left at; absent when it did not answer 2xx (or the sender was gone). */
  acked?: number;
}

export interface OrderCheck {
  missing: string[];
  unknown: string[];
  violations: string[];
  /** Arrivals beyond each event's first (retries of failed attempts included). */
  duplicates: number;
  /** Arrivals of an event after it had been acknowledged (re-sends after a crash or a lost answer). */
  resentAfterAck: number;
}

/** The users and groups an event names. */
export function namedResources(e: { event: string; data: any }): string[] {
  if (e.event.startsWith('user.')) return [`user ${e.data.id}`];
  if (e.event === 'group.user_added' || e.event === 'group.user_removed')
    return [`user ${e.data.id}`, `group ${e.data.group.id}`];
  return [`group ${e.data.id}`];
}

export function checkResourceOrder(
  log: Array<{ id: string; event: string; sequence?: number; data: any }>,
  posts: ArrivedPost[],
  deadLettered: ReadonlySet<string> = new Set(),
): OrderCheck {
  const firstArrival = new Map<string, { tick: number; post: number; index: number }>();
  const firstAck = new Map<string, number>();
  const lastArrival = new Map<string, number>();
  const inLog = new Set(log.map((e) => e.id));
  const unknown = new Set<string>();
  let arrivals = 0;
  posts.forEach((p, post) =>
    p.events.forEach((e, index) => {
      arrivals++;
      if (!inLog.has(e.id)) unknown.add(e.id);
      if (!firstArrival.has(e.id)) firstArrival.set(e.id, { tick: p.arrived, post, index });
      if (p.acked !== undefined && !firstAck.has(e.id)) firstAck.set(e.id, p.acked);
      lastArrival.set(e.id, p.arrived);
    }),
  );
  let resentAfterAck = 0;
  for (const p of posts) for (const e of p.events) if ((firstAck.get(e.id) ?? Infinity) < p.arrived) resentAfterAck++;
  const missing = log.filter((e) => !firstAck.has(e.id) && !deadLettered.has(e.id)).map((e) => e.id);
  const violations: string[] = [];
  let lastSequence = -Infinity;
  for (const e of log) {
    if (typeof e.sequence !== 'number' || e.sequence <= lastSequence)
      violations.push(`${e.id}: sequence ${e.sequence} after ${lastSequence}`);
    lastSequence = e.sequence ?? lastSequence;
  }
  const previous = new Map<string, { id: string; event: string }>();
  for (const e of log) {
    for (const r of namedResources(e)) {
      const before = previous.get(r);
      previous.set(r, e);
      if (!before) continue;
      const sent = firstArrival.get(e.id);
      if (!sent) continue; // missing: reported above
      const prior = firstArrival.get(before.id);
      // In the same POST, ahead of it (batch mode): an earlier send of `before` may have been lost to a crash.
      const samePostAhead = posts[sent.post]!.events.slice(0, sent.index).some((x) => x.id === before.id);
      const ackedBefore = firstAck.has(before.id) && firstAck.get(before.id)! < sent.tick;
      // A dead-lettered event was given up on after its last attempt: what follows it goes after that attempt.
      const givenUpBefore = deadLettered.has(before.id) && (lastArrival.get(before.id) ?? -Infinity) < sent.tick;
      if (!samePostAhead && !ackedBefore && !givenUpBefore) {
        const acked = firstAck.get(before.id);
        violations.push(
          `${e.event} ${e.id} arrived (POST ${sent.post} at tick ${sent.tick}) before ${before.event} ${before.id} ` +
            `(first in POST ${prior?.post ?? 'none'}, acknowledged at tick ${acked ?? 'never'}) was; both name ${r}`,
        );
      }
    }
  }
  return { missing, unknown: [...unknown], violations, duplicates: arrivals - firstArrival.size, resentAfterAck };
}

/** Fails with the first few problems found by checkResourceOrder; returns its report. */
export function expectResourceOrder(
  what: string,
  log: Parameters<typeof checkResourceOrder>[0],
  posts: ArrivedPost[],
  deadLettered?: ReadonlySet<string>,
): OrderCheck {
  const check = checkResourceOrder(log, posts, deadLettered);
  expect(
    check.missing.length,
    `${what}: ${check.missing.length} of ${log.length} events never acknowledged (first: ${check.missing[0]})`,
  ).to.equal(0);
  expect(
    check.unknown.length,
    `${what}: ${check.unknown.length} events not in the log (first: ${check.unknown[0]})`,
  ).to.equal(0);
  expect(
    check.violations.length,
    `${what}: ${check.violations.length} out of order: ${check.violations.slice(0, 3).join('; ')}`,
  ).to.equal(0);
  return check;
}
