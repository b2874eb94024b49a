/**
 * `role_mapping` per directory and the `roles` it gives users: set at create and by PATCH, shown by GET, a 400
 * naming the field with nothing applied for a bad one. On both stores, over HTTP, read from the event log.
 */
import { expect } from 'chai';
import { eventReader, openStore, STORE_KINDS, type Service, startService } from '../support/harness.js';

const MAPPING = { default_role: 'member', rules: [{ group: 'Admins', role: 'admin', priority: 10 }] };

for (const kind of STORE_KINDS) {
  describe(`role mapping (${kind} store)`, () => {
    let svc: Service;
    let events: (directoryId: string) => Promise<any[]>;
    beforeEach(async () => {
      const store = await openStore(kind, 10);
      svc = await startService(store);
      events = eventReader(store);
    });
    afterEach(() => svc?.close());

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
      ['a rule without role', { rules: [{ group: 'Admins', priority: 1 }] }, 'role_mapping.rules.0.role: is required'],
      ['a non-numeric priority', { rules: [{ group: 'Admins', role: 'admin', priority: 'high' }] }, 'role_mapping.rules.0.priority: must be a number'],
      ['an empty group', { rules: [{ group: '', role: 'admin', priority: 1 }] }, 'role_mapping.rules.0.group: must not be empty'],
      ['no rules', { default_role: 'member' }, 'role_mapping.rules: is required'],
      ['a default_role that is no string', { default_role: 7, rules: [] }, 'role_mapping.default_role: must be a string'],
      ['an unknown field', { rules: [], roles: [] }, 'role_mapping: unknown field roles'],
    ];
    for (const [what, mapping, message] of BAD) {
      it(`${what} is a 400 naming the field, and nothing of the request is applied`, async () => {
        const d = await svc.createDirectory({ role_mapping: MAPPING });
        const bad = await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, { name: 'Renamed', role_mapping: mapping });
        expect([bad.status, bad.body.error.message]).to.deep.equal([400, message]);
        expect(await read(d.id)).to.include({ name: 'Acme' });
        expect((await read(d.id)).role_mapping).to.deep.equal(MAPPING);
        const badCreate = await svc.api('POST', '/api/v1/directory-sync', { name: 'x', tenant: 't', product: 'p', type: 'okta-scim-v2', role_mapping: mapping });
        expect([badCreate.status, badCreate.body.error.message]).to.deep.equal([400, message]);
        expect((await svc.api('GET', '/api/v1/directory-sync?tenant=t&product=p')).body.data).to.deep.equal([]);
        expect(await events(d.id)).to.deep.equal([]);
      });
    }
  });
}
