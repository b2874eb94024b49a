/**
 * The setup page in real headless Chromium (Debian's, through playwright-core), with axe-core at 1280 and 375 px
 * on every page state and a screenshot of each (test-results/screenshots). The IT admin's path end to end:
 * open the link, copy the SCIM URL, create a token, provision with it, watch it arrive, read an error's
 * detail, rotate the token, lose the link; what the page never runs; the page without JavaScript; the
 * Attributes section. The Google Workspace and Microsoft Entra ID paths: setup-page-pull.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { createLogger } from '../../src/logger.js';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import { check, chromiumForSuite, openPage, SCREENSHOTS, setupLinkOf, waitUntil } from '../support/browser.js';
import { openStore, startReceiver, startService } from '../support/harness.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

describe('setup page in Chromium', function () {
  this.timeout(120_000);
  const browser = chromiumForSuite();

  it('SCIM: link → copy URL → create token → provision → live status and requests → error detail → rotate → link revoked', async () => {
    const logs: string[] = [];
    const logger = createLogger('trace', { write: (line: string) => void logs.push(line) });
    const receiver = await startReceiver();
    const svc = await startService(await openStore('redis', 14), { logger }, { logger });
    const context = await browser().newContext();
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: svc.url });
      const dir = await svc.createDirectory({
        type: 'okta-scim-v2',
        name: 'Acme Corp',
        webhook_url: receiver.url,
        webhook_secret: receiver.secret,
      });
      const link = await setupLinkOf(svc, dir);
      const { page, trouble } = await openPage(context);
      const text = async (selector: string) => ((await page.textContent(selector)) ?? '').trim();

      await page.goto(link);
      expect(await text('h1')).to.equal('Acme Corp');
      expect(await text('#state')).to.equal('Waiting for the first request from Okta');
      await check(page, '1-waiting');

      await page.click('button[data-copy="scim-url"]');
      expect(await page.evaluate('navigator.clipboard.readText()')).to.equal(dir.scim.endpoint);

      await page.click('#create-token');
      await page.waitForSelector('#new-token:not([hidden])');
      const tokenA = await page.inputValue('#new-token-value');
      expect(tokenA).to.match(/^[A-Za-z0-9_-]{43}$/);
      await page.click('button[data-copy="new-token-value"]');
      expect(await page.evaluate('navigator.clipboard.readText()')).to.equal(tokenA);
      await check(page, '2-token-created');

      // The IdP provisions a user and a group with the new token; the page shows them without a reload.
      const viaA = { id: dir.id, scim: { secret: tokenA } };
      const user = await svc.scim(viaA, 'POST', '/Users', {
        schemas: [USER_SCHEMA],
        userName: 'ann@acme.example',
        name: { givenName: 'Ann', familyName: 'Lee' },
      });
      expect(user.status).to.equal(201);
      const group = await svc.scim(viaA, 'POST', '/Groups', {
        schemas: [GROUP_SCHEMA],
        displayName: 'Engineering',
        members: [{ value: user.body.id }],
      });
      expect(group.status).to.equal(201);
      await waitUntil(
        page,
        "document.getElementById('count-users').textContent === '1' && document.getElementById('count-groups').textContent === '1'",
      );
      expect(await text('#state')).to.equal('Receiving from Okta');
      await waitUntil(page, "document.querySelectorAll('#recent tbody tr').length === 2");
      const rows = await page.evaluate(
        "[...document.querySelectorAll('#recent tbody tr')].map((tr) => [...tr.querySelectorAll('td')].slice(1, 3).map((td) => td.textContent))",
      );
      expect(rows).to.deep.equal([
        ['POST /Groups', '201'],
        ['POST /Users', '201'],
      ]);
      expect(await text('#last-request')).not.to.equal('never');
      await check(page, '3-receiving');

      // A bad request: its row carries the detail the IdP was answered.
      expect((await svc.scim(viaA, 'POST', '/Users', { schemas: [USER_SCHEMA], userName: 7 })).status).to.equal(400);
      await waitUntil(page, "document.querySelector('#recent tbody tr td:nth-child(3)')?.textContent === '400'");
      expect(await text('#recent tbody tr td:nth-child(4)')).to.match(/userName/);
      await check(page, '4-error-detail');

      // Rotate: the initial token goes (the IdP uses A), B is created, A still works, A is revoked: 401.
      await page.click('tr[data-token-id="scim-secret"] button');
      await page.waitForSelector('tr[data-token-id="scim-secret"]', { state: 'detached' });
      expect((await svc.scim(dir, 'GET', '/Users')).status).to.equal(401);
      await page.click('#create-token');
      await waitUntil(page, `document.getElementById('new-token-value').value !== ${JSON.stringify(tokenA)}`);
      const tokenB = await page.inputValue('#new-token-value');
      await waitUntil(page, "document.querySelectorAll('#tokens tbody tr').length === 2");
      expect(await page.isDisabled('#create-token')).to.equal(true);
      const viaB = { id: dir.id, scim: { secret: tokenB } };
      expect((await svc.scim(viaA, 'GET', '/Users')).status).to.equal(200);
      expect((await svc.scim(viaB, 'GET', '/Users')).status).to.equal(200);
      const idA = (await svc.api('GET', `/api/v1/directory-sync/${dir.id}/scim-tokens`)).body.data[0].id;
      await page.click(`tr[data-token-id="${idA}"] button`);
      await page.waitForSelector(`tr[data-token-id="${idA}"]`, { state: 'detached' });
      expect((await svc.scim(viaA, 'GET', '/Users')).status).to.equal(401);
      expect((await svc.scim(viaB, 'GET', '/Users')).status).to.equal(200);
      // Newest first: B's GET (200), then A's refused one (401) with the reason.
      await waitUntil(
        page,
        "document.querySelector('#recent tbody tr:nth-child(2) td:nth-child(3)')?.textContent === '401'",
      );
      expect(await text('#recent tbody tr:nth-child(2) td:nth-child(4)')).to.match(/Invalid bearer token/);
      await check(page, '5-rotated');

      // A later load never shows a token; neither do the logs, the metrics or the events.
      await page.reload();
      const html = await page.content();
      await svc.dsync.activity.flush();
      const metrics = await svc.dsync.metrics.registry.metrics();
      await receiver.waitForEvents(3);
      for (const [what, haystack] of [
        ['page', html],
        ['logs', logs.join('\n')],
        ['metrics', metrics],
        ['events', JSON.stringify(receiver.events())],
      ]) {
        for (const token of [tokenA, tokenB]) expect(haystack, what).not.to.contain(token);
        if (what !== 'page') expect(haystack, what).not.to.contain(link.split('/').pop()); // the page holds its own URL
      }

      // The link is revoked: the open page says so by itself; loading it again answers the "no longer valid" page.
      const linkId = (await svc.api('GET', `/api/v1/directory-sync/${dir.id}/setup-links`)).body.data[0].id;
      await svc.api('DELETE', `/api/v1/directory-sync/${dir.id}/setup-links/${linkId}`);
      await waitUntil(
        page,
        "document.querySelector('main')?.textContent?.includes('This setup link is no longer valid')",
      );
      await check(page, '6-link-revoked-live');
      const gone = await page.reload();
      expect(gone!.status()).to.equal(410);
      expect(await text('h1')).to.equal('This setup link is no longer valid');
      await check(page, '7-link-gone');
      expect(trouble).to.deep.equal({ csp: [], errors: [], dialogs: [] });
    } finally {
      await context.close();
      await svc.close();
      await receiver.close();
    }
  });

  it('runs nothing from a directory name or an IdP error text, and a cross-site form post changes nothing', async () => {
    const svc = await startService(new MemoryStore());
    // Another origin (another port) with a form that posts to the page's action by itself.
    let target = '';
    const evil: Server = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(
        `<!doctype html><form id="f" method="post" action="${target}"><input name="csrf" value="guess"></form><script>document.getElementById('f').submit()</script>`,
      );
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
    const context = await browser().newContext();
    try {
      const dir = await svc.createDirectory({
        type: 'azure-scim-v2',
        name: '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">',
      });
      const bad = '<img src=x onerror="window.__xss=3;alert(3)">';
      await svc.scim(dir, 'POST', '/Users', { schemas: [USER_SCHEMA], userName: bad });
      await svc.scim(dir, 'POST', '/Users', { schemas: [USER_SCHEMA], userName: bad });
      const link = await setupLinkOf(svc, dir);
      const { page, trouble } = await openPage(context);
      await page.goto(link);
      await page.waitForTimeout(2500); // one poll of the live status, which renders the rows again
      expect(await page.evaluate('window.__xss')).to.equal(undefined);
      expect(await page.textContent('h1')).to.equal(
        '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">',
      );
      expect(await page.textContent('#recent tbody tr td:nth-child(4)')).to.contain(bad);
      expect(await page.locator('main img, main script').count()).to.equal(0);
      await check(page, 'xss-escaped');
      expect(trouble).to.deep.equal({ csp: [], errors: [], dialogs: [] });

      target = `${link}/scim-tokens`;
      const attacker = await context.newPage();
      const refused = attacker.waitForResponse((r) => r.url() === target);
      await attacker.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
      expect((await refused).status()).to.equal(403);
      expect((await svc.api('GET', `/api/v1/directory-sync/${dir.id}/scim-tokens`)).body.data).to.have.length(1);
    } finally {
      await context.close();
      evil.close();
      await svc.close();
    }
  });

  it('works without JavaScript: the forms create a token and revoke one', async () => {
    const svc = await startService(new MemoryStore());
    const context = await browser().newContext({ javaScriptEnabled: false });
    try {
      const dir = await svc.createDirectory({ type: 'jumpcloud-scim-v2', name: 'No Script Ltd' });
      const link = await setupLinkOf(svc, dir);
      const { page } = await openPage(context);
      await page.goto(link);
      await page.click('#create-token');
      const token = await page.inputValue('#new-token-value');
      expect((await svc.scim({ id: dir.id, scim: { secret: token } }, 'GET', '/Users')).status).to.equal(200);
      await page.screenshot({ path: join(SCREENSHOTS, 'no-script-token-created-1280.png'), fullPage: true });
      await page.click('tr[data-token-id="scim-secret"] button');
      expect(await page.textContent('#notice')).to.match(/revoked/);
      expect((await svc.scim(dir, 'GET', '/Users')).status).to.equal(401);
    } finally {
      await context.close();
      await svc.close();
    }
  });

  it('Attributes: the paths the IdP sent → Use one → a bad path shows its error → Preview → Save (the users evaluated again)', async () => {
    const svc = await startService(new MemoryStore());
    const context = await browser().newContext();
    try {
      const acme = 'urn:ietf:params:scim:schemas:extension:acme:2.0:User';
      const dir = await svc.createDirectory({
        type: 'okta-scim-v2',
        name: 'Attributes Inc',
        attribute_mapping: { badge: '', country: '' },
      });
      for (const [name, badge] of [
        ['ann', 'B-1'],
        ['bob', '<b>B-2</b>'],
      ] as const) {
        const res = await svc.scim(dir, 'POST', '/Users', {
          schemas: [USER_SCHEMA, acme],
          userName: `${name}@acme.example`,
          addresses: [{ type: 'work', country: 'DE' }],
          [acme]: { badge },
        });
        expect(res.status).to.equal(201);
      }
      const link = await setupLinkOf(svc, dir);
      const { page, trouble } = await openPage(context);
      await page.goto(link);
      // What the IdP sent, each path with an example value (the IdP's markup shown as text).
      const paths = (await page.evaluate(
        "[...document.querySelectorAll('#attribute-paths-table tbody tr')].map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent))",
      )) as string[][];
      expect(paths).to.deep.include([`${acme}:badge`, 'B-1', '2 of 2']);
      expect(paths).to.deep.include(['addresses[type eq "work"].country', 'DE', '2 of 2']);
      expect(await page.inputValue('#attr-0')).to.equal('');
      await check(page, 'attributes-1-asked');

      // "Use" fills the field last focused; a path typed by hand goes through the same checks.
      await page.focus('#attr-0');
      await page.click(`button[data-use-path="${acme}:badge"]`);
      expect(await page.inputValue('#attr-0')).to.equal(`${acme}:badge`);
      await page.fill('#attr-1', 'addresses[type eq work].country');
      await page.click('#attributes-preview-button');
      await page.waitForSelector('#attr-1-error:not([hidden])');
      expect(await page.textContent('#attr-1-error')).to.match(
        /^country: "addresses\[type eq work\]\.country": the filter/,
      );
      expect(await page.getAttribute('#attr-1', 'aria-invalid')).to.equal('true');
      await check(page, 'attributes-2-bad-path');

      await page.fill('#attr-1', 'addresses[type eq "work"].country');
      await page.click('#attributes-preview-button');
      await page.waitForSelector('#attributes-preview:not([hidden])');
      expect(await page.getAttribute('#attr-1', 'aria-invalid')).to.equal(null);
      const rows = await page.evaluate(
        "[...document.querySelectorAll('#attributes-preview-table tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))",
      );
      expect(rows).to.deep.equal([
        ['ann@acme.example', 'B-1', 'DE'],
        ['bob@acme.example', '<b>B-2</b>', 'DE'],
      ]);
      expect((await svc.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.attribute_mapping).to.deep.equal({
        badge: '',
        country: '',
      });
      await check(page, 'attributes-3-preview');

      await page.click('#attributes-save');
      await page.waitForSelector('#notice.success');
      expect(await page.textContent('#attr-0-hint')).to.equal('Source in use.');
      expect((await svc.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.attribute_mapping).to.deep.equal({
        badge: `${acme}:badge`,
        country: 'addresses[type eq "work"].country',
      });
      const users = (await svc.api('GET', `/api/v1/directory-sync/users?directoryId=${dir.id}`)).body.data;
      expect(users.map((u: any) => u.custom_attributes)).to.have.deep.members([
        { badge: 'B-1', country: 'DE' },
        { badge: '<b>B-2</b>', country: 'DE' },
      ]);
      await check(page, 'attributes-4-saved');
      expect(trouble).to.deep.equal({ csp: [], errors: [], dialogs: [] });
    } finally {
      await context.close();
      await svc.close();
    }
  });
});
