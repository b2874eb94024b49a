/**
 * The predefined attributes of every user, from each source: a SCIM POST, each PATCH dialect the IdP replays
 * cover (Entra's enterprise-extension paths, its no-path replace with a value object and its plain-string
 * manager, Okta's full PUT), and `manager_email` resolved from the manager's id (filled when the manager arrives
 * or changes email, emptied when they go), with `previous_attributes` naming the changed ones; and from the
 * Google and Entra pull syncs against their fakes. Over HTTP, read from the event log and the management API, on
 * both stores.
 */
import { expect } from 'chai';
import { startEntraTest, type EntraTest } from '../support/entra-harness.js';
import { startGoogleTest, type GoogleTest } from '../support/google-harness.js';
import { eventReader, openStore, STORE_KINDS, type Service, startService } from '../support/harness.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

for (const kind of STORE_KINDS) {
  describe(`predefined attributes over SCIM (${kind} store)`, () => {
    let svc: Service;
    let events: (directoryId: string) => Promise<any[]>;
    let d: any;
    beforeEach(async () => {
      const store = await openStore(kind, 8);
      svc = await startService(store);
      events = eventReader(store);
      d = await svc.createDirectory({ type: 'azure-scim-v2' });
    });
    afterEach(() => svc?.close());

    const user = (name: string, extra: Record<string, unknown> = {}) => ({
      schemas: [USER, ENTERPRISE],
      userName: `${name}@acme.io`,
      emails: [{ value: `${name}@acme.io`, primary: true, type: 'work' }],
      active: true,
      ...extra,
    });
    const post = async (body: unknown) => {
      const res = await svc.scim(d, 'POST', '/Users', body);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.id as string;
    };
    const patch = async (id: string, Operations: unknown[]) => {
      const res = await svc.scim(d, 'PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    };
    const apiUser = async (id: string) =>
      (await svc.api('GET', `/api/v1/directory-sync/users/${id}?directoryId=${d.id}`)).body.data;
    /** The one event the last writes logged, checked to be one. */
    const only = async () => {
      const logged = await events(d.id);
      expect(logged, JSON.stringify(logged.map((e) => e.event))).to.have.length(1);
      return logged[0];
    };

    it('a POST with the enterprise extension fills every attribute it carries; the manager email is read from the directory', async () => {
      const boss = await post(user('grace'));
      await events(d.id);
      const ann = await post(
        user('ann', {
          title: 'Staff Engineer',
          [ENTERPRISE]: {
            employeeNumber: '1042',
            department: 'Engineering',
            division: 'Platform',
            costCenter: 'CC-7',
            organization: 'Acme',
            manager: { value: boss },
          },
        }),
      );
      const attributes = {
        employee_number: '1042',
        job_title: 'Staff Engineer',
        department: 'Engineering',
        division: 'Platform',
        cost_center: 'CC-7',
        manager_id: boss,
        manager_email: 'grace@acme.io',
      };
      const created = await only();
      expect(created.event).to.equal('user.created');
      expect(created.data.attributes).to.deep.equal(attributes);
      expect((await apiUser(ann)).attributes).to.deep.equal(attributes);
      // Nothing known: an empty object, never nulls.
      expect((await apiUser(boss)).attributes).to.deep.equal({});
    });

    it("Entra's default dialect: enterprise paths, a plain-string manager, Remove; previous_attributes names what changed", async () => {
      const boss = await post(user('grace'));
      const ann = await post(user('ann', { [ENTERPRISE]: { department: 'Sales' } }));
      await events(d.id);
      await patch(ann, [
        { op: 'Replace', path: `${ENTERPRISE}:department`, value: 'Marketing' },
        { op: 'Add', path: `${ENTERPRISE}:employeeNumber`, value: '42' },
        { op: 'Add', path: `${ENTERPRISE}:manager`, value: boss },
        { op: 'Replace', path: 'title', value: 'Analyst' },
      ]);
      const updated = await only();
      expect(updated.data.attributes).to.deep.equal({
        employee_number: '42',
        job_title: 'Analyst',
        department: 'Marketing',
        manager_id: boss,
        manager_email: 'grace@acme.io',
      });
      expect(updated.previous_attributes.attributes).to.deep.equal({
        department: 'Sales',
        employee_number: null,
        job_title: null,
        manager_id: null,
        manager_email: null,
      });
      await patch(ann, [{ op: 'Remove', path: `${ENTERPRISE}:manager` }]);
      const removed = await only();
      expect(removed.data.attributes).to.deep.equal({
        employee_number: '42',
        job_title: 'Analyst',
        department: 'Marketing',
      });
      expect(removed.previous_attributes.attributes).to.deep.equal({
        manager_id: boss,
        manager_email: 'grace@acme.io',
      });
    });

    it("Entra's aadOptscim062020 dialect: a no-path replace whose value object names enterprise attributes", async () => {
      const boss = await post(user('grace'));
      const bob = await post(user('bob'));
      await events(d.id);
      await patch(bob, [
        {
          op: 'replace',
          value: {
            [`${ENTERPRISE}:costCenter`]: 'CC-1',
            [`${ENTERPRISE}:division`]: 'R&D',
            [`${ENTERPRISE}:manager`]: { value: boss },
            title: 'Chemist',
          },
        },
      ]);
      const updated = await only();
      expect(updated.data.attributes).to.deep.equal({
        job_title: 'Chemist',
        division: 'R&D',
        cost_center: 'CC-1',
        manager_id: boss,
        manager_email: 'grace@acme.io',
      });
      expect(updated.previous_attributes.attributes).to.deep.equal({
        job_title: null,
        division: null,
        cost_center: null,
        manager_id: null,
        manager_email: null,
      });
    });

    it("Okta's full PUT replaces the attributes with what it carries; a deactivation leaves them", async () => {
      const boss = await post(user('grace'));
      const created = await svc.scim(
        d,
        'POST',
        '/Users',
        user('ann', {
          title: 'Engineer',
          [ENTERPRISE]: { department: 'Eng', manager: { value: boss, displayName: 'Grace' } },
        }),
      );
      const ann = created.body.id;
      await events(d.id);
      const put = await svc.scim(d, 'PUT', `/Users/${ann}`, {
        ...created.body,
        title: 'Lead',
        [ENTERPRISE]: { department: 'Eng', costCenter: 'CC-9' },
      });
      expect(put.status).to.equal(200);
      const updated = await only();
      expect(updated.data.attributes).to.deep.equal({ job_title: 'Lead', department: 'Eng', cost_center: 'CC-9' });
      expect(updated.previous_attributes.attributes).to.deep.equal({
        job_title: 'Engineer',
        manager_id: boss,
        manager_email: 'grace@acme.io',
        cost_center: null,
      });
      await patch(ann, [{ op: 'replace', value: { active: false } }]);
      const off = await only();
      expect(off.data.attributes).to.deep.equal(updated.data.attributes);
      expect(off.previous_attributes).to.not.have.property('attributes');
    });

    it("a manager's change of email and deletion reach their reports' manager_email (one user.updated each), and their membership events", async () => {
      const boss = await post(user('grace'));
      const reports = [
        await post(user('ann', { [ENTERPRISE]: { manager: boss } })),
        await post(user('bob', { [ENTERPRISE]: { manager: { value: boss } } })),
      ];
      const other = await post(user('cy'));
      const g = await svc.scim(d, 'POST', '/Groups', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: 'Eng',
        members: [],
      });
      await events(d.id);
      await patch(boss, [{ op: 'Replace', path: 'emails[type eq "work"].value', value: 'grace.h@acme.io' }]);
      const logged = await events(d.id);
      expect(logged.map((e) => `${e.event}:${e.data.id}`)).to.deep.equal([
        `user.updated:${boss}`,
        ...reports.map((id) => `user.updated:${id}`),
      ]);
      for (const e of logged.slice(1)) {
        expect(e.data.attributes).to.deep.equal({ manager_id: boss, manager_email: 'grace.h@acme.io' });
        expect(e.previous_attributes).to.deep.equal({ attributes: { manager_email: 'grace@acme.io' } });
      }
      // Membership events carry the user as stored now, its resolved manager email included.
      expect(
        (
          await svc.scim(d, 'PATCH', `/Groups/${g.body.id}`, {
            schemas: [PATCH_OP],
            Operations: [{ op: 'add', path: 'members', value: [...reports, other].map((value) => ({ value })) }],
          })
        ).status,
      ).to.equal(204);
      const added = await events(d.id);
      expect(added.map((e) => e.data.attributes)).to.deep.equal([
        { manager_id: boss, manager_email: 'grace.h@acme.io' },
        { manager_id: boss, manager_email: 'grace.h@acme.io' },
        {},
      ]);
      expect((await svc.scim(d, 'DELETE', `/Users/${boss}`)).status).to.equal(204);
      const gone = await events(d.id);
      expect(gone.map((e) => `${e.event}:${e.data.id}`)).to.deep.equal([
        `user.deleted:${boss}`,
        ...reports.map((id) => `user.updated:${id}`),
      ]);
      for (const e of gone.slice(1)) {
        expect(e.data.attributes).to.deep.equal({ manager_id: boss });
        expect(e.previous_attributes).to.deep.equal({ attributes: { manager_email: 'grace.h@acme.io' } });
      }
      // A write that changes nothing emits nothing, the resolved email included.
      await patch(reports[0]!, [{ op: 'Replace', path: `${ENTERPRISE}:manager`, value: boss }]);
      expect(await events(d.id)).to.deep.equal([]);
    });
  });
}

for (const kind of STORE_KINDS) {
  describe(`predefined attributes from Google (${kind} store)`, function () {
    this.timeout(20_000);
    let t: GoogleTest;
    beforeEach(async () => (t = await startGoogleTest(await openStore(kind, 8))));
    afterEach(() => t?.close());

    it('the primary organization, the organization external id and the manager relation; a change is one user.updated naming the old values', async () => {
      t.fake.addUser({ primaryEmail: 'grace@example.com' });
      const ann = t.fake.addUser({
        primaryEmail: 'ann@example.com',
        organizations: [
          { name: 'Old Co', title: 'Intern', department: 'Ops' },
          { primary: true, title: 'Engineer', department: 'Eng', costCenter: 'CC-1' },
        ],
        externalIds: [
          { type: 'account', value: 'acct-9' },
          { type: 'organization', value: 'E-7' },
        ],
        relations: [
          { type: 'spouse', value: 'sam@example.com' },
          { type: 'manager', value: 'grace@example.com' },
        ],
      });
      const dir = await t.directory();
      await t.sync();
      const created = (await t.newEvents(dir.id)).find((e) => e.event === 'user.created' && e.data.id === ann.id);
      expect(created.data.attributes).to.deep.equal({
        employee_number: 'E-7',
        job_title: 'Engineer',
        department: 'Eng',
        cost_center: 'CC-1',
        manager_email: 'grace@example.com',
      });
      t.fake.users.get(ann.id)!.organizations = [{ primary: true, title: 'Lead', department: 'Eng' }];
      t.fake.users.get(ann.id)!.relations = [];
      await t.sync();
      const changed = await t.newEvents(dir.id);
      expect(changed.map((e) => `${e.event}:${e.data.id}`)).to.deep.equal([`user.updated:${ann.id}`]);
      expect(changed[0].data.attributes).to.deep.equal({
        employee_number: 'E-7',
        job_title: 'Lead',
        department: 'Eng',
      });
      expect(changed[0].previous_attributes.attributes).to.deep.equal({
        job_title: 'Engineer',
        cost_center: 'CC-1',
        manager_email: 'grace@example.com',
      });
      // Nothing changed: nothing emitted.
      await t.sync();
      expect(await t.newEvents(dir.id)).to.deep.equal([]);
    });
  });

  describe(`predefined attributes from Entra (${kind} store)`, function () {
    this.timeout(20_000);
    let t: EntraTest;
    beforeEach(async () => (t = await startEntraTest(await openStore(kind, 8))));
    afterEach(() => t?.close());

    it("Graph's jobTitle, employeeId, department, employeeOrgData and manager; a manager listed after their report fills its manager_email; delta changes", async () => {
      const tenant = t.tenant();
      // The report is listed first: its manager arrives after it, in the same round.
      const annId = 'aaaaaaaa-0000-4000-8000-00000000a001';
      const graceId = 'aaaaaaaa-0000-4000-8000-00000000a002';
      tenant.addUser({
        id: annId,
        userPrincipalName: 'ann@contoso.example',
        jobTitle: 'Engineer',
        employeeId: 'E-7',
        department: 'Eng',
        employeeOrgData: { division: 'Platform', costCenter: 'CC-1' },
        manager: graceId,
      });
      tenant.addUser({ id: graceId, userPrincipalName: 'grace@contoso.example', mail: 'grace@contoso.example' });
      const dir = await t.directory();
      const report = await t.sync();
      expect(report, JSON.stringify(report)).to.deep.include({ created: 2, failed: 0 });
      const attributes = {
        employee_number: 'E-7',
        job_title: 'Engineer',
        department: 'Eng',
        division: 'Platform',
        cost_center: 'CC-1',
        manager_id: graceId,
        manager_email: 'grace@contoso.example',
      };
      const first = (await t.newEvents(dir.id)).filter((e) => e.data.id === annId);
      expect(first.at(-1).data.attributes).to.deep.equal(attributes);
      const api = await t.service.api('GET', `/api/v1/directory-sync/users/${annId}?directoryId=${dir.id}`);
      expect(api.body.data.attributes).to.deep.equal(attributes);

      tenant.updateUser(annId, { jobTitle: 'Lead', manager: null });
      await t.sync();
      const changed = await t.newEvents(dir.id);
      expect(changed.map((e) => `${e.event}:${e.data.id}`)).to.deep.equal([`user.updated:${annId}`]);
      expect(changed[0].data.attributes).to.deep.equal({
        employee_number: 'E-7',
        job_title: 'Lead',
        department: 'Eng',
        division: 'Platform',
        cost_center: 'CC-1',
      });
      expect(changed[0].previous_attributes.attributes).to.deep.equal({
        job_title: 'Engineer',
        manager_id: graceId,
        manager_email: 'grace@contoso.example',
      });

      tenant.updateUser(annId, { manager: graceId, employeeOrgData: null });
      await t.sync();
      const back = await t.newEvents(dir.id);
      expect(back.map((e) => e.data.attributes)).to.deep.equal([
        {
          employee_number: 'E-7',
          job_title: 'Lead',
          department: 'Eng',
          manager_id: graceId,
          manager_email: 'grace@contoso.example',
        },
      ]);
    });
  });
}
