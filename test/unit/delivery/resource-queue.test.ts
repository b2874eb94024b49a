/**
 * The `resource` order in memory, against the checker: random event logs (users, groups, memberships), sent
 * with random concurrency and batch sizes, answered in random order with random failures, retries and dead
 * letters; every run must pass test/support/resource-order.ts. Seeded; the seed is in the failure message.
 */
import { expect } from 'chai';
import { seeded } from '../../support/path-spellings.js';
import { checkResourceOrder, expectResourceOrder, type ArrivedPost } from '../../support/resource-order.js';
import { ResourceQueue, type Unit } from '../../../src/delivery/resource-queue.js';

interface Ev {
  id: string;
  event: string;
  directory_id: string;
  sequence: number;
  data: any;
}

function randomLog(rnd: () => number, n: number, users: number, groups: number): Ev[] {
  const log: Ev[] = [];
  for (let i = 0; i < n; i++) {
    const u = `u${Math.floor(rnd() * users)}`;
    const g = `g${Math.floor(rnd() * groups)}`;
    const r = rnd();
    const [event, data] =
      r < 0.4
        ? ['user.updated', { id: u }]
        : r < 0.55
          ? ['group.updated', { id: g }]
          : ['group.user_added', { id: u, group: { id: g } }];
    log.push({ id: `e${i}`, event, directory_id: 'd', sequence: i + 1, data });
  }
  return log;
}

const seqOf = (i: number) => String(i + 1).padStart(16, '0');

/** Drives the queue like a pass: up to `limit` units in flight, answered in random order. */
function simulate(
  seed: number,
  o: {
    events: number;
    users: number;
    groups: number;
    limit: number;
    batch: number;
    failRate: number;
    maxAttempts: number;
  },
) {
  const rnd = seeded(seed);
  const log = randomLog(rnd, o.events, o.users, o.groups);
  const q = new ResourceQueue(null);
  log.forEach((e, i) => q.add({ seq: seqOf(i), json: JSON.stringify(e) }));
  const posts: ArrivedPost[] = [];
  const dead = new Set<string>();
  let tick = 0;
  let maxInFlight = 0;
  const flying: Array<{ unit: Unit; post: ArrivedPost }> = [];
  for (let round = 0; round < 1_000_000; round++) {
    for (const unit of q.dueRetries(tick, o.limit - flying.length)) flying.push(send(unit));
    while (flying.length < o.limit) {
      const unit = q.take(o.batch);
      if (!unit) break;
      flying.push(send(unit));
    }
    maxInFlight = Math.max(maxInFlight, flying.length);
    if (flying.length === 0) {
      const next = q.nextRetryAt();
      if (next === undefined) break;
      tick = Math.max(tick + 1, next);
      continue;
    }
    const { unit, post } = flying.splice(Math.floor(rnd() * flying.length), 1)[0]!;
    tick++;
    if (rnd() < o.failRate) {
      unit.attempts++;
      if (unit.attempts >= o.maxAttempts) {
        for (const e of post.events) dead.add(e.id);
        q.complete(unit);
      } else {
        unit.retryAt = tick + Math.floor(rnd() * 5);
        q.fail(unit);
      }
    } else {
      post.acked = tick;
      q.complete(unit);
    }
  }
  function send(unit: Unit) {
    const post: ArrivedPost = { events: unit.entries.map((e) => JSON.parse(e.json)), arrived: ++tick };
    posts.push(post);
    return { unit, post };
  }
  return { log, posts, dead, maxInFlight, q };
}

