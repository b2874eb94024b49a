/**
 * Batch-mode delivery faults (DSYNC_WEBHOOK_BATCH_SIZE): deliveries only when triggered, concurrent runners
 * (HTTP cron route and two `dsync cron process-events` at once), a crash between an acknowledged batch and its
 * cursor save, and the in-process interval; real processes on the test Redis server and on the shared Redis
 * Cluster (test/support/fault-backends.ts), checked against each directory's event log
 * (test/support/delivery-truth.ts). Redis logical database 12 of the single server belongs to this file.
 */
import { expect } from 'chai';
import type { RedisClient } from '../../src/store/redis/client.js';
import { expectSequence, heldLeases, lapseLeases, logIds } from '../support/delivery-truth.js';
import {
  api,
  createDirectories,
  createUsers,
  cronRun,
  dumpOutputs,
  kill,
  killAll,
  live,
  serve,
  type Dir,
} from '../support/dsync-process.js';
import { FAULT_BACKENDS } from '../support/fault-backends.js';
import { FaultReceiver, type Seen } from '../support/fault-receiver.js';
import { sleep, until } from '../support/harness.js';

for (const backend of FAULT_BACKENDS) {
  // These scenarios pin `directory` ordering (one POST in flight, log order); delivery-faults-resource.test.ts
  // runs them with `resource` ordering.
  const env = (db: number, extra: Record<string, string> = {}) =>
    backend.env(db, { DSYNC_WEBHOOK_ORDERING: 'directory', ...extra });
  // ---- (c) batch mode ---------------------------------------------------------------------------------------

  describe(`delivery faults (${backend.name}): batch mode (DSYNC_WEBHOOK_BATCH_SIZE=50)`, function () {
    this.timeout(120_000);
    let redis: RedisClient;
    let receiver: FaultReceiver;
    const BATCH = { DSYNC_WEBHOOK_BATCH_SIZE: '50' };

    before(async () => {
      redis = await backend.fresh(12);
    });
    beforeEach(async () => {
      receiver = await new FaultReceiver().open();
    });
    afterEach(async function () {
      if (this.currentTest?.state === 'failed') dumpOutputs(live);
      await killAll();
      await receiver.close();
    });
    after(() => redis.disconnect());

    /**
     * Every POST is a JSON array of ≤50 events of one directory, webhook-id `batch_<first>_<n>`; returns events per
     * directory.
     */
    function checkBatches(seen: Seen[]): Map<string, string[]> {
      const byDir = new Map<string, string[]>();
      for (const d of seen) {
        expect(d.body, 'a batch-mode POST body').to.be.an('array');
        const list = d.body as Array<{ id: string; directory_id: string }>;
        expect(list.length, 'events in one POST').to.be.within(1, 50);
        expect(new Set(list.map((e) => e.directory_id)).size, 'directories in one POST').to.equal(1);
        expect(d.id, 'batch webhook-id').to.equal(`batch_${list[0]!.id}_${list.length}`);
        const ids = byDir.get(list[0]!.directory_id) ?? [];
        ids.push(...list.map((e) => e.id));
        byDir.set(list[0]!.directory_id, ids);
      }
      expect(receiver.rejected, 'deliveries with a bad signature').to.equal(0);
      return byDir;
    }

    /** All of `dirs`' log entries after `skip` arrived exactly once, in order. */
    async function expectBatchesDelivered(dirs: Dir[], skip: number, perDir: number): Promise<void> {
      const byDir = checkBatches(receiver.seen);
      for (const dir of dirs) {
        const log = (await logIds(redis, dir.id)).slice(skip);
        expect(log.length).to.equal(perDir);
        expectSequence(byDir.get(dir.id) ?? [], log, `directory ${dir.id}`);
      }
    }

    async function expectNothingDelivered(ms: number): Promise<void> {
      await sleep(ms);
      expect(receiver.seen.length, 'POSTs before any trigger').to.equal(0);
    }

    it('delivers only when triggered: the HTTP cron route, then the CLI `dsync cron process-events` (exit 0)', async () => {
      const srv = await serve('serve(batch)', env(12, BATCH));
      const dirs = await createDirectories(srv, 3, receiver.url, 'batch');
      await createUsers([srv], dirs, 120, 'h');
      await expectNothingDelivered(1000);

      const res = await api(srv, 'POST', '/api/v1/dsync/cron/process-events');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ delivered: 360, failed: 0 });
      await expectBatchesDelivered(dirs, 0, 120);
      expect(receiver.seen.map((d) => d.body.length).sort((a, b) => a - b)).to.deep.equal([
        20, 20, 20, 50, 50, 50, 50, 50, 50,
      ]);

      // More events, then the CLI: only the new ones, each once.
      receiver.seen.length = 0;
      await createUsers([srv], dirs, 70, 'c');
      await expectNothingDelivered(300);
      const run = await cronRun('cron', env(12, BATCH));
      expect(run.code, `cron exit code; output:\n${run.output.join('\n')}`).to.equal(0);
      expect(run.delivered).to.equal(210);
      await expectBatchesDelivered(dirs, 120, 70);
      expect(receiver.seen.map((d) => d.body.length).sort((a, b) => a - b)).to.deep.equal([20, 20, 20, 50, 50, 50]);
    });

    it('two CLI runs and the HTTP cron at the same time never send an event twice', async function () {
      // 130 directories, one batch each. The receiver holds every POST until all 130 are in flight at once:
      // one runner sends at most 64 (its concurrency), so that point is reached only with all three runners
      // sending concurrently.
      this.timeout(120_000);
      const DIRS = 130;
      const PER_DIR = 3;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      receiver.answer = () => ({ status: 200, until: gate });
      // The first runner's POSTs wait for the last runner's to start: on a loaded machine that outlasted the
      // 15 s default POST timeout, and the timed-out batches were sent again (at least once, as they should be).
      const held = { ...BATCH, DSYNC_WEBHOOK_TIMEOUT: '90s' };
      const srv = await serve('serve(batch)', env(12, held));
      const dirs = await createDirectories(srv, DIRS, receiver.url, 'runners');
      await createUsers([srv], dirs, PER_DIR, 'x');
      await expectNothingDelivered(200);

      const http = api(srv, 'POST', '/api/v1/dsync/cron/process-events');
      const cliA = cronRun('cron#A', env(12, held));
      const cliB = cronRun('cron#B', env(12, held));
      try {
        await until(
          () => receiver.inFlight >= DIRS,
          () => `all ${DIRS} batches in flight at once (got ${receiver.inFlight})`,
          60_000,
        );
      } finally {
        release();
      }
      const [h, a, b] = await Promise.all([http, cliA, cliB]);
      expect(h.status).to.equal(200);
      expect(a.code, `cron#A exit code; output:\n${a.output.join('\n')}`).to.equal(0);
      expect(b.code, `cron#B exit code; output:\n${b.output.join('\n')}`).to.equal(0);
      await sleep(300);

      const events = receiver.events().map((x) => x.event.id as string);
      expect(events.length, 'events received').to.equal(DIRS * PER_DIR);
      expect(new Set(events).size, 'distinct events').to.equal(DIRS * PER_DIR);
      expect(
        h.body.data.delivered + a.delivered + b.delivered,
        `delivered by HTTP ${h.body.data.delivered} + A ${a.delivered} + B ${b.delivered}`,
      ).to.equal(DIRS * PER_DIR);
      for (const n of [h.body.data.delivered, a.delivered, b.delivered])
        expect(n, 'each runner delivered some').to.be.greaterThan(0);
      await expectBatchesDelivered(dirs, 0, PER_DIR);
    });

    it('a crash after a short batch was acknowledged but before the cursor was saved: the re-send keeps the webhook-id', async () => {
      // The receiver acknowledges a 30-event batch (batch_<e1>_30) while Redis refuses writes (CLIENT PAUSE
      // WRITE), so the cursor save that follows cannot land; the process is killed there. More events arrive,
      // and the next pass re-sends the 30: a receiver deduplicating on webhook-id must see the same id again.
      const srv = await serve('serve(batch)#1', env(12, BATCH));
      const [dir] = await createDirectories(srv, 1, receiver.url, 'shortbatch');
      await createUsers([srv], [dir!], 30, 'p', 4);
      const admin = backend.serverOf(redis, `dsync:{${dir!.id}}:dir`);
      try {
        let paused!: () => void;
        const isPaused = new Promise<void>((r) => (paused = r));
        receiver.answer = () =>
          receiver.seen.length === 1
            ? { status: 200, until: admin.call('CLIENT', 'PAUSE', '5000', 'WRITE').then(() => paused()) }
            : { status: 200 };
        const pass = api(srv, 'POST', '/api/v1/dsync/cron/process-events').catch(() => undefined);
        await isPaused;
        await sleep(400); // the 2xx is out; the deferred cursor save is now waiting on Redis
        await kill(srv);
        await admin.call('CLIENT', 'UNPAUSE');
        await pass;
      } finally {
        admin.disconnect();
      }
      expect(receiver.seen.map((d) => d.acked)).to.deep.equal([true]);
      const original = receiver.seen[0]!.id;
      const owners = new Set((await heldLeases(redis, [dir!])).values());
      expect(owners.size, 'the killed process held the lease').to.equal(1);
      await lapseLeases(redis, [dir!], owners);

      const srv2 = await serve('serve(batch)#2', env(12, BATCH));
      await createUsers([srv2], [dir!], 20, 'q', 4);
      const res = await api(srv2, 'POST', '/api/v1/dsync/cron/process-events');
      expect(res.status).to.equal(200);
      const idsOf = new Map<string, Set<string>>();
      for (const { event, d } of receiver.events()) idsOf.set(event.id, (idsOf.get(event.id) ?? new Set()).add(d.id));
      const first = receiver.events().filter((x, i, all) => all.findIndex((y) => y.event.id === x.event.id) === i);
      expectSequence(
        first.map((x) => x.event.id as string),
        await logIds(redis, dir!.id),
        `directory ${dir!.id}`,
      );
      const renamed = [...idsOf].filter(([, ids]) => ids.size > 1);
      expect(
        renamed.length,
        `events re-sent under a different webhook-id than their first delivery (${original}): ` +
          `${renamed.length}, e.g. ${renamed[0]?.[0]} under ${[...(renamed[0]?.[1] ?? [])].join(' and ')}`,
      ).to.equal(0);
      checkBatches(receiver.seen);
    });

    it('DSYNC_WEBHOOK_BATCH_CRON_INTERVAL=1 delivers on its own, in batches of ≤50, each event once', async () => {
      const srv = await serve('serve(interval)', env(12, { ...BATCH, DSYNC_WEBHOOK_BATCH_CRON_INTERVAL: '1' }));
      const dirs = await createDirectories(srv, 2, receiver.url, 'interval');
      await createUsers([srv], dirs, 80, 'i');
      await until(
        () => receiver.ackedCount() >= 160,
        () => `160 events from the interval (got ${receiver.ackedCount()})`,
        10_000,
      );
      await sleep(1200); // one more tick: it must not re-send anything
      await expectBatchesDelivered(dirs, 0, 80);
      expect(receiver.events().length, 'events received').to.equal(160);
    });
  });
}
