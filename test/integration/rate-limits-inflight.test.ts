import { expect } from 'chai';
import { CLUSTER_STORE_KINDS, openStore, sleep, until } from '../support/harness.js';
import { slowRequest, startLimited, type LimitedService } from '../support/rate-limits.js';

const DB = 8;
/** Renewed every third of it: a stall of the event loop longer than two thirds would lose a live holder's lock. */
const LOCK_TTL_MS = 1_000;

for (const kind of CLUSTER_STORE_KINDS) {
  describe(`rate limits: inflight rules, ${kind} store`, function () {
    this.timeout(20_000);
    let svc: LimitedService;
    let dir: any;
    let groupId: string;

    beforeEach(async () => {
      // Enterprise, so the project limits never interfere with what these tests count; a short lock expiry, so
      // the renewal of a live holder's lock is exercised.
      svc = await startLimited(await openStore(kind, DB), { plan: 'enterprise', lockTtlMs: LOCK_TTL_MS });
      dir = await svc.dsync.directories.create({ name: 'A', tenant: 'acme', product: 'app', type: 'generic-scim-v2' });
      const group = await svc.scim(dir, 'POST', '/Groups', { displayName: 'Eng' });
      groupId = group.body.id;
    });
    afterEach(async () => svc?.close());

    const scimHeaders = () => ({ authorization: `Bearer ${dir.scim.secret}`, 'content-type': 'application/scim+json' });
    const scimUrl = (path: string) => `${svc.url}/api/scim/v2.0/${dir.id}${path}`;
    const rename = (name: string) => ({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'displayName', value: name }],
    });
    /** Starts a slow write and waits until it holds its lock (or was reported). */
    async function holding(method: string, path: string, body: unknown, counted: () => Promise<number>) {
      const before = await counted();
      const slow = slowRequest(scimUrl(path), method, scimHeaders(), body);
      await until(async () => (await counted()) > before, 'the slow request to take its inflight lock');
      return slow;
    }
    const inflightAllowed = () => svc.decisions('scim', 'inflight', 'allowed');

    it('enforce: of two concurrent PATCHes to one group, the second gets a SCIM 429 with Retry-After', async () => {
      const first = await holding('PATCH', `/Groups/${groupId}`, rename('First'), inflightAllowed);
      const second = await svc.scim(dir, 'PATCH', `/Groups/${groupId}`, rename('Second'));
      expect(second.status).to.equal(429);
      expect(second.headers.get('retry-after')).to.equal('1');
      expect(second.headers.get('content-type')).to.match(/^application\/scim\+json/);
      expect(second.body).to.include({ status: '429' });
      expect(second.body.detail).to.match(/Another PATCH request to this resource is in progress/);
      expect((await first.finish()).status).to.equal(204);
      expect(await svc.decisions('scim', 'inflight', 'limited')).to.equal(1);
      // The lock went with the first request: the next write passes.
      expect((await svc.scim(dir, 'PATCH', `/Groups/${groupId}`, rename('Third'))).status).to.equal(204);
      expect((await svc.scim(dir, 'GET', `/Groups/${groupId}`)).body.displayName).to.equal('Third');
    });

    it('enforce: a write to another group, or the same path in another directory, is not blocked', async () => {
      const other = await svc.scim(dir, 'POST', '/Groups', { displayName: 'Ops' });
      const first = await holding('PATCH', `/Groups/${groupId}`, rename('First'), inflightAllowed);
      expect((await svc.scim(dir, 'PATCH', `/Groups/${other.body.id}`, rename('Ops2'))).status).to.equal(204);
      const dir2 = await svc.dsync.directories.create({
        name: 'B',
        tenant: 'beta',
        product: 'app',
        type: 'generic-scim-v2',
      });
      const sameId = await svc.scim(dir2, 'PATCH', `/Groups/${groupId}`, rename('X'));
      expect(sameId.status, 'same path shape in another directory: not blocked (404: no such group there)').to.equal(
        404,
      );
      expect((await first.finish()).status).to.equal(204);
    });

    it('report-only: concurrent user creates all pass, with a log line and a metric', async () => {
      const user = (name: string) => ({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: name,
        active: true,
      });
      const first = await holding('POST', '/Users', user('a@acme.test'), inflightAllowed);
      const second = await svc.scim(dir, 'POST', '/Users', user('b@acme.test'));
      expect(second.status).to.equal(201);
      expect((await svc.scim(dir, 'POST', '/Users', user('c@acme.test'))).status).to.equal(201);
      expect((await first.finish()).status).to.equal(201);
      expect(await svc.decisions('scim', 'inflight', 'report_only')).to.equal(2);
      expect(await svc.decisions('scim', 'inflight', 'limited')).to.equal(0);
      // Every violation is counted; the log gets one line per rule and directory a window (an import is parallel).
      const lines = svc.logs.filter((l) => l.msg === 'concurrent request to one resource (report-only inflight rule)');
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include({
        rule: 'scim-create',
        bucket: 'scim',
        method: 'POST',
        path: `/api/scim/v2.0/${dir.id}/Users`,
        suppressed: 0,
      });
    });

    it('GET, HEAD and OPTIONS are never held up by a write in progress', async () => {
      const first = await holding('PATCH', `/Groups/${groupId}`, rename('First'), inflightAllowed);
      for (const method of ['GET', 'HEAD', 'OPTIONS']) {
        const r = await fetch(scimUrl(`/Groups/${groupId}`), { method, headers: scimHeaders() });
        expect(r.status, method).to.not.equal(429);
      }
      expect((await svc.scim(dir, 'GET', `/Groups/${groupId}`)).status).to.equal(200);
      expect(await svc.decisions('scim', 'inflight', 'limited')).to.equal(0);
      expect((await first.finish()).status).to.equal(204);
    });

    it('enforce: management writes on one directory (PATCH while a PATCH runs) get the envelope 429', async () => {
      const before = await svc.decisions('default', 'inflight', 'allowed');
      const headers = { authorization: 'Api-Key test-api-key', 'content-type': 'application/json' };
      const slow = slowRequest(`${svc.url}/api/v1/directory-sync/${dir.id}`, 'PATCH', headers, { name: 'Renamed' });
      await until(
        async () => (await svc.decisions('default', 'inflight', 'allowed')) > before,
        'the management PATCH to take its lock',
      );
      const second = await svc.api('PATCH', `/api/v1/directory-sync/${dir.id}`, { name: 'Other' });
      expect(second.status).to.equal(429);
      expect(second.body).to.deep.equal({
        data: null,
        error: { message: 'Another PATCH request to this resource is in progress; retry after 1 s', code: 429 },
      });
      expect((await slow.finish()).status).to.equal(200);
    });

    it('a live holder keeps its lock past the expiry (renewed while the request runs)', async () => {
      const first = await holding('PATCH', `/Groups/${groupId}`, rename('Long'), inflightAllowed);
      await sleep(LOCK_TTL_MS * 3);
      expect((await svc.scim(dir, 'PATCH', `/Groups/${groupId}`, rename('Meanwhile'))).status).to.equal(429);
      expect((await first.finish()).status).to.equal(204);
      expect((await svc.scim(dir, 'GET', `/Groups/${groupId}`)).body.displayName).to.equal('Long');
    });

    it('a client that drops its connection mid-request releases the lock', async () => {
      const first = await holding('PATCH', `/Groups/${groupId}`, rename('First'), inflightAllowed);
      first.abort();
      await until(
        async () => (await svc.scim(dir, 'PATCH', `/Groups/${groupId}`, rename('After'))).status === 204,
        'the lock to be released',
      );
    });
  });
}