describe('resource ordering: the queue', () => {
  it('random logs, concurrency, batches and failures: per-resource order and at-least-once hold (checker)', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const o = {
        events: 300,
        users: 2 + (seed % 40),
        groups: 1 + (seed % 7),
        limit: 1 + (seed % 16),
        batch: seed % 3 === 0 ? 1 + (seed % 9) : 1,
        failRate: (seed % 4) * 0.1,
        maxAttempts: 2 + (seed % 4),
      };
      const { log, posts, dead, q } = simulate(seed, o);
      expectResourceOrder(`seed ${seed} ${JSON.stringify(o)}`, log, posts, dead);
      expect(q.watermark, `seed ${seed}: the watermark reaches the last event`).to.equal(seqOf(log.length - 1));
      expect(q.open, `seed ${seed}: nothing left open`).to.equal(0);
    }
  });

  it('unrelated events go in parallel; one resource goes one at a time', () => {
    const wide = simulate(7, {
      events: 400,
      users: 400,
      groups: 400,
      limit: 16,
      batch: 1,
      failRate: 0,
      maxAttempts: 3,
    });
    expect(wide.maxInFlight).to.equal(16);
    const q = new ResourceQueue(null);
    for (let i = 0; i < 5; i++)
      q.add({ seq: seqOf(i), json: JSON.stringify({ id: `e${i}`, event: 'user.updated', data: { id: 'same' } }) });
    const first = q.take(1)!;
    expect(q.take(1), 'a second event of the same user while the first is in flight').to.equal(undefined);
    q.complete(first);
    expect(q.take(1)!.entries.map((e) => e.seq)).to.deep.equal([seqOf(1)]);
  });

  it('a failing event holds back only events sharing a user or group with it, through memberships', () => {
    const q = new ResourceQueue(null);
    const add = (i: number, event: string, data: any) =>
      q.add({ seq: seqOf(i), json: JSON.stringify({ id: `e${i}`, event, data }) });
    add(0, 'user.created', { id: 'a' });
    add(1, 'user.created', { id: 'b' });
    add(2, 'group.user_added', { id: 'a', group: { id: 'g' } }); // waits for a
    add(3, 'group.user_added', { id: 'c', group: { id: 'g' } }); // waits for e2 (same group)
    add(4, 'user.updated', { id: 'c' }); // waits for e3 (same user)
    add(5, 'user.updated', { id: 'b' });
    const a = q.take(1)!;
    a.retryAt = 100;
    q.fail(a);
    const sent: string[] = [];
    for (let unit = q.take(1); unit; unit = q.take(1)) {
      sent.push(...unit.entries.map((e) => e.seq));
      q.complete(unit);
    }
    expect(sent).to.deep.equal([seqOf(1), seqOf(5)]);
    expect(q.watermark, 'the watermark stays before the failing event').to.equal(null);
    expect(q.doneRuns()).to.deep.equal([
      [seqOf(1), seqOf(1)],
      [seqOf(5), seqOf(5)],
    ]);
    expect(q.failingDeliveries()).to.deep.equal([{ seqs: [seqOf(0)], attempts: 0, retryAt: 100 }]);
    const retried = q.dueRetries(100, 4);
    expect(retried).to.have.length(1);
    q.complete(retried[0]!);
    const rest: string[] = [];
    for (let unit = q.take(1); unit; unit = q.take(1)) {
      rest.push(...unit.entries.map((e) => e.seq));
      q.complete(unit);
    }
    expect(rest).to.deep.equal([seqOf(2), seqOf(3), seqOf(4)]);
    expect(q.watermark).to.equal(seqOf(5));
  });

  it('a batch carries a chain of one group in log order, with unrelated ready events', () => {
    const q = new ResourceQueue(null);
    for (let i = 0; i < 6; i++)
      q.add({
        seq: seqOf(i),
        json: JSON.stringify({ id: `e${i}`, event: 'group.user_added', data: { id: `u${i}`, group: { id: 'g' } } }),
      });
    q.add({ seq: seqOf(6), json: JSON.stringify({ id: 'e6', event: 'user.created', data: { id: 'x' } }) });
    const unit = q.take(10)!;
    expect(unit.entries.map((e) => e.seq)).to.deep.equal([0, 1, 2, 3, 4, 5, 6].map(seqOf));
  });

  it('the checker catches an event sent before an earlier one of its user was acknowledged', () => {
    const log = [
      { id: 'e1', event: 'user.created', directory_id: 'd', sequence: 1, data: { id: 'a' } },
      { id: 'e2', event: 'group.user_added', directory_id: 'd', sequence: 2, data: { id: 'a', group: { id: 'g' } } },
    ];
    const early = checkResourceOrder(log, [
      { events: [log[0]!], arrived: 1, acked: 3 },
      { events: [log[1]!], arrived: 2, acked: 4 },
    ]);
    expect(early.violations).to.have.length(1);
    const lost = checkResourceOrder(log, [
      { events: [log[0]!], arrived: 1, acked: 2 },
      { events: [log[1]!], arrived: 3 },
    ]);
    expect(lost.missing).to.deep.equal(['e2']);
    const batchReversed = checkResourceOrder(log, [{ events: [log[1]!, log[0]!], arrived: 1, acked: 2 }]);
    expect(batchReversed.violations).to.have.length(1);
    const fine = checkResourceOrder(log, [{ events: [log[0]!, log[1]!], arrived: 1, acked: 2 }]);
    expect(fine.violations.concat(fine.missing)).to.deep.equal([]);
    // A batch lost to a crash, then sent again whole: the first arrival of e2 is with e1 ahead of it.
    const resent = checkResourceOrder(log, [
      { events: [log[0]!], arrived: 1 },
      { events: [log[0]!, log[1]!], arrived: 2, acked: 3 },
    ]);
    expect(resent.violations.concat(resent.missing)).to.deep.equal([]);
  });
});
