// The API client's manners under load: a client-side token bucket (QPS and burst) and 429s sent again after
// their Retry-After, against a real local HTTP server.
import { createServer, type Server } from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import { expect } from 'chai';
import { KubeApiError } from '../../../src/operator/errors.js';
import { KubeClient, retryAfterMs, SECRETS } from '../../../src/operator/kube.js';
import { TokenBucket } from '../../../src/operator/token-bucket.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('API client throttling', () => {
  describe('TokenBucket', () => {
    it('lets a burst through at once, then makes the next caller wait for a token', async () => {
      const bucket = new TokenBucket(1, 3); // one token a second: the fourth cannot be due within this test's ticks
      const done: number[] = [];
      for (let i = 0; i < 4; i++) void bucket.take().then(() => done.push(i));
      await tick();
      expect(done).to.deep.equal([0, 1, 2]);
    });

    it('serves waiting callers in order, at the rate', async () => {
      const bucket = new TokenBucket(200, 1);
      const done: number[] = [];
      await Promise.all([0, 1, 2, 3].map((i) => bucket.take().then(() => done.push(i))));
      expect(done).to.deep.equal([0, 1, 2, 3]);
    });

    it('rejects a rate or burst that cannot work', () => {
      expect(() => new TokenBucket(0, 1)).to.throw('qps must be > 0');
      expect(() => new TokenBucket(1, 0.5)).to.throw('burst must be an integer >= 1');
    });
  });

  it('reads Retry-After as seconds or an HTTP date, 1 s when absent or unreadable', () => {
    expect(retryAfterMs('3')).to.equal(3000);
    expect(retryAfterMs(' 0 ')).to.equal(0);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).to.equal(6000);
    expect(retryAfterMs(undefined)).to.equal(1000);
    expect(retryAfterMs('soon')).to.equal(1000);
  });

  describe('KubeClient and 429', () => {
    let server: Server;
    let answers: Array<{ status: number; retryAfter?: string }>;
    let received = 0;
    let client: KubeClient;
    const codes: string[] = [];
    let writes = 0;

    before(async () => {
      server = createServer((req, res) => {
        received++;
        req.resume();
        const next = answers.shift() ?? { status: 200 };
        const headers: Record<string, string> = { 'Content-Type': 'application/json' };
        if (next.retryAfter !== undefined) headers['Retry-After'] = next.retryAfter;
        const body =
          next.status === 429
            ? { kind: 'Status', message: 'Too many requests, please try again later.', reason: 'TooManyRequests' }
            : { metadata: { name: 'x', namespace: 'default' } };
        res.writeHead(next.status, headers).end(JSON.stringify(body));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const kubeConfig = new KubeConfig();
      const { port } = server.address() as { port: number };
      kubeConfig.loadFromOptions({
        clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
        users: [{ name: 'u' }],
        contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
        currentContext: 'ctx',
      });
      client = new KubeClient({
        kubeConfig,
        onResponse: (_m, code) => codes.push(code),
        onWrite: () => writes++,
        timeoutMs: 2_000,
      });
    });

    beforeEach(() => {
      received = 0;
      writes = 0;
      codes.length = 0;
    });

    after(() => {
      client.close();
      server.close();
    });

    it('sends a write again after each 429 Retry-After, counting it as one write', async () => {
      answers = [{ status: 429, retryAfter: '0' }, { status: 429, retryAfter: '0' }, { status: 201 }];
      const created = await client.create(SECRETS, { metadata: { name: 'x', namespace: 'default' } });
      expect(created.metadata.name).to.equal('x');
      expect(received).to.equal(3);
      expect(codes).to.deep.equal(['429', '429', '201']);
      expect(writes).to.equal(1);
    });

    it('gives up with the 429 when its Retry-After would pass the request timeout', async () => {
      answers = [{ status: 429, retryAfter: '5' }];
      const err = await client.get(SECRETS, 'default', 'x').catch((e: unknown) => e);
      expect(err).to.be.instanceOf(KubeApiError);
      expect((err as KubeApiError).status).to.equal(429);
      expect(received).to.equal(1);
    });
  });
});
