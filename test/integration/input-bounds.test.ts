/** Documented bounds, each a 400 naming the field, through the public HTTP contracts, on both stores. */
import { expect } from 'chai';
import { STORE_KINDS, openStore, startService, type Service } from '../support/harness.js';

const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

const emails = (n: number, tag = 'e') =>
  Array.from({ length: n }, (_, i) => ({ value: `${tag}${i}@acme.io`, type: 'work' }));

for (const kind of STORE_KINDS) {
  describe(`input bounds (${kind} store)`, () => {
    let svc: Service;
    let dir: any;
    beforeEach(async () => {
      svc = await startService(await openStore(kind, 8));
      dir = await svc.createDirectory();
    });
    afterEach(() => svc.close());

    const expectScim400 = (res: { status: number; body: any }, scimType: string, detail: RegExp) => {
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body).to.deep.include({ schemas: [ERROR], status: '400', scimType });
      expect(res.body.detail).to.match(detail);
    };

    describe('SCIM', () => {
      it('bounds userName, displayName and externalId at 1024 characters, naming the field; nothing is stored', async () => {
        expectScim400(
          await svc.scim(dir, 'POST', '/Users', { userName: 'u'.repeat(900_000) }),
          'invalidValue',
          /^userName must be at most 1024 characters$/,
        );
        expectScim400(
          await svc.scim(dir, 'POST', '/Users', { userName: `${'u'.repeat(1025)}` }),
          'invalidValue',
          /^userName must be at most 1024 characters$/,
        );
        expectScim400(
          await svc.scim(dir, 'POST', '/Users', { userName: 'a@acme.io', externalId: 'x'.repeat(2000) }),
          'invalidValue',
          /^externalId/,
        );
        expectScim400(
          await svc.scim(dir, 'POST', '/Groups', { displayName: 'g'.repeat(1025) }),
          'invalidValue',
          /^displayName must be at most 1024/,
        );
        expect(await svc.dsync.store.countUsers(dir.id)).to.equal(0);
        expect((await svc.scim(dir, 'POST', '/Users', { userName: 'u'.repeat(1024) })).status).to.equal(201);
      });

      it('bounds every other string, extension values included, at 16384 characters', async () => {
        const long = 'x'.repeat(16_385);
        expectScim400(
          await svc.scim(dir, 'POST', '/Users', { userName: 'a@acme.io', title: long }),
          'invalidValue',
          /^title must be at most 16384 characters$/,
        );
        expectScim400(
          await svc.scim(dir, 'POST', '/Users', { userName: 'a@acme.io', [ENTERPRISE]: { department: long } }),
          'invalidValue',
          new RegExp(`^${ENTERPRISE}\\.department must be at most 16384`),
        );
        expectScim400(
          await svc.scim(dir, 'POST', '/Users', { userName: 'a@acme.io', customThing: { nested: [long] } }),
          'invalidValue',
          /^customThing\.nested\[0\]/,
        );
        const ok = await svc.scim(dir, 'POST', '/Users', { userName: 'a@acme.io', title: 'x'.repeat(16_384) });
        expect(ok.status).to.equal(201);
        const user = ok.body;
        const patched = await svc.scim(dir, 'PATCH', `/Users/${user.id}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'replace', path: 'nickName', value: long }],
        });
        expectScim400(patched, 'invalidValue', /^nickName must be at most 16384/);
      });

      it('bounds each multi-valued attribute at 100 values (tooMany), in one request and accumulated by PATCH', async () => {
        for (const attr of [
          'emails',
          'phoneNumbers',
          'addresses',
          'roles',
          'entitlements',
          'ims',
          'photos',
          'x509Certificates',
        ]) {
          const values = Array.from({ length: 101 }, (_, i) => ({ value: `v${i}` }));
          expectScim400(
            await svc.scim(dir, 'POST', '/Users', { userName: 'a@acme.io', [attr]: values }),
            'tooMany',
            new RegExp(`^${attr} has 101 values; at most 100 are allowed$`),
          );
        }
        const many = Array.from({ length: 40_000 }, (_, i) => ({ value: `${i}@a` }));
        expectScim400(
          await svc.scim(dir, 'POST', '/Users', { userName: 'a@acme.io', emails: many }),
          'tooMany',
          /^emails has 40000 values/,
        );
        const created = await svc.scim(dir, 'POST', '/Users', { userName: 'a@acme.io', emails: emails(90) });
        expect(created.status).to.equal(201);
        const more = await svc.scim(dir, 'PATCH', `/Users/${created.body.id}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'add', path: 'emails', value: emails(20, 'more') }],
        });
        expectScim400(more, 'tooMany', /^emails has 110 values; at most 100 are allowed$/);
        const oneByOne = Array.from({ length: 11 }, (_, i) => ({
          op: 'add',
          path: 'emails',
          value: [{ value: `one${i}@acme.io` }],
        }));
        expectScim400(
          await svc.scim(dir, 'PATCH', `/Users/${created.body.id}`, { schemas: [PATCH_OP], Operations: oneByOne }),
          'tooMany',
          /^emails has 101 values/,
        );
        expect((await svc.scim(dir, 'GET', `/Users/${created.body.id}`)).body.emails).to.have.length(90);
      });

      it('bounds a PATCH at 1000 operations and 1000 attribute values in all', async () => {
        const user = (await svc.scim(dir, 'POST', '/Users', { userName: 'a@acme.io' })).body;
        const ops = (n: number) =>
          Array.from({ length: n }, (_, i) => ({ op: 'replace', path: 'nickName', value: `n${i}` }));
        expectScim400(
          await svc.scim(dir, 'PATCH', `/Users/${user.id}`, { schemas: [PATCH_OP], Operations: ops(1001) }),
          'tooMany',
          /at most 1000 operations/,
        );
        expect(
          (await svc.scim(dir, 'PATCH', `/Users/${user.id}`, { schemas: [PATCH_OP], Operations: ops(1000) })).status,
        ).to.equal(200);
        const spread = Array.from({ length: 11 }, (_, i) => ({
          op: 'add',
          path: `urn:x:custom:attr${i}`,
          value: Array.from({ length: 100 }, (_, j) => j),
        }));
        expectScim400(
          await svc.scim(dir, 'PATCH', `/Users/${user.id}`, { schemas: [PATCH_OP], Operations: spread }),
          'tooMany',
          /at most 1000 attribute values in all/,
        );
      });

      it('bounds group member values per request at 100,000, across the operations of a PATCH too', async () => {
        const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => String(from + i));
        expectScim400(
          await svc.scim(dir, 'POST', '/Groups', { displayName: 'All', members: ids(100_001) }),
          'tooMany',
          /at most 100000 member values/,
        );
        const group = (await svc.scim(dir, 'POST', '/Groups', { displayName: 'All', members: ids(3) })).body;
        const twoOps = [
          { op: 'add', path: 'members', value: ids(60_000) },
          { op: 'add', path: 'members', value: ids(40_001, 60_000) },
        ];
        expectScim400(
          await svc.scim(dir, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: twoOps }),
          'tooMany',
          /at most 100000 member values/,
        );
        const noPath = [{ op: 'add', value: { members: ids(100_001) } }];
        expectScim400(
          await svc.scim(dir, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: noPath }),
          'tooMany',
          /at most 100000 member values/,
        );
        // A member list is not held to the 100-values-per-attribute bound.
        expect(
          (
            await svc.scim(dir, 'PATCH', `/Groups/${group.id}`, {
              schemas: [PATCH_OP],
              Operations: [{ op: 'add', path: 'members', value: ids(500, 10) }],
            })
          ).status,
        ).to.equal(204);
      });

      it('validates the .search body: a filter that is not a string is 400 invalidFilter, not the whole directory', async () => {
        await svc.scim(dir, 'POST', '/Users', { userName: 'a@acme.io' });
        expectScim400(
          await svc.scim(dir, 'POST', '/Users/.search', { filter: { a: 1 } }),
          'invalidFilter',
          /^filter must be a string$/,
        );
        expectScim400(
          await svc.scim(dir, 'POST', '/.search', { filter: ['userName eq "a@acme.io"'] }),
          'invalidFilter',
          /^filter must be a string$/,
        );
        expectScim400(
          await svc.scim(dir, 'POST', '/Users/.search', { filter: `userName eq "${'a'.repeat(5000)}"` }),
          'invalidFilter',
          /at most 4096 characters/,
        );
        expectScim400(
          await svc.scim(dir, 'POST', '/Users/.search', { count: 'ten' }),
          'invalidValue',
          /^count must be an integer$/,
        );
        expectScim400(
          await svc.scim(dir, 'POST', '/Users/.search', { attributes: 5 }),
          'invalidValue',
          /^attributes must be a list/,
        );
        expectScim400(await svc.scim(dir, 'POST', '/Users/.search', [1]), 'invalidSyntax', /JSON object/);
        const found = await svc.scim(dir, 'POST', '/Users/.search', {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
          filter: 'userName eq "a@acme.io"',
          count: 5,
          attributes: ['userName'],
        });
        expect(found.status).to.equal(200);
        expect(found.body.totalResults).to.equal(1);
      });

      it('advertises what SCIM has fields for, and nothing a strict client would refuse', async () => {
        // scim2-models (scim2-cli, scim2-tester) refuses a ServiceProviderConfig with any extension: the other
        // bounds are documented in docs/concepts/directories.md instead.
        const spc = (await svc.scim(dir, 'GET', '/ServiceProviderConfig')).body;
        expect(spc.schemas).to.deep.equal(['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig']);
        expect(spc.filter).to.deep.equal({ supported: true, maxResults: 1000 });
        expect(spc.bulk).to.deep.equal({ supported: false, maxOperations: 0, maxPayloadSize: 0 });
      });
    });

    describe('management API', () => {
      const create = (input: Record<string, unknown>) =>
        svc.api('POST', '/api/v1/directory-sync', {
          name: 'Acme',
          tenant: 'acme',
          product: 'app',
          type: 'generic-scim-v2',
          ...input,
        });
      const expect400 = (res: { status: number; body: any }, message: string) => {
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body).to.deep.equal({ data: null, error: { message, code: 400 } });
      };

      it('says what is wrong with a directory name, tenant or product', async () => {
        expect400(await create({ name: 'n'.repeat(10_000) }), 'name must be at most 256 characters');
        expect400(await create({ name: 42 }), 'name must be a string');
        expect400(await create({ name: undefined }), 'name is required');
        expect400(await create({ tenant: 'evil\u0000tenant\nx' }), 'tenant must not contain control characters');
        expect400(await create({ product: 'p\u001b[31m' }), 'product must not contain control characters');
        expect400(await create({ tenant: 'a:b' }), 'tenant cannot contain the character :');
        expect400(await create({ tenant: 't'.repeat(257) }), 'tenant must be at most 256 characters');
        expect400(
          await svc.api('PATCH', `/api/v1/directory-sync/${dir.id}`, { name: 'x\u0007' }),
          'name must not contain control characters',
        );
        expect((await create({ name: 'n'.repeat(256), tenant: 't'.repeat(256) })).status).to.equal(201);
      });

      it('says a tenant, product or id given in a query or path is too long or malformed', async () => {
        expect400(
          await svc.api('GET', `/api/v1/directory-sync?tenant=${'t'.repeat(2000)}&product=app`),
          'tenant must be at most 256 characters',
        );
        expect400(
          await svc.api('GET', `/api/v1/directory-sync/users?tenant=acme&product=${'p'.repeat(2000)}`),
          'product must be at most 256 characters',
        );
        expect400(
          await svc.api('GET', '/api/v1/directory-sync/users?tenant=a%00b&product=app'),
          'tenant must not contain control characters',
        );
        expect400(
          await svc.api('GET', '/api/v1/directory-sync/users?tenant=a&tenant=b&product=app'),
          'tenant must be given once, as a string',
        );
        expect400(
          await svc.api('GET', `/api/v1/directory-sync/${'i'.repeat(2000)}`),
          'id must be at most 256 characters',
        );
        expect400(
          await svc.api('GET', `/api/v1/directory-sync/users/${'u'.repeat(300)}?tenant=acme&product=app`),
          'id must be at most 256 characters',
        );
        expect400(
          await svc.api('GET', `/api/v1/dsync/events?directoryId=${'d'.repeat(300)}`),
          'directoryId must be at most 256 characters',
        );
        expect((await svc.api('GET', '/api/v1/directory-sync?tenant=acme&product=app')).status).to.equal(200);
      });
    });
  });
}
