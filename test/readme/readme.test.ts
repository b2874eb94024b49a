/**
 * The README's examples, run as written so they cannot drift: the first-run walkthrough against a fresh
 * `npm start` on free ports, and the Embedding and typed-client examples typechecked and run against the packed
 * package (the latter with a live server and the deliveries it signs).
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, repoRoot, run, waitHealthy, type Running } from '../support/cli.js';
import { openStore, startService, until } from '../support/harness.js';
import { installPackedPackage, packageName } from '../support/packed.js';
import { blocksOf, readmeText } from './readme-blocks.js';

const exec = promisify(execFile);

/** Runs a script with bash in its own process group, so the whole tree can be stopped. */
function bash(script: string, env: Record<string, string>): Running & { stop(): void } {
  const proc = run('bash', ['-euo', 'pipefail', '-c', script], env, { detached: true });
  return { ...proc, stop: () => proc.child.exitCode === null && process.kill(-proc.child.pid!, 'SIGTERM') };
}

describe('README: the first run, step by step (as written, on free ports)', function () {
  this.timeout(120_000);
  let scratch: string;
  const stop: Array<() => void> = [];
  before(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'dsync-readme-'));
  });
  after(async () => {
    for (const s of stop) s();
    await rm(scratch, { recursive: true, force: true });
  });

  it('steps 1 to 6 work end to end and write nothing into the checkout', async () => {
    const [port, metricsPort, webhookPort] = [await freePort(), await freePort(), await freePort()];
    const env = { PORT: String(port), METRICS_PORT: String(metricsPort), WEBHOOK_PORT: String(webhookPort), TMPDIR: scratch };

    // Step 1, after its `npm ci` (the suite's setup has run it): `npm start`, and the key it prints.
    const [service] = blocksOf('service');
    const command = service!.code.split('\n')[0]!;
    expect(command).to.equal('npm ci && npm start');
    const dsync = run('npm', ['start'], env);
    stop.push(() => dsync.child.kill('SIGTERM'));
    await waitHealthy(port, dsync);
    const key = /Generated management API key for this run: (\S+)/.exec(dsync.output())?.[1];
    expect(key, dsync.output()).to.be.a('string');

    // Step 2: the webhook receiver.
    const [receiverBlock] = blocksOf('receiver');
    const receiver = bash(receiverBlock!.code, env);
    stop.push(receiver.stop);
    await until(() => receiver.output().includes('receiving webhooks on'), () => `the receiver to start:\n${receiver.output()}`, 60_000);

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
    await until(() => /evt_\S+ {2}user\.created {2}\{"id":"[^"]+","first_name":"Ann"/.test(receiver.output()), () => `the webhook:\n${receiver.output()}`, 30_000);

    expect(existsSync(join(repoRoot, 'dir.json')), 'dir.json in the checkout').to.equal(false);
    const scratchFiles = await readdir(scratch, { recursive: true });
    expect(scratchFiles.some((f) => String(f).endsWith('dir.json')), 'dir.json went to the temp dir').to.equal(true);
  });
});

/** Strict TypeScript as an application compiles the README's examples (Node's ES modules, into out/). */
const strictConfig = () => ({
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    types: ['node'],
    typeRoots: [join(repoRoot, 'node_modules/@types')],
    outDir: 'out',
  },
});

describe('README: Embedding (typechecked and run against the packed package)', function () {
  this.timeout(300_000);

  it('compiles in strict TypeScript and runs as written', async () => {
    const [example] = blocksOf('embedding');
    expect(example!.lang).to.equal('ts');
    expect(example!.code).to.contain(`from '${packageName}'`);
    const { app } = await installPackedPackage();
    await writeFile(join(app, 'example.mts'), example!.code);
    await writeFile(join(app, 'tsconfig.json'), JSON.stringify({ ...strictConfig(), files: ['example.mts'] }));
    await exec(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', app]).catch((err: { stdout?: string }) => {
      throw new Error(`the Embedding example does not typecheck:\n${err.stdout}`);
    });
    const { stdout } = await exec(process.execPath, [join(app, 'out/example.mjs')], { cwd: app });
    expect(stdout).to.contain('caused by this request: user.created');
    expect(stdout).to.match(/^201 \{/m);
    expect(stdout).to.contain("[ 'ann@acme.io' ]");
  });
});

describe('README: the typed client and webhook helper (typechecked and run against the packed package and a live server)', function () {
  this.timeout(300_000);
  const stop: Array<() => void> = [];
  after(() => stop.forEach((s) => s()));

  it('compiles in strict TypeScript, creates a directory, and verifies the deliveries an IdP push causes', async () => {
    const [example] = blocksOf('typed-client');
    expect(example!.code).to.contain(`from '${packageName}/client'`);
    const { app } = await installPackedPackage();
    await writeFile(join(app, 'client-example.mts'), example!.code);
    await writeFile(join(app, 'tsconfig.client.json'), JSON.stringify({ ...strictConfig(), files: ['client-example.mts'] }));
    await exec(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', join(app, 'tsconfig.client.json')]).catch((err: { stdout?: string }) => {
      throw new Error(`the typed-client example does not typecheck:\n${err.stdout}`);
    });

    const [port, webhookPort] = [await freePort(), await freePort()];
    const server = run('node', ['--import', 'tsx', 'src/cli.ts', 'serve'], { PORT: String(port), METRICS_PORT: '0', DSYNC_API_KEYS: 'readme-key' });
    stop.push(() => server.child.kill('SIGTERM'));
    await waitHealthy(port, server);
    const client = run(process.execPath, [join(app, 'out/client-example.mjs')], { DSYNC_URL: `http://localhost:${port}`, DSYNC_API_KEY: 'readme-key', WEBHOOK_PORT: String(webhookPort) });
    stop.push(() => client.child.kill('SIGTERM'));
    await until(() => client.output().includes('users so far: 0'), () => `the example to create its directory:\n${client.output()}`, 60_000);
    const [, endpoint, token] = /SCIM endpoint for the IdP: (\S+) token: (\S+)/.exec(client.output())!;
    const scim = async (path: string, body: unknown) =>
      (await (await fetch(`${endpoint}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' }, body: JSON.stringify(body) })).json()) as { id: string };
    const ann = await scim('/Users', { userName: 'ann@acme.io', emails: [{ value: 'ann@acme.io', primary: true }] });
    await scim('/Groups', { displayName: 'Engineering', members: [{ value: ann.id }] });
    await until(() => client.output().includes('ann@acme.io joined Engineering'), () => `the verified deliveries:\n${client.output()}`, 30_000);
    expect(client.output()).to.contain(`user.created ${ann.id}`);
  });
});

describe("README: the management API's documented messages", () => {
  it('the field error quoted in the README is the one the API answers', async () => {
    const quoted = /400 with a message naming the field \(`([^`]+)`/.exec(readmeText())?.[1];
    expect(quoted, 'the README quotes an example message').to.be.a('string');
    const svc = await startService(await openStore('memory'));
    try {
      const res = await svc.api('POST', '/api/v1/directory-sync', { name: 'Acme', tenant: 'acme:eu', product: 'app', type: 'okta-scim-v2' });
      expect(res.status).to.equal(400);
      expect(res.body.error.message).to.equal(quoted);
    } finally {
      await svc.close();
    }
  });
});
