/**
 * Each HR system's sync against its fake over real HTTP, the same acceptance for the three (BambooHR through its
 * changed-since feed, HiBob and Personio through a full snapshot diffed against the store): connecting with good
 * and bad credentials, the first sync, every change kind yielding exactly its events, a resync with nothing to do
 * emitting nothing, throttling, a revoked key leaving the data alone. Then what only one provider has.
 */
import { expect } from 'chai';
import { labels } from '../support/google-harness.js';
import { openStore, until } from '../support/harness.js';
import { HR_TYPES, type HrFake } from '../support/hr-fakes.js';
import { startHrisTest, type HrisTest } from '../support/hris-harness.js';
import { providerExtension } from '../../src/core/custom-attributes.js';

/**
 * Requests of a run with nothing to do: BambooHR's feed; Bob's list and search; Personio's token, departments, one
 * page, each employment.
 */
const IDLE_REQUESTS = { bamboohr: 1, hibob: 2, personio: 3 + 12 };
/** Each provider's own fields (`<provider>:<field>`) as its fake hires an employee. */
const OWN_FIELDS = {
  bamboohr: { location: 'HQ', employmentStatus: 'Full-Time', country: 'United States' },
  hibob: { site: 'London', employmentType: 'Permanent', country: 'United Kingdom' },
  personio: { office: '41', employmentType: 'INTERNAL' },
};

