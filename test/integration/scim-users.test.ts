/**
 * SCIM /Users over real HTTP (RFC 7644 + what IdPs expect), against both stores, with events checked at a real
 * receiver.
 */
import { expect } from 'chai';
import {
  CLUSTER_STORE_KINDS,
  openStore,
  startReceiver,
  startService,
  type Receiver,
  type Service,
} from '../support/harness.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

const ann = (over: Record<string, unknown> = {}) => ({
  schemas: [USER],
  userName: 'ann@acme.io',
  externalId: 'okta-00u1',
  name: { givenName: 'Ann', familyName: 'Lee' },
  emails: [{ primary: true, value: 'ann@acme.io', type: 'work' }],
  displayName: 'Ann Lee',
  active: true,
  ...over,
});

for (const kind of CLUSTER_STORE_KINDS) {
  describe(`SCIM /Users (${kind} store)`, () => {
    let svc: Service;
    let hooks: Receiver;
    let dir: any;
    beforeEach(async () => {
      hooks = await startReceiver();
      svc = await startService(await openStore(kind));
      dir = await svc.createDirectory({ webhook_url: hooks.url, webhook_secret: hooks.secret });
    });
    afterEach(async () => {
      await svc.close();
      await hooks.close();
    });
    /** The directory's event log, as committed with each write (no delivery in between). */
    const logged = async () =>
      (await svc.dsync.store.readEvents(dir.id, null, 1000)).map((e) => JSON.parse(e.json).event as string);

    it('creates a user: 201, Location = meta.location, ETag, scim+json, user.created signed webhook', async () => {
      const res = await svc.scim(dir, 'POST', '/Users', ann());
      expect(res.status).to.equal(201);
      expect(res.headers.get('content-type')).to.match(/^application\/scim\+json/);
      expect(res.body.id).to.be.a('string');
      expect(res.headers.get('location')).to.equal(res.body.meta.location);
      expect(res.body.meta.location).to.equal(`${dir.scim.endpoint}/Users/${res.body.id}`);
      expect(res.headers.get('etag')).to.equal('W/"1"');
      expect(res.body.meta).to.include({ resourceType: 'User', version: 'W/"1"' });
      expect(res.body).to.include({ userName: 'ann@acme.io', active: true });
      const [event] = await hooks.waitForEvents(1);
      expect(event).to.include({ event: 'user.created', directory_id: dir.id, tenant: 'acme', product: 'app' });
      expect(event.id).to.match(/^evt_/);
      expect(Date.parse(event.created_at)).to.be.closeTo(Date.now(), 10_000);
      expect(event.data).to.include({
        id: res.body.id,
        first_name: 'Ann',
        last_name: 'Lee',
        email: 'ann@acme.io',
        active: true,
      });
      expect(event.data.raw).to.include({ userName: 'ann@acme.io', id: res.body.id });
      expect(hooks.deliveries[0]!.id).to.equal(event.id);
    });

    it('answers application/json bodies too (the Okta SCIM spec test posts them)', async () => {
      const res = await fetch(`${dir.scim.endpoint}/Users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${dir.scim.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(ann()),
      });
      expect(res.status).to.equal(201);
    });

    it('refuses a duplicate userName, case-insensitively, with 409 uniqueness', async () => {
      await svc.scim(dir, 'POST', '/Users', ann());
      const dup = await svc.scim(dir, 'POST', '/Users', ann({ userName: 'ANN@ACME.IO' }));
      expect(dup.status).to.equal(409);
      expect(dup.body).to.deep.include({ schemas: [ERROR], status: '409', scimType: 'uniqueness' });
    });

    it('gives exactly one 201 among concurrent duplicate POSTs', async () => {
      const results = await Promise.all(Array.from({ length: 16 }, () => svc.scim(dir, 'POST', '/Users', ann())));
      expect(results.filter((r) => r.status === 201)).to.have.length(1);
      expect(results.filter((r) => r.status === 409)).to.have.length(15);
      // One user stored, one event: the 409s left nothing behind.
      expect(await svc.dsync.store.countUsers(dir.id)).to.equal(1);
      const listed = await svc.scim(dir, 'GET', `/Users?filter=${encodeURIComponent('userName eq "ann@acme.io"')}`);
      expect(listed.body.Resources.map((u: { id: string }) => u.id)).to.deep.equal([
        results.find((r) => r.status === 201)!.body.id,
      ]);
      expect(await logged()).to.deep.equal(['user.created']);
    });

    it('authenticates with the bearer token (401 + Error body) and 404s an unknown directory', async () => {
      const none = await fetch(`${dir.scim.endpoint}/Users`);
      expect(none.status).to.equal(401);
      expect(await none.json()).to.deep.include({ schemas: [ERROR], status: '401' });
      const wrong = await svc.scim({ ...dir, scim: { secret: 'nope' } }, 'GET', '/Users');
      expect(wrong.status).to.equal(401);
      const unknown = await svc.scim({ id: 'no-such-dir', scim: dir.scim }, 'GET', '/Users');
      expect(unknown.status).to.equal(404);
    });

    it('refuses SCIM on a deactivated directory with 403, after authentication', async () => {
      await svc.api('PATCH', `/api/v1/directory-sync/${dir.id}`, { deactivated: true });
      const res = await svc.scim(dir, 'POST', '/Users', ann());
      expect(res.status).to.equal(403);
      expect(res.body.detail).to.match(/deactivated/);
      expect((await svc.scim({ ...dir, scim: { secret: 'x' } }, 'GET', '/Users')).status).to.equal(401);
      expect(await svc.dsync.store.countUsers(dir.id)).to.equal(0);
    });

    it('reads by id and answers 404 with an Error body for an unknown id', async () => {
      const created = await svc.scim(dir, 'POST', '/Users', ann());
      const got = await svc.scim(dir, 'GET', `/Users/${created.body.id}`);
      expect(got.status).to.equal(200);
      expect(got.body).to.deep.equal(created.body);
      const missing = await svc.scim(dir, 'GET', '/Users/00000000-0000-0000-0000-000000000000');
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.include({ schemas: [ERROR], status: '404' });
      expect(missing.body.detail).to.be.a('string');
      const cached = await svc.scim(dir, 'GET', `/Users/${created.body.id}`, undefined, { 'if-none-match': 'W/"1"' });
      expect(cached.status).to.equal(304);
    });

    it('filters on indexed and unindexed attributes; no match is 200 with an empty ListResponse', async () => {
      const a = (await svc.scim(dir, 'POST', '/Users', ann())).body;
      const b = (
        await svc.scim(
          dir,
          'POST',
          '/Users',
          ann({
            userName: 'bob@acme.io',
            externalId: 'x2',
            name: { givenName: 'Bob', familyName: 'Lee' },
            emails: [{ value: 'bob@acme.io', type: 'work' }],
          }),
        )
      ).body;
      const q = async (filter: string) => {
        const res = await svc.scim(dir, 'GET', `/Users?filter=${encodeURIComponent(filter)}`);
        expect(res.status, `${filter}: ${JSON.stringify(res.body)}`).to.equal(200);
        return res.body.Resources.map((r: { id: string }) => r.id);
      };
      expect(await q('userName eq "ANN@ACME.IO"')).to.deep.equal([a.id]);
      expect(await q('externalId eq "x2"')).to.deep.equal([b.id]);
      expect(await q('emails[type eq "work"].value eq "bob@acme.io"')).to.deep.equal([b.id]);
      expect(await q('emails.value eq "ann@acme.io"')).to.deep.equal([a.id]);
      expect(await q('userName eq "ann@acme.io" or userName eq "bob@acme.io"')).to.deep.equal([a.id, b.id]);
      expect(await q('name.familyName eq "Lee" and not (name.givenName sw "A")')).to.deep.equal([b.id]);
      expect(await q('userName co "acme"')).to.deep.equal([a.id, b.id]);
      const empty = await svc.scim(dir, 'GET', `/Users?filter=${encodeURIComponent('userName eq "0f7f1c2e-nobody"')}`);
      expect(empty.body).to.deep.equal({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
        totalResults: 0,
        startIndex: 1,
        itemsPerPage: 0,
        Resources: [],
      });
      const bad = await svc.scim(dir, 'GET', `/Users?filter=${encodeURIComponent('userName eq')}`);
      expect(bad.status).to.equal(400);
      expect(bad.body.scimType).to.equal('invalidFilter');
    });

    it('pages with startIndex/count and reports the true totalResults', async () => {
      for (let i = 0; i < 7; i++)
        await svc.scim(dir, 'POST', '/Users', ann({ userName: `u${i}@acme.io`, externalId: `e${i}` }));
      const page = await svc.scim(dir, 'GET', '/Users?startIndex=3&count=2');
      expect(page.body).to.include({ totalResults: 7, startIndex: 3, itemsPerPage: 2 });
      expect(page.body.Resources.map((r: { userName: string }) => r.userName)).to.deep.equal([
        'u2@acme.io',
        'u3@acme.io',
      ]);
      const totals = await svc.scim(dir, 'GET', '/Users?count=0');
      expect(totals.body).to.include({ totalResults: 7, itemsPerPage: 0 });
      const filtered = await svc.scim(
        dir,
        'GET',
        `/Users?filter=${encodeURIComponent('userName sw "u"')}&startIndex=6&count=5`,
      );
      expect(filtered.body).to.include({ totalResults: 7, itemsPerPage: 2 });
    });

    it('honours attributes and excludedAttributes', async () => {
      const { id } = (await svc.scim(dir, 'POST', '/Users', ann())).body;
      const only = await svc.scim(dir, 'GET', `/Users/${id}?attributes=userName`);
      expect(only.body).to.have.property('id', id);
      expect(only.body).to.have.property('userName');
      expect(only.body).to.not.have.property('emails');
      const without = await svc.scim(dir, 'GET', `/Users?excludedAttributes=emails,name`);
      expect(without.body.Resources[0]).to.not.have.property('emails');
      expect(without.body.Resources[0]).to.have.property('userName');
    });

    it('replaces with PUT and patches active=false, emitting user.updated with previous_attributes', async () => {
      const { id } = (await svc.scim(dir, 'POST', '/Users', ann())).body;
      const put = await svc.scim(dir, 'PUT', `/Users/${id}`, ann({ name: { givenName: 'Annie', familyName: 'Lee' } }));
      expect(put.status).to.equal(200);
      expect(put.body.name.givenName).to.equal('Annie');
      expect(put.body.meta.version).to.equal('W/"2"');
      const patch = await svc.scim(dir, 'PATCH', `/Users/${id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', value: { active: false } }],
      });
      expect(patch.status).to.equal(200);
      expect(patch.body.active).to.equal(false);
      const events = await hooks.waitForEvents(3);
      expect(events.map((e) => e.event)).to.deep.equal(['user.created', 'user.updated', 'user.updated']);
      expect(events[1].previous_attributes).to.deep.equal({
        first_name: 'Ann',
        raw: { name: { givenName: 'Ann', familyName: 'Lee' } },
      });
      expect(events[2].previous_attributes).to.deep.equal({ active: true, raw: { active: true } });
      expect(events[2].data.active).to.equal(false);
    });

    it('treats a no-op PATCH or PUT as a no-op: no version bump, no event', async () => {
      const { id } = (await svc.scim(dir, 'POST', '/Users', ann())).body;
      const same = await svc.scim(dir, 'PATCH', `/Users/${id}`, {
        Operations: [{ op: 'replace', path: 'active', value: true }],
      });
      expect(same.status).to.equal(200);
      expect(same.body.meta.version).to.equal('W/"1"');
      const put = await svc.scim(dir, 'PUT', `/Users/${id}`, ann());
      expect(put.body.meta.version).to.equal('W/"1"');
      await hooks.waitForEvents(1);
      await new Promise((r) => setTimeout(r, 100));
      expect(hooks.events()).to.have.length(1);
    });

    it('sees no change in a PUT that only reorders schemas or object keys', async () => {
      const created = (await svc.scim(dir, 'POST', '/Users', ann({ schemas: [USER, 'urn:example:custom:1.0'] }))).body;
      const same = await svc.scim(
        dir,
        'PUT',
        `/Users/${created.id}`,
        ann({ schemas: ['urn:example:custom:1.0', USER], name: { familyName: 'Lee', givenName: 'Ann' } }),
      );
      expect(same.body.meta.version).to.equal('W/"1"');
      await svc.scim(
        dir,
        'PUT',
        `/Users/${created.id}`,
        ann({ schemas: [USER, 'urn:example:custom:1.0'], name: { familyName: 'Lee', givenName: 'Annie' } }),
      );
      const events = await hooks.waitForEvents(2);
      expect(events.map((e) => e.event)).to.deep.equal(['user.created', 'user.updated']);
      expect(events[1].previous_attributes).to.deep.equal({
        first_name: 'Ann',
        raw: { name: { givenName: 'Ann', familyName: 'Lee' } },
      });
    });

    it('refuses a stale If-Match with 412 and applies a current one', async () => {
      const { id } = (await svc.scim(dir, 'POST', '/Users', ann())).body;
      const stale = await svc.scim(dir, 'PUT', `/Users/${id}`, ann({ displayName: 'X' }), { 'if-match': 'W/"9"' });
      expect(stale.status).to.equal(412);
      // The refused PUT changed nothing: same user, same version, no event.
      const unchanged = await svc.scim(dir, 'GET', `/Users/${id}`);
      expect(unchanged.body).to.deep.include({ displayName: 'Ann Lee' });
      expect(unchanged.body.meta.version).to.equal('W/"1"');
      expect(await logged()).to.deep.equal(['user.created']);
      const fresh = await svc.scim(dir, 'PUT', `/Users/${id}`, ann({ displayName: 'X' }), { 'if-match': 'W/"1"' });
      expect(fresh.status).to.equal(200);
      expect(fresh.body).to.deep.include({ displayName: 'X' });
      expect(fresh.body.meta.version).to.equal('W/"2"');
      expect(await logged()).to.deep.equal(['user.created', 'user.updated']);
    });

    it('deletes: 204, then 404; memberships go with user.deleted and group.user_removed events', async () => {
      const { id } = (await svc.scim(dir, 'POST', '/Users', ann())).body;
      const g = (await svc.scim(dir, 'POST', '/Groups', { displayName: 'Eng', members: [{ value: id }] })).body;
      const del = await svc.scim(dir, 'DELETE', `/Users/${id}`);
      expect(del.status).to.equal(204);
      expect((await svc.scim(dir, 'GET', `/Users/${id}`)).status).to.equal(404);
      expect((await svc.scim(dir, 'DELETE', `/Users/${id}`)).status).to.equal(404);
      const group = await svc.scim(dir, 'GET', `/Groups/${g.id}`);
      expect(group.body.members).to.deep.equal([]);
      const events = await hooks.waitForLogOrder(5);
      expect(events.map((e) => e.event)).to.deep.equal([
        'user.created',
        'group.created',
        'group.user_added',
        'group.user_removed',
        'user.deleted',
      ]);
      expect(events[3].data.group).to.include({ id: g.id, name: 'Eng' });
    });

    it('answers protocol errors as SCIM errors: bad JSON 400, /Bulk 501, unknown type 404, bad method 405', async () => {
      const bad = await svc.scim(dir, 'POST', '/Users', '{"userName":');
      expect(bad.status).to.equal(400);
      expect(bad.body).to.include({ status: '400', scimType: 'invalidSyntax' });
      expect((await svc.scim(dir, 'POST', '/Bulk', { Operations: [] })).status).to.equal(501);
      expect((await svc.scim(dir, 'GET', '/Widgets')).status).to.equal(404);
      expect((await svc.scim(dir, 'DELETE', '/Users')).status).to.equal(405);
      const noName = await svc.scim(dir, 'POST', '/Users', { schemas: [USER] });
      expect(noName.status).to.equal(400);
      expect(noName.body.detail).to.match(/userName/);
      const notObject = await svc.scim(dir, 'POST', '/Users', '[1,2]');
      expect(notObject.status).to.equal(400);
    });

    it('serves the discovery documents', async () => {
      const spc = await svc.scim(dir, 'GET', '/ServiceProviderConfig');
      expect(spc.status).to.equal(200);
      expect(spc.body.patch.supported).to.equal(true);
      expect(spc.body.bulk.supported).to.equal(false);
      expect(spc.body.etag.supported).to.equal(true);
      const types = await svc.scim(dir, 'GET', '/ResourceTypes');
      expect(types.body.Resources.map((r: { name: string }) => r.name)).to.have.members(['User', 'Group']);
      const schema = await svc.scim(dir, 'GET', `/Schemas/${USER}`);
      expect(schema.body.id).to.equal(USER);
    });
  });
}
