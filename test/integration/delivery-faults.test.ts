/**
 * Process-level delivery faults: real `dsync serve` processes (spawned as users run them), a receiver that
 * verifies every Standard Webhooks signature, and faults injected from outside: SIGKILL mid-delivery, two
 * replicas at once, a receiver that refuses connections, answers 500 or answers too late. Batch mode has its
 * own file (delivery-faults-batch.test.ts). Every suite runs on the test Redis server and on the shared Redis
 * Cluster (test/support/fault-backends.ts: the processes get REDIS_CLUSTER_NODES and wait for a replica on each
 * write by default).
 *
 * The truth every test compares with is the directory's own event log (test/support/delivery-truth.ts).
 *
 * Redis logical databases 10, 11 and 13 of the single server belong to this file (10: crash, 11: replicas,
 * 13: receiver faults); on the cluster each suite flushes every master first.
 */
import { expect } from 'chai';
import { once } from 'node:events';
import type { RedisClient } from '../../src/store/redis/client.js';
import {
  expectDelivered,
  expectSequence,
  heldLeases,
  lapseLeases,
  logIds,
  stopHoldingNoLease,
} from '../support/delivery-truth.js';
import {
  createDirectories,
  createUsers,
  dumpOutputs,
  killAll,
  live,
  RETRY_SCHEDULE,
  SECRET,
  serve,
  type Dir,
  type DsyncProc,
} from '../support/dsync-process.js';
import { FAULT_BACKENDS } from '../support/fault-backends.js';
import { FaultReceiver } from '../support/fault-receiver.js';
import { sleep, startReceiver, until, type Receiver } from '../support/harness.js';

