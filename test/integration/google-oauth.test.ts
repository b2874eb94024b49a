/**
 * The Google authorization flow (docs/guides/google-workspace.md) over HTTP, against the fake Google's consent and
 * token endpoints
 * through google-auth-library: the start link, the browser callback (single-use state bound to the browser, the
 * consenting workspace checked against google_domain) and its refusals; the code exchange, setting tokens and the
 * service-account alternative are google-credentials.test.ts.
 */
import { expect } from 'chai';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import { FAKE_CLIENT } from '../support/fake-google.js';
import {
  authorizationUrlOf,
  consent,
  GOOGLE_SCOPES as SCOPES,
  startGoogleFlow,
  type GoogleTest,
} from '../support/google-harness.js';
import { Browser } from '../support/cookie-browser.js';
import { openStore, startService, STORE_KINDS } from '../support/harness.js';

for (const kind of STORE_KINDS)
  describe(`Google authorization flow, ${kind} store`, function () {
    this.timeout(20_000);
    let t: GoogleTest;
    let dir: any;

    beforeEach(async () => ({ t, dir } = await startGoogleFlow(await openStore(kind, 10))));
    afterEach(() => t.close());

    const authorizationUrl = (query = '', d = dir) => authorizationUrlOf(t, d, query);
    const stored = async (d = dir) => (await t.service.api('GET', `/api/v1/directory-sync/${d.id}`)).body.data;

    it("step 1 is a single-use start link: it sets the flow's cookie and sends the browser to the consent page", async () => {
      const link = await authorizationUrl();
      expect(`${link.origin}${link.pathname}`).to.match(
        new RegExp(`^${t.service.url}/api/v1/dsync/oauth/start/[A-Za-z0-9_-]{43}$`),
      );
      const browser = new Browser();
      const url = await browser.redirected(link);
      expect(browser.setCookies).to.have.length(1);
      expect(browser.setCookies[0]).to.match(
        /^dsync-oauth-[A-Za-z0-9_-]{12}=[A-Za-z0-9_-]{43}; Max-Age=600; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/,
      );
      expect(`${url.origin}${url.pathname}`).to.equal(t.fake.authUrl);
      const q = url.searchParams;
      expect(q.get('access_type')).to.equal('offline');
      expect(q.get('prompt')).to.equal('consent');
      expect(q.get('response_type')).to.equal('code');
      expect(q.get('client_id')).to.equal(FAKE_CLIENT.id);
      expect(q.get('redirect_uri')).to.equal(`${t.service.url}/api/v1/dsync/google/callback`);
      expect(q.get('scope')!.split(' ')).to.deep.equal([...SCOPES, 'openid', 'email']);
      expect(q.get('hd')).to.equal('example.com');
      expect(q.get('state')).to.match(/^[A-Za-z0-9_-]{43}$/);
      // Opened once: a second browser (or the same one) gets a page saying so.
      const again = await new Browser().get(link);
      expect(again.status).to.equal(410);
      expect(await again.text()).to.contain('expired or was already opened');
    });

    it('step 1 refuses what it cannot do: unknown directory 404, a SCIM directory 400, a bad redirect_url 400, no OAuth client 409', async () => {
      expect((await t.service.api('GET', '/api/v1/directory-sync/nope/google/authorization-url')).status).to.equal(404);
      const scim = await t.service.createDirectory({ type: 'okta-scim-v2' });
      const wrong = await t.service.api('GET', `/api/v1/directory-sync/${scim.id}/google/authorization-url`);
      expect(wrong.status).to.equal(400);
      expect(wrong.body.error.message).to.match(/not of type google/);
      const bad = await t.service.api(
        'GET',
        `/api/v1/directory-sync/${dir.id}/google/authorization-url?redirect_url=javascript:alert(1)`,
      );
      expect(bad.status).to.equal(400);
      const bare = await startService(new MemoryStore());
      try {
        const d = await bare.createDirectory({ type: 'google' });
        const res = await bare.api('GET', `/api/v1/directory-sync/${d.id}/google/authorization-url`);
        expect(res.status).to.equal(409);
        expect(res.body.error.message).to.match(/DSYNC_GOOGLE_CLIENT_ID/);
      } finally {
        await bare.close();
      }
    });

    it('sync routes: the status of an unknown directory is 404, of a SCIM one 400; a sync of one deactivated or unknown directory is refused', async () => {
      const scim = await t.service.createDirectory({ type: 'okta-scim-v2' });
      expect((await t.service.api('GET', '/api/v1/directory-sync/nope/google/sync')).status).to.equal(404);
      expect((await t.service.api('GET', `/api/v1/directory-sync/${scim.id}/google/sync`)).status).to.equal(400);
      expect((await t.service.api('GET', `/api/v1/directory-sync/${dir.id}/google/sync`)).body.data).to.deep.include({
        state: 'pending',
        started_at: null,
      });
      expect((await t.service.api('POST', '/api/v1/dsync/cron/sync-google?directoryId=nope')).status).to.equal(404);
      expect((await t.service.api('POST', `/api/v1/dsync/cron/sync-google?directoryId=${scim.id}`)).status).to.equal(
        400,
      );
      expect(
        (await t.service.api('POST', '/api/v1/dsync/cron/sync-google?directoryId=a&directoryId=b')).status,
      ).to.equal(400);
      const off = await t.service.createDirectory({ type: 'google', deactivated: true, name: 'Off' });
      expect((await t.service.api('POST', `/api/v1/dsync/cron/sync-google?directoryId=${off.id}`)).status).to.equal(
        409,
      );
      // Not authorized yet: reported, not thrown; the deactivated one is not synced at all.
      const all = await t.sync();
      expect(all.directories.map((d: any) => [d.id, d.state])).to.deep.equal([[dir.id, 'not_authorized']]);
    });

    it('the normal flow: the callback exchanges the code, sets the tokens, clears the cookie, ends on a page; the directory syncs', async () => {
      const browser = new Browser();
      const back = await consent(browser, await authorizationUrl());
      expect(`${back.origin}${back.pathname}`).to.equal(`${t.service.url}/api/v1/dsync/google/callback`);
      const res = await browser.get(back);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/text\/html/);
      expect(res.headers.get('referrer-policy')).to.equal('no-referrer');
      expect(await res.text()).to.contain('Google Workspace connected');
      expect(browser.cookies.size, 'the flow cookie is cleared').to.equal(0);
      const d = await stored();
      expect(t.fake.oauth.validAccess(`Bearer ${d.google_access_token}`)).to.equal(true);
      expect(t.fake.oauth.refreshTokens.has(d.google_refresh_token)).to.equal(true);
      expect((await t.sync(dir.id)).directories[0]).to.deep.include({ state: 'succeeded' });
    });

    it('the start link and the callback may not be framed, on success and on failure', async () => {
      const noFraming = (res: Response, what: string) => {
        expect(res.headers.get('content-security-policy'), what).to.equal("default-src 'none'; frame-ancestors 'none'");
        expect(res.headers.get('x-frame-options'), what).to.equal('DENY');
      };
      const browser = new Browser();
      const link = await authorizationUrl();
      const start = await browser.get(link);
      expect(start.status).to.equal(303);
      noFraming(start, "the start link's redirect");
      noFraming(await new Browser().get(link), 'the start link opened again (410 page)');
      const done = await browser.get(await browser.redirected(new URL(start.headers.get('location')!), 302));
      expect(done.status).to.equal(200);
      noFraming(done, "the callback's success page");
      const elsewhere = await new Browser().get(await consent(new Browser(), await authorizationUrl()));
      expect(elsewhere.status).to.equal(400);
      noFraming(elsewhere, 'the callback in another browser (400 page)');
      const other = new Browser();
      const redirect = await other.get(
        await consent(other, await authorizationUrl('?redirect_url=https://app.example.com/done')),
      );
      expect(redirect.status).to.equal(303);
      noFraming(redirect, "the callback's redirect to the return URL");
    });

    it('a Connect started from a setup page dies with its link: revoked before the callback, nothing is stored', async () => {
      const setupLink = async () =>
        (await t.service.api('POST', `/api/v1/directory-sync/${dir.id}/setup-links`, {})).body.data as {
          id: string;
          url: string;
        };
      /** The IT admin presses Connect on the page: the flow's cookie, then Google's consent, back to our callback. */
      const connect = async (link: string) => {
        const csrf = /data-csrf="([^"]+)"/.exec(await (await fetch(link)).text())![1]!;
        const res = await fetch(`${link}/google/connect`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ csrf }).toString(),
        });
        expect(res.status, await res.clone().text()).to.equal(303);
        const browser = new Browser();
        for (const header of res.headers.getSetCookie()) {
          const [name, value] = header.split(';')[0]!.split('=');
          browser.cookies.set(name!, value!);
        }
        return { browser, callback: await browser.redirected(res.headers.get('location')!, 302) };
      };

      const revoked = await setupLink();
      const flow = await connect(revoked.url);
      expect(
        (await t.service.api('DELETE', `/api/v1/directory-sync/${dir.id}/setup-links/${revoked.id}`)).status,
      ).to.equal(200);
      const refused = await flow.browser.get(flow.callback);
      expect(refused.status).to.equal(400);
      expect(await refused.text()).to.contain('started from a setup link that was revoked or has expired');
      expect((await stored()).google_refresh_token ?? null, 'no tokens stored').to.equal(null);

      // The same, from a link that still works, connects and goes back to the page.
      const working = await setupLink();
      const ok = await connect(working.url);
      const back = await ok.browser.get(ok.callback);
      expect(back.status).to.equal(303);
      expect(back.headers.get('location')).to.contain('status=success');
      expect(t.fake.oauth.refreshTokens.has((await stored()).google_refresh_token)).to.equal(true);
    });

    it('a replayed state is refused, with the same code or fresh ones, and changes nothing', async () => {
      const browser = new Browser();
      const link = await authorizationUrl();
      const google = await browser.redirected(link);
      const cookies = new Map(browser.cookies);
      const back = await browser.redirected(google, 302);
      expect((await browser.get(back)).status).to.equal(200);
      const tokens = await stored();
      // The attacker replays the state with codes of their own consents, in the browser that holds the cookie.
      for (let i = 0; i < 3; i++) {
        const replay = new URL(await new Browser().redirected(google, 302)); // a fresh code for the same state
        for (const [k, v] of cookies) browser.cookies.set(k, v);
        const res = await browser.get(replay);
        expect(res.status).to.equal(400);
        expect(await res.text()).to.contain('Invalid OAuth state (unknown, expired or already used)');
      }
      expect(await stored()).to.deep.include({
        google_access_token: tokens.google_access_token,
        google_refresh_token: tokens.google_refresh_token,
      });
    });

    it('a state finished in another browser is refused, and spent: the flow must start again', async () => {
      const admin = new Browser();
      const back = await consent(admin, await authorizationUrl());
      const elsewhere = await new Browser().get(back); // e.g. the consent link forwarded by e-mail
      expect(elsewhere.status).to.equal(400);
      expect(await elsewhere.text()).to.contain('started in another browser');
      expect(await stored()).to.not.have.property('google_access_token');
      expect((await admin.get(back)).status, 'the flow was spent by the other browser').to.equal(400);
      // A browser sending the flow's cookie name with another value is another browser too.
      const next = await consent(admin, await authorizationUrl());
      const forged = new Browser();
      for (const name of admin.cookies.keys()) forged.cookies.set(name, 'A'.repeat(43));
      expect(await (await forged.get(next)).text()).to.contain('started in another browser');
      expect(await stored()).to.not.have.property('google_access_token');
    });

    it('a consent by an account of another workspace is refused with a clear page, tokens not stored', async () => {
      const other = await t.service.createDirectory({ type: 'google', google_domain: 'other.com', name: 'Other' });
      const browser = new Browser();
      const res = await browser.get(await consent(browser, await authorizationUrl('', other))); // the fake's consenter is admin@example.com
      expect(res.status).to.equal(400);
      expect(await res.text()).to.contain(
        'The Google account that consented belongs to the workspace of example.com, not to other.com (this directory&#39;s google_domain): sign in as an administrator of other.com. Nothing was saved',
      );
      expect(await stored(other)).to.not.have.property('google_access_token');
      expect((await t.sync(other.id)).directories[0]).to.deep.include({ state: 'not_authorized' });
      // A consumer account (no workspace) neither.
      t.fake.oauth.consenter = { email: 'someone@gmail.com' };
      const consumer = new Browser();
      expect((await consumer.get(await consent(consumer, await authorizationUrl('', other)))).status).to.equal(400);
      // Step 2 by hand checks the same.
      const code = (await consent(new Browser(), await authorizationUrl('', other))).searchParams.get('code');
      const exchanged = await t.service.api('POST', `/api/v1/directory-sync/${other.id}/google/token`, { code });
      expect(exchanged.status).to.equal(400);
      expect(exchanged.body.error.message).to.match(/belongs to no Google Workspace, not to other\.com/);
      // An administrator of other.com whose workspace's primary domain is another (other.com is a secondary domain).
      t.fake.oauth.consenter = { email: 'admin@other.com', hd: 'other-primary.com' };
      const ok = new Browser();
      expect((await ok.get(await consent(ok, await authorizationUrl('', other)))).status).to.equal(200);
      expect(await stored(other)).to.have.property('google_refresh_token');
    });

    it('the callback redirects to the redirect_url given at step 1, on success and on failure', async () => {
      const browser = new Browser();
      const ok = await browser.get(
        await consent(browser, await authorizationUrl('?redirect_url=https://app.example.com/settings/directory')),
      );
      expect(ok.status).to.equal(303);
      const to = new URL(ok.headers.get('location')!);
      expect(`${to.origin}${to.pathname}`).to.equal('https://app.example.com/settings/directory');
      expect(Object.fromEntries(to.searchParams)).to.deep.equal({ directory_id: dir.id, status: 'success' });
      t.fake.oauth.consenter = { email: 'eve@evil.example', hd: 'evil.example' };
      const failed = await browser.get(
        await consent(browser, await authorizationUrl('?redirect_url=https://app.example.com/settings/directory')),
      );
      expect(failed.status).to.equal(303);
      expect(Object.fromEntries(new URL(failed.headers.get('location')!).searchParams)).to.deep.equal({
        directory_id: dir.id,
        status: 'error',
        error: 'DSYNC_GOOGLE_WRONG_WORKSPACE',
        // Why, for the page it goes back to (the setup page shows it).
        error_description:
          "The Google account that consented belongs to the workspace of evil.example, not to example.com (this directory's google_domain): sign in as an administrator of example.com. Nothing was saved",
      });
    });

    it('the callback refuses a forged, malformed or missing state (and sets nothing)', async () => {
      const browser = new Browser();
      const back = await consent(browser, await authorizationUrl());
      for (const [what, value, reason] of [
        ['forged', 'A'.repeat(43), 'unknown, expired or already used'],
        ['malformed', `${back.searchParams.get('state')}x`, 'missing or malformed'],
        ['missing', undefined, 'missing or malformed'],
      ] as const) {
        const url = new URL(back);
        if (value === undefined) url.searchParams.delete('state');
        else url.searchParams.set('state', value);
        const res = await browser.get(url);
        expect(res.status, what).to.equal(400);
        expect(await res.text(), what).to.contain(`Invalid OAuth state (${reason})`);
      }
      expect(await stored()).to.not.have.property('google_access_token');
      expect((await browser.get(back)).status, 'the real one still works').to.equal(200);
    });

    it('two flows in two tabs of one browser do not disturb each other', async () => {
      const second = await t.service.createDirectory({ type: 'google', google_domain: 'example.com', name: 'Second' });
      const browser = new Browser();
      const one = await consent(browser, await authorizationUrl());
      const two = await consent(browser, await authorizationUrl('', second));
      expect(browser.cookies.size).to.equal(2);
      expect((await browser.get(two)).status).to.equal(200);
      expect((await browser.get(one)).status).to.equal(200);
      expect(await stored()).to.have.property('google_refresh_token');
      expect(await stored(second)).to.have.property('google_refresh_token');
    });
  });
