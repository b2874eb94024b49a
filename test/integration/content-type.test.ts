/**
 * One Content-Type rule for both APIs: no Content-Type means JSON; an explicit non-JSON type is a 415 in the
 * API's own error format. (It used to be a 415 on the management API and silently accepted on SCIM.)
 */
import { expect } from 'chai';
import { openStore, startService, type Service } from '../support/harness.js';

const USER = { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'ann@acme.io', active: true };
const DIRECTORY = { name: 'Acme', tenant: 'acme', product: 'ct', type: 'okta-scim-v2' };

describe('Content-Type rule (management API and SCIM alike)', () => {
  let svc: Service;
  let dir: { id: string; scim: { secret: string } };
  beforeEach(async () => {
    svc = await startService(await openStore('memory'));
    dir = await svc.createDirectory();
  });
  afterEach(() => svc.close());

  /** A POST with exactly this Content-Type (undefined: none; a byte body makes fetch add none of its own). */
  const post = (path: string, auth: string, body: unknown, contentType?: string) =>
    fetch(`${svc.url}${path}`, {
      method: 'POST',
      headers: { authorization: auth, ...(contentType !== undefined && { 'content-type': contentType }) },
      body: new TextEncoder().encode(JSON.stringify(body)),
    });
  const management = (contentType?: string) =>
    post('/api/v1/directory-sync', 'Api-Key test-api-key', DIRECTORY, contentType);
  const scim = (contentType?: string) =>
    post(`/api/scim/v2.0/${dir.id}/Users`, `Bearer ${dir.scim.secret}`, USER, contentType);

  it('parses a body without Content-Type as JSON on both APIs', async () => {
    const created = await management();
    expect(created.status).to.equal(201);
    expect(((await created.json()) as any).data.tenant).to.equal('acme');
    const user = await scim();
    expect(user.status).to.equal(201);
    expect(((await user.json()) as any).userName).to.equal('ann@acme.io');
  });

  it('accepts application/json and application/scim+json (with a charset) on both APIs', async () => {
    expect((await management('application/scim+json')).status).to.equal(201);
    expect((await scim('application/json; charset=utf-8')).status).to.equal(201);
  });

  for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
    it(`answers 415 to ${contentType} on both APIs, each in its own error format, and stores nothing`, async () => {
      const m = await management(contentType);
      expect(m.status).to.equal(415);
      expect(await m.json()).to.deep.equal({
        data: null,
        error: {
          message: 'Content-Type must be application/json or application/scim+json (or be left out)',
          code: 415,
        },
      });
      const s = await scim(contentType);
      expect(s.status).to.equal(415);
      expect(s.headers.get('content-type')).to.match(/^application\/scim\+json/);
      expect(await s.json()).to.deep.include({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
        status: '415',
      });
      const users = await svc.scim(dir, 'GET', '/Users');
      expect(users.body.totalResults).to.equal(0);
      const dirs = await svc.api('GET', '/api/v1/directory-sync?tenant=acme&product=ct');
      expect(dirs.body.data).to.have.length(0);
    });
  }
});
