/**
 * Webhook delivery in process, against both stores: retries, Retry-After, 410, dead letters, replay, batch mode,
 * logs, with `directory` ordering (one POST in flight, log order), whose behaviour `resource` ordering leaves as
 * it was; `resource` ordering has delivery-resource.test.ts.
 */
import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  STORE_KINDS,
  openStore,
  sleep,
  startReceiver,
  startService,
  until,
  type Receiver,
  type Service,
} from '../support/harness.js';

const FAST = [20, 40, 60];

for (const kind of STORE_KINDS) {
  describe(`webhook delivery (${kind} store)`, () => {
    let svc: Service;
    let hooks: Receiver;
    let attempts: Array<{ id: string; status: number; at: number }>;
    let store: Awaited<ReturnType<typeof openStore>>;

    async function start(options: Parameters<typeof startService>[1] = {}) {
      store = await openStore(kind, 3);
      svc = await startService(store, {
        ...options,
        webhook: { retrySchedule: FAST, ...options.webhook },
        delivery: { ordering: 'directory', ...options.delivery },
      });
    }
    beforeEach(async () => {
      hooks = await startReceiver();
      attempts = [];
    });
    afterEach(async () => {
      await svc?.close();
      await hooks.close();
    });
    /** Answers `statuses` in turn (then 200), recording every attempt. */
    function script(...statuses: Array<number | { status: number; headers?: Record<string, string> }>) {
      hooks.respond = (d) => {
        const next = statuses.shift() ?? 200;
        const status = typeof next === 'number' ? next : next.status;
        attempts.push({ id: d.id, status, at: Date.now() });
        return next;
      };
    }
    const directory = (extra: Record<string, unknown> = {}) =>
      svc.createDirectory({ webhook_url: hooks.url, webhook_secret: hooks.secret, ...extra });
    const createUsers = async (d: any, n: number, tag = 'u') => {
      for (let i = 0; i < n; i++)
        expect((await svc.scim(d, 'POST', '/Users', { userName: `${tag}${i}@x.io` })).status).to.equal(201);
    };

    it('retries a failing receiver with the same webhook-id and delivers everything in order', async () => {
      await start();
      script(500, 503, 500);
      const d = await directory();
      await createUsers(d, 5);
      const events = await hooks.waitForEvents(5);
      expect(events.map((e) => e.data.raw.userName)).to.deep.equal([
        'u0@x.io',
        'u1@x.io',
        'u2@x.io',
        'u3@x.io',
        'u4@x.io',
      ]);
      expect(attempts.slice(0, 4).map((a) => a.id)).to.deep.equal(Array(4).fill(events[0].id));
      expect(hooks.deliveries.map((x) => x.id)).to.deep.equal(events.map((e) => e.id));
    });

    it('honours Retry-After on 429', async () => {
      await start();
      script({ status: 429, headers: { 'retry-after': '1' } });
      const d = await directory();
      await createUsers(d, 1);
      await hooks.waitForEvents(1, 5000);
      expect(attempts).to.have.length(2);
      expect(attempts[1]!.at - attempts[0]!.at).to.be.at.least(950);
    });

    it('disables the webhook on 410, keeps the events, and resumes when the webhook is set again', async () => {
      await start();
      script(410);
      const d = await directory();
      await createUsers(d, 3);
      await until(
        async () => Boolean((await svc.api('GET', `/api/v1/directory-sync/${d.id}`)).body.data.webhook_disabled_at),
        'disabled',
      );
      await sleep(100);
      expect(hooks.events()).to.have.length(0);
      const res = await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, { webhook_url: hooks.url });
      expect(res.body.data).to.not.have.property('webhook_disabled_at');
      const events = await hooks.waitForEvents(3);
      expect(events.map((e) => e.event)).to.deep.equal(['user.created', 'user.created', 'user.created']);
    });

    it('dead-letters after the last retry, shows it, and replays it', async () => {
      await start();
      hooks.respond = () => 500;
      const d = await directory();
      await createUsers(d, 1);
      let letters: any[] = [];
      await until(
        async () =>
          (letters = (await svc.api('GET', `/api/v1/directory-sync/${d.id}/dead-letters`)).body.data).length === 1,
        'dead letter',
      );
      expect(letters[0]).to.include({ directory_id: d.id, status_code: 500, attempts: FAST.length + 1, batch: false });
      expect(JSON.parse(letters[0].events[0]).event).to.equal('user.created');
      hooks.respond = () => 200;
      await createUsers(d, 1, 'after');
      const [later] = await hooks.waitForEvents(1);
      expect(later.data.raw.userName).to.equal('after0@x.io');
      const replay = await svc.api('POST', `/api/v1/directory-sync/${d.id}/events/replay`, {
        dead_letter_id: letters[0].id,
      });
      expect(replay.status).to.equal(200);
      expect(replay.body.data).to.include({ delivered: true, status: 200 });
      expect(hooks.deliveries.at(-1)!.id).to.equal(letters[0].webhook_id);
      expect((await svc.api('GET', `/api/v1/directory-sync/${d.id}/dead-letters`)).body.data).to.deep.equal([]);
      const missing = await svc.api('POST', `/api/v1/directory-sync/${d.id}/events/replay`, {
        dead_letter_id: letters[0].id,
      });
      expect(missing.status).to.equal(404);
    });

    it('replays events since a time, in order, with their original ids', async () => {
      await start();
      const d = await directory();
      await createUsers(d, 2, 'old');
      await hooks.waitForEvents(2);
      await sleep(20);
      const since = new Date().toISOString();
      await sleep(20);
      await createUsers(d, 2, 'new');
      const first = await hooks.waitForEvents(4);
      const res = await svc.api('POST', `/api/v1/directory-sync/${d.id}/events/replay`, { since });
      expect(res.status).to.equal(202);
      const all = await hooks.waitForEvents(6);
      expect(all.slice(4).map((e) => e.id)).to.deep.equal(first.slice(2).map((e) => e.id));
      const bad = await svc.api('POST', `/api/v1/directory-sync/${d.id}/events/replay`, {});
      expect(bad.status).to.equal(400);
    });

    it('replays from time 0 and from before 1970 (everything kept), and from the latest time a Date holds (nothing)', async () => {
      await start();
      const d = await directory();
      await createUsers(d, 2, 'u');
      const first = await hooks.waitForEvents(2);
      const replayed = async (since: unknown, total: number) => {
        const res = await svc.api('POST', `/api/v1/directory-sync/${d.id}/events/replay`, { since });
        expect(res.status, JSON.stringify(res.body)).to.equal(202);
        const all = await hooks.waitForEvents(total);
        expect(all.slice(total - 2).map((e) => e.id)).to.deep.equal(first.map((e) => e.id));
        return res.body.data.since;
      };
      expect(await replayed(0, 4)).to.equal('1970-01-01T00:00:00.000Z');
      expect(await replayed('1960-05-01T00:00:00Z', 6)).to.equal('1960-05-01T00:00:00.000Z');
      const latest = await svc.api('POST', `/api/v1/directory-sync/${d.id}/events/replay`, { since: 8.64e15 });
      expect(latest.status).to.equal(202);
      expect(latest.body.data.since).to.equal('+275760-09-13T00:00:00.000Z');
      // Nothing is replayed: the next event is the next delivery.
      await createUsers(d, 1, 'next');
      const after = await hooks.waitForEvents(7);
      await sleep(100);
      expect(hooks.deliveries).to.have.length(7);
      expect(after[6]!.data.raw.userName).to.equal('next0@x.io');
      // Past a Date's range, or past the largest safe integer: refused before anything is queued.
      for (const since of [8.64e15 + 1, 9007199254740991, -1, 1.5]) {
        const res = await svc.api('POST', `/api/v1/directory-sync/${d.id}/events/replay`, { since });
        expect(res.status, String(since)).to.equal(400);
      }
      expect(
        (await svc.api('POST', `/api/v1/directory-sync/${d.id}/events/replay`, { since: 0, dead_letter_id: 'x' }))
          .status,
      ).to.equal(400);
    });

    it('replay never skips events still waiting for a retry, and retries them at once', async () => {
      await start({ webhook: { retrySchedule: [60_000, 60_000] } });
      let failing = true;
      hooks.respond = () => (failing ? 500 : 200);
      const d = await directory();
      await createUsers(d, 2, 'before');
      // The head event's first attempt has failed and its retry is a minute away: the events wait for it.
      let waiting = await svc.dsync.store.deliveryState(d.id);
      await until(
        async () => (waiting = await svc.dsync.store.deliveryState(d.id)).retryAt !== undefined,
        'the first attempt to fail',
      );
      expect(waiting.attempts).to.equal(1);
      expect(waiting.retryAt! - Date.now(), 'ms until the scheduled retry').to.be.above(30_000);
      await sleep(2); // `since` falls after the two waiting events, on a later millisecond
      const since = new Date().toISOString();
      await sleep(2);
      await createUsers(d, 1, 'after');
      failing = false;
      expect((await svc.api('POST', `/api/v1/directory-sync/${d.id}/events/replay`, { since })).status).to.equal(202);
      // Well before the scheduled retry: the replay retried the waiting events at once, and skipped none.
      const events = await hooks.waitForEvents(3, 10_000);
      expect(events.map((e) => e.data.raw.userName)).to.deep.equal(['before0@x.io', 'before1@x.io', 'after0@x.io']);
      expect(Date.now(), 'delivered before the scheduled retry').to.be.below(waiting.retryAt!);
      expect((await svc.api('GET', `/api/v1/directory-sync/${d.id}/dead-letters`)).body.data).to.deep.equal([]);
    });

    it('replay asked for while this very instance is mid-delivery is not lost (short lease, slow receiver)', async () => {
      await start({ delivery: { leaseMs: 300 } });
      let delay = 0;
      hooks.respond = () => (delay > 0 ? { status: 200, delayMs: delay } : 200);
      const d = await directory();
      const from = new Date(Date.now() - 1).toISOString();
      await createUsers(d, 3, 'old');
      await hooks.waitForEvents(3);
      delay = 800;
      await createUsers(d, 2, 'new');
      await sleep(150);
      expect((await svc.api('POST', `/api/v1/directory-sync/${d.id}/events/replay`, { since: from })).status).to.equal(
        202,
      );
      delay = 0;
      const events = await hooks.waitForEvents(8, 8000);
      const times = (name: string) => events.filter((e) => e.data.raw.userName === name).length;
      expect(
        ['old0@x.io', 'old1@x.io', 'old2@x.io'].map(times),
        JSON.stringify(events.map((e) => e.data.raw.userName)),
      ).to.deep.equal([2, 2, 2]);
    });

    it('batch mode: arrays of at most N events of one directory per POST, only when processed', async () => {
      await start({ webhook: { batchSize: 4 } });
      const a = await directory({ name: 'A' });
      const b = await directory({ name: 'B' });
      await createUsers(a, 10, 'a');
      await createUsers(b, 3, 'b');
      await sleep(150);
      expect(hooks.deliveries).to.have.length(0);
      const run = await svc.api('POST', '/api/v1/dsync/cron/process-events');
      expect(run.status).to.equal(200);
      expect(run.body.data).to.include({ delivered: 13, failed: 0 });
      expect(hooks.deliveries.every((x) => Array.isArray(x.body) && x.body.length <= 4)).to.equal(true);
      for (const x of hooks.deliveries)
        expect(new Set(x.body.map((e: { directory_id: string }) => e.directory_id)).size).to.equal(1);
      expect(hooks.deliveries.map((x) => x.body.length).sort()).to.deep.equal([2, 3, 4, 4]);
      expect(
        hooks
          .events()
          .filter((e) => e.directory_id === a.id)
          .map((e) => e.data.raw.userName),
      ).to.deep.equal(Array.from({ length: 10 }, (_, i) => `a${i}@x.io`));
      expect(hooks.deliveries.every((x) => x.id.startsWith('batch_'))).to.equal(true);
      expect((await svc.api('POST', '/api/v1/dsync/cron/process-events')).body.data.delivered).to.equal(0);
    });

    it('batch mode: a pass delivers a directory left without its due mark (a process killed mid-drain clears it)', async () => {
      await start({ webhook: { batchSize: 4 } });
      const a = await directory({ name: 'A' });
      await createUsers(a, 6, 'a');
      await store.clearDue(a.id);
      const run = await svc.api('POST', '/api/v1/dsync/cron/process-events');
      expect(run.body.data).to.include({ directories: 1, delivered: 6, failed: 0 });
      expect(hooks.events().map((e) => e.data.raw.userName)).to.deep.equal(
        Array.from({ length: 6 }, (_, i) => `a${i}@x.io`),
      );
    });

    it('logs each attempt when log_webhook_events is on, and lists and fetches the logs', async () => {
      await start();
      script(500);
      const d = await directory({ log_webhook_events: true });
      const quiet = await directory({ name: 'quiet' });
      await createUsers(d, 1);
      await createUsers(quiet, 1);
      await hooks.waitForEvents(2);
      let logs: any[] = [];
      await until(
        async () => (logs = (await svc.api('GET', `/api/v1/dsync/events?directoryId=${d.id}`)).body.data).length === 2,
        'two logs',
      );
      expect(logs.map((l) => [l.status_code, l.delivered, l.attempt, l.outcome])).to.deep.equal([
        [200, true, 2, 'delivered'],
        [500, false, 1, 'retry'],
      ]);
      expect(logs[0]).to.include({ directory_id: d.id, endpoint: hooks.url });
      expect(logs[0].event_ids).to.have.length(1);
      expect(logs[0].latency_ms).to.be.a('number');
      const one = await svc.api('GET', `/api/v1/dsync/events/${logs[1].id}`);
      expect(one.body.data).to.deep.equal(logs[1]);
      expect((await svc.api('GET', `/api/v1/dsync/events/${d.id}_0-1`)).status).to.equal(404);
      expect((await svc.api('GET', `/api/v1/dsync/events?directoryId=${quiet.id}`)).body.data).to.deep.equal([]);
      expect((await svc.api('GET', '/api/v1/dsync/events')).status).to.equal(400);
    });

    it('serves the Events API: poll the log with an after cursor', async () => {
      await start({ delivery: { retentionMs: 60_000 } });
      const d = await svc.createDirectory();
      await createUsers(d, 5);
      const first = await svc.api('GET', `/api/v1/directory-sync/${d.id}/events?limit=3`);
      expect(first.status).to.equal(200);
      expect(first.body.data.events.map((e: any) => e.data.raw.userName)).to.deep.equal([
        'u0@x.io',
        'u1@x.io',
        'u2@x.io',
      ]);
      const next = await svc.api('GET', `/api/v1/directory-sync/${d.id}/events?after=${first.body.data.next_cursor}`);
      expect(next.body.data.events.map((e: any) => e.data.raw.userName)).to.deep.equal(['u3@x.io', 'u4@x.io']);
      const end = await svc.api('GET', `/api/v1/directory-sync/${d.id}/events?after=${next.body.data.next_cursor}`);
      expect(end.body.data).to.deep.equal({ events: [], next_cursor: next.body.data.next_cursor });
      expect((await svc.api('GET', `/api/v1/directory-sync/${d.id}/events?limit=0`)).status).to.equal(400);
      expect((await svc.api('GET', `/api/v1/directory-sync/${d.id}/events?limit=`)).status).to.equal(400);
      expect((await svc.api('GET', `/api/v1/directory-sync/${d.id}/events?after=x;y`)).status).to.equal(400);
    });

    it("does not let one directory's dead receiver slow another directory", async function () {
      this.timeout(60_000); // the healthy events get 20 s; the dead attempt hangs for 30 s
      // A receiver that accepts and never answers: its directory's attempt hangs for the whole webhook timeout
      // (refused connections fail at once, which would pass even if directories were served one at a time).
      const hanging = createServer(() => undefined);
      const held: Array<() => boolean> = [];
      hanging.on('connection', (socket) => held.push(() => !socket.destroyed));
      await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
      try {
        await start({ webhook: { retrySchedule: [5000], timeoutMs: 30_000 } });
        const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hooks`;
        const dead = await svc.createDirectory({ name: 'dead', webhook_url: url, webhook_secret: hooks.secret });
        const healthy = await directory({ name: 'healthy' });
        await createUsers(dead, 20, 'dead');
        await until(() => held.length > 0, 'the dead receiver to hold an attempt');
        await createUsers(healthy, 20, 'ok');
        await hooks.waitForEvents(20, 20_000);
        // Every healthy event arrived while the dead directory's attempt was still hanging.
        expect(
          held.some((open) => open()),
          'the dead attempt still open',
        ).to.equal(true);
        expect(hooks.events().every((e) => e.directory_id === healthy.id)).to.equal(true);
      } finally {
        hanging.closeAllConnections();
        await new Promise((resolve) => hanging.close(resolve));
      }
    });
  });
}

describe('embedded callback delivery', () => {
  it('delivers every event to the callback once, in order, retrying a throwing callback', async () => {
    const seen: string[] = [];
    let failures = 2;
    const svc = await startService(await openStore('memory'), {
      webhook: { retrySchedule: FAST },
      delivery: { ordering: 'directory' },
      eventCallback: (e) => {
        if (failures-- > 0) throw new Error('app not ready');
        seen.push(String(e.data.raw.userName));
      },
    });
    try {
      const d = await svc.createDirectory();
      for (let i = 0; i < 5; i++) await svc.scim(d, 'POST', '/Users', { userName: `c${i}@x.io` });
      await until(() => seen.length >= 5, 'five callbacks');
      await sleep(100);
      expect(seen).to.deep.equal(['c0@x.io', 'c1@x.io', 'c2@x.io', 'c3@x.io', 'c4@x.io']);
    } finally {
      await svc.close();
    }
  });
});
