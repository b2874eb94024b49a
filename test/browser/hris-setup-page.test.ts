/**
 * The HRIS setup page in real headless Chromium with axe-core at 1280 and 375 px (test/support/browser.ts), for each
 * provider on its fake: the steps, a refused key (the provider's answer shown, nothing kept), the good key (never
 * shown again), then "Sync now" and the counts.
 */
import { expect } from 'chai';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import { check, chromiumForSuite, openPage, waitUntil } from '../support/browser.js';
import { HR_TYPES } from '../support/hr-fakes.js';
import { startHrisTest } from '../support/hris-harness.js';

describe('HRIS setup page in Chromium', function () {
  this.timeout(120_000);
  const browser = chromiumForSuite();

  for (const type of HR_TYPES) {
    it(`${type}: steps → a refused key, the provider's answer shown → the key accepted, never shown again → Sync now → counts`, async () => {
      const t = await startHrisTest(new MemoryStore());
      const context = await browser().newContext();
      try {
        const f = t.fakes[type];
        f.hire({ department: 'Sales' });
        f.hire({ department: 'Support' });
        const dir = await t.directory(type, { name: 'Example Inc' }, false);
        const link = (await t.service.api('POST', `/api/v1/directory-sync/${dir.id}/setup-links`, {})).body.data
          .url as string;
        const { page, trouble } = await openPage(context);
        await page.goto(link);
        expect(await page.textContent('#connect-h')).to.equal(`Connect ${f.name}`);
        expect(await page.locator('#hris-steps li').count()).to.be.greaterThan(3);
        expect(await page.textContent('#sync-state')).to.equal('Not connected yet');
        expect(await page.isDisabled('#sync-now')).to.equal(true);
        await check(page, `${type}-1-not-connected`);

        const fill = async (credentials: Record<string, string>) => {
          for (const [name, value] of Object.entries(credentials)) await page.fill(`input[name="${name}"]`, value);
          await page.click('#hris-connect');
        };
        await fill(f.wrong());
        await page.waitForSelector('#notice.error');
        expect(await page.textContent('#notice')).to.contain(`${f.name} refused the credentials (HTTP 401`);
        await check(page, `${type}-2-refused`);

        await fill(f.credentials());
        await page.waitForSelector('#notice.success');
        expect(await page.textContent('#notice')).to.equal(`${f.name} accepted the key: the first sync has started.`);
        const html = await page.content();
        for (const [k, v] of Object.entries(f.credentials()))
          if (/key|token|secret/.test(k)) expect(html).not.to.contain(v);
        expect(await page.textContent('#hris-connect')).to.equal(`Replace the ${f.name} key`);
        await check(page, `${type}-3-connected`);

        await page.click('#sync-now');
        await waitUntil(page, "document.getElementById('count-users')?.textContent === '2'");
        await waitUntil(page, "document.getElementById('count-groups')?.textContent === '2'");
        expect(await page.textContent('#sync-state')).to.equal('Synced');
        await check(page, `${type}-4-synced`);
        expect(trouble).to.deep.equal({ csp: [], errors: [], dialogs: [] });
      } finally {
        await context.close();
        await t.close();
      }
    });
  }
});
