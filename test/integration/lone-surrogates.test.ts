/**
 * A lone UTF-16 surrogate (JSON's `\ud800` escape) anywhere in input is a 400 naming the
 * field, on both stores. Before, the memory store kept it and Redis (UTF-8) stored U+FFFD, so `"\ud800surr"`,
 * `"\udbffsurr"`, `"\ufffdsurr"` were 201, 409, 409 on Redis and 201, 201, 201 in memory.
 */
import { expect } from 'chai';
import { openStore, startService, type Service, type StoreKind } from '../support/harness.js';

for (const kind of ['memory', 'redis'] as StoreKind[]) {
  describe(`lone UTF-16 surrogates are refused, naming the field, ${kind} store`, () => {
    let svc: Service;
    let dir: any;
    beforeEach(async () => {
      svc = await startService(await openStore(kind, 3));
      dir = await svc.createDirectory();
    });
    afterEach(async () => svc.close());

    const user = (userName: string, extra: Record<string, unknown> = {}) => ({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName,
      ...extra,
    });

    it('SCIM: in userName and in a nested value or key; U+FFFD itself is a character like any other', async () => {
      const replies = [];
      for (const name of ['\ud800surr', '\udbffsurr', '\ufffdsurr'])
        replies.push(await svc.scim(dir, 'POST', '/Users', user(name)));
      expect(replies.map((r) => r.status)).to.deep.equal([400, 400, 201]);
      expect(replies[0]!.body).to.include({ status: '400', scimType: 'invalidValue' });
      expect(replies[0]!.body.detail).to.equal('userName: the value is not valid Unicode (a lone UTF-16 surrogate)');
      const nested = await svc.scim(
        dir,
        'POST',
        '/Users',
        user('b@x.io', { emails: [{ value: 'ok@x.io' }, { value: 'x\udc00@x.io' }] }),
      );
      expect(nested.status).to.equal(400);
      expect(nested.body.detail).to.match(/^emails\[1\]\.value: the value is not valid Unicode/);
      const key = await svc.scim(dir, 'POST', '/Users', user('c@x.io', { 'urn:x\ud800': { a: 1 } }));
      expect(key.status).to.equal(400);
      expect(key.body.detail).to.match(/the key is not valid Unicode/);
      const patch = await svc.scim(dir, 'PATCH', `/Users/${replies[2]!.body.id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'displayName', value: '\udfffx' }],
      });
      expect(patch.status).to.equal(400);
      expect(patch.body.detail).to.match(/^Operations\[0\]\.value:/);
      // Nothing was stored but the valid one.
      expect((await svc.scim(dir, 'GET', '/Users')).body.totalResults).to.equal(1);
    });

    it('SCIM filters: a lone surrogate in a compared string is an invalid filter (Redis would match U+FFFD)', async () => {
      expect((await svc.scim(dir, 'POST', '/Users', user('\ufffdsurr'))).status).to.equal(201);
      const r = await svc.scim(dir, 'GET', `/Users?filter=${encodeURIComponent('userName eq "\\ud800surr"')}`);
      expect(r.status).to.equal(400);
      expect(r.body).to.include({ scimType: 'invalidFilter' });
      expect(r.body.detail).to.match(/not valid Unicode/);
    });

    it('management API: tenant and name, refused before anything is stored', async () => {
      const create = await svc.api('POST', '/api/v1/directory-sync', {
        name: 'A',
        tenant: '\ud800t',
        product: 'p',
        type: 'okta-scim-v2',
      });
      expect(create.status).to.equal(400);
      expect(create.body.error).to.deep.equal({
        message: 'tenant is not valid Unicode (a lone UTF-16 surrogate)',
        code: 400,
      });
      const patch = await svc.api('PATCH', `/api/v1/directory-sync/${dir.id}`, { name: 'x\udbff' });
      expect(patch.status).to.equal(400);
      expect(patch.body.error.message).to.equal('name is not valid Unicode (a lone UTF-16 surrogate)');
      expect(
        (await svc.api('GET', `/api/v1/directory-sync?tenant=${encodeURIComponent('\ufffdt')}&product=p`)).body.data,
      ).to.deep.equal([]);
    });
  });
}
