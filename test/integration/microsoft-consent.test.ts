/**
 * Connecting a tenant through Microsoft's admin consent, against the fake authority, on the browser flows that
 * Google's consent uses too: the consent URL is a single-use start link that binds the flow to the browser
 * opening it; the admin's round trip (start link → fake consent page → our callback); the directory connected
 * and synced; and the refusals — the admin declining, a forged or replayed state, the callback in another
 * browser, another tenant than the directory names (nothing stored, no token asked for), no app configured.
 */
import { expect } from 'chai';
import { Browser } from '../support/cookie-browser.js';
import { startEntraTest, TENANT_A, TENANT_B, type EntraTest } from '../support/entra-harness.js';
import { openStore, STORE_KINDS, until } from '../support/harness.js';

for (const kind of STORE_KINDS) {
  describe(`Microsoft Entra ID admin consent (${kind} store)`, function () {
    this.timeout(20_000);
    let t: EntraTest;

    beforeEach(async () => {
      t = await startEntraTest(await openStore(kind, 10));
      const a = t.fake.tenant(TENANT_A, 'contoso.onmicrosoft.com', false);
      a.addUser();
      t.fake.tenant(TENANT_B, 'fabrikam.onmicrosoft.com', false);
      t.fake.authority.consent = { tenantId: TENANT_A, decision: 'accept' };
    });
    afterEach(() => t.close());

    const consentUrl = async (directoryId: string, query = '') => {
      const res = await t.service.api('GET', `/api/v1/directory-sync/${directoryId}/microsoft/admin-consent-url${query}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return new URL(res.body.data.adminConsentUrl);
    };
    /** The admin's browser: our start link, then Microsoft's page (the fake decides at once); where it is sent back. */
    const toCallback = async (browser: Browser, link: URL) => browser.redirected(await browser.redirected(link), 302);
    const stored = async (id: string) => (await t.service.api('GET', `/api/v1/directory-sync/${id}`)).body.data;
    /** Nothing of a connection: the tenant as before, no token asked of Entra, no subscription, no Graph call. */
    const untouched = async (id: string, tenant: string | undefined, tokensBefore: number) => {
      expect((await stored(id)).microsoft_tenant_id).to.equal(tenant);
      expect(t.fake.callsOf('token'), 'no token asked for').to.equal(tokensBefore);
      expect(t.fake.graphCalls(), 'no subscription, no sync').to.equal(0);
      expect((await t.status(id)).notifications.state).to.equal('off');
    };

    it('the admin consents: the directory is connected to the tenant and synced, without any cron call', async () => {
      const dir = await t.directory(TENANT_A, { microsoft_tenant_id: undefined });
      const link = await consentUrl(dir.id);
      expect(`${link.origin}${link.pathname}`).to.match(new RegExp(`^${t.service.url}/api/v1/dsync/oauth/start/[A-Za-z0-9_-]{43}$`));
      const browser = new Browser();
      const url = await browser.redirected(link);
      expect(browser.setCookies).to.have.length(1);
      expect(browser.setCookies[0]).to.match(/^dsync-oauth-[A-Za-z0-9_-]{12}=[A-Za-z0-9_-]{43}; Max-Age=600; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
      expect(url.pathname).to.equal('/organizations/v2.0/adminconsent');
      expect(Object.fromEntries(url.searchParams)).to.include({
        client_id: '11111111-2222-4333-8444-555555555555',
        scope: `${t.fake.url}/.default`,
        redirect_uri: `${t.service.url}/api/v1/dsync/microsoft/callback`,
      });
      expect(url.searchParams.get('state')).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect((await new Browser().get(link)).status, 'the link is opened once').to.equal(410);
      const back = await browser.redirected(url, 302);
      expect(back.searchParams.get('tenant')).to.equal(TENANT_A);
      const res = await browser.get(back);
      expect(res.status).to.equal(200);
      expect(res.headers.get('referrer-policy')).to.equal('no-referrer');
      expect(await res.text()).to.include(`connected to tenant ${TENANT_A}`);
      expect(browser.cookies.size, 'the flow cookie is cleared').to.equal(0);
      expect((await stored(dir.id)).microsoft_tenant_id).to.equal(TENANT_A);
      await until(async () => (await t.newEvents(dir.id)).some((e) => e.event === 'user.created'), 'the first sync after consent', 5000);
    });

    it('a replayed state is refused, in the browser that holds the cookie too, and changes nothing', async () => {
      const dir = await t.directory(TENANT_A, { microsoft_tenant_id: undefined });
      const browser = new Browser();
      const link = await consentUrl(dir.id);
      const atMicrosoft = await browser.redirected(link);
      const cookies = new Map(browser.cookies);
      expect((await browser.get(await browser.redirected(atMicrosoft, 302))).status).to.equal(200);
      await until(async () => (await t.status(dir.id)).state === 'succeeded' && t.service.dsync.microsoft.idle, 'the first sync after consent', 5000);
      // Whoever saw the state replays it, with another tenant's consent, and the first browser's cookie.
      t.fake.tenants.get(TENANT_B)!.consented = true;
      const tokens = t.fake.callsOf('token');
      for (const tenant of [TENANT_A, TENANT_B]) {
        const replay = new URL(await new Browser().redirected(atMicrosoft, 302));
        replay.searchParams.set('tenant', tenant);
        for (const [k, v] of cookies) browser.cookies.set(k, v);
        const res = await browser.get(replay);
        expect(res.status).to.equal(400);
        expect(await res.text()).to.contain('Invalid OAuth state (unknown, expired or already used)');
      }
      expect((await stored(dir.id)).microsoft_tenant_id).to.equal(TENANT_A);
      expect(t.fake.callsOf('token')).to.equal(tokens);
    });

    it('one state sent back eight times at once connects once: the state is consumed atomically', async () => {
      const dir = await t.directory(TENANT_A, { microsoft_tenant_id: undefined });
      const browser = new Browser();
      const back = await toCallback(browser, await consentUrl(dir.id));
      const tokens = t.fake.callsOf('token');
      const statuses = await Promise.all(Array.from({ length: 8 }, async () => (await browser.get(back)).status));
      expect(statuses.sort()).to.deep.equal([200, 400, 400, 400, 400, 400, 400, 400]);
      expect(t.fake.callsOf('token') - tokens, 'one consent proved').to.equal(1);
      expect((await stored(dir.id)).microsoft_tenant_id).to.equal(TENANT_A);
    });

    it('a callback in another browser is refused, connects nothing, and spends the flow', async () => {
      const dir = await t.directory(TENANT_A, { microsoft_tenant_id: undefined });
      const admin = new Browser();
      const back = await toCallback(admin, await consentUrl(dir.id, '?redirect_url=https://app.example.com/done'));
      const tokens = t.fake.callsOf('token');
      const elsewhere = await new Browser().get(back); // e.g. the return URL seen in a proxy log
      expect(elsewhere.status, 'a page, not the redirect_url: the flow is not that browser\'s').to.equal(400);
      expect(await elsewhere.text()).to.contain('started in another browser');
      await untouched(dir.id, undefined, tokens);
      expect((await admin.get(back)).status, 'the flow was spent by the other browser').to.equal(400);
      // A browser sending the flow's cookie name with another value is another browser too.
      const next = await toCallback(admin, await consentUrl(dir.id));
      const forged = new Browser();
      for (const name of admin.cookies.keys()) forged.cookies.set(name, 'A'.repeat(43));
      expect(await (await forged.get(next)).text()).to.contain('started in another browser');
      await untouched(dir.id, undefined, tokens);
    });

    it('a consent from another tenant than the directory names is refused: nothing stored, no token asked for', async () => {
      const dir = await t.directory(TENANT_B);
      const browser = new Browser();
      const link = await consentUrl(dir.id);
      const atMicrosoft = await browser.redirected(link);
      expect(atMicrosoft.pathname).to.equal(`/${TENANT_B}/v2.0/adminconsent`);
      // The admin of tenant A consents (the answer names tenant A), in the browser of the flow.
      t.fake.tenants.get(TENANT_A)!.consented = true;
      const back = await browser.redirected(atMicrosoft, 302);
      back.searchParams.set('tenant', TENANT_A);
      const tokens = t.fake.callsOf('token');
      const res = await browser.get(back);
      expect(res.status).to.equal(400);
      expect(await res.text()).to.include(
        `The consent came from tenant ${TENANT_A}, not from the directory&#39;s tenant ${TENANT_B}: sign in as an administrator of ${TENANT_B}. Nothing was saved`,
      );
      await untouched(dir.id, TENANT_B, tokens);
      // With a redirect_url, the error goes there.
      const again = await browser.redirected(await consentUrl(dir.id, '?redirect_url=https://app.example.com/done'));
      const back2 = await browser.redirected(again, 302);
      back2.searchParams.set('tenant', TENANT_A);
      const redirected = await browser.get(back2);
      expect(redirected.status).to.equal(303);
      expect(Object.fromEntries(new URL(redirected.headers.get('location')!).searchParams)).to.deep.equal({
        directory_id: dir.id,
        status: 'error',
        error: 'DSYNC_MICROSOFT_CONSENT_REFUSED',
        error_description: `The consent came from tenant ${TENANT_A}, not from the directory's tenant ${TENANT_B}: sign in as an administrator of ${TENANT_B}. Nothing was saved`,
      });
      await untouched(dir.id, TENANT_B, tokens);
    });

    it('refusals: the admin declines, a forged or missing state; a redirect_url gets the error, then the success', async () => {
      const dir = await t.directory(TENANT_B);
      t.fake.authority.consent = { decision: 'decline' };
      const browser = new Browser();
      const refused = await browser.get(await toCallback(browser, await consentUrl(dir.id, '?redirect_url=https://app.example.com/done')));
      expect(refused.status).to.equal(303);
      expect(Object.fromEntries(new URL(refused.headers.get('location')!).searchParams)).to.include({ status: 'error', error: 'DSYNC_MICROSOFT_CONSENT_REFUSED' });

      for (const state of ['A'.repeat(43), 'abc.def', undefined]) {
        const forged = new URL(`${t.service.url}/api/v1/dsync/microsoft/callback?admin_consent=True&tenant=${TENANT_B}`);
        if (state !== undefined) forged.searchParams.set('state', state);
        const res = await browser.get(forged);
        expect(res.status, String(state)).to.equal(400);
        expect(await res.text()).to.match(/Invalid OAuth state \((unknown, expired or already used|missing or malformed)\)/);
      }

      t.fake.authority.consent = { decision: 'accept' };
      const ok = await browser.get(await toCallback(browser, await consentUrl(dir.id, '?redirect_url=https://app.example.com/done')));
      expect(ok.status).to.equal(303);
      expect(Object.fromEntries(new URL(ok.headers.get('location')!).searchParams)).to.deep.equal({ directory_id: dir.id, status: 'success' });
    });

    it('is refused for a directory of another type, and when no app is configured', async () => {
      const scim = await t.service.createDirectory({ type: 'okta-scim-v2' });
      const wrong = await t.service.api('GET', `/api/v1/directory-sync/${scim.id}/microsoft/admin-consent-url`);
      expect(wrong.status).to.equal(400);
      expect(wrong.body.error.message).to.match(/not of type microsoft-entra/);
      await t.close();
      t = await startEntraTest(await openStore(kind, 10), { clientId: undefined, clientSecret: undefined });
      const dir = await t.directory(TENANT_A);
      const res = await t.service.api('GET', `/api/v1/directory-sync/${dir.id}/microsoft/admin-consent-url`);
      expect(res.status).to.equal(409);
      expect(res.body.error.message).to.match(/DSYNC_MICROSOFT_CLIENT_ID/);
      // A sync says so at once, for each directory (no retries of a configuration that cannot change).
      const report = await t.sync(dir.id);
      expect(report.directories[0]).to.deep.include({ state: 'failed' });
      expect(report.directories[0].error.code).to.equal('DSYNC_MICROSOFT_NOT_CONFIGURED');
      expect(t.fake.graphCalls() + t.fake.callsOf('token')).to.equal(0);
    });
  });
}

