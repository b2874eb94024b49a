/** A request id on every HTTP request: kept or generated, echoed, in the request's logs and in a 500's body. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import { createApp } from '../../src/http/app.js';
import { createDsync, type Dsync } from '../../src/service.js';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import { API_KEY } from '../support/harness.js';

describe('request ids', () => {
  let server: Server;
  let url: string;
  let dsync: Dsync;
  let store: MemoryStore;
  let lines: Array<Record<string, any>>;

  beforeEach(async () => {
    lines = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    store = new MemoryStore();
    dsync = createDsync({ store, externalUrl: 'http://localhost' });
    server = createServer(createApp({ dsync, apiKeys: [API_KEY], logger: pino({ level: 'info' }, sink) }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await dsync.close();
  });

  const list = (headers: Record<string, string> = {}) =>
    fetch(`${url}/api/v1/directory-sync?tenant=acme&product=app`, {
      headers: { authorization: `Api-Key ${API_KEY}`, ...headers },
    });

  it('keeps a well-formed incoming X-Request-Id and echoes it', async () => {
    const res = await list({ 'x-request-id': 'trace-4bf92f3577b34da6.a3ce929d0e0e4736' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-request-id')).to.equal('trace-4bf92f3577b34da6.a3ce929d0e0e4736');
  });

  it('generates a fresh id when none is given or the given one is malformed, on every route', async () => {
    const ids = new Set<string>();
    const variants: Array<Record<string, string>> = [
      {},
      { 'x-request-id': 'has spaces and ; semicolons' },
      { 'x-request-id': 'x'.repeat(200) },
    ];
    for (const headers of variants) {
      const res = await list(headers);
      const id = res.headers.get('x-request-id');
      expect(id, JSON.stringify(headers)).to.match(/^[0-9a-f-]{36}$/);
      ids.add(id!);
    }
    expect(ids.size).to.equal(3);
    for (const path of ['/healthz', '/api/scim/v2.0/nope/Users', '/nowhere']) {
      expect((await fetch(`${url}${path}`)).headers.get('x-request-id'), path).to.match(/^[0-9a-f-]{36}$/);
    }
  });

  it('a fault answers 500 with the error instance id and the request id, both in its log line', async () => {
    // Fault injection on the real store: a bug below the API, not a client error.
    store.listDirectories = async () => {
      throw new TypeError('cannot read properties of undefined');
    };
    const res = await list({ 'x-request-id': 'req-500' });
    expect(res.status).to.equal(500);
    const body = (await res.json()) as any;
    expect(body.data).to.equal(null);
    expect(body.error).to.have.keys('message', 'code', 'id', 'requestId');
    expect(body.error).to.include({ message: 'Internal server error', code: 500, requestId: 'req-500' });
    expect(body.error.id).to.match(/^[0-9a-f-]{36}$/);
    const logged = lines.filter((l) => l.msg === 'management request failed');
    expect(logged).to.have.length(1);
    expect(logged[0]).to.include({ requestId: 'req-500', errorId: body.error.id });
    expect(JSON.stringify(logged[0]!.err)).to.include('cannot read properties of undefined');
  });

  it('a client error carries no id: nothing was logged to find', async () => {
    const res = await fetch(`${url}/api/v1/directory-sync/missing`, {
      headers: { authorization: `Api-Key ${API_KEY}` },
    });
    expect(res.status).to.equal(404);
    expect(((await res.json()) as any).error).to.deep.equal({ message: 'Directory missing not found', code: 404 });
    expect(lines.filter((l) => l.level >= 50)).to.deep.equal([]);
  });
});