for (const backend of FAULT_BACKENDS) {
  // These scenarios pin `directory` ordering (one POST in flight, log order); delivery-faults-resource.test.ts
  // runs them with `resource` ordering.
  const env = (db: number, extra: Record<string, string> = {}) =>
    backend.env(db, { DSYNC_WEBHOOK_ORDERING: 'directory', ...extra });
  // ---- (a) crash ----------------------------------------------------------------------------------------

  describe(`delivery faults (${backend.name}): dsync killed with SIGKILL`, function () {
    // Two process starts and 2,000 SCIM creates take ~20 s alone and over 60 s beside CI's other legs on two
    // cores; the waits inside keep their own bounds and messages.
    this.timeout(120_000);
    let redis: RedisClient;
    let receiver: FaultReceiver;

    beforeEach(async () => {
      redis = await backend.fresh(10);
      receiver = await new FaultReceiver().open();
    });
    afterEach(async function () {
      if (this.currentTest?.state === 'failed') dumpOutputs(live);
      await killAll();
      await receiver.close();
      redis.disconnect();
    });

    it('a process killed mid-delivery loses nothing: a new process delivers every event, in order, re-sends under the same webhook-id', async () => {
      const DIRS = 4;
      const PER_DIR = 500;
      const TOTAL = DIRS * PER_DIR;
      // Slow-ish receiver: ~10 ms per POST, one POST in flight per directory → ≤ ~400 events/s.
      receiver.answer = () => ({ status: 200, delayMs: 10 });
      const first = await serve('serve#1', env(10));
      const dirs = await createDirectories(first, DIRS, receiver.url, 'crash');
      await createUsers([first], dirs, PER_DIR, 'u');
      await until(
        () => receiver.ackedCount() >= TOTAL / 2,
        () => `half of ${TOTAL} events (got ${receiver.ackedCount()})`,
        20_000,
      );

      first.child.kill('SIGKILL');
      await once(first.child, 'exit');
      const atKill = receiver.ackedCount();
      expect(atKill, 'the kill must land mid-delivery').to.be.below(TOTAL - 100);
      const held = await heldLeases(redis, dirs);
      expect(held.size, 'directories whose lease the killed process held').to.be.greaterThan(0);

      const second = await serve('serve#2', env(10));
      // While the dead process's leases live, the new process must leave those directories alone.
      const before = receiver.events().length;
      await sleep(750);
      const stolen = receiver
        .events()
        .slice(before)
        .filter((x) => held.has(x.event.directory_id));
      expect(stolen.length, 'deliveries for directories still leased by the dead process').to.equal(0);

      await lapseLeases(redis, dirs, new Set(held.values()));
      await until(
        () => receiver.ackedCount() >= TOTAL,
        () => `all ${TOTAL} events after the restart (got ${receiver.ackedCount()})`,
        30_000,
      );
      await sleep(300); // let a stray duplicate arrive before judging

      const reports = await expectDelivered(redis, receiver, dirs, PER_DIR);
      // The cursor is saved at least every 100 deliveries: a crash re-sends at most that many per directory
      // (plus the POST in flight when it died).
      for (const r of reports) expect(r.duplicates, 're-sent events in one directory').to.be.at.most(101);
      expect(second.child.exitCode, 'the new process is still running').to.equal(null);
    });

    it('a process killed while retrying a failed delivery: the new process resumes the retries and delivers', async () => {
      // The receiver fails the first attempts; the third attempt (a scheduled retry) is held open and the
      // process is killed while waiting for it.
      let healthy = false;
      let attempts = 0;
      let hold!: () => void;
      const held = new Promise<void>((r) => (hold = r));
      const never = new Promise<void>(() => undefined);
      receiver.answer = () => {
        if (healthy) return { status: 200 };
        attempts++;
        if (attempts === 3) {
          hold();
          return { status: 200, until: never };
        }
        return { status: 500 };
      };
      const first = await serve('serve#1', env(10));
      const [dir] = await createDirectories(first, 1, receiver.url, 'retry');
      await createUsers([first], [dir!], 1, 'r', 1);
      await held;
      first.child.kill('SIGKILL');
      await once(first.child, 'exit');
      const owners = new Set((await heldLeases(redis, [dir!])).values());
      expect(owners.size, 'the killed process held the lease').to.equal(1);
      healthy = true;

      await serve('serve#2', env(10));
      await lapseLeases(redis, [dir!], owners);
      const state = await redis.hgetall(`dsync:{${dir!.id}}:dstate`);
      const due = await redis.zscore('dsync:due', dir!.id);
      try {
        await until(
          () => receiver.ackedCount() >= 1,
          () => 'the event after the restart',
          8_000,
        );
      } catch (err) {
        throw new Error(
          `${(err as Error).message}: the directory is stuck in its retry state (dstate ${JSON.stringify(state)}, ` +
            `dsync:due score ${due ?? 'none'}); the sweep skips directories with attempts > 0 and nothing else wakes it`,
        );
      }
      await expectDelivered(redis, receiver, [dir!], 1);
    });
  });

  // ---- (b) two replicas -----------------------------------------------------------------------------------

  describe(`delivery faults (${backend.name}): two dsync processes on one Redis`, function () {
    this.timeout(120_000);
    let redis: RedisClient;
    let receiver: Receiver;

    beforeEach(async () => {
      redis = await backend.fresh(11);
      receiver = await startReceiver(SECRET);
    });
    afterEach(async function () {
      if (this.currentTest?.state === 'failed') dumpOutputs(live);
      await killAll();
      await receiver.close();
      redis.disconnect();
    });

    async function delivered(proc: DsyncProc): Promise<number> {
      const text = await (await fetch(proc.metricsUrl!)).text();
      const m = /^webhook_events_delivered_total (\d+)/m.exec(text);
      return m ? Number(m[1]) : 0;
    }

    it('deliver concurrently with writes spread over both: each event exactly once, in order per directory', async () => {
      // An odd number of directories, so createUsers (job i to process i % 2) writes each one through both.
      const DIRS = 5;
      const PER_DIR = 200;
      const LATER = 10; // per directory, through serve#2 alone while serve#1 is stopped
      const TOTAL = DIRS * (PER_DIR + LATER);
      const one = await serve('serve#1', env(11), { metrics: true });
      const two = await serve('serve#2', env(11), { metrics: true });
      const dirs = await createDirectories(one, DIRS, receiver.url, 'replicas');
      await createUsers([one, two], dirs, PER_DIR, 'u');
      await receiver.waitForEvents(DIRS * PER_DIR, 20_000);
      // Which process drains what above is timing: one may hold every lease for the whole wave. So the lease is
      // made to move: once every pass has ended and let its lease go, serve#1 is stopped and serve#2 alone takes
      // more writes, which it must deliver itself.
      await stopHoldingNoLease(redis, one, dirs);
      try {
        await createUsers([two], dirs, LATER, 'later');
        await receiver.waitForEvents(TOTAL, 20_000);
      } finally {
        one.child.kill('SIGCONT');
      }
      await sleep(500); // a duplicate would come late: give it the chance

      const events = receiver.events();
      const ids = events.map((e) => e.id as string);
      expect(new Set(ids).size, 'distinct events').to.equal(TOTAL);
      expect(events.length, 'deliveries (no duplicates with a healthy receiver)').to.equal(TOTAL);
      for (const d of receiver.deliveries) expect(d.id).to.equal(d.body.id);
      for (const dir of dirs) {
        const log = await logIds(redis, dir.id);
        expect(log.length).to.equal(PER_DIR + LATER);
        expectSequence(
          events.filter((e) => e.directory_id === dir.id).map((e) => e.id as string),
          log,
          `directory ${dir.id}`,
        );
      }
      // Together exactly once each; serve#2 delivered at least what it alone could (the lease moved to it).
      const [d1, d2] = [await delivered(one), await delivered(two)];
      expect(d1 + d2, `events delivered by serve#1 (${d1}) + serve#2 (${d2})`).to.equal(TOTAL);
      expect(d2, `serve#2 delivered the writes it took alone (serve#1 ${d1}, serve#2 ${d2})`).to.be.at.least(
        DIRS * LATER,
      );
    });
  });

  // ---- (d) receiver faults -------------------------------------------------------------------------------

  describe(`delivery faults (${backend.name}): receiver down, failing, or too slow (real time, DSYNC_WEBHOOK_TIMEOUT=1s)`, function () {
    this.timeout(120_000);
    let redis: RedisClient;
    let receiver: FaultReceiver;
    let srv: DsyncProc;

    before(async () => {
      redis = await backend.fresh(13);
      srv = await serve('serve', env(13, { DSYNC_WEBHOOK_TIMEOUT: '1s' }));
    });
    beforeEach(async () => {
      receiver = await new FaultReceiver().open();
    });
    afterEach(async function () {
      if (this.currentTest?.state === 'failed') dumpOutputs([srv]);
      await receiver.close();
    });
    after(async () => {
      await killAll();
      redis.disconnect();
    });

    const DIRS = 3;
    const PER_DIR = 200;
    const TOTAL = DIRS * PER_DIR;

    /**
     * Queues TOTAL events behind a receiver that holds its answers until every write is committed (writes slowed
     * by a loaded machine would otherwise let delivery keep up), then answers in 15 ms as the fault starts, so what
     * follows exercises the retry schedule alone.
     */
    async function backlogThenFault(tag: string, fault: () => Promise<void> | void): Promise<Dir[]> {
      let written!: () => void;
      const committed = new Promise<void>((resolve) => (written = resolve));
      receiver.answer = () => ({ status: 200, delayMs: 15, until: committed });
      const dirs = await createDirectories(srv, DIRS, receiver.url, tag);
      await createUsers([srv], dirs, PER_DIR, tag);
      written();
      await fault();
      expect(receiver.ackedCount(), 'the fault must start before the backlog is delivered').to.be.below(TOTAL - 50);
      return dirs;
    }

    it('connection refused for 2 s (receiver closed, reopened on the same port): every event arrives, in order', async () => {
      const dirs = await backlogThenFault('refused', () => receiver.close());
      const port = receiver.port;
      await sleep(2000);
      receiver.answer = () => ({ status: 200 });
      await receiver.open();
      expect(receiver.port).to.equal(port);
      await until(
        () => receiver.ackedCount() >= TOTAL,
        () => `all ${TOTAL} events (got ${receiver.ackedCount()})`,
        20_000,
      );
      await expectDelivered(redis, receiver, dirs, PER_DIR);
    });

    it('HTTP 500 for 2 s: every event arrives, in order, after recovery', async () => {
      let failing = false;
      let failed = 0;
      const dirs = await backlogThenFault('five-hundred', () => {
        failing = true;
        receiver.answer = () => {
          if (!failing) return { status: 200 };
          failed++;
          return { status: 500 };
        };
      });
      await sleep(2000);
      failing = false;
      await until(
        () => receiver.ackedCount() >= TOTAL,
        () => `all ${TOTAL} events (got ${receiver.ackedCount()})`,
        20_000,
      );
      expect(failed, 'attempts answered 500').to.be.greaterThan(0);
      await expectDelivered(redis, receiver, dirs, PER_DIR);
    });

    it('answers later than DSYNC_WEBHOOK_TIMEOUT for 2.5 s: timed-out attempts are re-sent, every event arrives in order', async () => {
      let slow = false;
      const dirs = await backlogThenFault('slow', () => {
        slow = true;
        receiver.answer = () => (slow ? { status: 200, delayMs: 1500 } : { status: 200 });
      });
      await sleep(2500);
      slow = false;
      await until(
        () => receiver.ackedCount() >= TOTAL,
        () => `all ${TOTAL} events (got ${receiver.ackedCount()})`,
        20_000,
      );
      const reports = await expectDelivered(redis, receiver, dirs, PER_DIR);
      const timedOut = receiver.seen.filter((d) => !d.acked).length;
      expect(timedOut, 'attempts that timed out').to.be.greaterThan(0);
      // Each timed-out attempt reached the receiver and was sent again: a duplicate under the same webhook-id.
      expect(
        reports.reduce((n, r) => n + r.duplicates, 0),
        're-sent events',
      ).to.be.at.least(timedOut);
    });

    it('writes during a 3 s outage do not bypass the retry schedule: nothing is dead-lettered, every event arrives', async () => {
      // An IdP keeps provisioning while the receiver answers 503 for 3 s: 10 users every 200 ms for as long as
      // the outage lasts. Only the head event is tried meanwhile (order), and each retry must wait for its place
      // in the schedule (50, 100, 200, 400, 800 ms, 1 s..., less the 20% jitter), however many writes wake the
      // deliverer; the gaps are measured between the attempts themselves, so a slow machine only widens them.
      const schedule = RETRY_SCHEDULE.split(',').map((d) =>
        d.endsWith('ms') ? Number(d.slice(0, -2)) : Number(d.slice(0, -1)) * 1000,
      );
      let failing = true;
      const refused: Array<{ id: string; at: number }> = [];
      receiver.answer = (d) => {
        if (!failing) return { status: 200 };
        refused.push({ id: d.id, at: performance.now() });
        return { status: 503 };
      };
      const dirs = await createDirectories(srv, 1, receiver.url, 'outage');
      const outage = setTimeout(() => (failing = false), 3000);
      let users = 0;
      try {
        for (let i = 0; failing; i++) {
          await createUsers([srv], dirs, 10, `o${i}`, 4);
          users += 10;
          await sleep(200);
        }
      } finally {
        clearTimeout(outage);
        failing = false;
      }
      const dead = await redis.xlen(`dsync:{${dirs[0]!.id}}:dlq`);
      expect(refused.length, 'attempts refused during the outage').to.be.at.least(2);
      expect(
        new Set(refused.map((r) => r.id)).size,
        'webhook-ids tried during the outage (the pinned head event)',
      ).to.equal(1);
      const early = refused.slice(1).flatMap((r, i) => {
        const gap = r.at - refused[i]!.at;
        const least = 0.8 * schedule[Math.min(i, schedule.length - 1)]! - 2; // the jitter's floor, a ms of rounding
        return gap < least
          ? [`retry ${i + 1} after ${gap.toFixed(0)} ms (schedule: at least ${least.toFixed(0)} ms)`]
          : [];
      });
      expect(
        early,
        `${dead} event(s) dead-lettered meanwhile: each write woke the deliverer, which retried the pinned event at once instead of at its scheduled time`,
      ).to.deep.equal([]);
      expect(dead, 'dead letters after a 3 s outage that the retry schedule (≈8.5 s) covers').to.equal(0);
      await until(
        () => receiver.ackedCount() >= users,
        () => `all ${users} events (got ${receiver.ackedCount()})`,
        15_000,
      );
      await expectDelivered(redis, receiver, dirs, users);
    });
  });
}
