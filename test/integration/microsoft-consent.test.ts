/**
 * Connecting a tenant through Microsoft's sign-in and admin consent, against the fake authority, on the browser
 * flows that Google's consent uses too: the consent URL is a single-use start link that binds the flow to the
 * browser opening it; the admin's round trip (start link → Microsoft's sign-in → our callback → Microsoft's
 * admin consent of the tenant signed in to → our callback); the directory connected and synced; and the refusals
 * — the admin declining, a forged or replayed state, the callback in another browser, another tenant than the
 * directory names or than the sign-in proved (nothing stored, no token asked for), no app configured.
 */
import { expect } from 'chai';
import { Browser } from '../support/cookie-browser.js';
import { aadError } from '../support/fake-entra/authority.js';
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
      const res = await t.service.api(
        'GET',
        `/api/v1/directory-sync/${directoryId}/microsoft/admin-consent-url${query}`,
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return new URL(res.body.data.adminConsentUrl);
    };
    /** The admin's browser at Microsoft's sign-in (the fake signs in at once): where it is sent back, with the code. */
    const signedIn = async (browser: Browser, link: URL) => browser.redirected(await browser.redirected(link), 302);
    /** Then our callback sends it on to Microsoft's admin consent (a new state and cookie). */
    const atConsent = async (browser: Browser, link: URL) => browser.redirected(await signedIn(browser, link));
    /** The whole round trip at Microsoft: where the admin consent sends the browser back. */
    const toCallback = async (browser: Browser, link: URL) => browser.redirected(await atConsent(browser, link), 302);
    const stored = async (id: string) => (await t.service.api('GET', `/api/v1/directory-sync/${id}`)).body.data;
    /** Nothing of a connection: the tenant as before, no token asked of Entra, no subscription, no Graph call. */
    const untouched = async (id: string, tenant: string | undefined, tokensBefore: number) => {
      expect((await stored(id)).microsoft_tenant_id).to.equal(tenant);
      expect(t.fake.callsOf('token'), 'no token asked for').to.equal(tokensBefore);
      expect(t.fake.graphCalls(), 'no subscription, no sync').to.equal(0);
      expect((await t.status(id)).notifications.state).to.equal('off');
    };

    it('the admin signs in, then consents: the directory is connected to the proved tenant and synced, without any cron call', async () => {
      const dir = await t.directory(TENANT_A, { microsoft_tenant_id: undefined });
      const link = await consentUrl(dir.id);
      expect(`${link.origin}${link.pathname}`).to.match(
        new RegExp(`^${t.service.url}/api/v1/dsync/oauth/start/[A-Za-z0-9_-]{43}$`),
      );
      const browser = new Browser();
      const signIn = await browser.redirected(link);
      expect(browser.setCookies).to.have.length(1);
      expect(browser.setCookies[0]).to.match(
        /^dsync-oauth-[A-Za-z0-9_-]{12}=[A-Za-z0-9_-]{43}; Max-Age=600; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/,
      );
      expect(signIn.pathname, 'first the OpenID Connect sign-in').to.equal('/organizations/oauth2/v2.0/authorize');
      expect(Object.fromEntries(signIn.searchParams)).to.include({
        client_id: '11111111-2222-4333-8444-555555555555',
        response_type: 'code',
        response_mode: 'query',
        scope: 'openid profile',
        redirect_uri: `${t.service.url}/api/v1/dsync/microsoft/callback`,
        code_challenge_method: 'S256',
        prompt: 'select_account',
      });
      for (const p of ['state', 'nonce', 'code_challenge'])
        expect(signIn.searchParams.get(p), p).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect((await new Browser().get(link)).status, 'the link is opened once').to.equal(410);
      const afterSignIn = await browser.redirected(signIn, 302);
      expect(afterSignIn.searchParams.get('code')).to.be.a('string');
      const tokens = t.fake.callsOf('token');
      const url = await browser.redirected(afterSignIn);
      expect(t.fake.authority.oidc.counts.redeemed, 'the code redeemed').to.equal(1);
      expect(t.fake.callsOf('token') - tokens, 'no app token before the consent').to.equal(1);
      expect(url.pathname, 'then the admin consent of the tenant the sign-in proved').to.equal(
        `/${TENANT_A}/v2.0/adminconsent`,
      );
      expect(Object.fromEntries(url.searchParams)).to.include({
        client_id: '11111111-2222-4333-8444-555555555555',
        scope: `${t.fake.url}/.default`,
        redirect_uri: `${t.service.url}/api/v1/dsync/microsoft/callback`,
      });
      expect(url.searchParams.get('state')).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(url.searchParams.get('state')).not.to.equal(signIn.searchParams.get('state'));
      expect(browser.cookies.size, 'the sign-in cookie spent, the consent step has its own').to.equal(1);
      expect((await stored(dir.id)).microsoft_tenant_id, 'nothing stored before the consent').to.equal(undefined);
      const back = await browser.redirected(url, 302);
      expect(back.searchParams.get('tenant')).to.equal(TENANT_A);
      const res = await browser.get(back);
      expect(res.status).to.equal(200);
      expect(res.headers.get('referrer-policy')).to.equal('no-referrer');
      expect(await res.text()).to.include(`connected to tenant ${TENANT_A} by admin@contoso.onmicrosoft.com`);
      expect(browser.cookies.size, 'the flow cookie is cleared').to.equal(0);
      expect((await stored(dir.id)).microsoft_tenant_id).to.equal(TENANT_A);
      await until(
        async () => (await t.newEvents(dir.id)).some((e) => e.event === 'user.created'),
        'the first sync after consent',
        5000,
      );
    });

    it('a replayed state is refused, in the browser that holds the cookie too, and changes nothing', async () => {
      const dir = await t.directory(TENANT_A, { microsoft_tenant_id: undefined });
      const browser = new Browser();
      const link = await consentUrl(dir.id);
      const atMicrosoft = await atConsent(browser, link);
      const cookies = new Map(browser.cookies);
      expect((await browser.get(await browser.redirected(atMicrosoft, 302))).status).to.equal(200);
      await until(
        async () => (await t.status(dir.id)).state === 'succeeded' && t.service.dsync.microsoft.idle,
        'the first sync after consent',
        5000,
      );
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
      expect(elsewhere.status, "a page, not the redirect_url: the flow is not that browser's").to.equal(400);
      expect(await elsewhere.text()).to.contain('started in another browser');
      await untouched(dir.id, undefined, tokens);
      expect((await admin.get(back)).status, 'the flow was spent by the other browser').to.equal(400);
      // A browser sending the flow's cookie name with another value is another browser too.
      const next = await toCallback(admin, await consentUrl(dir.id));
      const forged = new Browser();
      for (const name of admin.cookies.keys()) forged.cookies.set(name, 'A'.repeat(43));
      const tokens2 = t.fake.callsOf('token');
      expect(await (await forged.get(next)).text()).to.contain('started in another browser');
      await untouched(dir.id, undefined, tokens2);
      // The sign-in's callback in another browser: refused before its code is redeemed.
      const signedInElsewhere = await new Browser().get(await signedIn(admin, await consentUrl(dir.id)));
      expect(await signedInElsewhere.text()).to.contain('started in another browser');
      expect(t.fake.authority.oidc.counts.redeemed, 'two codes redeemed, not the third').to.equal(2);
      await untouched(dir.id, undefined, t.fake.callsOf('token'));
    });

    it('a consent from another tenant than the directory names is refused: nothing stored, no token asked for', async () => {
      const dir = await t.directory(TENANT_B);
      t.fake.authority.consent = { tenantId: TENANT_B, decision: 'accept' };
      const browser = new Browser();
      const signIn = await browser.redirected(await consentUrl(dir.id));
      expect(signIn.pathname, "the sign-in is at the directory's tenant").to.equal(
        `/${TENANT_B}/oauth2/v2.0/authorize`,
      );
      const atMicrosoft = await browser.redirected(await browser.redirected(signIn, 302));
      expect(atMicrosoft.pathname).to.equal(`/${TENANT_B}/v2.0/adminconsent`);
      // The answer is edited to name tenant A (which consented too), in the browser of the flow.
      t.fake.tenants.get(TENANT_A)!.consented = true;
      const back = await browser.redirected(atMicrosoft, 302);
      back.searchParams.set('tenant', TENANT_A);
      const tokens = t.fake.callsOf('token');
      const res = await browser.get(back);
      expect(res.status).to.equal(400);
      expect(await res.text()).to.include(
        `The consent names tenant ${TENANT_A}, but the admin signed in to tenant ${TENANT_B}: the consent must come from the tenant of the signed-in admin. Nothing was saved`,
      );
      await untouched(dir.id, TENANT_B, tokens);
      // With a redirect_url, the error goes there.
      const back2 = await toCallback(browser, await consentUrl(dir.id, '?redirect_url=https://app.example.com/done'));
      back2.searchParams.set('tenant', TENANT_A);
      const tokens2 = t.fake.callsOf('token');
      const redirected = await browser.get(back2);
      expect(redirected.status).to.equal(303);
      expect(Object.fromEntries(new URL(redirected.headers.get('location')!).searchParams)).to.deep.equal({
        directory_id: dir.id,
        status: 'error',
        error: 'DSYNC_MICROSOFT_CONSENT_REFUSED',
        error_description: `The consent names tenant ${TENANT_A}, but the admin signed in to tenant ${TENANT_B}: the consent must come from the tenant of the signed-in admin. Nothing was saved`,
      });
      await untouched(dir.id, TENANT_B, tokens2);
    });

    it('a sign-in to another tenant than the directory names (named while the flow ran) is refused before the consent', async () => {
      const dir = await t.directory(TENANT_A, { microsoft_tenant_id: undefined });
      const browser = new Browser();
      const signIn = await browser.redirected(await consentUrl(dir.id));
      const patched = await t.service.api('PATCH', `/api/v1/directory-sync/${dir.id}`, {
        microsoft_tenant_id: TENANT_B,
      });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      const tokens = t.fake.callsOf('token');
      const res = await browser.get(await browser.redirected(signIn, 302));
      expect(res.status, 'a page, not on to the consent').to.equal(400);
      expect(await res.text()).to.include(
        `The admin signed in to tenant ${TENANT_A}, not the directory&#39;s tenant ${TENANT_B}: sign in as an administrator of ${TENANT_B}. Nothing was saved`,
      );
      expect(t.fake.callsOf('token') - tokens, 'the code redeemed, no app token').to.equal(1);
      expect(browser.cookies.size).to.equal(0);
      await untouched(dir.id, TENANT_B, t.fake.callsOf('token'));
    });

    it("a FORGED callback (the attacker's own flow, another customer's tenant id) binds nothing, at either step", async () => {
      // Tenant A is a customer that consented to the app long ago: a token for it can be had.
      t.fake.tenants.get(TENANT_A)!.consented = true;
      const victim = await t.directory(TENANT_A);
      // The attacker holds the link of their own directory (no tenant yet), and is an admin of tenant B.
      const dir = await t.directory(TENANT_B, { microsoft_tenant_id: undefined });
      t.fake.authority.consent = { tenantId: TENANT_B, decision: 'accept' };
      const forge = (state: string) => {
        const url = new URL(`${t.service.url}/api/v1/dsync/microsoft/callback`);
        url.searchParams.set('admin_consent', 'True');
        url.searchParams.set('tenant', TENANT_A);
        url.searchParams.set('state', state);
        return url;
      };
      // 1. In place of signing in: the sign-in step's own state with the victim's tenant.
      const attacker = new Browser();
      const signIn = await attacker.redirected(await consentUrl(dir.id));
      const tokens = t.fake.callsOf('token');
      const first = await attacker.get(forge(signIn.searchParams.get('state')!));
      expect(first.status).to.equal(400);
      expect(await first.text()).to.contain('The sign-in answer carries no code');
      await untouched(dir.id, undefined, tokens);
      // 2. Signed in as the admin of tenant B, then the consent step's own state with the victim's tenant.
      const consentPage = await atConsent(attacker, await consentUrl(dir.id));
      expect(consentPage.pathname).to.equal(`/${TENANT_B}/v2.0/adminconsent`);
      const tokens2 = t.fake.callsOf('token');
      const second = await attacker.get(forge(consentPage.searchParams.get('state')!));
      expect(second.status).to.equal(400);
      expect(await second.text()).to.contain(
        `The consent names tenant ${TENANT_A}, but the admin signed in to tenant ${TENANT_B}`,
      );
      await untouched(dir.id, undefined, tokens2);
      expect((await stored(victim.id)).microsoft_tenant_id, "the victim's directory is as it was").to.equal(TENANT_A);
      // The honest end of the same flow still works: the attacker's directory gets the attacker's tenant.
      const own = await attacker.get(await toCallback(attacker, await consentUrl(dir.id)));
      expect(own.status).to.equal(200);
      expect((await stored(dir.id)).microsoft_tenant_id).to.equal(TENANT_B);
    });

    const BAD_TOKENS = [
      ['bad-signature', /signature verification failed/],
      ['wrong-issuer', /unexpected "iss" claim value/],
      ['wrong-audience', /unexpected "aud" claim value/],
      ['expired', /"exp" claim timestamp check failed/],
      ['wrong-nonce', /not the one this sign-in asked for \(nonce\)/],
      ['tid-mismatch', /unexpected "iss" claim value/],
      ['consumer', /names no organisation tenant/],
    ] as const;
    for (const [fault, why] of BAD_TOKENS) {
      it(`an ID token with ${fault} is refused: no consent step, nothing stored`, async () => {
        const dir = await t.directory(TENANT_A, { microsoft_tenant_id: undefined });
        t.fake.authority.oidc.idTokenFault = fault;
        const browser = new Browser();
        const back = await signedIn(browser, await consentUrl(dir.id, '?redirect_url=https://app.example.com/done'));
        const tokens = t.fake.callsOf('token');
        const res = await browser.get(back);
        expect(res.status, 'back to the redirect_url, not on to the consent').to.equal(303);
        const to = Object.fromEntries(new URL(res.headers.get('location')!).searchParams);
        expect(to).to.include({ directory_id: dir.id, status: 'error', error: 'DSYNC_MICROSOFT_SIGN_IN_NOT_PROVED' });
        expect(to.error_description)
          .to.match(/^The sign-in to Microsoft could not prove the tenant: /)
          .and.to.match(why)
          .and.to.match(/Nothing was saved$/);
        expect(browser.cookies.size).to.equal(0);
        expect(t.fake.callsOf('token') - tokens, 'the code redeemed, no app token').to.equal(1);
        await untouched(dir.id, undefined, t.fake.callsOf('token'));
      });
    }

    it('a guest of the tenant is refused: the sign-in must be an account of the tenant itself', async () => {
      const dir = await t.directory(TENANT_A, { microsoft_tenant_id: undefined });
      t.fake.authority.oidc.account = { tenantId: TENANT_A, homeTenantId: TENANT_B, decision: 'accept' };
      const browser = new Browser();
      const res = await browser.get(await signedIn(browser, await consentUrl(dir.id)));
      expect(res.status).to.equal(400);
      expect(await res.text()).to.contain(
        `the account is a guest in tenant ${TENANT_A} (its identity provider is https://sts.windows.net/${TENANT_B}/)`,
      );
      await untouched(dir.id, undefined, t.fake.callsOf('token'));
    });

    it('the admin cancels the sign-in, or its code is refused: a page saying why, nothing stored', async () => {
      const dir = await t.directory(TENANT_A, { microsoft_tenant_id: undefined });
      t.fake.authority.oidc.account = { decision: 'decline' };
      const browser = new Browser();
      const declined = await browser.get(await signedIn(browser, await consentUrl(dir.id)));
      expect(declined.status).to.equal(400);
      expect(await declined.text()).to.contain(
        'The sign-in to Microsoft did not complete: AADSTS65004: User declined to consent to access the app.',
      );
      t.fake.authority.oidc.account = { decision: 'accept' };
      // A code redeemed already (the fake's codes are single use, as Entra's): Entra's refusal, named.
      const back = await signedIn(browser, await consentUrl(dir.id));
      const code = back.searchParams.get('code')!;
      t.fake.authority.oidc.redeem(new URLSearchParams({ code }), aadError); // spent by whoever saw it
      const refused = await browser.get(back);
      expect(refused.status).to.equal(400);
      expect(await refused.text()).to.contain('Microsoft refused the sign-in code (invalid_grant: AADSTS70008:');
      await untouched(dir.id, undefined, t.fake.callsOf('token'));
    });

    it('refusals: the admin declines, a forged or missing state; a redirect_url gets the error, then the success', async () => {
      const dir = await t.directory(TENANT_B);
      t.fake.authority.consent = { tenantId: TENANT_B, decision: 'decline' };
      const browser = new Browser();
      const refused = await browser.get(
        await toCallback(browser, await consentUrl(dir.id, '?redirect_url=https://app.example.com/done')),
      );
      expect(refused.status).to.equal(303);
      expect(Object.fromEntries(new URL(refused.headers.get('location')!).searchParams)).to.include({
        status: 'error',
        error: 'DSYNC_MICROSOFT_CONSENT_REFUSED',
      });

      for (const state of ['A'.repeat(43), 'abc.def', undefined]) {
        const forged = new URL(
          `${t.service.url}/api/v1/dsync/microsoft/callback?admin_consent=True&tenant=${TENANT_B}`,
        );
        if (state !== undefined) forged.searchParams.set('state', state);
        const res = await browser.get(forged);
        expect(res.status, String(state)).to.equal(400);
        expect(await res.text()).to.match(
          /Invalid OAuth state \((unknown, expired or already used|missing or malformed)\)/,
        );
      }

      t.fake.authority.consent = { tenantId: TENANT_B, decision: 'accept' };
      const ok = await browser.get(
        await toCallback(browser, await consentUrl(dir.id, '?redirect_url=https://app.example.com/done')),
      );
      expect(ok.status).to.equal(303);
      expect(Object.fromEntries(new URL(ok.headers.get('location')!).searchParams)).to.deep.equal({
        directory_id: dir.id,
        status: 'success',
      });
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
