/**
 * The setup page of an HRIS directory over HTTP (each provider): the provider's steps and a form for its key, the
 * key tried with the provider when submitted (its answer shown, nothing kept unless it accepted), never shown
 * again; the sync state after; "Sync now".
 */
import { expect } from 'chai';
import { openStore } from '../support/harness.js';
import { HR_TYPES } from '../support/hr-fakes.js';
import { startHrisTest, type HrisTest } from '../support/hris-harness.js';

describe('HRIS setup page over HTTP', function () {
  this.timeout(20_000);
  let t: HrisTest;
  beforeEach(async () => (t = await startHrisTest(await openStore('memory'))));
  afterEach(() => t.close());

  const linkOf = async (d: any) =>
    (await t.service.api('POST', `/api/v1/directory-sync/${d.id}/setup-links`, {})).body.data.url as string;
  const csrfOf = (html: string) => /data-csrf="([^"]+)"/.exec(html)![1]!;
  const submit = (url: string, name: string, fields: Record<string, string>, accept = 'text/html') =>
    fetch(`${url}/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
      body: new URLSearchParams(fields).toString(),
    });

  it('a directory the operator manages shows no key form (its key comes from its DirectoryConnection), and refuses one posted', async () => {
    const dir = await t.service.dsync.directories.create(
      { name: 'M', tenant: 'acme', product: 'app', type: 'bamboohr' },
      { managedBy: 'operator' },
    );
    const link = await linkOf(dir);
    const page = await (await fetch(link)).text();
    expect(page).to.include('id="hris-managed"');
    expect(page).to.not.include('name="api_key"');
    const refused = await submit(link, 'hris/connect', { csrf: csrfOf(page), ...t.fakes.bamboohr.credentials() });
    expect(refused.status).to.equal(403);
    expect(await t.service.dsync.store.getSyncRecord(dir.id, 'hris-credentials')).to.equal(null);
  });

  for (const type of HR_TYPES) {
    it(`${type}: the steps and the form; a refused key is shown with the provider's answer, a good one connects and is never shown`, async () => {
      const f = t.fakes[type];
      f.hire({ department: 'Sales' });
      const dir = await t.directory(type, {}, false);
      const link = await linkOf(dir);
      const page = await (await fetch(link)).text();
      expect(page).to.include(`Connect ${f.name}`);
      expect(page).to.include('id="hris-steps"');
      expect(page).to.include(`/api/v1/dsync/hris/webhooks/${dir.id}`);
      for (const name of Object.keys(f.credentials())) expect(page).to.include(`name="${name}"`);
      expect(page).to.include('Not connected yet');
      const csrf = csrfOf(page);

      const refused = await submit(link, 'hris/connect', { csrf, ...f.wrong() });
      expect(refused.status).to.equal(400);
      const refusedPage = await refused.text();
      expect(refusedPage).to.include(`${f.name} refused the credentials (HTTP 401`);
      expect(await t.service.dsync.store.getSyncRecord(dir.id, 'hris-credentials')).to.equal(null);

      const ok = await submit(link, 'hris/connect', { csrf, ...f.credentials() });
      expect(ok.status).to.equal(200);
      const okPage = await ok.text();
      expect(okPage).to.include(`${f.name} accepted the key: the first sync has started.`);
      for (const [k, v] of Object.entries(f.credentials()))
        if (/key|token|secret/.test(k)) expect(okPage).to.not.include(v);
      expect(okPage).to.include(`Replace the ${f.name} key`);

      const synced = await submit(link, 'hris/sync', { csrf }, 'application/json');
      expect(synced.status).to.equal(200);
      expect(((await synced.json()) as any).data).to.deep.include({ created: 2, failed: 0 });
      const status = (await (await fetch(`${link}/status`, { headers: { accept: 'application/json' } })).json()) as any;
      expect(status.data).to.deep.include({ users: 1, groups: 1, sync_text: 'Synced' });
      expect(status.data.pull.connected).to.equal(true);
    });
  }
});
