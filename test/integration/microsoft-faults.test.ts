/**
 * The Entra sync when things go wrong, against the fake Entra over HTTPS: throttling obeyed per tenant, a
 * revoked consent reported without touching the data, two concurrent syncs doing the work once, the
 * mass-deletion guard, a certificate credential (msal signs the client assertion; the fake checks it).
 */
import { expect } from 'chai';
import { parseCertificatePem } from '../../src/providers/microsoft/certificate.js';
import type { Tenant } from '../support/fake-entra/index.js';
import { selfSignedPem, startEntraTest, TENANT_A, TENANT_B, type EntraTest } from '../support/entra-harness.js';
import { openStore, STORE_KINDS, until } from '../support/harness.js';

for (const kind of STORE_KINDS) {
  describe(`Microsoft Entra ID sync faults (${kind} store)`, function () {
    this.timeout(20_000);
    let t: EntraTest;
    let a: Tenant;
    let b: Tenant;

    beforeEach(async () => {
      t = await startEntraTest(await openStore(kind, 8));
      a = t.tenant(TENANT_A);
      b = t.tenant(TENANT_B);
      for (const tenant of [a, b]) {
        const g = tenant.addGroup({ displayName: 'Eng' });
        for (let i = 0; i < 30; i++) tenant.addMember(g.id, tenant.addUser().id);
      }
    });
    afterEach(() => t.close());

    it("throttling (429 and 503 with Retry-After) holds back only the throttled tenant's requests, for as long as Graph says", async () => {
      const dirA = await t.directory(TENANT_A);
      const dirB = await t.directory(TENANT_B);
      t.fake.inject({ route: 'users', status: 429, retryAfter: 1, tenantId: TENANT_A });
      t.fake.inject({ route: 'groups', status: 503, retryAfter: 1, tenantId: TENANT_A });
      const started = Date.now();
      let bDoneAt = 0;
      const [ra, rb] = await Promise.all([t.sync(dirA.id), t.sync(dirB.id).then((r) => ((bDoneAt = Date.now()), r))]);
      const aTook = Date.now() - started;
      expect(ra.directories[0].state).to.equal('succeeded');
      expect(rb.directories[0].state).to.equal('succeeded');
      expect(aTook).to.be.at.least(2000); // two waits of a second each, as told
      expect(bDoneAt - started).to.be.below(aTook); // tenant B never waited for A's throttling
      const status = await t.status(dirA.id);
      expect(status).to.deep.include({ throttled: 2 });
      expect(status.counts.users_created).to.equal(30);
      expect((await t.status(dirB.id)).throttled).to.equal(0);
      const metrics = await t.service.dsync.metrics.registry.getSingleMetricAsString(
        'dsync_microsoft_graph_throttled_total',
      );
      expect(metrics).to.match(/dsync_microsoft_graph_throttled_total 2/);
    });

    it('a revoked consent is reported (invalid_credentials) without touching the data, while another tenant syncs; consenting again recovers', async () => {
      const dirA = await t.directory(TENANT_A);
      const dirB = await t.directory(TENANT_B);
      await t.sync();
      await t.newEvents(dirA.id);
      const before = await t.service.dsync.store.countUsers(dirA.id);
      // The tenant's admin removes the app (its service principal): tokens are refused, Graph denies cached ones.
      a.consented = false;
      a.removeUser([...a.users.keys()][0]!);
      b.addUser();
      const report = await t.sync();
      const ra = report.directories.find((d: any) => d.id === dirA.id);
      expect(ra.state).to.equal('invalid_credentials');
      expect(ra.error.code).to.equal('DSYNC_MICROSOFT_INVALID_CREDENTIALS');
      expect(ra.error.message).to.match(/consent/);
      expect(report.directories.find((d: any) => d.id === dirB.id).state).to.equal('succeeded');
      expect(await t.newEvents(dirA.id)).to.deep.equal([]);
      expect(await t.service.dsync.store.countUsers(dirA.id)).to.equal(before);
      expect((await t.status(dirA.id)).state).to.equal('invalid_credentials');

      // Only the permissions taken away (the app stays): Graph answers 403 Authorization_RequestDenied.
      a.consented = true;
      a.rolesGranted = false;
      expect((await t.sync(dirA.id)).directories[0].state).to.equal('invalid_credentials');
      a.rolesGranted = true;
      const again = await t.sync(dirA.id);
      expect(again.directories[0].state).to.equal('succeeded');
      expect(again.deleted).to.equal(1);
    });

    it('two concurrent syncs of one directory do the work once (the other is skipped)', async () => {
      const dir = await t.directory(TENANT_A);
      t.fake.delayMs = 30;
      const [r1, r2] = await Promise.all([t.sync(dir.id), t.sync(dir.id)]);
      const states = [r1.directories[0].state, r2.directories[0].state].sort();
      expect(states).to.deep.equal(['skipped', 'succeeded']);
      const events = await t.newEvents(dir.id);
      expect(events.filter((e) => e.event === 'user.created')).to.have.length(30);
      expect(events.filter((e) => e.event === 'group.user_added')).to.have.length(30);
    });

    it('Prefer: respond-async answers 202 with a Location, joins the run already going, and the run (in the store) reads back with its counts', async () => {
      const dir = await t.directory(TENANT_A);
      t.fake.delayMs = 30;
      const start = () =>
        fetch(`${t.service.url}/api/v1/dsync/cron/sync-microsoft?directoryId=${dir.id}`, {
          method: 'POST',
          headers: { authorization: 'Api-Key test-api-key', prefer: 'respond-async' },
        });
      const first = await start();
      const second = await start();
      expect([first.status, second.status]).to.deep.equal([202, 202]);
      const location = first.headers.get('location')!;
      expect(location).to.match(/^\/api\/v1\/dsync\/cron\/sync-microsoft\/[0-9a-f-]{36}$/);
      expect(second.headers.get('location')).to.equal(location);
      expect(((await first.json()) as any).data).to.deep.include({
        provider: 'microsoft',
        state: 'running',
        directory_id: dir.id,
        progress: { directories: 1, done: 0 },
      });
      let run: any;
      await until(
        async () => (run = (await t.service.api('GET', location)).body.data).state !== 'running',
        'the run to finish',
        10_000,
      );
      expect(run).to.deep.include({
        state: 'succeeded',
        created: 31,
        failed: 0,
        error: null,
        progress: { directories: 1, done: 1 },
      });
      expect(run.directories[0])
        .to.deep.include({ id: dir.id, state: 'succeeded' })
        .and.nested.include({ 'counts.users_created': 30 });
      // Kept in the store the replicas share, not in the process that ran it.
      expect(JSON.parse((await t.service.dsync.store.getSyncRun(run.id))!)).to.deep.include({
        id: run.id,
        provider: 'microsoft',
        state: 'succeeded',
      });
      expect(
        (await t.service.api('GET', '/api/v1/dsync/cron/sync-microsoft/00000000-0000-4000-8000-000000000000')).status,
      ).to.equal(404);
    });

    it('the mass-deletion guard stops a delta that would delete too much (creations still applied); the links do not move on', async () => {
      const dir = await t.directory(TENANT_A);
      await t.sync();
      await t.newEvents(dir.id);
      for (const id of [...a.users.keys()].slice(0, 12)) a.removeUser(id);
      const added = a.addUser();
      const report = await t.sync();
      expect(report.directories[0].state).to.equal('guarded');
      expect(report.directories[0].error.code).to.equal('DSYNC_MICROSOFT_MASS_DELETION');
      expect(report.directories[0].error.message).to.match(/DSYNC_MICROSOFT_MAX_DELETE_SHARE/);
      expect(await t.service.dsync.store.countUsers(dir.id)).to.equal(31);
      expect((await t.newEvents(dir.id)).map((e) => e.event)).to.deep.equal(['user.created']);
      expect((await t.service.dsync.store.getUser(dir.id, added.id))!.body.userName).to.equal(added.userPrincipalName);
      expect((await t.sync()).directories[0].state).to.equal('guarded'); // the same round again, not skipped past
    });

    it('a certificate credential: msal signs the client assertion with the key, Entra checks it against the uploaded certificate', async () => {
      await t.close();
      const pem = selfSignedPem();
      t = await startEntraTest(await openStore(kind, 8), {
        clientSecret: undefined,
        certificate: parseCertificatePem(pem),
      });
      t.tenant(TENANT_A).addUser();
      const dir = await t.directory(TENANT_A);
      // Not uploaded to the app registration yet: refused for good.
      expect((await t.sync(dir.id)).directories[0].state).to.equal('invalid_credentials');
      t.fake.authority.registerCertificate(pem);
      const report = await t.sync(dir.id);
      expect(report.directories[0].state, JSON.stringify(report)).to.equal('succeeded');
      expect(report.created).to.equal(1);
      expect(t.fake.authority.grants).to.deep.equal({ secret: 0, assertion: 1 });
    });
  });
}
