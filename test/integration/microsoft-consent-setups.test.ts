/**
 * Microsoft's admin consent under two other service setups than microsoft-consent.test.ts runs it in: a public
 * https URL (the flow cookie becomes `__Host-` and Secure) and a certificate credential instead of a client
 * secret (the sign-in code redeemed with a signed client assertion). Each test starts its own service, since
 * both setups are the service's configuration.
 */
import { expect } from 'chai';
import { Browser } from '../support/cookie-browser.js';
import { parseCertificatePem } from '../../src/providers/microsoft/certificate.js';
import { selfSignedPem, startEntraTest, TENANT_A } from '../support/entra-harness.js';
import { openStore, until } from '../support/harness.js';

describe('Microsoft Entra ID admin consent over https', function () {
  this.timeout(20_000);

  it('binds the flow with a __Host- cookie, Secure, and finishes with it', async () => {
    const t = await startEntraTest(await openStore('memory'), {}, { https: true });
    try {
      t.fake.tenant(TENANT_A, 'contoso.onmicrosoft.com', false);
      t.fake.authority.consent = { tenantId: TENANT_A, decision: 'accept' };
      const dir = await t.directory(TENANT_A, { microsoft_tenant_id: undefined });
      const link = new URL(
        (await t.service.api('GET', `/api/v1/directory-sync/${dir.id}/microsoft/admin-consent-url`)).body.data
          .adminConsentUrl,
      );
      expect(link.protocol).to.equal('https:');
      const browser = new Browser();
      const afterSignIn = await browser.redirected(await browser.redirected(link), 302);
      const back = await browser.redirected(await browser.redirected(afterSignIn), 302);
      expect(browser.setCookies[0]).to.match(
        /^__Host-dsync-oauth-[A-Za-z0-9_-]{12}=[A-Za-z0-9_-]{43}; Max-Age=600; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/,
      );
      expect((await browser.get(back)).status).to.equal(200);
      expect((await t.service.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.microsoft_tenant_id).to.equal(
        TENANT_A,
      );
      await until(
        async () => (await t.status(dir.id)).state === 'succeeded' && t.service.dsync.microsoft.idle,
        'the first sync after consent',
        5000,
      );
    } finally {
      await t.close();
    }
  });
});

describe('Microsoft Entra ID admin consent with a certificate credential', function () {
  this.timeout(20_000);

  it("redeems the sign-in code with a client assertion signed by the certificate; an unknown certificate is the operator's to fix", async () => {
    const pem = selfSignedPem();
    const t = await startEntraTest(await openStore('memory'), {
      clientSecret: undefined,
      certificate: parseCertificatePem(pem),
    });
    try {
      t.fake.tenant(TENANT_A, 'contoso.onmicrosoft.com', false);
      t.fake.authority.consent = { tenantId: TENANT_A, decision: 'accept' };
      const dir = await t.directory(TENANT_A, { microsoft_tenant_id: undefined });
      const link = async () =>
        new URL(
          (await t.service.api('GET', `/api/v1/directory-sync/${dir.id}/microsoft/admin-consent-url`)).body.data
            .adminConsentUrl,
        );
      const browser = new Browser();
      const unknown = await browser.get(await browser.redirected(await browser.redirected(await link()), 302));
      expect(unknown.status).to.equal(400);
      expect(await unknown.text()).to.contain(
        'Entra refused the app&#39;s credentials while redeeming the sign-in (invalid_client: AADSTS700027:',
      );
      t.fake.authority.registerCertificate(pem);
      const atConsent = await browser.redirected(await browser.redirected(await browser.redirected(await link()), 302));
      expect(atConsent.pathname).to.equal(`/${TENANT_A}/v2.0/adminconsent`);
      expect((await browser.get(await browser.redirected(atConsent, 302))).status).to.equal(200);
      expect(t.fake.authority.grants).to.deep.equal({ secret: 0, assertion: 2 });
      expect((await t.service.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.microsoft_tenant_id).to.equal(
        TENANT_A,
      );
      await until(
        async () => (await t.status(dir.id)).state === 'succeeded' && t.service.dsync.microsoft.idle,
        'the first sync after consent',
        5000,
      );
    } finally {
      await t.close();
    }
  });
});