for (const type of HR_TYPES) {
  describe(`HRIS provider ${type} (memory store)`, function () {
    this.timeout(20_000);
    let t: HrisTest;
    let f: HrFake;
    let dir: any;
    let ids: string[];

    beforeEach(async () => {
      t = await startHrisTest(await openStore('memory'), { webhookDelayMs: 50 });
      f = t.fakes[type];
      ids = Array.from({ length: 12 }, (_, i) => f.hire({ department: i % 2 ? 'Sales' : 'Engineering' }).id);
      f.terminate(ids[11]!);
      f.setEmail(ids[10]!, null);
      f.age();
      dir = await t.directory(type);
      // Connecting syncs by itself within seconds.
      await until(
        async () => t.service.dsync.hris.idle && (await t.status(dir.id)).state === 'succeeded',
        'the first sync after connecting',
      );
      await t.newEvents(dir.id);
      f.age();
      f.resetCalls();
    });
    afterEach(() => t.close());

    const run = async () => {
      const report = await t.sync();
      expect(report.failed, JSON.stringify(report)).to.equal(0);
      f.age();
      return labels(await t.newEvents(dir.id));
    };

    it('connects with good credentials only, naming the provider and its answer otherwise', async () => {
      const other = await t.service.createDirectory({ type });
      const bad = await t.connect(other.id, f.wrong());
      expect(bad.status).to.equal(400);
      expect(bad.body.error.message).to.match(new RegExp(`^${f.name} refused the credentials \\(HTTP 401`));
      expect(await t.service.dsync.store.getSyncRecord(other.id, 'hris-credentials')).to.equal(null);
      const good = await t.connect(other.id, f.credentials());
      expect(good.status, JSON.stringify(good.body)).to.equal(200);
      expect(good.body.data).to.deep.include({ type, provider: f.name });
      for (const secret of Object.values(f.credentials()).filter((v) => /key|token|secret/.test(v)))
        expect(JSON.stringify(good.body)).to.not.include(secret);
    });

    it('the first sync made every employee with a work email a user, each department a group; a resync emits nothing', async () => {
      expect(await t.service.dsync.store.countUsers(dir.id)).to.equal(11);
      expect(await t.service.dsync.store.countGroups(dir.id)).to.equal(2);
      const terminated = await t.service.dsync.store.getUser(dir.id, ids[11]!);
      expect(terminated!.body.active).to.equal(false);
      expect(await t.service.dsync.store.userGroupIds(dir.id, ids[11]!)).to.have.length(1);
      const user = await t.service.api('GET', `/api/v1/directory-sync/users/${ids[0]}?directoryId=${dir.id}`);
      expect(user.body.data.raw[providerExtension(type)]).to.deep.equal(OWN_FIELDS[type]);
      expect(user.body.data.raw.schemas).to.include(providerExtension(type));
      expect(await run()).to.deep.equal([]);
      expect(await t.status(dir.id)).to.deep.include({
        state: 'succeeded',
        provider: type,
        provider_requests: IDLE_REQUESTS[type],
      });
    });

    it('hire, rename, department move, terminate, rehire, delete: each exactly its events', async () => {
      const hired = f.hire({ department: 'Sales' });
      expect(await run()).to.deep.equal([`user.created:${hired.email}`, `group.user_added:Sales/${hired.email}`]);
      const e = f.email(ids[2]!)!;
      f.rename(ids[2]!, 'Renamed');
      expect(await run()).to.deep.equal([`user.updated:${e}`]);
      f.move(ids[2]!, 'Sales');
      expect(await run()).to.deep.equal([
        `user.updated:${e}`,
        `group.user_added:Sales/${e}`,
        `group.user_removed:Engineering/${e}`,
      ]);
      f.terminate(ids[2]!);
      expect(await run()).to.deep.equal([`user.updated:${e}`]);
      expect((await t.service.dsync.store.getUser(dir.id, ids[2]!))!.body.active).to.equal(false);
      f.rehire(ids[2]!);
      expect(await run()).to.deep.equal([`user.updated:${e}`]);
      f.remove(ids[2]!);
      expect(await run()).to.deep.equal([`group.user_removed:Sales/${e}`, `user.deleted:${e}`]);
    });

    it('users carry their department as a predefined attribute; with inactive_users: delete a terminated employee leaves their department, then is deleted', async () => {
      const api = await t.service.api('GET', `/api/v1/directory-sync/users/${ids[3]}?directoryId=${dir.id}`);
      expect(api.body.data.attributes).to.deep.include({ department: 'Sales' });
      const strict = await t.directory(type, { inactive_users: 'delete' });
      await until(
        async () => t.service.dsync.hris.idle && (await t.status(strict.id)).state === 'succeeded',
        'the first sync of the second directory',
      );
      // The employee terminated before the first sync is never stored.
      expect(await t.service.dsync.store.getUser(strict.id, ids[11]!)).to.equal(null);
      expect(await t.service.dsync.store.countUsers(strict.id)).to.equal(10);
      await t.newEvents(strict.id);
      f.age();
      const e = f.email(ids[2]!)!;
      f.terminate(ids[2]!);
      const report = await t.sync(strict.id);
      expect(report.failed, JSON.stringify(report)).to.equal(0);
      expect(labels(await t.newEvents(strict.id))).to.deep.equal([
        `group.user_removed:Engineering/${e}`,
        `user.deleted:${e}`,
      ]);
      expect(await t.service.dsync.store.getUser(strict.id, ids[2]!)).to.equal(null);
    });

    it('throttled: waits as told and succeeds', async () => {
      f.hire({ department: 'Sales' });
      f.throttle(2);
      expect(await run()).to.have.length(2);
      expect((await t.status(dir.id)).throttled).to.equal(2);
    });

    it('concurrent syncs of the directory: one does the work, the other is skipped; each change is emitted once', async () => {
      const hired = f.hire({ department: 'Sales' });
      f.throttle(1, 503, '1'); // holds the first run a second
      const reports = await Promise.all([t.sync(dir.id), t.sync(dir.id)]);
      expect(reports.map((r) => r.directories[0].state).sort()).to.deep.equal(['skipped', 'succeeded']);
      expect(labels(await t.newEvents(dir.id))).to.deep.equal([
        `user.created:${hired.email}`,
        `group.user_added:Sales/${hired.email}`,
      ]);
    });

    it('Prefer: respond-async: 202 with the run to read, which ends succeeded', async () => {
      f.hire({ department: 'Sales' });
      const res = await fetch(`${t.service.url}/api/v1/dsync/cron/sync-hris?directoryId=${dir.id}`, {
        method: 'POST',
        headers: { authorization: 'Api-Key test-api-key', prefer: 'respond-async' },
      });
      expect(res.status).to.equal(202);
      const location = res.headers.get('location')!;
      let run: any;
      await until(
        async () => (run = (await t.service.api('GET', location)).body.data).state !== 'running',
        'the background run',
      );
      expect(run).to.deep.include({ provider: 'hris', state: 'succeeded', created: 1, failed: 0 });
    });

    it('a webhook is a hint: the directory is synced within seconds, whatever the payload names', async () => {
      const moved = ids[4]!;
      const email = f.email(moved)!;
      f.move(moved, 'Sales');
      const call = f.webhook(ids[0]!);
      const res = await fetch(`${t.service.url}/api/v1/dsync/hris/webhooks/${dir.id}`, { method: 'POST', ...call });
      expect(res.status).to.equal(202);
      await until(
        async () =>
          (await t.service.dsync.store.userGroupIds(dir.id, moved)).length === 1 &&
          t.service.dsync.hris.idle &&
          f.totalCalls > 0,
        'the webhook-triggered sync',
      );
      expect(labels(await t.newEvents(dir.id))).to.deep.equal([
        `user.updated:${email}`,
        `group.user_added:Sales/${email}`,
        `group.user_removed:Engineering/${email}`,
      ]);
    });

    it('a revoked key: invalid_credentials, nothing touched', async () => {
      f.rename(ids[0]!, 'Unseen');
      f.revoke();
      const report = await t.sync();
      expect(report.directories[0].state).to.equal('invalid_credentials');
      expect(report.directories[0].error.message).to.match(new RegExp(`^${f.name} refused the credentials`));
      expect(await t.newEvents(dir.id)).to.deep.equal([]);
      expect(await t.service.dsync.store.countUsers(dir.id)).to.equal(11);
    });
  });
}

