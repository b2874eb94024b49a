/**
 * The setup page of a pull directory in real headless Chromium (as setup-page.test.ts): the Google Workspace and
 * Microsoft Entra ID paths on the fakes (the consent flow bound to this browser by its cookie, refused with the
 * reason, then connected and synced).
 */
import { expect } from 'chai';
import type { BrowserContext } from 'playwright-core';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import { check, chromiumForSuite, openPage, setupLinkOf, waitUntil } from '../support/browser.js';
import { startEntraTest, TENANT_A, TENANT_B } from '../support/entra-harness.js';
import { startGoogleTest } from '../support/google-harness.js';

describe('setup page in Chromium', function () {
  this.timeout(120_000);
  const browser = chromiumForSuite();

  /**
   * Opens the page of a pull directory, not connected yet (screenshot `shot`), keeping every URL its browser asks
   * for (navigations and redirects included).
   */
  const openPull = async (context: BrowserContext, link: string, shot: string) => {
    const { page, trouble } = await openPage(context);
    const urls: string[] = [];
    page.on('request', (r) => void urls.push(r.url()));
    await page.goto(link);
    expect(await page.textContent('#sync-state')).to.equal('Not connected yet');
    expect(await page.isDisabled('#sync-now')).to.equal(true);
    await check(page, shot);
    return { page, trouble, urls, secret: link.split('/').pop()! };
  };
  /** The flow cookies the browser holds. */
  const flowCookies = async (context: BrowserContext) =>
    (await context.cookies()).filter((c) => c.name.includes('dsync-oauth-'));

  it('Google Workspace: Connect → consent refused (wrong workspace, the reason shown) → Connect → back on the page → Sync now → synced counts', async () => {
    const t = await startGoogleTest(new MemoryStore());
    const context = await browser().newContext();
    try {
      const ann = t.fake.addUser({ primaryEmail: 'ann@example.com' });
      t.fake.addUser({ primaryEmail: 'bob@example.com' });
      const group = t.fake.addGroup({ name: 'Sales', email: 'sales@example.com' });
      t.fake.addMember(group.id, ann.id);
      const dir = await t.service.createDirectory({
        type: 'google',
        name: 'Example Inc',
        google_domain: 'example.com',
      });
      const link = await setupLinkOf(t.service, dir);
      const { page, trouble, urls, secret } = await openPull(context, link, 'google-1-not-connected');

      // An account of another workspace consents: back on the page with the reason, nothing stored.
      t.fake.oauth.consenter = { email: 'eve@evil.example', hd: 'evil.example' };
      await page.click('#google-connect');
      await page.waitForSelector('#notice.error');
      expect(await page.textContent('#notice')).to.equal(
        "Google Workspace was not connected: The Google account that consented belongs to the workspace of evil.example, not to example.com (this directory's google_domain): sign in as an administrator of example.com. Nothing was saved. Try again.",
      );
      expect(page.url(), 'the result is not kept in the address bar').to.equal(link);
      expect(await page.textContent('#sync-state')).to.equal('Not connected yet');
      await check(page, 'google-2-refused');

      t.fake.oauth.consenter = { email: 'admin@example.com', hd: 'example.com' };
      await page.click('#google-connect');
      await page.waitForSelector('#notice.success');
      expect(page.url()).to.equal(link);
      expect(await page.textContent('#notice')).to.match(/Google Workspace is connected/);
      expect(await page.textContent('#google-connect')).to.equal('Connect Google Workspace again');
      expect(await page.textContent('#sync-state')).to.equal('Connected, waiting for the first sync');
      await check(page, 'google-3-connected');

      // The flow ran in this browser: the consent page was given a state, never the page's URL (the link's
      // secret); the callback cleared the flow's cookie; its URL, opened again in another browser, does nothing.
      const atGoogle = urls.filter((u) => u.startsWith(t.fake.authUrl));
      const callbacks = urls.filter((u) => u.startsWith(`${t.service.url}/api/v1/dsync/google/callback`));
      expect(atGoogle).to.have.length(2);
      expect(callbacks).to.have.length(2);
      for (const u of [...atGoogle, ...callbacks]) expect(u).not.to.contain(secret);
      for (const u of atGoogle) expect(new URL(u).searchParams.get('state')).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(await flowCookies(context)).to.deep.equal([]);
      const other = await browser().newContext();
      try {
        const replay = await (await other.newPage()).goto(callbacks[1]!);
        expect(replay!.status()).to.equal(400);
        expect(await replay!.text()).to.contain('Invalid OAuth state (unknown, expired or already used)');
      } finally {
        await other.close();
      }

      await page.click('#sync-now');
      await waitUntil(page, "document.getElementById('count-users')?.textContent === '2'");
      await waitUntil(page, "document.getElementById('count-groups')?.textContent === '1'");
      expect(await page.textContent('#sync-state')).to.equal('Synced');
      expect(await page.textContent('#sync-listed')).to.equal('2 users, 1 group');
      expect(await page.textContent('#state')).to.equal('Receiving from Google Workspace');
      await check(page, 'google-4-synced');
      expect(trouble).to.deep.equal({ csp: [], errors: [], dialogs: [] });
    } finally {
      await context.close();
      await t.close();
    }
  });

  it('Microsoft Entra ID: Connect → the admin declines (the reason shown) → a forged consent answer naming another customer binds nothing → Connect → sign-in and consent on the fake Entra → back on the page → synced by itself', async () => {
    const t = await startEntraTest(new MemoryStore());
    // The fake Entra serves TLS with the tests' own CA, which this Chromium does not know.
    const context = await browser().newContext({ ignoreHTTPSErrors: true });
    try {
      const tenant = t.fake.tenant(TENANT_A, 'contoso.onmicrosoft.com', false);
      const ann = tenant.addUser();
      tenant.addUser();
      const sales = tenant.addGroup();
      tenant.addMember(sales.id, ann.id);
      // Another customer's tenant, consented long ago: a token for it can be had, its id is public.
      t.fake.tenant(TENANT_B, 'fabrikam.onmicrosoft.com', true).addUser();
      t.fake.authority.consent = { tenantId: TENANT_A, decision: 'decline' };
      const dir = await t.service.createDirectory({ type: 'microsoft-entra', name: 'Contoso' });
      const link = await setupLinkOf(t.service, dir);
      const { page, trouble, urls, secret } = await openPull(context, link, 'entra-1-not-connected');

      await page.click('#microsoft-connect');
      await page.waitForSelector('#notice.error');
      expect(await page.textContent('#notice')).to.equal(
        'Microsoft Entra ID was not connected: The admin did not grant consent: AADSTS65004: User declined to consent to access the app. Try again.',
      );
      expect((await t.service.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.microsoft_tenant_id).to.equal(
        undefined,
      );
      await check(page, 'entra-2-declined');

      // The admin of tenant A signs in, then the consent answer comes back naming the other customer's tenant, in
      // the flow's own browser with its own state: the answer an attacker would type.
      t.fake.authority.consent = { tenantId: TENANT_A, decision: 'accept', answerTenantId: TENANT_B };
      await page.evaluate("document.getElementById('notice').remove()"); // the last answer's, so the next one is waited for
      await page.click('#microsoft-connect');
      await page.waitForSelector('#notice.error');
      expect(await page.textContent('#notice')).to.equal(
        `Microsoft Entra ID was not connected: The consent names tenant ${TENANT_B}, but the admin signed in to tenant ${TENANT_A}: the consent must come from the tenant of the signed-in admin. Nothing was saved. Try again.`,
      );
      expect((await t.service.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.microsoft_tenant_id).to.equal(
        undefined,
      );
      expect(await page.textContent('#sync-state')).to.equal('Not connected yet');
      expect(t.fake.graphCalls(TENANT_B), "nothing of the other customer's tenant read").to.equal(0);

      t.fake.authority.consent = { tenantId: TENANT_A, decision: 'accept' };
      await page.click('#microsoft-connect');
      await page.waitForSelector('#notice.success');
      expect(page.url()).to.equal(link);
      expect(await page.textContent('#notice')).to.equal(
        'Microsoft Entra ID is connected: the first sync has started.',
      );
      // The first sync runs by itself after the consent; the page's poll shows it.
      await waitUntil(page, "document.getElementById('sync-state')?.textContent === 'Synced'");
      await waitUntil(
        page,
        "document.getElementById('count-users')?.textContent === '2' && document.getElementById('count-groups')?.textContent === '1'",
      );
      expect(await page.textContent('#state')).to.equal('Receiving from Microsoft Entra ID');
      expect(await page.isDisabled('#sync-now')).to.equal(false);
      await check(page, 'entra-3-synced');

      const at = (path: string) => urls.filter((u) => u.startsWith(`${t.fake.url}/`) && u.includes(path));
      expect(at('/organizations/oauth2/v2.0/authorize'), 'each Connect signs in first').to.have.length(3);
      expect(at(`/${TENANT_A}/v2.0/adminconsent`), 'then consents for the tenant signed in to').to.have.length(3);
      for (const u of urls)
        if (!u.startsWith(`${t.service.url}/setup/`)) expect(u, 'the link stays on our pages').not.to.contain(secret);
      expect(await flowCookies(context)).to.deep.equal([]);
      expect((await t.service.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.microsoft_tenant_id).to.equal(
        TENANT_A,
      );
      expect(t.fake.graphCalls(TENANT_B)).to.equal(0);
      expect(trouble).to.deep.equal({ csp: [], errors: [], dialogs: [] });
    } finally {
      await context.close();
      await t.close();
    }
  });
});
