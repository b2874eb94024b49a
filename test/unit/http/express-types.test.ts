/**
 * src/http/server/express-types.ts: requests and responses born with the app's prototypes (so express's per-request
 * setPrototypeOf changes nothing), and express working on them as on its own: `req.app`, trust proxy, `res.json`;
 * and V8 keeping them in fast mode (a child node with natives syntax: test/support/fast-properties-probe.ts).
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import express, { type Express } from 'express';
import { expressTypes } from '../../../src/http/server/express-types.js';

function appNamed(name: string): Express {
  const app = express();
  app.set('trust proxy', 'loopback');
  app.get('/who', (req, res) => {
    res.json({ name, sameApp: req.app === app, ip: req.ip, path: req.path, query: req.query });
  });
  return app;
}

/** The prototypes of a request and its response as they arrive, before express runs. */
interface Arrival {
  request: object;
  response: object;
}

async function serve(app: Express): Promise<{ server: Server; url: string; arrived: Arrival[] }> {
  const types = expressTypes();
  const server = createServer(types.options);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  // Built after the server listens, as the test harness does.
  types.adopt(app);
  const arrived: Arrival[] = [];
  // Registered first, so it sees each request before express touches it.
  server.on('request', (req: IncomingMessage, res: ServerResponse) =>
    arrived.push({ request: Object.getPrototypeOf(req), response: Object.getPrototypeOf(res) }),
  );
  server.on('request', app);
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrived };
}

describe('express-types: requests born with the app prototypes', () => {
  const servers: Server[] = [];
  after(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

  it('gives each request and response the app prototypes before express sees them, and express works on them', async () => {
    const [a, b] = [appNamed('a'), appNamed('b')];
    const one = await serve(a);
    const two = await serve(b);
    servers.push(one.server, two.server);

    const res = await fetch(`${one.url}/who?x=1`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(await res.json()).to.deep.equal({
      name: 'a',
      sameApp: true,
      ip: '203.0.113.7',
      path: '/who',
      query: { x: '1' },
    });
    expect(one.arrived).to.deep.equal([{ request: a.request, response: a.response }]);

    // A second server and app in the same process keep their own prototypes.
    const other = await fetch(`${two.url}/who`);
    expect(await other.json()).to.include({ name: 'b', sameApp: true });
    expect(two.arrived[0]!.request).to.equal(b.request).and.not.equal(a.request);
  });

  it('keeps requests and responses in V8 fast mode through express (property access without dictionary lookups)', async function () {
    this.timeout(30_000);
    const probe = fileURLToPath(new URL('../../support/fast-properties-probe.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--allow-natives-syntax',
      '--import',
      'tsx',
      probe,
    ]);
    expect(JSON.parse(stdout)).to.deep.equal({
      status: 200,
      requestOnArrival: true,
      responseOnArrival: true,
      requestAfter: true,
      responseAfter: true,
    });
  });
});
