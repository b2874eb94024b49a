import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookSender } from '../../../src/delivery/webhook-sender.js';

/** A receiver answering each POST with `answer`, after reading the request body. */
async function receiver(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, server };
}

async function closeAll(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

describe('WebhookSender: reading the answer', () => {
  it('returns the status and Retry-After of the answer', async () => {
    const { url, server } = await receiver((_req, res) => res.writeHead(429, { 'retry-after': '7' }).end('slow down'));
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 2000 });
    try {
      const res = await sender.post(url, 'whsec_c2VjcmV0', 'evt_1', '{}');
      expect(res).to.include({ status: 429, retryAfter: '7' });
      expect(res.error).to.equal(undefined);
    } finally {
      await sender.close();
      await closeAll(server);
    }
  });

  it('reads a long answer only up to the cap, keeps its status, and goes on delivering', async () => {
    const { url, server } = await receiver((_req, res) => res.writeHead(200).end(Buffer.alloc(4 * 1024 * 1024, 'x')));
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 2000, maxResponseBytes: 1024 });
    try {
      for (const id of ['evt_1', 'evt_2']) {
        const res = await sender.post(url, 'whsec_c2VjcmV0', id, '{}');
        expect(res.status, id).to.equal(200);
        expect(res.error, id).to.equal(undefined);
      }
    } finally {
      await sender.close();
      await closeAll(server);
    }
  });

  it('keeps the status when the body stalls past the timeout', async () => {
    const { url, server } = await receiver((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
    });
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 200 });
    try {
      const res = await sender.post(url, 'whsec_c2VjcmV0', 'evt_1', '{}');
      expect(res.status).to.equal(200);
    } finally {
      await sender.close();
      await closeAll(server);
    }
  });

  it('reports a connection closed before any answer as an error, with no status', async () => {
    const { url, server } = await receiver((req) => req.socket.destroy());
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 2000 });
    try {
      const res = await sender.post(url, 'whsec_c2VjcmV0', 'evt_1', '{}');
      expect(res.status).to.equal(undefined);
      expect(res.error)
        .to.be.a('string')
        .and.match(/socket|closed/i);
    } finally {
      await sender.close();
      await closeAll(server);
    }
  });
});
