/**
 * `role_mapping` per directory and the `roles` it gives users: set at create and by PATCH, shown by GET, a 400
 * naming the field with nothing applied for a bad one. On both stores, over HTTP, read from the event log.
 */
import { expect } from 'chai';
import { eventReader, openStore, STORE_KINDS, type Service, startService } from '../support/harness.js';

const MAPPING = { default_role: 'member', rules: [{ group: 'Admins', role: 'admin', priority: 10 }] };

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

for (const kind of STORE_KINDS) {
  describe(`roles (${kind} store)`, () => {
    let svc: Service;
    let events: (directoryId: string) => Promise<any[]>;
    beforeEach(async () => {
      const store = await openStore(kind, 10);
      svc = await startService(store);
      events = eventReader(store);
    });
    afterEach(() => svc?.close());

    describe('role mapping', () => {
      const read = async (id: string) => (await svc.api('GET', `/api/v1/directory-sync/${id}`)).body.data;

      it('is absent unless set, is set at create and by PATCH, shown by GET, and null removes it', async () => {
        const plain = await svc.createDirectory();
        expect(plain).to.not.have.property('role_mapping');
        expect(await read(plain.id)).to.not.have.property('role_mapping');
        const mapped = await svc.createDirectory({ role_mapping: MAPPING });
        expect(mapped.role_mapping).to.deep.equal(MAPPING);
        expect((await read(mapped.id)).role_mapping).to.deep.equal(MAPPING);
        const rules = [{ group: 'Eng', role: 'engineer', priority: 1.5 }];
        const patched = await svc.api('PATCH', `/api/v1/directory-sync/${plain.id}`, { role_mapping: { rules } });
        expect([patched.status, patched.body.data.role_mapping]).to.deep.equal([200, { rules }]);
        expect((await read(plain.id)).role_mapping).to.deep.equal({ rules });
        // Another field's PATCH keeps it.
        await svc.api('PATCH', `/api/v1/directory-sync/${plain.id}`, { name: 'Renamed' });
        expect((await read(plain.id)).role_mapping).to.deep.equal({ rules });
        const removed = await svc.api('PATCH', `/api/v1/directory-sync/${plain.id}`, { role_mapping: null });
        expect(removed.status).to.equal(200);
        expect(await read(plain.id)).to.not.have.property('role_mapping');
      });

      const BAD: Array<[string, unknown, string]> = [
        [
          'a rule without role',
          { rules: [{ group: 'Admins', priority: 1 }] },
          'role_mapping.rules.0.role: is required',
        ],
        [
          'a non-numeric priority',
          { rules: [{ group: 'Admins', role: 'admin', priority: 'high' }] },
          'role_mapping.rules.0.priority: must be a number',
        ],
        [
          'an empty group',
          { rules: [{ group: '', role: 'admin', priority: 1 }] },
          'role_mapping.rules.0.group: must not be empty',
        ],
        ['no rules', { default_role: 'member' }, 'role_mapping.rules: is required'],
        [
          'a default_role that is no string',
          { default_role: 7, rules: [] },
          'role_mapping.default_role: must be a string',
        ],
        ['an unknown field', { rules: [], roles: [] }, 'role_mapping: unknown field roles'],
      ];
      for (const [what, mapping, message] of BAD) {
        it(`${what} is a 400 naming the field, and nothing of the request is applied`, async () => {
          const d = await svc.createDirectory({ role_mapping: MAPPING });
          const bad = await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, {
            name: 'Renamed',
            role_mapping: mapping,
          });
          expect([bad.status, bad.body.error.message]).to.deep.equal([400, message]);
          expect(await read(d.id)).to.include({ name: 'Acme' });
          expect((await read(d.id)).role_mapping).to.deep.equal(MAPPING);
          const badCreate = await svc.api('POST', '/api/v1/directory-sync', {
            name: 'x',
            tenant: 't',
            product: 'p',
            type: 'okta-scim-v2',
            role_mapping: mapping,
          });
          expect([badCreate.status, badCreate.body.error.message]).to.deep.equal([400, message]);
          expect((await svc.api('GET', '/api/v1/directory-sync?tenant=t&product=p')).body.data).to.deep.equal([]);
          expect(await events(d.id)).to.deep.equal([]);
        });
      }
    });

    const user = async (d: any, name: string): Promise<string> =>
      (await svc.scim(d, 'POST', '/Users', { schemas: [USER], userName: `${name}@acme.io`, active: true })).body.id;
    const group = async (d: any, name: string, members: string[] = []): Promise<string> => {
      const res = await svc.scim(d, 'POST', '/Groups', {
        schemas: [GROUP],
        displayName: name,
        members: members.map((value) => ({ value })),
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.id;
    };
    const apiRoles = async (d: any, id: string) =>
      (await svc.api('GET', `/api/v1/directory-sync/users/${id}?directoryId=${d.id}`)).body.data.roles;
    const patchMembers = (d: any, gid: string, op: string, value?: unknown, path = 'members') =>
      svc.scim(d, 'PATCH', `/Groups/${gid}`, {
        schemas: [PATCH_OP],
        Operations: [{ op, path, ...(value !== undefined && { value }) }],
      });
    /** Each event as `type:roles` (and the previous roles of a user.updated), in log order. */
    const summary = async (d: any) =>
      (await events(d.id)).map(
        (e) =>
          `${e.event}:${JSON.stringify(e.data.roles)}${e.previous_attributes ? ` was ${JSON.stringify(e.previous_attributes)}` : ''}`,
      );

    it('are [] on every user and event without a mapping', async () => {
      const d = await svc.createDirectory();
      const ann = await user(d, 'ann');
      await group(d, 'Admins', [ann]);
      expect(await apiRoles(d, ann)).to.deep.equal([]);
      expect(await summary(d)).to.deep.equal(['user.created:[]', 'group.created:undefined', 'group.user_added:[]']);
      const list = (await svc.api('GET', `/api/v1/directory-sync/users?directoryId=${d.id}`)).body.data;
      expect(list.map((u: any) => u.roles)).to.deep.equal([[]]);
    });

    it('a user holds the roles of every matching group (by name or id), higher priority first, each once; else [default_role]', async () => {
      const d = await svc.createDirectory();
      const ann = await user(d, 'ann');
      const [admins, eng, ops] = [await group(d, 'Admins'), await group(d, 'Eng'), await group(d, 'Ops')];
      const rules = [
        { group: 'Eng', role: 'engineer', priority: 1 },
        { group: admins, role: 'admin', priority: 10 },
        { group: 'Ops', role: 'engineer', priority: 5 },
        { group: 'Nobody', role: 'ghost', priority: 100 },
      ];
      expect(
        (await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, { role_mapping: { default_role: 'member', rules } }))
          .status,
      ).to.equal(200);
      await events(d.id);
      const dm = (await svc.api('GET', `/api/v1/directory-sync/${d.id}`)).body.data;
      expect(await apiRoles(dm, ann)).to.deep.equal(['member']);
      // Added to Eng: one membership event carrying the roles it had, then one user.updated with the new ones.
      expect((await patchMembers(dm, eng, 'add', [{ value: ann }])).status).to.equal(204);
      expect(await summary(d)).to.deep.equal([
        'group.user_added:["member"]',
        'user.updated:["engineer"] was {"roles":["member"]}',
      ]);
      await patchMembers(dm, admins, 'add', [{ value: ann }]);
      expect(await summary(d)).to.deep.equal([
        'group.user_added:["engineer"]',
        'user.updated:["admin","engineer"] was {"roles":["engineer"]}',
      ]);
      // Ops gives engineer again (higher priority than Eng's): the roles stay the same, nothing is emitted but the
      // membership.
      await patchMembers(dm, ops, 'add', [{ value: ann }]);
      expect(await summary(d)).to.deep.equal(['group.user_added:["admin","engineer"]']);
      expect(await apiRoles(dm, ann)).to.deep.equal(['admin', 'engineer']);
      // Removed from Admins by a PATCH remove with a filter, then from the others by a PUT of each.
      await patchMembers(dm, admins, 'remove', undefined, `members[value eq "${ann}"]`);
      expect(await summary(d)).to.deep.equal([
        'group.user_removed:["admin","engineer"]',
        'user.updated:["engineer"] was {"roles":["admin","engineer"]}',
      ]);
      await svc.scim(dm, 'PUT', `/Groups/${eng}`, { schemas: [GROUP], displayName: 'Eng', members: [] });
      expect(await summary(d)).to.deep.equal(['group.user_removed:["engineer"]']);
      await svc.scim(dm, 'PUT', `/Groups/${ops}`, { schemas: [GROUP], displayName: 'Ops', members: [] });
      expect(await summary(d)).to.deep.equal([
        'group.user_removed:["engineer"]',
        'user.updated:["member"] was {"roles":["engineer"]}',
      ]);
      expect(await apiRoles(dm, ann)).to.deep.equal(['member']);
    });

    it('a new user holds [default_role]; a group POST with members and a members replace give roles; a user.deleted carries them', async () => {
      const d = await svc.createDirectory({
        role_mapping: { default_role: 'member', rules: [{ group: 'Admins', role: 'admin', priority: 1 }] },
      });
      const [ann, bob] = [await user(d, 'ann'), await user(d, 'bob')];
      const admins = await group(d, 'Admins', [ann]);
      expect(await summary(d)).to.deep.equal([
        'user.created:["member"]',
        'user.created:["member"]',
        'group.created:undefined',
        'group.user_added:["member"]',
        'user.updated:["admin"] was {"roles":["member"]}',
      ]);
      await patchMembers(d, admins, 'replace', [{ value: bob }]);
      const after = await summary(d);
      expect(after.slice(0, 2).sort()).to.deep.equal(['group.user_added:["member"]', 'group.user_removed:["admin"]']);
      expect(after.slice(2).sort()).to.deep.equal([
        'user.updated:["admin"] was {"roles":["member"]}',
        'user.updated:["member"] was {"roles":["admin"]}',
      ]);
      await svc.scim(d, 'DELETE', `/Users/${bob}`);
      expect(await summary(d)).to.deep.equal(['group.user_removed:["admin"]', 'user.deleted:["admin"]']);
    });

    it('a rule by name follows a rename of the group (its members re-evaluated), and a group delete takes its roles away', async () => {
      const d = await svc.createDirectory({
        role_mapping: { rules: [{ group: 'Admins', role: 'admin', priority: 1 }] },
      });
      const [ann, bob] = [await user(d, 'ann'), await user(d, 'bob')];
      const gid = await group(d, 'Staff', [ann, bob]);
      await events(d.id);
      await svc.scim(d, 'PATCH', `/Groups/${gid}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', path: 'displayName', value: 'Admins' }],
      });
      const renamed = await summary(d);
      expect(renamed[0]).to.equal('group.updated:undefined was {"name":"Staff","raw":{"displayName":"Staff"}}');
      expect(renamed.slice(1)).to.deep.equal([
        'user.updated:["admin"] was {"roles":[]}',
        'user.updated:["admin"] was {"roles":[]}',
      ]);
      // A rename that no rule names either side changes nothing.
      const other = await group(d, 'Other', [ann]);
      await events(d.id);
      await svc.scim(d, 'PATCH', `/Groups/${other}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', path: 'displayName', value: 'Another' }],
      });
      expect((await summary(d)).map((e) => e.split(':')[0])).to.deep.equal(['group.updated']);
      expect((await svc.scim(d, 'DELETE', `/Groups/${gid}`)).status).to.equal(204);
      expect(await summary(d)).to.deep.equal([
        'group.deleted:undefined',
        'user.updated:[] was {"roles":["admin"]}',
        'user.updated:[] was {"roles":["admin"]}',
      ]);
      expect([await apiRoles(d, ann), await apiRoles(d, bob)]).to.deep.equal([[], []]);
    });

    it('a change of the mapping re-evaluates the users: one user.updated for each whose roles changed, none for the others', async () => {
      const d = await svc.createDirectory({
        role_mapping: { rules: [{ group: 'Admins', role: 'admin', priority: 1 }] },
      });
      const users = [];
      for (let i = 0; i < 30; i++) users.push(await user(d, `u${i}`));
      await group(d, 'Admins', users.slice(0, 10));
      await group(d, 'Eng', users.slice(5, 20));
      await events(d.id);
      const mapping = {
        default_role: 'member',
        rules: [
          { group: 'Admins', role: 'admin', priority: 1 },
          { group: 'Eng', role: 'engineer', priority: 2 },
        ],
      };
      expect((await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, { role_mapping: mapping })).status).to.equal(
        200,
      );
      const updated = (await events(d.id)).filter((e) => e.event === 'user.updated');
      const byUser = new Map(
        updated.map((e) => [e.data.id, `${JSON.stringify(e.data.roles)} was ${JSON.stringify(e.previous_attributes)}`]),
      );
      // u0..u4 stay ["admin"]: no event. u5..u9 gain engineer first; u10..u19 become engineers, u20.. members.
      expect(updated).to.have.length(25);
      expect(byUser.get(users[0])).to.equal(undefined);
      expect(byUser.get(users[5])).to.equal('["engineer","admin"] was {"roles":["admin"]}');
      expect(byUser.get(users[12])).to.equal('["engineer"] was {"roles":[]}');
      expect(byUser.get(users[25])).to.equal('["member"] was {"roles":[]}');
      // The same mapping again changes nothing and emits nothing.
      await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, { role_mapping: mapping });
      expect(await events(d.id)).to.deep.equal([]);
      await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, { role_mapping: null });
      expect((await events(d.id)).filter((e) => e.event === 'user.updated')).to.have.length(30);
      expect(await apiRoles(d, users[7]!)).to.deep.equal([]);
    });
  });
}
