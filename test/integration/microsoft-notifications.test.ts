/**
 * Graph change notifications end to end: dsync served over HTTPS (the test CA), so the fake Graph validates its
 * notification URL and posts to it as Graph does. Subscriptions created by the first sync, a change synced
 * within seconds with no cron call, a burst as one sync, a forged clientState ignored, renewal before expiry,
 * re-creation after a subscriptionRemoved lifecycle event.
 */
import { expect } from 'chai';
import type { Tenant } from '../support/fake-entra/index.js';
import { startEntraTest, TENANT_A, type EntraTest } from '../support/entra-harness.js';
import { capturedLogger, openStore, sleep, STORE_KINDS, until } from '../support/harness.js';

const runs = async (t: EntraTest): Promise<number> => {
  const metric = await t.service.dsync.metrics.registry.getSingleMetric('dsync_microsoft_sync_runs_total')!.get();
  return metric.values.reduce((n, v) => n + v.value, 0);
};

for (const kind of STORE_KINDS) {
  describe(`Microsoft Entra ID change notifications (${kind} store)`, function () {
    this.timeout(20_000);
    let t: EntraTest;
    let tenant: Tenant;
    let dir: any;
    let logs: Array<Record<string, unknown>>;

    beforeEach(async () => {
      const captured = capturedLogger('warn');
      logs = captured.lines;
      t = await startEntraTest(
        await openStore(kind, 9),
        { notificationDelayMs: 300, subscriptionMinutes: 60, renewWithinMinutes: 30 },
        { https: true, logger: captured.logger },
      );
      tenant = t.tenant();
      for (let i = 0; i < 5; i++) tenant.addUser();
      dir = await t.directory();
      await t.sync();
      await t.newEvents(dir.id);
    });
    afterEach(() => t.close());

    it('answers the validation handshake with the token as plain text', async () => {
      const res = await fetch(
        `${t.service.url}/api/v1/dsync/microsoft/notifications?validationToken=${encodeURIComponent('Validation: Testing <b>&')}`,
        {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
        },
      );
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(await res.text()).to.equal('Validation: Testing <b>&');
      // Graph's handshake has no body; a request with one is not a validation, and echoes nothing.
      const withBody = await fetch(`${t.service.url}/api/v1/dsync/microsoft/notifications?validationToken=x`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(withBody.status).to.equal(400);
    });

    it('the first sync subscribes to users and groups (URL validated by Graph); a change is synced within 5 s with no cron call', async () => {
      const subs = [...t.fake.subscriptions.all.values()];
      expect(subs.map((s) => s.resource).sort()).to.deep.equal(['groups', 'users']);
      expect(
        subs.every(
          (s) =>
            s.notificationUrl === `${t.service.url}/api/v1/dsync/microsoft/notifications` &&
            s.clientState?.startsWith(`${dir.id}:`),
        ),
      ).to.equal(true);
      const status = await t.status(dir.id);
      expect(status.notifications.state).to.equal('active');
      expect(JSON.stringify(status)).to.not.include(subs[0]!.clientState!.split(':')[1]); // the secret stays in its record

      const added = tenant.addUser();
      let events: any[] = [];
      // Within seconds of the change, not at the next scheduled sync (hours away); idle, about 0.3 s.
      await until(
        async () => (events = [...events, ...(await t.newEvents(dir.id))]).length > 0,
        'the notified change to be synced',
        15_000,
      );
      expect(events.map((e) => `${e.event}:${e.data.email}`)).to.deep.equal([`user.created:${added.mail}`]);
    });

    it('a burst of notifications is one sync', async () => {
      const before = await runs(t);
      const g = tenant.addGroup({ displayName: 'Burst' });
      for (const u of [...tenant.users.keys()]) tenant.addMember(g.id, u);
      for (let i = 0; i < 10; i++) tenant.addUser();
      await until(
        async () => (await t.service.dsync.store.countUsers(dir.id)) === 15,
        'the burst to be synced',
        15_000,
      );
      await until(() => t.service.dsync.microsoft.idle, 'the notification-triggered sync to finish', 15_000);
      expect((await runs(t)) - before).to.equal(1);
    });

    it('a notification with a wrong clientState is ignored (no sync)', async () => {
      const before = await runs(t);
      const sub = [...t.fake.subscriptions.all.values()].find((s) => s.resource === 'users')!;
      const forged = {
        subscriptionId: sub.id,
        changeType: 'updated',
        resource: 'Users/x',
        clientState: `${dir.id}:not-the-secret`,
        tenantId: TENANT_A,
      };
      expect(await t.fake.subscriptions.post(sub.notificationUrl, [forged])).to.equal(202);
      expect(
        await t.fake.subscriptions.post(sub.notificationUrl, [{ ...forged, clientState: 'no-directory:x' }]),
      ).to.equal(202);
      await sleep(800);
      expect(t.service.dsync.microsoft.idle).to.equal(true);
      expect(await runs(t)).to.equal(before);
      const ignored = await t.service.dsync.metrics.registry.getSingleMetricAsString(
        'dsync_microsoft_notifications_total',
      );
      expect(ignored).to.match(/outcome="ignored"} 2/);
    });

    it('a clientState naming a directory with another secret is a failed authentication: past the limit, 429 before the body is read', async () => {
      const before = await runs(t);
      const url = `${t.service.url}/api/v1/dsync/microsoft/notifications`;
      const post = (value: unknown[]) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ value }),
        });
      const note = (clientState: string) => ({
        subscriptionId: 'x',
        changeType: 'updated',
        resource: 'Users/x',
        clientState,
        tenantId: TENANT_A,
      });
      // A deleted directory's subscriptions notify until they expire: ignored, not counted; one log line a batch.
      for (let i = 0; i < 15; i++)
        expect((await post(Array(1000).fill(note('gone-directory:secret')))).status).to.equal(202);
      const lines = () =>
        logs.filter((l) => l.msg === 'ignored Graph notifications whose clientState does not check out');
      expect(lines()).to.have.length(15);
      expect(lines()[0]).to.deep.include({ ignored: 1000, forged: 0 });
      // Guessing a real directory's secret: ten failures (DSYNC_AUTH_FAILURE_LIMIT's default), then refused unread.
      for (let i = 0; i < 10; i++) expect((await post([note(`${dir.id}:guess-${i}`)])).status).to.equal(202);
      const refused = await post([note(`${dir.id}:guess-10`)]);
      expect(refused.status).to.equal(429);
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
      expect(lines()).to.have.length(25);
      const metric = await t.service.dsync.metrics.registry.getSingleMetricAsString('dsync_auth_failures_total');
      expect(metric)
        .to.include('api="notifications",outcome="failed"} 10')
        .and.include('api="notifications",outcome="refused"} 1');
      expect(JSON.stringify(logs)).to.not.include('guess-').and.not.include('gone-directory:secret');
      await sleep(500);
      expect(await runs(t), 'nothing synced').to.equal(before);
    });

    it('renews a subscription before it expires (same subscription, later expiry)', async () => {
      await t.close();
      // A renewal window longer than the lifetime: every sync renews.
      t = await startEntraTest(
        await openStore(kind, 9),
        { subscriptionMinutes: 60, renewWithinMinutes: 120 },
        { https: true },
      );
      tenant = t.tenant();
      tenant.addUser();
      dir = await t.directory();
      await t.sync();
      const first = new Map([...t.fake.subscriptions.all.values()].map((s) => [s.id, s.expirationDateTime]));
      expect(first.size).to.equal(2);
      await sleep(20);
      await t.sync();
      const after = [...t.fake.subscriptions.all.values()];
      expect(after.map((s) => s.id).sort()).to.deep.equal([...first.keys()].sort());
      for (const s of after) expect(Date.parse(s.expirationDateTime)).to.be.greaterThan(Date.parse(first.get(s.id)!));
      expect((await t.status(dir.id)).notifications.state).to.equal('active');
    });

    it('a subscriptionRemoved lifecycle event: the subscription is created again, and the directory synced', async () => {
      const users = [...t.fake.subscriptions.all.values()].find((s) => s.resource === 'users')!;
      const before = await runs(t);
      t.fake.subscriptions.lifecycle(users.id, 'subscriptionRemoved');
      await until(
        () => [...t.fake.subscriptions.all.values()].filter((s) => s.resource === 'users').length === 1,
        'a new users subscription',
        5000,
      );
      expect(t.fake.subscriptions.all.has(users.id)).to.equal(false);
      await until(async () => (await runs(t)) > before, 'the sync a lifecycle event asks for', 5000);
      const added = tenant.addUser();
      await until(
        async () => (await t.newEvents(dir.id)).some((e) => e.data.email === added.mail),
        'a change notified on the new subscription',
        5000,
      );
    });
  });
}
