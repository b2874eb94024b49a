/**
 * The management routes of setup links, SCIM tokens and the activity record over real HTTP,
 * with real SCIM requests feeding the activity record.
 */
import { expect } from 'chai';
import { openStore, startService, STORE_KINDS, until, type Service } from '../support/harness.js';

const USER = (userName: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  name: { givenName: 'A', familyName: 'B' },
});

for (const kind of STORE_KINDS) {
  describe(`setup links, SCIM tokens, activity: management API (${kind} store)`, function () {
    this.timeout(20_000);
    let svc: Service;
    let dir: any;
    beforeEach(async () => {
      svc = await startService(await openStore(kind, 13));
      dir = await svc.createDirectory({ type: 'okta-scim-v2' });
    });
    afterEach(() => svc.close());

    it('setup links: 201 with a URL on the external URL, listed without it, revoked at once; bounds and 404s', async () => {
      const created = await svc.api('POST', `/api/v1/directory-sync/${dir.id}/setup-links`, {});
      expect(created.status).to.equal(201);
      expect(created.body.data.url).to.match(new RegExp(`^${svc.url}/setup/[A-Za-z0-9_-]{43}$`));
      expect(Date.parse(created.body.data.expires_at) - Date.now()).to.be.closeTo(7 * 86_400_000, 60_000);
      const oneDay = await svc.api('POST', `/api/v1/directory-sync/${dir.id}/setup-links`, { expires_in: 86_400 });
      expect(Date.parse(oneDay.body.data.expires_at) - Date.now()).to.be.closeTo(86_400_000, 60_000);
      const tooLong = await svc.api('POST', `/api/v1/directory-sync/${dir.id}/setup-links`, {
        expires_in: 31 * 86_400,
      });
      expect(tooLong.status).to.equal(400);
      expect(tooLong.body.error.message).to.match(/expires_in/);

      const list = await svc.api('GET', `/api/v1/directory-sync/${dir.id}/setup-links`);
      expect(list.body.data.map((l: any) => Object.keys(l).sort())).to.deep.equal([
        ['created_at', 'expires_at', 'id', 'revoked'],
        ['created_at', 'expires_at', 'id', 'revoked'],
      ]);
      expect(JSON.stringify(list.body)).not.to.contain(created.body.data.url.split('/').pop());

      expect((await fetch(created.body.data.url)).status).to.equal(200);
      const revoked = await svc.api('DELETE', `/api/v1/directory-sync/${dir.id}/setup-links/${created.body.data.id}`);
      expect(revoked.body).to.deep.equal({ data: { id: created.body.data.id, revoked: true }, error: null });
      expect((await fetch(created.body.data.url)).status).to.equal(410);
      expect((await svc.api('DELETE', `/api/v1/directory-sync/${dir.id}/setup-links/sl_nope`)).status).to.equal(404);
      expect((await svc.api('POST', '/api/v1/directory-sync/nope/setup-links', {})).status).to.equal(404);
      expect((await svc.api('GET', '/api/v1/directory-sync/nope/setup-links')).status).to.equal(404);
    });

    it('SCIM tokens: create (shown once), use, a third is 409, rotate without a gap, revoke is 401 at once', async () => {
      const listed = await svc.api('GET', `/api/v1/directory-sync/${dir.id}/scim-tokens`);
      expect(listed.body.data).to.deep.equal([{ id: 'scim-secret', created_at: dir.created_at, last_used_at: null }]);
      const created = await svc.api('POST', `/api/v1/directory-sync/${dir.id}/scim-tokens`);
      expect(created.status).to.equal(201);
      const { id, token } = created.body.data;
      const viaNew = { id: dir.id, scim: { secret: token } };
      expect((await svc.scim(viaNew, 'POST', '/Users', USER('ann@example.com'))).status).to.equal(201);
      expect((await svc.scim(dir, 'GET', '/Users')).status).to.equal(200);
      const third = await svc.api('POST', `/api/v1/directory-sync/${dir.id}/scim-tokens`);
      expect(third.status).to.equal(409);
      expect(third.body.error.message).to.match(/revoke one/);

      const after = await svc.api('GET', `/api/v1/directory-sync/${dir.id}/scim-tokens`);
      expect(after.body.data.map((t: any) => t.id)).to.deep.equal(['scim-secret', id]);
      expect(JSON.stringify(after.body)).not.to.contain(token);
      await until(
        async () =>
          (await svc.api('GET', `/api/v1/directory-sync/${dir.id}/scim-tokens`)).body.data[1].last_used_at !== null,
        'last_used_at',
      );

      expect((await svc.api('DELETE', `/api/v1/directory-sync/${dir.id}/scim-tokens/scim-secret`)).status).to.equal(
        200,
      );
      const old = await svc.scim(dir, 'GET', '/Users');
      expect(old.status).to.equal(401);
      expect((await svc.scim(viaNew, 'GET', '/Users')).status).to.equal(200);
      expect((await svc.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.scim.secret).to.equal('');
      expect((await svc.api('DELETE', `/api/v1/directory-sync/${dir.id}/scim-tokens/${id}`)).status).to.equal(200);
      expect((await svc.scim(viaNew, 'GET', '/Users')).status).to.equal(401);
      expect((await svc.api('DELETE', `/api/v1/directory-sync/${dir.id}/scim-tokens/${id}`)).status).to.equal(404);
    });

    it('activity: each request with its status and the error detail answered, newest first; no body, no secret, no other directory', async () => {
      const empty = await svc.api('GET', `/api/v1/directory-sync/${dir.id}/activity`);
      expect(empty.body.data).to.deep.equal({ last_request_at: null, recent: [] });
      const other = await svc.createDirectory({ name: 'Other', tenant: 'other' });
      await svc.scim(other, 'POST', '/Users', USER('other@example.com'));

      expect((await svc.scim(dir, 'POST', '/Users', USER('ann@example.com'))).status).to.equal(201);
      expect((await svc.scim(dir, 'POST', '/Users', USER('ann@example.com'))).status).to.equal(409);
      expect(
        (
          await svc.scim(dir, 'POST', '/Users', {
            schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
            userName: 7,
          })
        ).status,
      ).to.equal(400);
      expect((await svc.scim({ id: dir.id, scim: { secret: 'wrong-token' } }, 'GET', '/Users')).status).to.equal(401);
      expect((await svc.scim({ id: 'no-such-directory', scim: { secret: 'x' } }, 'GET', '/Users')).status).to.equal(
        404,
      );

      const res = await svc.api('GET', `/api/v1/directory-sync/${dir.id}/activity`);
      const recent = res.body.data.recent as any[];
      expect(recent.map((e) => [e.method, e.path, e.status])).to.deep.equal([
        ['GET', '/Users', 401],
        ['POST', '/Users', 400],
        ['POST', '/Users', 409],
        ['POST', '/Users', 201],
      ]);
      expect(recent[0].error).to.match(/Invalid bearer token/);
      expect(recent[1].error).to.match(/userName/);
      expect(recent[2].error).to.match(/already exists|uniqueness|ann@example.com/);
      expect(recent[3].error).to.equal(null);
      expect(res.body.data.last_request_at, 'a wrong token does not move the last request').to.equal(recent[1].at);
      const text = JSON.stringify(res.body);
      for (const secret of [dir.scim.secret, 'wrong-token', 'other@example.com']) expect(text).not.to.contain(secret);
      expect(
        (await svc.api('GET', `/api/v1/directory-sync/${dir.id}/activity?limit=2`)).body.data.recent,
      ).to.have.length(2);
      expect((await svc.api('GET', `/api/v1/directory-sync/${dir.id}/activity?limit=0`)).status).to.equal(400);
      expect((await svc.api('GET', '/api/v1/directory-sync/nope/activity')).status).to.equal(404);
    });

    it('activity: a request without a token is not recorded; a wrong token is, and moves neither the last request nor the page', async () => {
      const link = (await svc.api('POST', `/api/v1/directory-sync/${dir.id}/setup-links`, {})).body.data.url as string;
      const page = async () =>
        ((await (await fetch(`${link}/status`, { headers: { accept: 'application/json' } })).json()) as any).data;
      const activity = async () => (await svc.api('GET', `/api/v1/directory-sync/${dir.id}/activity`)).body.data;
      // Anyone who knows the directory id can send these, with a path of their choosing.
      const paths = Array.from(
        { length: 5 },
        (_, i) => `/api/scim/v2.0/${dir.id}/Users/${'attacker-chosen-'.repeat(10)}${i}`,
      );
      for (const path of paths) expect((await fetch(`${svc.url}${path}`)).status).to.equal(401);
      expect(
        (await fetch(`${svc.url}/api/scim/v2.0/${dir.id}/Groups`, { headers: { authorization: 'Bearer ' } })).status,
      ).to.equal(401);
      expect(await activity()).to.deep.equal({ last_request_at: null, recent: [] });
      expect(await page()).to.include({ state: 'waiting', last_request_at: null });

      // A wrong token (limited per address, like every failed authentication): a row for the IT admin, no more.
      expect((await svc.scim({ id: dir.id, scim: { secret: 'wrong-token' } }, 'GET', '/Users')).status).to.equal(401);
      const wrong = await activity();
      expect(wrong.recent.map((e: any) => [e.method, e.path, e.status])).to.deep.equal([['GET', '/Users', 401]]);
      expect(wrong.last_request_at).to.equal(null);
      const waiting = await page();
      expect(waiting).to.include({
        state: 'waiting',
        last_request_at: null,
        state_text: 'Waiting for the first request from Okta',
      });
      expect(waiting.recent).to.have.length(1);

      // The IdP's first authenticated request turns the page to receiving.
      expect((await svc.scim(dir, 'GET', '/Users')).status).to.equal(200);
      const receiving = await page();
      expect(receiving).to.include({ state: 'receiving', state_text: 'Receiving from Okta' });
      expect(receiving.last_request_at).to.equal(receiving.recent[0].at);
      expect(receiving.recent.map((e: any) => e.status)).to.deep.equal([200, 401]);
    });

    it('setup links: 40 concurrent creates leave 20 working links, the rest a 409', async () => {
      const answers = await Promise.all(
        Array.from({ length: 40 }, () => svc.api('POST', `/api/v1/directory-sync/${dir.id}/setup-links`, {})),
      );
      const statuses = answers.map((a) => a.status);
      expect(
        statuses.filter((s) => s === 201),
        statuses.join(' '),
      ).to.have.length(20);
      expect(statuses.filter((s) => s === 409)).to.have.length(20);
      expect(answers.find((a) => a.status === 409)!.body.error.message).to.match(/already has 20 working setup links/);
      const listed = (await svc.api('GET', `/api/v1/directory-sync/${dir.id}/setup-links`)).body.data as any[];
      expect(listed.filter((l) => !l.revoked)).to.have.length(20);
      // Revoking one frees one place.
      await svc.api('DELETE', `/api/v1/directory-sync/${dir.id}/setup-links/${listed[0].id}`);
      expect((await svc.api('POST', `/api/v1/directory-sync/${dir.id}/setup-links`, {})).status).to.equal(201);
      expect((await svc.api('POST', `/api/v1/directory-sync/${dir.id}/setup-links`, {})).status).to.equal(409);
    });

    it('every route needs the Api-Key', async () => {
      for (const [method, path] of [
        ['POST', `/api/v1/directory-sync/${dir.id}/setup-links`],
        ['GET', `/api/v1/directory-sync/${dir.id}/scim-tokens`],
        ['POST', `/api/v1/directory-sync/${dir.id}/scim-tokens`],
        ['GET', `/api/v1/directory-sync/${dir.id}/activity`],
      ] as const) {
        expect((await fetch(`${svc.url}${path}`, { method })).status, `${method} ${path}`).to.equal(401);
      }
    });
  });
}
