/**
 * `inactive_users` per directory: shown as `keep` when never set, set at create and by PATCH, a 400 naming it
 * for another value; with `delete`, a deactivation in any PATCH dialect or by PUT emits `group.user_removed` per
 * group then `user.deleted` (no `user.updated`) and the user is gone; a pull sync leaves inactive users out. On
 * both stores, read from the event log.
 */
import { expect } from 'chai';
import { startGoogleTest, type GoogleTest } from '../support/google-harness.js';
import { eventReader, openStore, STORE_KINDS, type Service, startService } from '../support/harness.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** The deactivations of each dialect, as a request against the user. */
const DEACTIVATIONS: Array<[string, (user: any) => [string, unknown]]> = [
  [
    "Okta's no-path replace",
    () => ['PATCH', { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] }],
  ],
  [
    'Entra\'s Replace of active with "False"',
    () => ['PATCH', { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] }],
  ],
  [
    "Entra's aadOptscim062020 replace with false",
    () => ['PATCH', { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }],
  ],
  ['a PUT with active false', (user) => ['PUT', { ...user, active: false }]],
];

for (const kind of STORE_KINDS) {
  describe(`inactive users kept or deleted (${kind} store)`, () => {
    let svc: Service;
    let events: (directoryId: string) => Promise<any[]>;
    beforeEach(async () => {
      const store = await openStore(kind, 9);
      svc = await startService(store);
      events = eventReader(store);
    });
    afterEach(() => svc?.close());

    it('is keep unless set, is set at create and by PATCH, and another value is a 400 naming it that changes nothing', async () => {
      const plain = await svc.createDirectory();
      expect(plain.inactive_users).to.equal('keep');
      expect((await svc.api('GET', `/api/v1/directory-sync/${plain.id}`)).body.data.inactive_users).to.equal('keep');
      const deleting = await svc.createDirectory({ inactive_users: 'delete' });
      expect((await svc.api('GET', `/api/v1/directory-sync/${deleting.id}`)).body.data.inactive_users).to.equal(
        'delete',
      );
      const patched = await svc.api('PATCH', `/api/v1/directory-sync/${plain.id}`, { inactive_users: 'delete' });
      expect([patched.status, patched.body.data.inactive_users]).to.deep.equal([200, 'delete']);
      const bad = await svc.api('PATCH', `/api/v1/directory-sync/${plain.id}`, {
        name: 'Renamed',
        inactive_users: 'archive',
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.error.message).to.equal('inactive_users must be one of keep, delete');
      expect((await svc.api('GET', `/api/v1/directory-sync/${plain.id}`)).body.data).to.include({
        name: 'Acme',
        inactive_users: 'delete',
      });
      const badCreate = await svc.api('POST', '/api/v1/directory-sync', {
        name: 'x',
        tenant: 't',
        product: 'p',
        type: 'okta-scim-v2',
        inactive_users: true,
      });
      expect([badCreate.status, badCreate.body.error.message]).to.deep.equal([
        400,
        'inactive_users must be one of keep, delete',
      ]);
    });

    for (const [dialect, request] of DEACTIVATIONS) {
      it(`delete: ${dialect} removes the user from each group, then deletes them; no user.updated`, async () => {
        const d = await svc.createDirectory({ type: 'okta-scim-v2', inactive_users: 'delete' });
        const created = await svc.scim(d, 'POST', '/Users', {
          schemas: [USER],
          userName: 'ann@acme.io',
          emails: [{ value: 'ann@acme.io', primary: true }],
          active: true,
        });
        const uid = created.body.id;
        const groups = [];
        for (const name of ['Eng', 'Ops'])
          groups.push(
            (await svc.scim(d, 'POST', '/Groups', { schemas: [GROUP], displayName: name, members: [{ value: uid }] }))
              .body.id,
          );
        await events(d.id);
        const [method, body] = request(created.body);
        const res = await svc.scim(d, method, `/Users/${uid}`, body);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.active).to.equal(false);
        const logged = (await events(d.id)).map((e) => `${e.event}:${e.data.group?.name ?? e.data.id}`);
        // A removal per group (in the store's order of the user's groups), then the deletion.
        expect(logged.slice(0, 2).sort()).to.deep.equal(['group.user_removed:Eng', 'group.user_removed:Ops']);
        expect(logged.slice(2)).to.deep.equal([`user.deleted:${uid}`]);
        expect((await svc.scim(d, 'GET', `/Users/${uid}`)).status).to.equal(404);
        for (const gid of groups)
          expect((await svc.scim(d, 'GET', `/Groups/${gid}`)).body.members ?? []).to.deep.equal([]);
      });
    }

    it('keep: a deactivation is one user.updated, the user stays in their groups', async () => {
      const d = await svc.createDirectory({ type: 'okta-scim-v2' });
      const uid = (await svc.scim(d, 'POST', '/Users', { schemas: [USER], userName: 'ann@acme.io', active: true })).body
        .id;
      await svc.scim(d, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Eng', members: [{ value: uid }] });
      await events(d.id);
      await svc.scim(d, 'PATCH', `/Users/${uid}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', value: { active: false } }],
      });
      expect((await events(d.id)).map((e) => e.event)).to.deep.equal(['user.updated']);
      expect((await svc.scim(d, 'GET', `/Users/${uid}`)).body.active).to.equal(false);
      expect(await svc.dsync.store.userGroupIds(d.id, uid)).to.have.length(1);
    });
  });

  describe(`inactive users deleted by a pull sync (${kind} store)`, function () {
    this.timeout(20_000);
    let t: GoogleTest;
    beforeEach(async () => (t = await startGoogleTest(await openStore(kind, 9))));
    afterEach(() => t?.close());

    it('a suspended user is never stored; one suspended later is removed from their groups, then deleted', async () => {
      const [ann, bob] = [t.fake.addUser(), t.fake.addUser({ suspended: true })];
      const eng = t.fake.addGroup({ name: 'Eng', email: 'eng@example.com' });
      t.fake.addMember(eng.id, ann.id);
      t.fake.addMember(eng.id, bob.id);
      const dir = await t.directory({ inactive_users: 'delete' });
      await t.sync();
      expect((await t.newEvents(dir.id)).map((e) => `${e.event}:${e.data.id}`)).to.deep.equal([
        `user.created:${ann.id}`,
        `group.created:${eng.id}`,
        `group.user_added:${ann.id}`,
      ]);
      t.fake.users.get(ann.id)!.suspended = true;
      const report = await t.sync();
      expect(report).to.deep.include({ updated: 0, deleted: 1, failed: 0 });
      expect((await t.newEvents(dir.id)).map((e) => `${e.event}:${e.data.id}`)).to.deep.equal([
        `group.user_removed:${ann.id}`,
        `user.deleted:${ann.id}`,
      ]);
      expect(await t.service.dsync.store.getUser(dir.id, ann.id)).to.equal(null);
    });
  });
}
