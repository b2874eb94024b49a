import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BlockedAddressError } from '../../../src/delivery/errors.js';
import { assertUrlAllowed, isBlockedAddress } from '../../../src/delivery/ssrf.js';
import { WebhookSender } from '../../../src/delivery/webhook-sender.js';

describe('SSRF guard', () => {
  // Table-driven: one row per IANA special-purpose range (or embedded form), each with a neighbour that is allowed.
  const BLOCKED: Array<[string, string]> = [
    ['0.0.0.0', 'this network 0/8'],
    ['10.1.2.3', 'private 10/8'],
    ['100.64.0.1', 'CGNAT 100.64/10'],
    ['127.0.0.1', 'loopback 127/8'],
    ['127.255.255.254', 'loopback 127/8'],
    ['169.254.169.254', 'link-local / cloud metadata'],
    ['172.16.0.9', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12'],
    ['192.0.0.8', 'IETF protocol assignments 192.0.0/24'],
    ['192.0.2.10', 'TEST-NET-1'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['192.168.1.1', 'private 192.168/16'],
    ['198.18.0.1', 'benchmarking 198.18/15'],
    ['198.19.255.1', 'benchmarking 198.18/15'],
    ['198.51.100.7', 'TEST-NET-2'],
    ['203.0.113.9', 'TEST-NET-3'],
    ['224.0.0.1', 'multicast 224/4'],
    ['240.0.0.1', 'reserved 240/4'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::8.8.8.8', 'IPv4-compatible (deprecated ::/96)'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated loopback (::ffff:0:0:0/96)'],
    ['::ffff:0:a9fe:a9fe', 'IPv4-translated metadata, hex'],
    ['::ffff:0:192.168.0.1', 'IPv4-translated private'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::169.254.169.254', 'NAT64 of metadata'],
    ['64:ff9b:1::1', 'local-use NAT64 64:ff9b:1::/48'],
    ['100::1', 'discard-only 100::/64'],
    ['2001::1', 'Teredo (2001::/23)'],
    ['2001:2::1', 'benchmarking (2001::/23)'],
    ['2001:db8::1', 'documentation 2001:db8::/32'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:a00:1::1', '6to4 of 10.0.0.1'],
    ['3fff::1', 'documentation 3fff::/20'],
    ['fc00::1', 'unique local'],
    ['fd00::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with zone id'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'multicast'],
    ['not-an-ip', 'not an address'],
  ];
  const ALLOWED: Array<[string, string]> = [
    ['93.184.216.34', 'public'],
    ['1.1.1.1', 'public'],
    ['192.0.3.1', 'next to TEST-NET-1'],
    ['198.51.101.1', 'next to TEST-NET-2'],
    ['203.0.114.1', 'next to TEST-NET-3'],
    ['172.32.0.1', 'next to 172.16/12'],
    ['2606:4700:4700::1111', 'public IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public'],
    ['::ffff:0:8.8.8.8', 'IPv4-translated public'],
    ['64:ff9b::808:808', 'NAT64 of a public address'],
    ['2002:808:808::1', '6to4 of a public address'],
    ['2001:4860:4860::8888', 'public, outside 2001::/23'],
  ];
  for (const [address, what] of BLOCKED) {
    it(`refuses ${address} (${what})`, () => expect(isBlockedAddress(address), address).to.equal(true));
  }
  for (const [address, what] of ALLOWED) {
    it(`allows ${address} (${what})`, () => expect(isBlockedAddress(address), address).to.equal(false));
  }

  it('refuses bracketed literal forms (IPv4 in IPv6, 6to4, site-local, documentation ranges) before connecting', () => {
    for (const url of [
      'http://[::127.0.0.1]/',
      'http://[2002:7f00:1::]/',
      'http://[fec0::1]/',
      'http://192.0.2.1/',
      'http://198.51.100.1/',
      'http://203.0.113.1/',
    ]) {
      expect(() => assertUrlAllowed(new URL(url)), url).to.throw(BlockedAddressError);
    }
    expect(() => assertUrlAllowed(new URL('http://[2606:4700:4700::1111]/'))).not.to.throw();
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
        const urls = [
          `http://127.0.0.1:${port}/h`,
          `http://localhost:${port}/h`,
          `http://[::ffff:127.0.0.1]:${port}/h`,
          'http://169.254.169.254/latest/meta-data',
        ];
        // Twice: the sender remembers endpoints it parsed, never one it refused.
        for (const url of [...urls, ...urls]) {
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
      const redirect = createServer((_req, res) =>
        res.writeHead(302, { location: `http://127.0.0.1:${port}/h` }).end(),
      );
      await new Promise<void>((r) => redirect.listen(0, '127.0.0.1', r));
      try {
        expect((await sender.post(`http://127.0.0.1:${port}/h`, 'whsec_c2VjcmV0', 'evt_1', '{}')).status).to.equal(204);
        const moved = await sender.post(
          `http://127.0.0.1:${(redirect.address() as AddressInfo).port}/`,
          'whsec_c2VjcmV0',
          'evt_1',
          '{}',
        );
        expect(moved.status).to.equal(302);
      } finally {
        await sender.close();
        await new Promise((r) => redirect.close(r));
      }
    });

    it('POSTs to the path and query of the endpoint, on every delivery', async () => {
      const seen: Array<{ method?: string; url?: string; id?: string | string[] }> = [];
      const receiver = createServer((req, res) => {
        seen.push({ method: req.method, url: req.url, id: req.headers['webhook-id'] });
        res.writeHead(204).end();
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 2000 });
      try {
        const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
        for (const [url, id] of [
          [`${base}/hooks/a?tenant=t1#frag`, 'evt_1'],
          [`${base}/hooks/a?tenant=t1#frag`, 'evt_2'],
          [base, 'evt_3'],
        ] as const) {
          expect((await sender.post(url, 'whsec_c2VjcmV0', id, '{}')).status, url).to.equal(204);
        }
        expect(seen).to.deep.equal([
          { method: 'POST', url: '/hooks/a?tenant=t1', id: 'evt_1' },
          { method: 'POST', url: '/hooks/a?tenant=t1', id: 'evt_2' },
          { method: 'POST', url: '/', id: 'evt_3' },
        ]);
        const ftp = await sender.post('ftp://127.0.0.1/x', 'whsec_c2VjcmV0', 'evt_4', '{}');
        expect(ftp.status).to.equal(undefined);
        expect(ftp.error).to.match(/protocol/);
      } finally {
        await sender.close();
        await new Promise((r) => receiver.close(r));
      }
    });

    it('times out a slow receiver', async () => {
      const slow = createServer(() => undefined);
      await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
      const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 200 });
      try {
        const res = await sender.post(
          `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`,
          'whsec_c2VjcmV0',
          'e',
          '{}',
        );
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
