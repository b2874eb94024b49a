/**
 * src/http/server/drain.ts on a real HTTP server and real sockets: while draining, requests on kept-alive connections
 * are answered
 * with `Connection: close`, an in-flight request finishes, a connection is closed only after it stayed idle (no
 * request, no byte) for idleMs, new connections are still answered, and the port closes with the last connection.
 */
import { expect } from 'chai';
import { once } from 'node:events';
import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { drainable, type Drain } from '../../../src/http/server/drain.js';
import { until } from '../../support/harness.js';

/** Long enough that timers late by a loaded machine's lag (the suite runs four processes on two cores) keep order. */
const IDLE_MS = 1_000;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  reusedSocket: boolean;
  socket: Socket;
}

describe('drain: stopping an HTTP server without failing a kept-alive client', () => {
  let server: Server;
  let drain: Drain;
  let port: number;
  let agent: Agent;
  /** Requests whose answer the test holds back, by path. */
  const held = new Map<string, () => void>();

  beforeEach(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/slow')) return void held.set(req.url, () => res.end('slow done'));
      res.end('ok');
    });
    drain = drainable(server, IDLE_MS);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
  });

  afterEach(async () => {
    agent.destroy();
    for (const release of held.values()) release();
    held.clear();
    server.closeAllConnections();
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  });

  const get = (path: string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body,
            reusedSocket: req.reusedSocket,
            socket: req.socket!,
          }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  const closed = (socket: Socket) =>
    socket.destroyed ? Promise.resolve() : once(socket, 'close').then(() => undefined);
  /** A raw connection that has sent nothing yet. */
  const rawConnection = async (): Promise<Socket> => {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    return socket;
  };

  it('answers the next request of a kept-alive connection with Connection: close, then closes the connection', async () => {
    const before = await get('/');
    expect(before.headers.connection).to.equal('keep-alive');
    const drained = drain.drain();
    expect(drain.draining).to.equal(true);
    const during = await get('/');
    expect(during.reusedSocket, 'the request went on the kept-alive connection').to.equal(true);
    expect(during.status).to.equal(200);
    expect(during.headers.connection).to.equal('close');
    await closed(during.socket);
    await drained;
    expect(server.listening).to.equal(false);
  });

  it('lets an in-flight request finish, answered with Connection: close, and resolves only after it', async () => {
    const slow = get('/slow-1');
    await until(() => held.has('/slow-1'), 'the slow request at the server');
    let done = false;
    const drained = drain.drain().then(() => (done = true));
    await sleep(IDLE_MS * 2);
    expect(done, 'drained while a request was in flight').to.equal(false);
    expect(server.listening, 'the port is open while a connection is').to.equal(true);
    held.get('/slow-1')!();
    const answer = await slow;
    expect(answer.body).to.equal('slow done');
    expect(answer.headers.connection).to.equal('close');
    await drained;
  });

  it('closes an idle connection only once it has been idle for idleMs, counted from its last response', async () => {
    const first = await get('/');
    const idleFrom = Date.now();
    const drained = drain.drain();
    await closed(first.socket);
    const idleFor = Date.now() - idleFrom;
    expect(idleFor).to.be.at.least(IDLE_MS - 20);
    expect(idleFor).to.be.below(IDLE_MS + 500);
    await drained;
  });

  it('does not close an idle connection whose client has begun its next request: that request is answered', async () => {
    const socket = await rawConnection();
    const drained = drain.drain();
    // Half a request halfway through the idle time, the rest a quarter of it past the moment the connection would
    // have been closed without that half, and a quarter before its idle time counted from the half ends: a timer
    // may fire a quarter late either way.
    await sleep(IDLE_MS / 2);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    await sleep((IDLE_MS * 3) / 4);
    expect(socket.destroyed, 'the connection was closed under a request being sent').to.equal(false);
    let text = '';
    socket.on('data', (b: Buffer) => (text += b.toString()));
    socket.write('\r\n');
    await closed(socket);
    expect(text).to.match(/^HTTP\/1\.1 200 /);
    expect(text.toLowerCase()).to.contain('connection: close');
    await drained;
  });

  it('answers a connection opened while draining, and closes the port with the last connection', async () => {
    const slow = get('/slow-2');
    await until(() => held.has('/slow-2'), 'the slow request at the server');
    const drained = drain.drain();
    // the agent's one connection is busy: a second agent opens another
    const second = await new Promise<Answer>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/', agent: new Agent({ keepAlive: true }) }, (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: '',
            reusedSocket: req.reusedSocket,
            socket: req.socket!,
          }),
        );
      });
      req.on('error', reject);
      req.end();
    });
    expect(second.status).to.equal(200);
    expect(second.headers.connection).to.equal('close');
    held.get('/slow-2')!();
    await slow;
    await drained;
    const refused = await rawConnection().then(
      (s) => (s.destroy(), 'connected'),
      (err: NodeJS.ErrnoException) => err.code,
    );
    expect(refused).to.equal('ECONNREFUSED');
  });
});
