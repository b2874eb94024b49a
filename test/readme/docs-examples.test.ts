/**
 * The docs pages' marked examples, run as written (the convention: docs-blocks.ts, docs/contributing/docs.md):
 * per page, in a new directory of its own (an app with a package.json, below one that has the packed package
 * installed), on a machine as bare as a reader's, its setup blocks run, its files written (TypeScript ones
 * typechecked strictly), its background blocks started, its run blocks run as one script against a live
 * `dsync serve`, every `expect` found in the output, and no file left behind by the run blocks.
 */
import { expect } from 'chai';
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { bash, run, waitHealthy } from '../support/cli.js';
import { until } from '../support/harness.js';
import { installPackedPackage } from '../support/packed.js';
import { docsPages, type DocsBlock, type DocsPage } from './docs-blocks.js';
import { compileStrict } from './typecheck.js';
import { freePort } from '../support/ports.js';

const API_KEY = 'docs-key';

/** Where `command` is on the test runner's PATH. */
function which(command: string): string {
  const dir = (process.env['PATH'] ?? '').split(delimiter).find((d) => d && existsSync(join(d, command)));
  if (!dir) throw new Error(`${command} is not installed`);
  return dir;
}

/**
 * A reader's machine: Debian's system directories with Node.js and Go, and nothing the test runner adds (no
 * virtualenv or pyenv, no tools of the checkout). Debian has `python3` and no `python`; its Python refuses a
 * system-wide `pip install` (PEP 668). npx does not install a missing tool on the fly (a prompt the reader would
 * have to answer counts as a missing step). What a guide needs beyond that, its setup blocks must install.
 */
async function readerEnv(): Promise<Record<string, string>> {
  const cache = process.env['DSYNC_CACHE'];
  if (!cache) throw new Error('DSYNC_CACHE is not set: run with `bash test/run.sh` (it reads test/tools.sh)');
  const shims = await mkdtemp(join(tmpdir(), 'dsync-reader-bin-'));
  process.once('exit', () => rmSync(shims, { recursive: true, force: true }));
  await writeFile(join(shims, 'python'), '#!/bin/sh\necho "bash: python: command not found" >&2\nexit 127\n', {
    mode: 0o755,
  });
  const system = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
  const go = join(process.env['DSYNC_K8S_CACHE'] ?? join(cache, 'k8s'), 'go');
  return {
    PATH: [...new Set([shims, dirname(process.execPath), which('go'), ...system])].join(delimiter),
    HOME: process.env['HOME'] ?? '/root',
    LANG: 'C.UTF-8',
    TMPDIR: tmpdir(),
    npm_config_yes: 'false',
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    // Go with the cache's module downloads (a reader's Go fetches them from the proxy).
    GOMODCACHE: join(go, 'mod'),
    GOCACHE: join(go, 'build'),
    GOTOOLCHAIN: 'local',
    GOFLAGS: '-buildvcs=false',
    // The machine's trust store, as a reader's shell here has it: npm reaches its registry through a proxy with a
    // CA of its own, which the system npm's global npmrc names for Debian's Node.js only (the suite runs npm under
    // its own Node.js builds, whose global npmrc is elsewhere). test/run.sh keeps the machine's NODE_EXTRA_CA_CERTS
    // as DSYNC_REGISTRY_CA_CERTS (its own names the tests' CA).
    ...(process.env['DSYNC_REGISTRY_CA_CERTS'] && { NODE_EXTRA_CA_CERTS: process.env['DSYNC_REGISTRY_CA_CERTS'] }),
    ...Object.fromEntries(CA_BUNDLES.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : []))),
  };
}

/** Where curl, OpenSSL and Python's requests find the machine's CAs, when it says. */
const CA_BUNDLES = ['SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE'];

