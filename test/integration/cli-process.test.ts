/**
 * The `dsync serve` process as users start it: taken ports give one line naming the variable, METRICS_PORT=0
 * turns metrics off, and SIGTERM/SIGINT to the process that was started (npm, node) stops the server
 * gracefully: in-flight requests finish, the store closes, the ports are free and the exit status is 0. While it
 * drains, /readyz answers 503 and a kept-alive client's next request is answered, with `Connection: close`.
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisUrl } from '../support/services.js';
import { STORE_KINDS, until, type StoreKind } from '../support/harness.js';
import { run, waitHealthy, type Running } from '../support/cli.js';
import { installPackedPackage } from '../support/packed.js';
import { freePort, occupy, portIsFree } from '../support/ports.js';

const KEY = 'cli-test-key';
const storeEnv = (kind: StoreKind): Record<string, string> =>
  kind === 'memory' ? { DSYNC_API_KEYS: KEY } : { DSYNC_API_KEYS: KEY, REDIS_URL: `${redisUrl()}/9` };

/** A kubeconfig naming a cluster nobody listens on: the operator must fail on its port before it gets that far. */
async function unreachableKubeconfig(dir: string): Promise<string> {
  const file = join(dir, 'kubeconfig');
  await writeFile(
    file,
    'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\n' +
      'users: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
  );
  return file;
}

/** The stack-free, single-line error the CLI must print for a taken port. */
function expectPortError(output: string, variable: string, port: number): void {
  const lines = output.trim().split('\n');
  expect(lines.at(-1)).to.equal(
    `dsync: ${variable}=${port} is already in use (another process listens on it); set ${variable} to a free port`,
  );
  expect(output).not.to.match(/\n\s+at /);
}

/** GET `path` through `agent`: its answer, and whether it went on a connection kept alive from before. */
function get(
  port: number,
  path: string,
  agent: Agent | false,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string; reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body, reusedSocket: req.reusedSocket }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Starts a POST and sends half its body: the request is in flight until `finish` is called. */
