/**
 * Embedding the setup page: a host application mounts `setupRoutes` in its own express app under its own path,
 * creates links with `dsync.setupLinks.create`, and may allow its admin UI to frame the page.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import { createDsync, MemoryStore, setupRoutes, type Dsync } from '../../src/index.js';

describe('setup page embedded in a host application', function () {
  this.timeout(20_000);
  let server: Server;
  let dsync: Dsync;
  let base: string;

  before(async () => {
    const app = express();
    app.get('/admin', (_req, res) => void res.send('host admin'));
    server = createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dsync = createDsync({
      store: new MemoryStore(),
      externalUrl: `${base}/scim-host`,
      setupUrl: `${base}/admin/sso/setup`,
    });
    app.use('/admin/sso/setup', setupRoutes(dsync, { frameAncestors: ['https://admin.example.com'] }));
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await dsync.close();
  });

  it('creates a link on the host path; the page, its assets and its actions work there; its own origins may frame it', async () => {
    const directory = await dsync.directories.create({
      name: 'Acme',
      tenant: 'acme',
      product: 'app',
      type: 'okta-scim-v2',
    });
    const link = await dsync.setupLinks.create(directory.id, { expires_in: 3600 });
    expect(link.url).to.match(new RegExp(`^${base}/admin/sso/setup/[A-Za-z0-9_-]{43}$`));
    const page = await fetch(link.url);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-security-policy')).to.contain('frame-ancestors https://admin.example.com');
    expect(page.headers.get('x-frame-options')).to.equal(null);
    const html = await page.text();
    expect(html).to.contain(directory.scim.endpoint);
    expect((await fetch(new URL('./static/setup.js', link.url))).status).to.equal(200);

    const csrf = /data-csrf="([^"]+)"/.exec(html)![1]!;
    const created = await fetch(`${link.url}/scim-tokens`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        'x-csrf-token': csrf,
      },
      body: '',
    });
    expect(created.status).to.equal(200);
    const { data } = (await created.json()) as { data: { token: string } };
    expect(await dsync.requests.authenticates(directory.id, data.token)).to.equal(true);
    expect((await dsync.setupLinks.list(directory.id)).map((l) => l.id)).to.deep.equal([link.id]);
    expect((await fetch(`${base}/admin`)).status).to.equal(200); // the host's own routes are untouched
  });
});