/** A script of blocks, run to its end in the page's directory; a non-zero exit fails, naming the page. */
async function runScript(
  page: DocsPage,
  blocks: DocsBlock[],
  dir: string,
  env: Record<string, string>,
  what: string,
): Promise<string> {
  const script = bash(blocks.map((b) => b.code).join('\n'), env, { cwd: dir, inherit: false });
  const status = await script.exited;
  expect(status, `${page.file}:${blocks[0]!.line}: the ${what} blocks failed:\n${script.output()}`).to.equal(0);
  return script.output();
}

async function runPage(page: DocsPage, dir: string, env: Record<string, string>): Promise<void> {
  const of = <M extends DocsBlock['mode']>(mode: M) =>
    page.blocks.filter((b): b is Extract<DocsBlock, { mode: M }> => b.mode === mode);
  if (of('setup').length > 0) await runScript(page, of('setup'), dir, env, 'setup');
  for (const file of of('file')) await writeFile(join(dir, file.name), file.code);
  const typescript = of('file')
    .filter((f) => /\.m?ts$/.test(f.name))
    .map((f) => f.name);
  if (typescript.length > 0) await compileStrict(dir, typescript);

  const background = of('background').map((block) => ({
    block,
    proc: bash(block.code, env, { cwd: dir, inherit: false }),
  }));
  try {
    for (const { block, proc } of background) {
      await until(
        () => proc.output().includes(block.ready),
        () => `${page.file}:${block.line} to print "${block.ready}":\n${proc.output()}`,
        240_000,
      );
    }
    const runs = of('run');
    if (runs.length > 0) {
      // The reader's terminal is in their project (or the checkout): the commands leave no file there.
      const before = await readdir(dir);
      const output = await runScript(page, runs, dir, env, 'run');
      for (const block of runs.filter((b) => b.expect !== undefined))
        expect(output, `${page.file}:${block.line}`).to.contain(block.expect);
      const left = (await readdir(dir)).filter((f) => !before.includes(f));
      expect(
        left,
        `${page.file}:${runs[0]!.line}: the run blocks wrote files into the reader's directory`,
      ).to.deep.equal([]);
    }
    for (const { block, proc } of background.filter(({ block }) => block.expect !== undefined)) {
      await until(
        () => proc.output().includes(block.expect!),
        () => `${page.file}:${block.line} to print "${block.expect}":\n${proc.output()}`,
        60_000,
      );
    }
  } finally {
    // Gone before the page's directory is removed (their working directory).
    await Promise.all(background.map(({ proc }) => (proc.stop(), proc.exited)));
  }
}

describe('Docs: the marked examples run as written (against a live dsync serve)', function () {
  this.timeout(600_000);
  const pages = docsPages();
  const stop: Array<() => void> = [];
  let app: string;
  let env: Record<string, string>;

  before(async () => {
    ({ app } = await installPackedPackage());
    const port = await freePort();
    const server = run('node', ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      PORT: String(port),
      METRICS_PORT: '0',
      DSYNC_API_KEYS: API_KEY,
    });
    stop.push(() => server.child.kill('SIGTERM'));
    await waitHealthy(port, server);
    env = { ...(await readerEnv()), DSYNC: `http://localhost:${port}`, KEY: API_KEY };
  });
  after(() => stop.forEach((s) => s()));

  it('finds the marked pages (the webhook receivers at least)', () => {
    expect(pages.map((p) => p.file)).to.include.members([
      'docs/guides/webhooks/go.md',
      'docs/guides/webhooks/python.md',
      'docs/guides/webhooks/typescript.md',
    ]);
  });

  for (const page of pages) {
    it(`${page.file}: ${page.blocks.length} blocks`, async () => {
      // A new app of the reader's: what it installs goes in its own node_modules; the package is found above it.
      const dir = await mkdtemp(join(app, 'docs-'));
      await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'reader-app', private: true }, null, 2));
      try {
        await runPage(page, dir, { ...env, WEBHOOK_PORT: String(await freePort()) });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});