function halfSentCreate(port: number): {
  finish(): void;
  response: Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>;
} {
  const body = JSON.stringify({ name: 'In flight', tenant: 'acme', product: 'cli', type: 'okta-scim-v2' });
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/v1/directory-sync',
    headers: {
      authorization: `Api-Key ${KEY}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    },
  });
  const response = new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 10));
  req.flushHeaders();
  return { finish: () => req.end(body.slice(10)), response };
}

describe('dsync serve as a process (real CLI)', function () {
  this.timeout(120_000);
  const started: Running[] = [];
  const holders: { close(cb: () => void): void }[] = [];
  afterEach(async () => {
    // SIGTERM, not SIGKILL: npm must pass it on, or its dsync child would outlive the test holding its ports.
    for (const proc of started)
      if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGTERM');
    await Promise.all(started.splice(0).map((p) => p.exited));
    for (const h of holders.splice(0)) await new Promise<void>((r) => h.close(() => r()));
  });
  const spawnCli = (
    command: string,
    args: string[],
    env: Record<string, string>,
    options: { detached?: boolean } = {},
  ) => {
    const proc = run(command, args, env, options);
    started.push(proc);
    return proc;
  };

  it('names PORT in one line when the HTTP port is taken, and exits 1', async () => {
    const port = await freePort();
    holders.push(await occupy(port));
    const proc = spawnCli('node', ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      PORT: String(port),
      METRICS_PORT: '0',
    });
    expect(await proc.exited).to.equal(1);
    expectPortError(proc.output(), 'PORT', port);
  });

  it('a second `npm start` with only PORT changed says METRICS_PORT is taken', async () => {
    const [port1, port2, metrics] = [await freePort(), await freePort(), await freePort()];
    const first = spawnCli('npm', ['start', '--silent'], { PORT: String(port1), METRICS_PORT: String(metrics) });
    await waitHealthy(port1, first);
    const second = spawnCli('npm', ['start', '--silent'], { PORT: String(port2), METRICS_PORT: String(metrics) });
    expect(await second.exited).to.equal(1);
    expectPortError(second.output(), 'METRICS_PORT', metrics);
    expect(await portIsFree(port2), 'the second process released PORT').to.equal(true);
    first.child.kill('SIGTERM');
    expect(await first.exited).to.equal(0);
  });

  it('names METRICS_PORT when the operator cannot bind it', async () => {
    const metrics = await freePort();
    holders.push(await occupy(metrics));
    const dir = await mkdtemp(join(tmpdir(), 'dsync-cli-'));
    try {
      const proc = spawnCli('node', ['--import', 'tsx', 'src/cli.ts', 'operator'], {
        METRICS_PORT: String(metrics),
        REDIS_URL: `${redisUrl()}/9`,
        KUBECONFIG: await unreachableKubeconfig(dir),
      });
      expect(await proc.exited).to.equal(1);
      expectPortError(proc.output(), 'METRICS_PORT', metrics);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('METRICS_PORT=0 runs without a metrics listener', async () => {
    const port = await freePort();
    const proc = spawnCli('node', ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      PORT: String(port),
      METRICS_PORT: '0',
      DSYNC_API_KEYS: KEY,
    });
    await waitHealthy(port, proc);
    expect(proc.output()).to.contain('"metricsPort":"off"');
    proc.child.kill('SIGINT');
    expect(await proc.exited).to.equal(0);
  });

  /** Starts `npm start`, sends half a request, stops it with `stop`, and checks the stop was graceful. */
  async function stopsGracefully(kind: StoreKind, stop: (npm: Running) => void): Promise<void> {
    const [port, metrics] = [await freePort(), await freePort()];
    const proc = spawnCli(
      'npm',
      ['start'],
      { PORT: String(port), METRICS_PORT: String(metrics), ...storeEnv(kind) },
      { detached: true },
    );
    await waitHealthy(port, proc);
    const inflight = halfSentCreate(port);
    await new Promise((r) => setTimeout(r, 300)); // let the server receive the headers
    stop(proc);
    await until(
      () => proc.output().includes('shutting down'),
      () => `the server to receive the signal:\n${proc.output()}`,
      20_000,
    );
    inflight.finish();
    const res = await inflight.response;
    expect(res.status, res.body).to.equal(201);
    expect(await proc.exited, proc.output()).to.equal(0);
    expect(proc.output()).to.contain('"msg":"stopped"');
    expect(await portIsFree(port), 'PORT is free').to.equal(true);
    expect(await portIsFree(metrics), 'METRICS_PORT is free').to.equal(true);
  }

  for (const kind of STORE_KINDS) {
    it(`SIGTERM to the npm process finishes the in-flight request, closes the store and frees both ports (${kind} store)`, () =>
      // The npm process only, as a supervisor or CI job does.
      stopsGracefully(kind, (npm) => npm.child.kill('SIGTERM')));
  }

  it('Ctrl+C (SIGINT to the whole `npm start` process group) is graceful too', () =>
    stopsGracefully('memory', (npm) => process.kill(-npm.child.pid!, 'SIGINT')));

  it('SIGTERM drains: /readyz answers 503 draining, a kept-alive connection gets its next answer with Connection: close, the in-flight request finishes', async () => {
    const port = await freePort();
    const proc = spawnCli('node', ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      PORT: String(port),
      METRICS_PORT: '0',
      ...storeEnv('memory'),
    });
    await waitHealthy(port, proc);
    const keptAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const before = await get(port, '/readyz', keptAlive);
      expect(before.status).to.equal(200);
      expect(before.headers.connection).to.equal('keep-alive');
      const inflight = halfSentCreate(port);
      await new Promise((r) => setTimeout(r, 300)); // let the server receive the headers
      proc.child.kill('SIGTERM');
      await until(
        () => proc.output().includes('shutting down'),
        () => `the server to receive the signal:\n${proc.output()}`,
        20_000,
      );

      const again = await get(port, '/readyz', keptAlive);
      expect(again.reusedSocket, 'the request went on the connection kept alive from before the signal').to.equal(true);
      expect(again.status).to.equal(503);
      expect(JSON.parse(again.body)).to.deep.equal({ status: 'draining', store: 'memory' });
      expect(again.headers.connection).to.equal('close');
      // a connection opened now (a proxy that has not caught up yet) is answered too, while others drain
      const late = await get(port, '/healthz', false);
      expect(late.status).to.equal(200);
      expect(late.headers.connection).to.equal('close');

      inflight.finish();
      const created = await inflight.response;
      expect(created.status, created.body).to.equal(201);
      expect(created.headers.connection).to.equal('close');
      expect(await proc.exited, proc.output()).to.equal(0);
      expect(proc.output()).to.contain('"msg":"stopped"');
      expect(await portIsFree(port), 'PORT is free').to.equal(true);
    } finally {
      keptAlive.destroy();
    }
  });

  it('SIGTERM to `node dist/cli.js serve` (the packed package) stops the server', async function () {
    this.timeout(300_000); // builds the package once for the run
    const { dir } = await installPackedPackage();
    const [port, metrics] = [await freePort(), await freePort()];
    const proc = spawnCli('node', [join(dir, 'dist/cli.js'), 'serve'], {
      PORT: String(port),
      METRICS_PORT: String(metrics),
      DSYNC_API_KEYS: KEY,
    });
    await waitHealthy(port, proc);
    proc.child.kill('SIGTERM');
    expect(await proc.exited, proc.output()).to.equal(0);
    expect(proc.output()).to.contain('"msg":"stopped"');
    expect(await portIsFree(port)).to.equal(true);
    expect(await portIsFree(metrics)).to.equal(true);
  });
});
