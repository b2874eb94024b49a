// The API client's framing on a kept-alive connection, against a real local HTTP server.
import { createServer, type Server } from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import { expect } from 'chai';
import { KubeClient, SECRETS, resourcePath } from '../../../src/operator/kube.js';

describe('KubeClient framing', () => {
  let server: Server;
  let client: KubeClient;
  const seen: Array<{ method: string; body: string; socket: unknown }> = [];

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method!, body: Buffer.concat(chunks).toString('utf8'), socket: req.socket });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ metadata: { name: 'x' } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }], // plain http: client-node wants this said
      users: [{ name: 'u' }],
      contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
      currentContext: 'ctx',
    });
    client = new KubeClient({ kubeConfig, timeoutMs: 2_000 });
  });

  after(() => {
    client.close();
    server.close();
  });

  it('frames a DELETE body (DeleteOptions), so the next request on the connection is read as one', async () => {
    const options = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' };
    await client.request('DELETE', resourcePath(SECRETS, 'default', 'x'), { body: options });
    await client.get(SECRETS, 'default', 'x');
    expect(seen.map((r) => r.method)).to.deep.equal(['DELETE', 'GET']);
    expect(JSON.parse(seen[0]!.body)).to.deep.equal(options);
    expect(seen[1]!.socket, 'the same kept-alive connection').to.equal(seen[0]!.socket);
  });
});
