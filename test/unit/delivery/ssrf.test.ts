import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isBlockedAddress } from '../../../src/delivery/ssrf.js';
import { WebhookSender } from '../../../src/delivery/webhook-sender.js';

describe('SSRF guard', () => {
  it('refuses private, loopback, link-local, metadata and reserved addresses', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.9', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '198.18.0.1', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip']) {
      expect(isBlockedAddress(a), a).to.equal(true);
    }
    for (const a of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isBlockedAddress(a), a).to.equal(false);
  });

  describe('webhook sender', () => {
    let server: Server;
    let port: number;
    before(async () => {
      server = createServer((_req, res) => res.writeHead(204).end());
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      port = (server.address() as AddressInfo).port;
    });
    after(() => new Promise((r) => server.close(r)));

    it('refuses loopback targets by literal IP and by name (resolved at connect time), permanently', async () => {
      const sender = new WebhookSender({ allowPrivate: false, timeoutMs: 2000 });
      try {
        for (const url of [`http://127.0.0.1:${port}/h`, `http://localhost:${port}/h`, `http://[::ffff:127.0.0.1]:${port}/h`, 'http://169.254.169.254/latest/meta-data']) {
          const res = await sender.post(url, 'whsec_c2VjcmV0', 'evt_1', '{}');
          expect(res.status, url).to.equal(undefined);
          expect(res.error, url).to.match(/DSYNC_SSRF_BLOCKED/);
          expect(res.permanent, url).to.equal(true);
        }
      } finally {
        await sender.close();
      }
    });

    it('reaches loopback when private targets are allowed, and does not follow redirects', async () => {
      const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 2000 });
      const redirect = createServer((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${port}/h` }).end());
      await new Promise<void>((r) => redirect.listen(0, '127.0.0.1', r));
      try {
        expect((await sender.post(`http://127.0.0.1:${port}/h`, 'whsec_c2VjcmV0', 'evt_1', '{}')).status).to.equal(204);
        const moved = await sender.post(`http://127.0.0.1:${(redirect.address() as AddressInfo).port}/`, 'whsec_c2VjcmV0', 'evt_1', '{}');
        expect(moved.status).to.equal(302);
      } finally {
        await sender.close();
        await new Promise((r) => redirect.close(r));
      }
    });

    it('times out a slow receiver', async () => {
      const slow = createServer(() => undefined);
      await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
      const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 200 });
      try {
        const res = await sender.post(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/`, 'whsec_c2VjcmV0', 'e', '{}');
        expect(res.status).to.equal(undefined);
        expect(res.error).to.match(/timeout/i);
      } finally {
        await sender.close();
        slow.closeAllConnections();
        await new Promise((r) => slow.close(r));
      }
    });
  });
});