describe('HRIS provider specifics (memory store)', function () {
  this.timeout(20_000);
  let t: HrisTest;
  beforeEach(async () => (t = await startHrisTest(await openStore('memory'))));
  afterEach(() => t.close());

  it('BambooHR without custom reports: the employee directory (active employees) serves the full read', async () => {
    t.bamboo.customReports = false;
    const boss = t.bamboo.hire({ department: 'Sales' });
    t.bamboo.hire({ department: 'Sales', supervisorEId: boss.id });
    t.bamboo.hire({ department: 'Support', status: 'Inactive' });
    const dir = await t.directory('bamboohr');
    expect((await t.sync()).failed).to.equal(0);
    expect(await t.service.dsync.store.countUsers(dir.id)).to.equal(2);
    expect(t.bamboo.calls).to.include({ report: 1, directory: 1 });
  });

  it('an empty listing is an outage, never "everyone left": nothing is deleted', async () => {
    for (let i = 0; i < 3; i++) t.bob.hire();
    const dir = await t.directory('hibob');
    expect((await t.sync()).failed).to.equal(0);
    t.bob.employees.clear();
    const report = await t.sync();
    expect(report.directories[0]).to.deep.include({ state: 'failed' });
    expect(report.directories[0].error.message).to.equal(
      'HiBob: listed no employee with a work email; nothing was deleted',
    );
    expect(await t.service.dsync.store.countUsers(dir.id)).to.equal(3);
  });

  it('HiBob without the named lists: department names from the search', async () => {
    t.bob.namedLists = false;
    t.bob.hire({ department: 'Platform' });
    const dir = await t.directory('hibob');
    expect((await t.sync()).failed).to.equal(0);
    expect((await t.service.dsync.store.listGroups(dir.id, 0, 10)).items.map((g) => g.body.displayName)).to.deep.equal([
      'Platform',
    ]);
  });

  it('Personio without the org unit list: each department read once by its id', async () => {
    t.personio.orgUnitList = false;
    for (let i = 0; i < 6; i++) t.personio.hire({ department: i % 2 ? 'Finance' : 'Legal' });
    const dir = await t.directory('personio');
    t.personio.resetCalls();
    expect((await t.sync()).failed).to.equal(0);
    expect(
      (await t.service.dsync.store.listGroups(dir.id, 0, 10)).items.map((g) => g.body.displayName).sort(),
    ).to.deep.equal(['Finance', 'Legal']);
    expect(t.personio.calls.orgUnits).to.equal(1 + 2);
  });

  it('Personio: a listing cut short (an employment that keeps failing) deletes nothing; the next complete one does', async () => {
    for (let i = 0; i < 60; i++) t.personio.hire({ department: 'Legal' });
    const dir = await t.directory('personio');
    expect((await t.sync()).failed).to.equal(0);
    await t.newEvents(dir.id);
    const gone = [...t.personio.persons.keys()].slice(0, 3);
    for (const id of gone) t.personio.persons.delete(id);
    t.personio.fail('employments', 500, 40); // more than every attempt of the reads in flight
    const report = await t.sync();
    expect(report.directories[0]).to.deep.include({ state: 'failed' });
    expect((await t.newEvents(dir.id)).filter((e) => e.event === 'user.deleted')).to.deep.equal([]);
    expect(await t.service.dsync.store.countUsers(dir.id)).to.equal(60);
    expect((await t.sync()).deleted).to.equal(3);
  });

  it("Personio: persons in pages of 50, each person's employment; an expired token is replaced once", async () => {
    for (let i = 0; i < 120; i++) t.personio.hire({ department: `Dept ${i % 4}` });
    const dir = await t.directory('personio');
    t.personio.resetCalls();
    t.personio.fail('persons', 401, 1); // the token expired between two requests
    const report = await t.sync();
    expect(report).to.deep.include({ created: 124, failed: 0 });
    expect(t.personio.calls).to.deep.equal({ token: 2, persons: 4, employments: 120, orgUnits: 1 });
    const user = await t.service.dsync.store.getUser(dir.id, [...t.personio.persons.keys()][5]!);
    expect(user!.body['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).to.deep.equal({
      department: 'Dept 1',
    });
    expect(user!.body.title).to.equal('Engineer');
  });

  it("HiBob: department names from the named list (a tree), titles by name, Bob's own 429 obeyed", async () => {
    const boss = t.bob.hire({ department: 'Platform' });
    t.bob.hire({ department: 'Platform', reportsTo: boss.id, title: 'Staff Engineer' });
    const dir = await t.directory('hibob');
    t.bob.fail('search', 429, 1, '0');
    expect((await t.sync()).failed).to.equal(0);
    const groups = await t.service.dsync.store.listGroups(dir.id, 0, 10);
    expect(groups.items.map((g) => g.body.displayName)).to.deep.equal(['Platform']);
    const report = await t.service.dsync.store.getUser(dir.id, [...t.bob.employees.keys()][1]!);
    expect(report!.body.title).to.equal('Staff Engineer');
    expect(report!.body['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).to.deep.include({
      department: 'Platform',
      manager: { value: boss.id },
    });
  });
});
