/**
 * The examples that have a test of their own, run as written so they cannot drift: the README's first-run
 * walkthrough against a fresh `npm start` on free ports, and the Embedding guide's and the HTTP API guide's
 * typed-client examples typechecked and run against the packed package (the latter with a live server and the
 * deliveries it signs). Each is found by its `<!-- readme-test: <role> -->` marker, wherever it lives.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bash, repoRoot, run, waitHealthy } from '../support/cli.js';
import { openStore, startService, until } from '../support/harness.js';
import { installPackedPackage, packageName } from '../support/packed.js';
import { blocksOf, docsText } from './readme-blocks.js';
import { compileStrict } from './typecheck.js';
import { freePort } from '../support/ports.js';

const exec = promisify(execFile);

describe('README: the first run, step by step (as written, on free ports)', function () {
  this.timeout(120_000);
  let scratch: string;
  // Each stops a process and resolves once it has exited: the scratch directory is its TMPDIR, and a process
  // still writing there (Node 24's compile cache) makes removing it fail with ENOTEMPTY.
  const stop: Array<() => Promise<unknown>> = [];
  before(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'dsync-readme-'));
  });
  after(async () => {
    await Promise.all(stop.map((s) => s()));
    await rm(scratch, { recursive: true, force: true });
  });

  it('steps 1 to 6 work end to end and write nothing into the checkout', async () => {
    const [port, metricsPort, webhookPort] = [await freePort(), await freePort(), await freePort()];
    const env = {
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      WEBHOOK_PORT: String(webhookPort),
      TMPDIR: scratch,
    };

    // Step 1, after its `npm ci` (the suite's setup has run it): `npm start`, and the key it prints.
    const [service] = blocksOf('service');
    const command = service!.code.split('\n')[0]!;
    expect(command).to.equal('npm ci && npm start');
    const dsync = run('npm', ['start'], env);
    stop.push(() => (dsync.child.kill('SIGTERM'), dsync.exited));
    await waitHealthy(port, dsync);
    const key = /Generated management API key for this run: (\S+)/.exec(dsync.output())?.[1];
    expect(key, dsync.output()).to.be.a('string');

    // Step 2: the webhook receiver.
    const [receiverBlock] = blocksOf('receiver');
    const receiver = bash(receiverBlock!.code, env);
    stop.push(() => (receiver.stop(), receiver.exited));
    await until(
      () => receiver.output().includes('receiving webhooks on'),
      () => `the receiver to start:\n${receiver.output()}`,
      60_000,
    );

    // Steps 3 to 5 in one terminal, the key pasted where the README says so.
    const script = blocksOf('client')
      .map((b) => b.code)
      .join('\n')
      .replace('paste-the-key-here', key!);
    const client = bash(script, env);
    const status = await client.exited;
    const out = client.output();
    expect(status, out).to.equal(0);
    expect(out).to.contain(`http://localhost:${port}/api/scim/v2.0/`); // step 3: the endpoint for the IdP
    expect(out).to.match(/"userName":"ann@acme\.io"/); // step 4: the SCIM answer
    expect(out).to.match(/"data":\[\{"id":"[^"]+","first_name":"Ann","last_name":"Lee","email":"ann@acme\.io"/); // step 5

    // Step 6: the receiver printed the verified event.
    await until(
      () => /evt_\S+ {2}user\.created {2}\{"id":"[^"]+","first_name":"Ann"/.test(receiver.output()),
      () => `the webhook:\n${receiver.output()}`,
      30_000,
    );

    expect(existsSync(join(repoRoot, 'dir.json')), 'dir.json in the checkout').to.equal(false);
    const scratchFiles = await readdir(scratch, { recursive: true });
    expect(
      scratchFiles.some((f) => String(f).endsWith('dir.json')),
      'dir.json went to the temp dir',
    ).to.equal(true);
  });
});

describe('Docs, Embedding: the example (typechecked and run against the packed package)', function () {
  this.timeout(300_000);

  it('compiles in strict TypeScript and runs as written', async () => {
    const [example] = blocksOf('embedding');
    expect(example!.lang).to.equal('ts');
    expect(example!.code).to.contain(`from '${packageName}'`);
    const { app } = await installPackedPackage();
    await writeFile(join(app, 'example.mts'), example!.code);
    await compileStrict(app, ['example.mts']);
    const { stdout } = await exec(process.execPath, [join(app, 'out/example.mjs')], { cwd: app });
    expect(stdout).to.contain('caused by this request: user.created');
    expect(stdout).to.match(/^201 \{/m);
    expect(stdout).to.contain("[ 'ann@acme.io' ]");
  });
});

describe('Docs, The HTTP API: the typed client and webhook helper (typechecked and run against the packed package and a live server)', function () {
  this.timeout(300_000);
  const stop: Array<() => void> = [];
  after(() => stop.forEach((s) => s()));

  it('compiles in strict TypeScript, creates a directory, and verifies the deliveries an IdP push causes', async () => {
    const [example] = blocksOf('typed-client');
    expect(example!.code).to.contain(`from '${packageName}/client'`);
    const { app } = await installPackedPackage();
    await writeFile(join(app, 'client-example.mts'), example!.code);
    await compileStrict(app, ['client-example.mts'], 'tsconfig.client.json');

    const [port, webhookPort] = [await freePort(), await freePort()];
    const server = run('node', ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      PORT: String(port),
      METRICS_PORT: '0',
      DSYNC_API_KEYS: 'readme-key',
    });
    stop.push(() => server.child.kill('SIGTERM'));
    await waitHealthy(port, server);
    const client = run(process.execPath, [join(app, 'out/client-example.mjs')], {
      DSYNC_URL: `http://localhost:${port}`,
      DSYNC_API_KEY: 'readme-key',
      WEBHOOK_PORT: String(webhookPort),
    });
    stop.push(() => client.child.kill('SIGTERM'));
    await until(
      () => client.output().includes('users so far: 0'),
      () => `the example to create its directory:\n${client.output()}`,
      60_000,
    );
    const [, endpoint, token] = /SCIM endpoint for the IdP: (\S+) token: (\S+)/.exec(client.output())!;
    const scim = async (path: string, body: unknown) =>
      (await (
        await fetch(`${endpoint}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
          body: JSON.stringify(body),
        })
      ).json()) as { id: string };
    const ann = await scim('/Users', { userName: 'ann@acme.io', emails: [{ value: 'ann@acme.io', primary: true }] });
    await scim('/Groups', { displayName: 'Engineering', members: [{ value: ann.id }] });
    await until(
      () => client.output().includes('ann@acme.io joined Engineering'),
      () => `the verified deliveries:\n${client.output()}`,
      30_000,
    );
    expect(client.output()).to.contain(`user.created ${ann.id}`);
  });
});

describe("Docs, The HTTP API: the management API's documented messages", () => {
  it('the field error quoted on the page is the one the API answers', async () => {
    const quoted = /400 with a message naming the field \(`([^`]+)`/.exec(docsText('guides/api.md'))?.[1];
    expect(quoted, 'docs/guides/api.md quotes an example message').to.be.a('string');
    const svc = await startService(await openStore('memory'));
    try {
      const res = await svc.api('POST', '/api/v1/directory-sync', {
        name: 'Acme',
        tenant: 'acme:eu',
        product: 'app',
        type: 'okta-scim-v2',
      });
      expect(res.status).to.equal(400);
      expect(res.body.error.message).to.equal(quoted);
    } finally {
      await svc.close();
    }
  });
});
