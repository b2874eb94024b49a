/**
 * The docs pages' marked examples, run as written (the convention: docs-blocks.ts, docs/contributing/docs.md):
 * per page, in a scratch directory of an application that has the packed package installed, its files written
 * (TypeScript ones typechecked strictly), its background blocks started, its run blocks run as one script against
 * a live `dsync serve`, and every `expect` found in the output.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bash, freePort, repoRoot, run, waitHealthy } from '../support/cli.js';
import { until } from '../support/harness.js';
import { installPackedPackage } from '../support/packed.js';
import { docsPages, type DocsBlock, type DocsPage } from './docs-blocks.js';
import { compileStrict } from './typecheck.js';

const API_KEY = 'docs-key';

/** What a reader has at hand: node and npx tsx, Python with the docs' libraries, Go with a warm module cache. */
function toolEnv(): Record<string, string> {
  const cache = process.env['DSYNC_CACHE'];
  const venv = process.env['DSYNC_DOCS_VENV'];
  if (!cache || !venv) throw new Error('DSYNC_CACHE and DSYNC_DOCS_VENV are not set: run with `bash test/run.sh` (it reads test/tools.sh)');
  if (!existsSync(join(venv, 'bin/python'))) throw new Error(`${venv} has no Python: run \`bash test/setup.sh\` (scripts/docs/site.sh install)`);
  const go = join(process.env['DSYNC_K8S_CACHE'] ?? join(cache, 'k8s'), 'go');
  return {
    PATH: `${join(venv, 'bin')}:${process.env['PATH']}`,
    GOMODCACHE: join(go, 'mod'),
    GOCACHE: join(go, 'build'),
    GOTOOLCHAIN: 'local',
    GOFLAGS: '-buildvcs=false',
  };
}

async function runPage(page: DocsPage, dir: string, env: Record<string, string>): Promise<void> {
  const of = <M extends DocsBlock['mode']>(mode: M) => page.blocks.filter((b): b is Extract<DocsBlock, { mode: M }> => b.mode === mode);
  for (const file of of('file')) await writeFile(join(dir, file.name), file.code);
  const typescript = of('file').filter((f) => /\.m?ts$/.test(f.name)).map((f) => f.name);
  if (typescript.length > 0) await compileStrict(dir, typescript);

  const background = of('background').map((block) => ({ block, proc: bash(block.code, env, { cwd: dir }) }));
  try {
    for (const { block, proc } of background) {
      await until(() => proc.output().includes(block.ready), () => `${page.file}:${block.line} to print "${block.ready}":\n${proc.output()}`, 240_000);
    }
    const runs = of('run');
    if (runs.length > 0) {
      const script = bash(runs.map((b) => b.code).join('\n'), env, { cwd: dir });
      const status = await script.exited;
      expect(status, `${page.file}:${runs[0]!.line}: the run blocks failed:\n${script.output()}`).to.equal(0);
      for (const block of runs.filter((b) => b.expect !== undefined)) expect(script.output(), `${page.file}:${block.line}`).to.contain(block.expect);
    }
    for (const { block, proc } of background.filter(({ block }) => block.expect !== undefined)) {
      await until(() => proc.output().includes(block.expect!), () => `${page.file}:${block.line} to print "${block.expect}":\n${proc.output()}`, 60_000);
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
    // `npx tsx` in a page's directory finds the checkout's tsx, as in a project that depends on it.
    await mkdir(join(app, 'node_modules/.bin'), { recursive: true });
    if (!existsSync(join(app, 'node_modules/.bin/tsx'))) await symlink(join(repoRoot, 'node_modules/.bin/tsx'), join(app, 'node_modules/.bin/tsx'));
    const port = await freePort();
    const server = run('node', ['--import', 'tsx', 'src/cli.ts', 'serve'], { PORT: String(port), METRICS_PORT: '0', DSYNC_API_KEYS: API_KEY });
    stop.push(() => server.child.kill('SIGTERM'));
    await waitHealthy(port, server);
    env = { ...toolEnv(), DSYNC: `http://localhost:${port}`, KEY: API_KEY };
  });
  after(() => stop.forEach((s) => s()));

  it('finds the marked pages (the webhook receivers at least)', () => {
    expect(pages.map((p) => p.file)).to.include.members(['docs/guides/webhooks/go.md', 'docs/guides/webhooks/python.md', 'docs/guides/webhooks/typescript.md']);
  });

  for (const page of pages) {
    it(`${page.file}: ${page.blocks.length} blocks`, async () => {
      const dir = await mkdtemp(join(app, 'docs-'));
      try {
        await runPage(page, dir, { ...env, WEBHOOK_PORT: String(await freePort()) });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});
