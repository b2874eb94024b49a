/**
 * The test set-up itself: the Node.js the suite runs on is the image's, every tool location follows DSYNC_CACHE
 * (`.ci/run` with DSYNC_CACHE elsewhere used
 * to look for scim-sanity in ~/.cache/dsync), a missing system package is named with the command to run, and a run's
 * last lines name its failed tests.
 */
import { expect } from 'chai';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { run } from '../support/cli.js';

/** The environment without any tool location of its own, so only DSYNC_CACHE can decide. */
function envWith(extra: Record<string, string>): Record<string, string> {
  return { SCIM2_BIN: '', SCIM_SANITY_BIN: '', DSYNC_K8S_CACHE: '', DSYNC_VENV: '', ...extra };
}

describe('test set-up scripts', function () {
  this.timeout(60_000);
  let scratch: string;
  before(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'dsync-setup-'));
  });
  after(() => rm(scratch, { recursive: true, force: true }));

  it('test/tools.sh puts every tool under DSYNC_CACHE, and apiserver.sh follows it', async () => {
    const cache = join(scratch, 'cache');
    // Empty values count as unset for the script's ${VAR:-default}, like a clean CI environment.
    const tools = run(
      'bash',
      ['-c', 'source test/tools.sh; echo "$SCIM2_BIN|$SCIM_SANITY_BIN|$DSYNC_K8S_CACHE"'],
      envWith({ DSYNC_CACHE: cache }),
    );
    expect(await tools.exited).to.equal(0);
    expect(tools.output().trim()).to.equal(`${cache}/venv/bin/scim2|${cache}/venv/bin/scim-sanity|${cache}/k8s`);

    const binDir = run('bash', ['test/k8s/apiserver.sh', 'bin-dir'], envWith({ DSYNC_CACHE: cache }));
    expect(await binDir.exited).to.equal(1); // nothing built in an empty cache
    expect(binDir.output()).to.match(new RegExp(`^${cache}/k8s/v[0-9.]+-etcd-v[0-9.]+ \\(not built\\)`));
  });

  it('the suite runs on the Node.js the image is built on: the Dockerfile pins NODE_IMAGE_VERSION by digest', async () => {
    const tools = run('bash', ['-c', 'source test/tools.sh; echo "$NODE_IMAGE_VERSION"'], envWith({}));
    expect(await tools.exited).to.equal(0);
    const version = tools.output().trim();
    expect(version).to.match(/^24\.\d+\.\d+$/);
    const dockerfile = await readFile('Dockerfile', 'utf8');
    expect(dockerfile).to.match(
      new RegExp(`^ARG NODE_IMAGE=node:${version.replaceAll('.', '\\.')}-bookworm-slim@sha256:[0-9a-f]{64}$`, 'm'),
    );
    expect(dockerfile.match(/^FROM .*$/gm)).to.deep.equal(['FROM ${NODE_IMAGE} AS build', 'FROM ${NODE_IMAGE}']);
  });

  it('test/setup.sh names the apt command for a missing system package and stops', async () => {
    // A PATH holding every command of this machine except redis-*.
    const bin = join(scratch, 'bin');
    await symlinkFarm(bin, (name) => !name.startsWith('redis-'));
    const setup = run(
      'bash',
      ['test/setup.sh'],
      envWith({ PATH: bin, DSYNC_CACHE: join(scratch, 'cache'), DSYNC_SETUP_APT: 'never' }),
    );
    expect(await setup.exited).to.equal(1);
    expect(setup.output()).to.contain(
      'sudo apt-get update && sudo apt-get install -y --no-install-recommends redis-server redis-tools',
    );
    expect(setup.output()).not.to.contain('== node dependencies');
  });

  it('a run ends by naming each failed test above its summary line, and the summed summary repeats them once', async () => {
    const spec = join(scratch, 'two.test.cjs');
    await writeFile(
      spec,
      "describe('a block', () => {\n  it('passes', () => {});\n  it('fails', () => { throw new Error('boom\\nsecond line'); });\n});\n",
    );
    const mocha = run('npx', ['mocha', '--reporter', 'test/support/summary-reporter.cjs', spec], {});
    expect(await mocha.exited).to.equal(1);
    const failedLine = `failed: a block fails (${relative(process.cwd(), spec)}): boom`;
    const tail = mocha.output().trim().split('\n').slice(-3);
    expect(tail).to.deep.equal([failedLine, '', 'tests: 1 passed, 1 failed']);

    // test/run.sh's log of two shards holds a shard's line and its own repeat: the sum names it once per log.
    const log = join(scratch, 'run.log');
    await writeFile(log, `${mocha.output()}\n${failedLine}\ntests: 1 passed, 1 failed\n`);
    const sum = run('bash', ['test/support/sum-summaries.sh', log, log], {});
    expect(await sum.exited).to.equal(0);
    expect(sum.output().trim().split('\n')).to.deep.equal([failedLine, failedLine, 'tests: 2 passed, 2 failed']);
  });
});

async function symlinkFarm(dir: string, keep: (name: string) => boolean): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const seen = new Set<string>();
  for (const from of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const names = await readdir(from).catch(() => [] as string[]);
    for (const name of names) {
      if (seen.has(name) || !keep(name)) continue;
      seen.add(name);
      await symlink(join(from, name), join(dir, name));
    }
  }
}
