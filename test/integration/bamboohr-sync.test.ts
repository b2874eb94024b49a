/**
 * The BambooHR pull sync against a fake BambooHR over real HTTP: connecting through the management API (good and
 * bad keys), the first sync, every change kind through the changed-since feed (each yielding exactly its events,
 * at a request cost in proportion to the changes), a resync with nothing to do, throttling, a revoked key, the
 * mass-deletion guard (memory store and one Redis).
 */
import { expect } from 'chai';
import type { BEmployee } from '../support/fake-bamboohr.js';
import { labels } from '../support/google-harness.js';
import { STORE_KINDS, openStore } from '../support/harness.js';
import { bambooCredentials, startHrisTest, type HrisTest } from '../support/hris-harness.js';
import { providerExtension } from '../../src/core/custom-attributes.js';

for (const kind of STORE_KINDS) {
  describe(`BambooHR pull sync (${kind} store)`, function () {
    this.timeout(20_000);
    let t: HrisTest;
    let people: BEmployee[];

    beforeEach(async () => {
      t = await startHrisTest(await openStore(kind, 7));
      const b = t.bamboo;
      // 30 employees in 3 departments; one without a work email (no user), one terminated.
      people = Array.from({ length: 30 }, (_, i) =>
        b.hire({ department: ['Engineering', 'Sales', 'Support'][i % 3]! }),
      );
      b.change(people[1]!.id, {
        supervisorEId: people[0]!.id,
        jobTitle: 'Staff Engineer',
        workPhone: '+1 801 555 0100',
      });
      b.change(people[28]!.id, { workEmail: null });
      b.change(people[29]!.id, { status: 'Inactive' });
      b.age();
    });
    afterEach(() => t.close());

    describe('connecting', () => {
      it('good credentials: 200 with what is not secret, the key never echoed', async () => {
        const dir = await t.service.createDirectory({ type: 'bamboohr' });
        const res = await t.connect(dir.id, bambooCredentials(t.bamboo, { webhook_secret: 'wh-secret' }));
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.data).to.deep.include({
          directory_id: dir.id,
          type: 'bamboohr',
          provider: 'BambooHR',
          account: { subdomain: 'acme', webhook_signing: 'on' },
        });
        expect(JSON.stringify(res.body)).to.not.include('bamboo-key-1').and.not.include('wh-secret');
        expect(t.bamboo.calls.employee).to.equal(1); // tried at once: one small read
        expect((await t.status(dir.id)).state).to.equal('pending');
      });

      it("a refused key is a 400 naming BambooHR's answer, and nothing is stored", async () => {
        const dir = await t.service.createDirectory({ type: 'bamboohr' });
        const bad = await t.connect(dir.id, bambooCredentials(t.bamboo, { api_key: 'not-a-key' }));
        expect(bad.status).to.equal(400);
        expect(bad.body.error.message).to.equal(
          'BambooHR refused the credentials (HTTP 401: Invalid API key); check them and the permissions they carry, then enter them again',
        );
        t.bamboo.forbidden.add('no-access');
        const forbidden = await t.connect(dir.id, bambooCredentials(t.bamboo, { api_key: 'no-access' }));
        expect(forbidden.status).to.equal(400);
        expect(forbidden.body.error.message).to.include('HTTP 403: You do not have access to this resource');
        expect(await t.service.dsync.store.getSyncRecord(dir.id, 'hris-credentials')).to.equal(null);
        const report = await t.sync(dir.id);
        expect(report.directories[0]).to.deep.include({ state: 'not_authorized' });
        expect(report.directories[0].error.code).to.equal('DSYNC_HRIS_NOT_CONNECTED');
      });

      it('input is checked field by field; another type is refused; an unknown company is a 502', async () => {
        const dir = await t.service.createDirectory({ type: 'bamboohr' });
        const missing = await t.connect(dir.id, { subdomain: 'acme' });
        expect([missing.status, missing.body.error.message]).to.deep.equal([400, 'api_key is required']);
        const sub = await t.connect(dir.id, { subdomain: 'acme.bamboohr.com/x', api_key: 'k' });
        expect(sub.status).to.equal(400);
        expect(sub.body.error.message).to.match(/^subdomain must be the company part/);
        const extra = await t.connect(dir.id, { ...bambooCredentials(t.bamboo), token: 'x' });
        expect(extra.status).to.equal(400);
        const scim = await t.service.createDirectory({ type: 'okta-scim-v2' });
        const wrong = await t.connect(scim.id, bambooCredentials(t.bamboo));
        expect([wrong.status, wrong.body.error.code]).to.deep.equal([400, 400]);
        const unknown = await t.connect(dir.id, { subdomain: 'other', api_key: 'bamboo-key-1' });
        expect(unknown.status).to.equal(502);
        expect(
          (await t.service.api('PUT', '/api/v1/directory-sync/nope/hris/credentials', bambooCredentials(t.bamboo)))
            .status,
        ).to.equal(404);
      });
    });

    describe('syncing', () => {
      let dir: any;
      beforeEach(async () => {
        dir = await t.directory('bamboohr');
        t.bamboo.resetCalls();
      });

      it('first sync: every employee with a work email, departments with their members, one report; a resync reads only the feed and emits nothing', async () => {
        const report = await t.sync();
        expect(report).to.deep.include({ created: 29 + 3, updated: 0, deleted: 0, failed: 0 });
        const events = await t.newEvents(dir.id);
        const l = labels(events);
        expect(l.filter((x) => x.startsWith('user.created'))).to.have.length(29);
        expect(l.filter((x) => x.startsWith('group.created')).sort()).to.deep.equal([
          'group.created:Engineering',
          'group.created:Sales',
          'group.created:Support',
        ]);
        expect(l.filter((x) => x.startsWith('group.user_added'))).to.have.length(29);
        const second = events.find((e) => e.event === 'user.created' && e.data.id === people[1]!.id);
        expect(second.data).to.deep.include({
          email: people[1]!.workEmail,
          first_name: people[1]!.firstName,
          last_name: people[1]!.lastName,
          active: true,
        });
        expect(second.data.raw).to.deep.include({
          userName: people[1]!.workEmail,
          externalId: people[1]!.id,
          title: 'Staff Engineer',
        });
        expect(second.data.raw['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).to.deep.equal({
          employeeNumber: people[1]!.employeeNumber,
          department: 'Sales',
          division: 'North America',
          manager: { value: people[0]!.id },
        });
        expect(second.data.raw['urn:dsync:params:scim:schemas:extension:hris:2.0:User']).to.deep.equal({
          startDate: '2024-02-01',
        });
        expect(second.data.raw[providerExtension('bamboohr')]).to.deep.equal({
          location: 'HQ',
          employmentStatus: 'Full-Time',
          workPhone: '+1 801 555 0100',
          country: 'United States',
        });
        // The predefined attributes, the manager's email read from the manager's user (whichever was written first).
        const api = await t.service.api('GET', `/api/v1/directory-sync/users/${people[1]!.id}?directoryId=${dir.id}`);
        expect(api.body.data.attributes).to.deep.equal({
          employee_number: people[1]!.employeeNumber,
          job_title: 'Staff Engineer',
          department: 'Sales',
          division: 'North America',
          manager_id: people[0]!.id,
          manager_email: people[0]!.workEmail,
          start_date: '2024-02-01',
        });
        const terminated = events.find((e) => e.event === 'user.created' && e.data.id === people[29]!.id);
        expect(terminated.data.active).to.equal(false);
        expect(l).to.include(`group.user_added:Support/${people[29]!.workEmail}`); // a terminated employee stays in their department
        const status = await t.status(dir.id);
        expect(status).to.deep.include({
          state: 'succeeded',
          provider: 'bamboohr',
          mode: 'full',
          employees_read: 30,
          provider_requests: 1,
          throttled: 0,
        });
        expect(t.bamboo.calls).to.deep.equal({ employee: 0, report: 1, changed: 0, directory: 0 });

        const before = await t.service.dsync.store.getUser(dir.id, people[0]!.id);
        t.bamboo.resetCalls();
        const again = await t.sync();
        expect(again).to.deep.include({ created: 0, updated: 0, deleted: 0, failed: 0 });
        expect(await t.newEvents(dir.id)).to.deep.equal([]);
        expect(await t.service.dsync.store.getUser(dir.id, people[0]!.id)).to.deep.equal(before);
        expect(await t.status(dir.id)).to.deep.include({
          mode: 'changed-since',
          employees_read: 0,
          provider_requests: 1,
        });
        expect(t.bamboo.calls).to.deep.equal({ employee: 0, report: 0, changed: 1, directory: 0 });
      });

      describe('after a first sync, each change yields exactly its events, reading only the changed employees', () => {
        beforeEach(async () => {
          await t.sync();
          await t.newEvents(dir.id);
          t.bamboo.resetCalls();
        });
        const changed = async (reads: number) => {
          const report = await t.sync();
          expect(report.failed, JSON.stringify(report)).to.equal(0);
          expect(t.bamboo.calls, 'requests').to.deep.equal({ employee: reads, report: 0, changed: 1, directory: 0 });
          expect((await t.status(dir.id)).mode).to.equal('changed-since');
          // The next change comes later (the feed's grain is a second: a run rereads the second before it).
          t.bamboo.age();
          t.bamboo.resetCalls();
          return t.newEvents(dir.id);
        };

        it('a hire', async () => {
          const e = t.bamboo.hire({ department: 'Sales' });
          expect(labels(await changed(1))).to.deep.equal([
            `user.created:${e.workEmail}`,
            `group.user_added:Sales/${e.workEmail}`,
          ]);
        });

        it('a rename', async () => {
          const old = people[3]!.firstName;
          t.bamboo.change(people[3]!.id, { firstName: 'Renamed' });
          const events = await changed(1);
          expect(labels(events)).to.deep.equal([`user.updated:${people[3]!.workEmail}`]);
          expect(events[0].data.first_name).to.equal('Renamed');
          expect(events[0].previous_attributes).to.deep.include({ first_name: old });
        });

        it('a department move, into a department new to the directory and out of one left empty', async () => {
          const p = people[0]!; // Engineering
          t.bamboo.change(p.id, { department: 'Sales' });
          expect(labels(await changed(1))).to.deep.equal([
            `user.updated:${p.workEmail}`,
            `group.user_added:Sales/${p.workEmail}`,
            `group.user_removed:Engineering/${p.workEmail}`,
          ]);
          const solo = people[3]!;
          t.bamboo.change(solo.id, { department: 'Research' });
          const l = labels(await changed(1));
          expect(l).to.deep.equal([
            `user.updated:${solo.workEmail}`,
            'group.created:Research',
            `group.user_added:Research/${solo.workEmail}`,
            `group.user_removed:Engineering/${solo.workEmail}`,
          ]);
          t.bamboo.change(solo.id, { department: 'Sales' });
          // Research is left empty: its group goes (its deletion ends its last membership, as a SCIM group's does).
          expect(labels(await changed(1))).to.deep.equal([
            `user.updated:${solo.workEmail}`,
            `group.user_added:Sales/${solo.workEmail}`,
            'group.deleted:Research',
          ]);
          expect(await t.service.dsync.store.userGroupIds(dir.id, solo.id)).to.have.length(1);
        });

        it("a manager's new work email: their reports' manager_email follows in the same run", async () => {
          const [boss, report] = [people[0]!, people[1]!];
          const old = boss.workEmail;
          t.bamboo.change(boss.id, { workEmail: 'boss.renamed@acme.example' });
          const events = await changed(1);
          expect(events.map((e) => `${e.event}:${e.data.id}`)).to.deep.equal([
            `user.updated:${boss.id}`,
            `user.updated:${report.id}`,
          ]);
          expect(events[1].data.attributes).to.deep.include({
            manager_id: boss.id,
            manager_email: 'boss.renamed@acme.example',
          });
          expect(events[1].previous_attributes).to.deep.equal({ attributes: { manager_email: old } });
        });

        it('a termination, then a rehire: active follows, the department stays', async () => {
          const p = people[4]!;
          t.bamboo.change(p.id, { status: 'Inactive' });
          const off = await changed(1);
          expect(labels(off)).to.deep.equal([`user.updated:${p.workEmail}`]);
          expect(off[0].data.active).to.equal(false);
          expect(off[0].previous_attributes).to.deep.include({ active: true });
          t.bamboo.change(p.id, { status: 'Active' });
          const on = await changed(1);
          expect(labels(on)).to.deep.equal([`user.updated:${p.workEmail}`]);
          expect(on[0].data.active).to.equal(true);
          const groups = await t.service.dsync.store.userGroupIds(dir.id, p.id);
          expect(groups).to.have.length(1);
        });

        it('a deleted employee record: removed from their department, then deleted (no read: the feed says so)', async () => {
          const p = people[5]!;
          t.bamboo.remove(p.id);
          expect(labels(await changed(0))).to.deep.equal([
            `group.user_removed:Support/${p.workEmail}`,
            `user.deleted:${p.workEmail}`,
          ]);
        });

        it('a work email given to an employee who had none makes them a user; taken away, they are deleted', async () => {
          const p = people[28]!;
          t.bamboo.change(p.id, { workEmail: 'late@acme.example' });
          expect(labels(await changed(1))).to.deep.equal([
            'user.created:late@acme.example',
            'group.user_added:Sales/late@acme.example',
          ]);
          t.bamboo.change(p.id, { workEmail: null });
          expect(labels(await changed(1))).to.deep.equal([
            'group.user_removed:Sales/late@acme.example',
            'user.deleted:late@acme.example',
          ]);
        });

        it('the mass-deletion guard holds deletions that exceed the share, and says so', async () => {
          for (const p of people.slice(0, 12)) t.bamboo.remove(p.id);
          const report = await t.sync();
          expect(report.directories[0].state).to.equal('guarded');
          expect(report.directories[0].error.code).to.equal('DSYNC_BAMBOOHR_MASS_DELETION');
          expect(report.deleted).to.equal(0);
          expect(await t.service.dsync.store.countUsers(dir.id)).to.equal(29);
          // The cursor did not move: the next run sees the deletions again.
          t.bamboo.resetCalls();
          await t.sync();
          expect((await t.status(dir.id)).state).to.equal('guarded');
        });
      });

      it('throttled (429, and 503 with Retry-After): waits as told and succeeds, counting each', async () => {
        t.bamboo.fail('report', 429, 2, '0');
        t.bamboo.fail('report', 503, 1, '0');
        const report = await t.sync();
        expect(report.failed, JSON.stringify(report)).to.equal(0);
        expect(await t.status(dir.id)).to.deep.include({ state: 'succeeded', throttled: 3, provider_requests: 4 });
      });

      it('a revoked key: invalid_credentials in the status, nothing touched; a new key clears it', async () => {
        await t.sync();
        await t.newEvents(dir.id);
        const users = await t.service.dsync.store.countUsers(dir.id);
        t.bamboo.keys.delete('bamboo-key-1');
        t.bamboo.change(people[0]!.id, { firstName: 'Changed' });
        const report = await t.sync();
        expect(report.directories[0]).to.deep.include({ state: 'invalid_credentials' });
        expect(report.directories[0].error.message).to.include('HTTP 401: Invalid API key');
        expect(await t.newEvents(dir.id)).to.deep.equal([]);
        expect(await t.service.dsync.store.countUsers(dir.id)).to.equal(users);
        const status = await t.status(dir.id);
        expect(status.state).to.equal('invalid_credentials');
        expect(status.last_success_at).to.be.a('string');
        t.bamboo.keys.add('bamboo-key-2');
        expect((await t.connect(dir.id, bambooCredentials(t.bamboo, { api_key: 'bamboo-key-2' }))).status).to.equal(
          200,
        );
        expect((await t.status(dir.id)).state).to.equal('pending');
        await t.sync();
        expect(labels(await t.newEvents(dir.id))).to.deep.equal([`user.updated:${people[0]!.workEmail}`]);
        expect((await t.status(dir.id)).mode).to.equal('full'); // new credentials: everything listed again
      });

      it('an outage after retries fails the run and deletes nothing; the next run catches up', async () => {
        t.bamboo.fail('report', 500, 10);
        const report = await t.sync();
        expect(report.directories[0].state).to.equal('failed');
        expect(report.directories[0].error.code).to.equal('DSYNC_HRIS_API_ERROR');
        t.bamboo.faults.length = 0;
        expect((await t.sync()).created).to.equal(32);
      });
    });
  });
}