describe('Microsoft Entra ID admin consent over https', function () {
  this.timeout(20_000);

  it('binds the flow with a __Host- cookie, Secure, and finishes with it', async () => {
    const t = await startEntraTest(await openStore('memory'), {}, { https: true });
    try {
      t.fake.tenant(TENANT_A, 'contoso.onmicrosoft.com', false);
      t.fake.authority.consent = { tenantId: TENANT_A, decision: 'accept' };
      const dir = await t.directory(TENANT_A, { microsoft_tenant_id: undefined });
      const link = new URL((await t.service.api('GET', `/api/v1/directory-sync/${dir.id}/microsoft/admin-consent-url`)).body.data.adminConsentUrl);
      expect(link.protocol).to.equal('https:');
      const browser = new Browser();
      const back = await browser.redirected(await browser.redirected(link), 302);
      expect(browser.setCookies[0]).to.match(/^__Host-dsync-oauth-[A-Za-z0-9_-]{12}=[A-Za-z0-9_-]{43}; Max-Age=600; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/);
      expect((await browser.get(back)).status).to.equal(200);
      expect((await t.service.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.microsoft_tenant_id).to.equal(TENANT_A);
      await until(async () => (await t.status(dir.id)).state === 'succeeded' && t.service.dsync.microsoft.idle, 'the first sync after consent', 5000);
    } finally {
      await t.close();
    }
  });
});
