/**
 * Replays of what real IdPs send (request shapes from reference/scim-interop.md and the IdPs' docs), in order,
 * against the HTTP endpoint, with the events checked at a real signature-verifying receiver.
 */
import { expect } from 'chai';
import {
  STORE_KINDS,
  openStore,
  startReceiver,
  startService,
  type Receiver,
  type Service,
} from '../support/harness.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const enc = encodeURIComponent;

for (const kind of STORE_KINDS) {
  describe(`IdP replays (${kind} store)`, () => {
    let svc: Service;
    let hooks: Receiver;
    beforeEach(async () => {
      hooks = await startReceiver();
      svc = await startService(await openStore(kind));
    });
    afterEach(async () => {
      await svc?.close(); // undefined when beforeEach failed: the receiver must still close
      await hooks?.close();
    });
    const directory = (type: string) =>
      svc.createDirectory({ type, webhook_url: hooks.url, webhook_secret: hooks.secret });
    const names = async (n: number) => (await hooks.waitForLogOrder(n)).map((e) => e.event);

    it('Okta: import lookup, create, deactivate by no-path replace, Group Push with rename and push-now', async () => {
      const d = await directory('okta-scim-v2');
      // Okta checks for the user first (only `eq`, startIndex/count always sent).
      const lookup = await svc.scim(
        d,
        'GET',
        `/Users?filter=${enc('userName eq "jdoe@example.com"')}&startIndex=1&count=100`,
      );
      expect(lookup.status).to.equal(200);
      expect(lookup.body.totalResults).to.equal(0);
      const created = await svc.scim(d, 'POST', '/Users', {
        schemas: [USER],
        userName: 'jdoe@example.com',
        name: { givenName: 'John', familyName: 'Doe' },
        emails: [{ primary: true, value: 'jdoe@example.com', type: 'work' }],
        displayName: 'John Doe',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        password: '1mz050nq',
        active: true,
      });
      expect(created.status).to.equal(201);
      expect(created.body).to.not.have.property('password');
      const uid = created.body.id;
      expect(
        (await svc.scim(d, 'GET', `/Users?filter=${enc('userName eq "JDOE@EXAMPLE.COM"')}&startIndex=1&count=100`)).body
          .totalResults,
      ).to.equal(1);
      // Profile push: full PUT.
      const put = await svc.scim(d, 'PUT', `/Users/${uid}`, {
        ...created.body,
        name: { givenName: 'Johnny', familyName: 'Doe' },
      });
      expect(put.status).to.equal(200);
      // Deactivate: replace, no path, value object.
      const deact = await svc.scim(d, 'PATCH', `/Users/${uid}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', value: { active: false } }],
      });
      expect(deact.status).to.equal(200);
      expect(deact.body.active).to.equal(false);
      // Group Push: POST with empty members, then add, rename (value carries id), remove by filter, push-now replace.
      const g = await svc.scim(d, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Engineering', members: [] });
      expect(g.status).to.equal(201);
      const gid = g.body.id;
      const add = await svc.scim(d, 'PATCH', `/Groups/${gid}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'add', path: 'members', value: [{ value: uid, display: 'jdoe@example.com' }] }],
      });
      expect(add.status).to.be.oneOf([200, 204]);
      const rename = await svc.scim(d, 'PATCH', `/Groups/${gid}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', value: { id: gid, displayName: 'Eng' } }],
      });
      expect(rename.status).to.be.oneOf([200, 204]);
      const remove = await svc.scim(d, 'PATCH', `/Groups/${gid}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'remove', path: `members[value eq "${uid}"]` }],
      });
      expect(remove.status).to.be.oneOf([200, 204]);
      const pushNow = await svc.scim(d, 'PATCH', `/Groups/${gid}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', path: 'members', value: [{ value: uid }] }],
      });
      expect(pushNow.status).to.be.oneOf([200, 204]);
      const emptyPush = await svc.scim(d, 'PATCH', `/Groups/${gid}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', path: 'members', value: [] }],
      });
      expect(emptyPush.status).to.be.oneOf([200, 204]);
      const unlink = await svc.scim(d, 'DELETE', `/Groups/${gid}`);
      expect(unlink.status).to.equal(204);
      expect(await names(10)).to.deep.equal([
        'user.created',
        'user.updated',
        'user.updated',
        'group.created',
        'group.user_added',
        'group.updated',
        'group.user_removed',
        'group.user_added',
        'group.user_removed',
        'group.deleted',
      ]);
    });

    it('Entra (default dialect): test connection, matching, nulls, Replace "False", filtered-path Add, Remove with value list', async () => {
      const d = await directory('azure-scim-v2');
      // Test Connection: a random GUID on the matching attribute must be 200 + empty, never 404.
      const probe = await svc.scim(
        d,
        'GET',
        `/Users?filter=${enc('userName eq "c3a2e0d4-5f1b-4a8e-9f41-a1b2c3d4e5f6"')}`,
      );
      expect(probe.status).to.equal(200);
      expect(probe.body).to.include({ totalResults: 0 });
      expect(probe.body.Resources).to.deep.equal([]);
      expect((await svc.scim(d, 'GET', `/Users?filter=${enc('externalId eq "alice"')}`)).body.totalResults).to.equal(0);
      const created = await svc.scim(d, 'POST', '/Users', {
        schemas: [USER, ENTERPRISE],
        externalId: 'alice',
        userName: 'alice@contoso.com',
        active: true,
        addresses: null,
        title: null,
        roles: [],
        displayName: 'Alice Smith',
        emails: [{ primary: true, type: 'work', value: 'alice@contoso.com' }],
        meta: { resourceType: 'User' },
        name: { familyName: 'Smith', givenName: 'Alice' },
        [ENTERPRISE]: { department: 'Sales', manager: null },
      });
      expect(created.status).to.equal(201);
      expect(created.body).to.not.have.property('title');
      expect(created.body[ENTERPRISE].department).to.equal('Sales');
      const uid = created.body.id;
      expect((await svc.scim(d, 'GET', `/Users?filter=${enc('externalId eq "alice"')}`)).body.Resources[0].id).to.equal(
        uid,
      );
      // Default-dialect update: capitalised ops, string booleans, filtered path Add creating the element.
      const patch = await svc.scim(d, 'PATCH', `/Users/${uid}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'Replace', path: 'displayName', value: 'Alice S.' },
          { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' },
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'alice.smith@contoso.com' },
          { op: 'Add', path: `${ENTERPRISE}:employeeNumber`, value: '42' },
        ],
      });
      expect(patch.status, JSON.stringify(patch.body)).to.equal(200);
      expect(patch.body.phoneNumbers).to.deep.equal([{ type: 'mobile', value: '+1 555 0100' }]);
      expect(patch.body.emails[0].value).to.equal('alice.smith@contoso.com');
      expect(patch.body[ENTERPRISE]).to.include({ employeeNumber: '42', department: 'Sales' });
      expect(
        (await svc.scim(d, 'GET', `/Users?filter=${enc('emails[type eq "work"].value eq "alice.smith@contoso.com"')}`))
          .body.totalResults,
      ).to.equal(1);
      // Group: non-standard schema URN, created empty, then PATCH add/remove.
      const g = await svc.scim(d, 'POST', '/Groups', {
        schemas: [GROUP, 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group'],
        externalId: 'grp-1',
        displayName: 'Sales',
        members: [],
      });
      expect(g.status).to.equal(201);
      const found = await svc.scim(
        d,
        'GET',
        `/Groups?excludedAttributes=members&filter=${enc('displayName eq "Sales"')}`,
      );
      expect(found.body.Resources[0].id).to.equal(g.body.id);
      expect(found.body.Resources[0]).to.not.have.property('members');
      expect(
        (
          await svc.scim(d, 'PATCH', `/Groups/${g.body.id}`, {
            schemas: [PATCH_OP],
            Operations: [{ op: 'Add', path: 'members', value: [{ value: uid }] }],
          })
        ).status,
      ).to.equal(204);
      expect(
        (
          await svc.scim(d, 'PATCH', `/Groups/${g.body.id}`, {
            schemas: [PATCH_OP],
            Operations: [{ op: 'Remove', path: 'members', value: [{ value: uid }] }],
          })
        ).status,
      ).to.equal(204);
      // Soft delete: Replace active "False" (a string).
      const off = await svc.scim(d, 'PATCH', `/Users/${uid}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
      });
      expect(off.body.active).to.equal(false);
      // Hard delete after 30 days.
      expect((await svc.scim(d, 'DELETE', `/Users/${uid}`)).status).to.equal(204);
      expect(await names(7)).to.deep.equal([
        'user.created',
        'user.updated',
        'group.created',
        'group.user_added',
        'group.user_removed',
        'user.updated',
        'user.deleted',
      ]);
    });

    it('Entra (aadOptscim062020): lowercase ops, boolean false, dotted no-path replace, remove by filter', async () => {
      const d = await directory('azure-scim-v2');
      const uid = (
        await svc.scim(d, 'POST', '/Users', {
          schemas: [USER],
          userName: 'bob@contoso.com',
          externalId: 'bob',
          name: { givenName: 'Bob', familyName: 'Jones' },
          active: true,
        })
      ).body.id;
      const patch = await svc.scim(d, 'PATCH', `/Users/${uid}`, {
        schemas: [PATCH_OP],
        Operations: [
          {
            op: 'replace',
            value: {
              'name.givenName': 'Robert',
              'name.familyName': 'Jones-Smith',
              [`${ENTERPRISE}:employeeNumber`]: '7',
              [`${ENTERPRISE}:department`]: 'R&D',
              active: false,
            },
          },
        ],
      });
      expect(patch.status, JSON.stringify(patch.body)).to.equal(200);
      expect(patch.body.name).to.deep.equal({ givenName: 'Robert', familyName: 'Jones-Smith' });
      expect(patch.body[ENTERPRISE]).to.deep.equal({ employeeNumber: '7', department: 'R&D' });
      expect(patch.body.active).to.equal(false);
      expect(patch.body.schemas).to.include(ENTERPRISE);
      const g = (
        await svc.scim(d, 'POST', '/Groups', { schemas: [GROUP], displayName: 'R&D', members: [{ value: uid }] })
      ).body;
      expect(
        (
          await svc.scim(d, 'PATCH', `/Groups/${g.id}`, {
            schemas: [PATCH_OP],
            Operations: [{ op: 'remove', path: `members[value eq "${uid}"]` }],
          })
        ).status,
      ).to.equal(204);
      const events = await hooks.waitForLogOrder(5);
      expect(events.map((e) => e.event)).to.deep.equal([
        'user.created',
        'user.updated',
        'group.created',
        'group.user_added',
        'group.user_removed',
      ]);
      expect(events[1].data).to.include({ first_name: 'Robert', last_name: 'Jones-Smith', active: false });
      expect(events[1].previous_attributes).to.include({ first_name: 'Bob', last_name: 'Jones', active: true });
    });

    it('OneLogin: legacy schema URN from an edited JSON template, PUT updates', async () => {
      const d = await directory('onelogin-scim-v2');
      const created = await svc.scim(d, 'POST', '/Users', {
        schemas: ['urn:scim:schemas:core:1.0', USER],
        userName: 'carol@onelogin-demo.com',
        name: { givenName: 'Carol', familyName: 'White' },
        emails: [{ value: 'carol@onelogin-demo.com', primary: true }],
        externalId: '12345',
      });
      expect(created.status).to.equal(201);
      expect(created.body.schemas).to.include('urn:scim:schemas:core:1.0');
      const put = await svc.scim(d, 'PUT', `/Users/${created.body.id}`, {
        schemas: [USER],
        userName: 'carol@onelogin-demo.com',
        name: { givenName: 'Carol', familyName: 'Black' },
        emails: [{ value: 'carol@onelogin-demo.com', primary: true }],
        externalId: '12345',
        active: true,
      });
      expect(put.status).to.equal(200);
      expect(put.body.name.familyName).to.equal('Black');
      const events = await hooks.waitForLogOrder(2);
      expect(events[1].previous_attributes).to.deep.include({ last_name: 'White' });
    });

    it('JumpCloud: Test Connection creates and deletes a test user and group; Azure-style member removal', async () => {
      const d = await directory('jumpcloud-scim-v2');
      const test = await svc.scim(d, 'POST', '/Users', {
        schemas: [USER],
        userName: 'jc-test@example.com',
        name: { givenName: 'Test', familyName: 'User' },
        emails: [{ value: 'jc-test@example.com', type: 'work', primary: true }],
      });
      expect(test.status).to.equal(201);
      const tg = await svc.scim(d, 'POST', '/Groups', { schemas: [GROUP], displayName: 'jc-test-group' });
      expect(tg.status).to.equal(201);
      expect((await svc.scim(d, 'DELETE', `/Groups/${tg.body.id}`)).status).to.equal(204);
      expect((await svc.scim(d, 'DELETE', `/Users/${test.body.id}`)).status).to.equal(204);
      const u = (await svc.scim(d, 'POST', '/Users', { schemas: [USER], userName: 'dan@example.com' })).body.id;
      const g = (
        await svc.scim(d, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Staff', members: [{ value: u }] })
      ).body.id;
      const rm = await svc.scim(d, 'PATCH', `/Groups/${g}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'remove', path: 'members', value: [{ value: u }] }],
      });
      expect(rm.status).to.equal(204);
      expect(await names(8)).to.deep.equal([
        'user.created',
        'group.created',
        'group.deleted',
        'user.deleted',
        'user.created',
        'group.created',
        'group.user_added',
        'group.user_removed',
      ]);
    });
  });
}
