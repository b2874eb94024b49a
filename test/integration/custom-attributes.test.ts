/**
 * `attribute_mapping` per directory and the `custom_attributes` it gives users: set at create and by PATCH, shown
 * by GET, a 400 naming the attribute with nothing applied for a bad one; the values on every user and every event
 * that carries one (memberships built by the store included); a mapping change emitting exactly one `user.updated`
 * per user whose custom attributes changed. On both stores, over HTTP, read from the event log (each read gives
 * the events since the last).
 */
import { expect } from 'chai';
import { eventReader, openStore, STORE_KINDS, type Service, startService } from '../support/harness.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const ACME = 'urn:ietf:params:scim:schemas:extension:acme:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

const MAPPING = {
  badge: `${ACME}:badge`,
  country: 'addresses[type eq "work"].country',
  cost: `${ENTERPRISE}:costCenter`,
};

for (const kind of STORE_KINDS) {
  describe(`custom attributes (${kind} store)`, () => {
    let svc: Service;
    let events: (directoryId: string) => Promise<any[]>;
    beforeEach(async () => {
      const store = await openStore(kind, 10);
      svc = await startService(store);
      events = eventReader(store);
    });
    afterEach(() => svc?.close());

    const read = async (id: string) => (await svc.api('GET', `/api/v1/directory-sync/${id}`)).body.data;
    const user = async (d: any, name: string, extra: Record<string, unknown> = {}): Promise<string> => {
      const res = await svc.scim(d, 'POST', '/Users', {
        schemas: [USER, ACME],
        userName: `${name}@acme.io`,
        active: true,
        ...extra,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.id;
    };
    const apiUser = async (d: any, id: string) =>
      (await svc.api('GET', `/api/v1/directory-sync/users/${id}?directoryId=${d.id}`)).body.data;
    const ann = {
      [ACME]: { badge: 1042 },
      addresses: [
        { type: 'home', country: 'FR' },
        { type: 'work', country: 'US' },
      ],
      [ENTERPRISE]: { costCenter: 'CC-7' },
    };

    it('is absent unless set, is set at create and by PATCH, shown by GET; null and {} remove it', async () => {
      const plain = await svc.createDirectory();
      expect(await read(plain.id)).to.not.have.property('attribute_mapping');
      const mapped = await svc.createDirectory({ attribute_mapping: MAPPING });
      expect((await read(mapped.id)).attribute_mapping).to.deep.equal(MAPPING);
      const patched = await svc.api('PATCH', `/api/v1/directory-sync/${plain.id}`, {
        attribute_mapping: { badge: `${ACME}:badge`, asked: '' },
      });
      expect([patched.status, patched.body.data.attribute_mapping]).to.deep.equal([
        200,
        { badge: `${ACME}:badge`, asked: '' },
      ]);
      await svc.api('PATCH', `/api/v1/directory-sync/${plain.id}`, { name: 'Renamed' });
      expect((await read(plain.id)).attribute_mapping).to.deep.equal({ badge: `${ACME}:badge`, asked: '' });
      expect(
        (await svc.api('PATCH', `/api/v1/directory-sync/${plain.id}`, { attribute_mapping: null })).status,
      ).to.equal(200);
      expect(await read(plain.id)).to.not.have.property('attribute_mapping');
      expect(
        (await svc.api('PATCH', `/api/v1/directory-sync/${mapped.id}`, { attribute_mapping: {} })).status,
      ).to.equal(200);
      expect(await read(mapped.id)).to.not.have.property('attribute_mapping');
    });

    const BAD: Array<[string, unknown, RegExp]> = [
      [
        'an unknown source form',
        { badge: 'workday:badge' },
        /^attribute_mapping\.badge: "workday:badge": unknown source form "workday:"/,
      ],
      [
        'an unknown provider field',
        { ou: 'google:nothing' },
        /^attribute_mapping\.ou: "google:nothing": google has no field "nothing"/,
      ],
      [
        'a malformed filter',
        { c: 'addresses[type co "w"].country' },
        /^attribute_mapping\.c: .*must be "<attribute> eq <value>"/,
      ],
      ['a source that is no string', { c: 7 }, /^attribute_mapping\.c: must be a string/],
      ['a bad name', { '9x': 'title' }, /^attribute_mapping\.9x: a custom attribute name is a letter/],
    ];
    for (const [what, mapping, message] of BAD) {
      it(`${what} is a 400 naming the attribute, and nothing of the request is applied`, async () => {
        const d = await svc.createDirectory({ attribute_mapping: MAPPING });
        const bad = await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, {
          name: 'Renamed',
          attribute_mapping: mapping,
        });
        expect(bad.status).to.equal(400);
        expect(bad.body.error.message).to.match(message);
        expect(await read(d.id)).to.include({ name: 'Acme' });
        expect((await read(d.id)).attribute_mapping).to.deep.equal(MAPPING);
        const badCreate = await svc.api('POST', '/api/v1/directory-sync', {
          name: 'x',
          tenant: 't',
          product: 'p',
          type: 'okta-scim-v2',
          attribute_mapping: mapping,
        });
        expect(badCreate.status).to.equal(400);
        expect(badCreate.body.error.message).to.match(message);
        expect(await events(d.id)).to.deep.equal([]);
      });
    }

    it('are on the user in the API and on every event that carries it (memberships too), {} without a mapping', async () => {
      const plain = await svc.createDirectory();
      const p = await user(plain, 'plain', ann);
      expect((await apiUser(plain, p)).custom_attributes).to.deep.equal({});
      const d = await svc.createDirectory({ attribute_mapping: { ...MAPPING, missing: `${ACME}:nothing`, asked: '' } });
      const id = await user(d, 'ann', ann);
      const expected = { badge: 1042, country: 'US', cost: 'CC-7' };
      expect((await apiUser(d, id)).custom_attributes).to.deep.equal(expected);
      const list = (await svc.api('GET', `/api/v1/directory-sync/users?directoryId=${d.id}`)).body.data;
      expect(list[0].custom_attributes).to.deep.equal(expected);
      const g = await svc.scim(d, 'POST', '/Groups', {
        schemas: [GROUP],
        displayName: 'Eng',
        members: [{ value: id }],
      });
      await svc.scim(d, 'PATCH', `/Groups/${g.body.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }],
      });
      await svc.scim(d, 'PATCH', `/Groups/${g.body.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'add', path: 'members', value: [{ value: id }] }],
      });
      await svc.scim(d, 'DELETE', `/Users/${id}`);
      const log = await events(d.id);
      expect(log.map((e) => e.event)).to.deep.equal([
        'user.created',
        'group.created',
        'group.user_added',
        'group.user_removed',
        'group.user_added',
        'group.user_removed',
        'user.deleted',
      ]);
      for (const e of log.filter((e) => e.event !== 'group.created'))
        expect(e.data.custom_attributes, e.event).to.deep.equal(expected);
    });

    it('a write that changes a mapped value emits previous_attributes.custom_attributes with the old values only', async () => {
      const d = await svc.createDirectory({ attribute_mapping: MAPPING });
      const id = await user(d, 'ann', ann);
      const res = await svc.scim(d, 'PATCH', `/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'replace', path: 'addresses[type eq "work"].country', value: 'CA' },
          { op: 'replace', path: `${ENTERPRISE}:costCenter`, value: 'CC-9' },
        ],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const updated = (await events(d.id)).at(-1);
      expect(updated.event).to.equal('user.updated');
      expect(updated.data.custom_attributes).to.deep.equal({ badge: 1042, country: 'CA', cost: 'CC-9' });
      expect(updated.previous_attributes.custom_attributes).to.deep.equal({ country: 'US', cost: 'CC-7' });
    });

    it('a mapping change emits one user.updated per user whose custom attributes changed, none for the others, none again', async () => {
      const d = await svc.createDirectory({ attribute_mapping: { badge: `${ACME}:badge` } });
      const a = await user(d, 'ann', ann);
      const b = await user(d, 'bob', { [ACME]: { badge: 7 } });
      const c = await user(d, 'cid', { [ACME]: { badge: 8 }, addresses: [{ type: 'work', country: 'DE' }] });
      expect(await events(d.id)).to.have.length(3);
      const mapping = { badge: `${ACME}:badge`, country: 'addresses[type eq "work"].country' };
      expect(
        (await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, { attribute_mapping: mapping })).status,
      ).to.equal(200);
      const after = await events(d.id);
      expect(
        after
          .map((e) => [e.event, e.data.id, e.data.custom_attributes, e.previous_attributes])
          .sort((x, y) => String(x[1]).localeCompare(String(y[1]))),
      ).to.deep.equal(
        [
          ['user.updated', a, { badge: 1042, country: 'US' }, { custom_attributes: { country: null } }],
          ['user.updated', c, { badge: 8, country: 'DE' }, { custom_attributes: { country: null } }],
        ].sort((x, y) => String(x[1]).localeCompare(String(y[1]))),
      );
      expect((await apiUser(d, b)).custom_attributes).to.deep.equal({ badge: 7 });
      // The same mapping again emits nothing; removing it empties every user's custom attributes.
      await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, { attribute_mapping: mapping });
      expect(await events(d.id)).to.deep.equal([]);
      await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, { attribute_mapping: null });
      const removed = await events(d.id);
      expect(removed).to.have.length(3);
      for (const e of removed) expect([e.event, e.data.custom_attributes]).to.deep.equal(['user.updated', {}]);
      expect((await apiUser(d, a)).custom_attributes).to.deep.equal({});
    });
  });
}
