/**
 * Connecting a tenant through Microsoft's admin consent, against the fake authority: the consent URL, the
 * admin's round trip (fake consent page → our callback), the directory connected and synced, and the refusals —
 * the admin declining, a replayed or forged state, another tenant than the directory names, no app configured.
 */
import { expect } from 'chai';
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
    /** The admin at Microsoft's page: the fake answers with a redirect to our callback, which the browser follows. */
    const admin = async (url: URL) => {
      const atMicrosoft = await fetch(url, { redirect: 'manual' });
      expect(atMicrosoft.status).to.equal(302);
      const back = atMicrosoft.headers.get('location')!;
      const res = await fetch(back, { redirect: 'manual' });
      return { back: new URL(back), status: res.status, location: res.headers.get('location'), text: await res.text() };
    };

    it('the admin consents: the directory is connected to the tenant and synced, without any cron call', async () => {
      const dir = await t.directory(TENANT_A, { microsoft_tenant_id: undefined });
      const url = await consentUrl(dir.id);
      expect(url.pathname).to.equal('/organizations/v2.0/adminconsent');
      expect(Object.fromEntries(url.searchParams)).to.include({
        client_id: '11111111-2222-4333-8444-555555555555',
        scope: `${t.fake.url}/.default`,
        redirect_uri: `${t.service.url}/api/v1/dsync/microsoft/callback`,
      });
      const r = await admin(url);
      expect(r.back.searchParams.get('tenant')).to.equal(TENANT_A);
      expect(r.status).to.equal(200);
      expect(r.text).to.include(`connected to tenant ${TENANT_A}`);
      const stored = await t.service.api('GET', `/api/v1/directory-sync/${dir.id}`);
      expect(stored.body.data.microsoft_tenant_id).to.equal(TENANT_A);
      await until(async () => (await t.newEvents(dir.id)).some((e) => e.event === 'user.created'), 'the first sync after consent', 5000);
      // The state was single-use: the same return again is refused.
      const replay = await fetch(r.back, { redirect: 'manual' });
      expect(replay.status).to.equal(400);
      expect(await replay.text()).to.match(/already used/);
    });

    it('refusals: the admin declines, a forged state, another tenant than the directory names; a redirect_url gets the error', async () => {
      const dir = await t.directory(TENANT_B);
      const url = await consentUrl(dir.id, '?redirect_url=https://app.example.com/done');
      expect(url.pathname).to.equal(`/${TENANT_B}/v2.0/adminconsent`);
      t.fake.authority.consent = { decision: 'decline' };
      const declined = await admin(url);
      expect(declined.status).to.equal(303);
      expect(Object.fromEntries(new URL(declined.location!).searchParams)).to.include({ status: 'error', error: 'DSYNC_MICROSOFT_CONSENT_REFUSED' });

      const forged = await fetch(`${t.service.url}/api/v1/dsync/microsoft/callback?admin_consent=True&tenant=${TENANT_B}&state=abc.def`);
      expect(forged.status).to.equal(400);
      expect(await forged.text()).to.match(/Invalid admin-consent state/);

      // A valid state, but the consent names tenant A while the directory is tenant B's.
      const state = (await consentUrl(dir.id)).searchParams.get('state')!;
      t.fake.tenants.get(TENANT_A)!.consented = true;
      const other = await fetch(`${t.service.url}/api/v1/dsync/microsoft/callback?admin_consent=True&tenant=${TENANT_A}&state=${encodeURIComponent(state)}`);
      expect(other.status).to.equal(400);
      expect(await other.text()).to.include(`came from tenant ${TENANT_A}, not from the directory&#39;s tenant ${TENANT_B}`);
      expect((await t.service.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.microsoft_tenant_id).to.equal(TENANT_B);

      t.fake.authority.consent = { decision: 'accept' };
      const ok = await admin(await consentUrl(dir.id, '?redirect_url=https://app.example.com/done'));
      expect(ok.status).to.equal(303);
      expect(Object.fromEntries(new URL(ok.location!).searchParams)).to.include({ status: 'success', directory_id: dir.id });
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
