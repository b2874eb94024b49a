/**
 * The chart steps of the release procedure (docs/contributing/releasing.md), run as the page writes them: package
 * the chart, push it to an OCI registry, show it from there, sign it with cosign and verify the signature. The
 * registry is CNCF Distribution on loopback (plain HTTP) and cosign runs offline (no transparency log): small
 * wrappers add those flags, nothing else of the commands changes. A signature by another key must not verify.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '../support/harness.js';
import { blocksOf } from '../readme/readme-blocks.js';
import { CHART_DIR, helmPageCommand, helms, ok, parseObjects, REPO_DIR, run, toolBinary } from './helm-tools.js';
import { freePort } from '../support/ports.js';

describe('Releasing: the chart pushed to an OCI registry, signed and verified as the release page says', function () {
  this.timeout(180_000);
  let work: string;
  let registryUrl: string;
  let stopRegistry: () => void = () => {};
  let env: NodeJS.ProcessEnv;

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'dsync-release-'));
    const port = await freePort();
    registryUrl = `127.0.0.1:${port}`;
    await writeFile(
      join(work, 'registry.yml'),
      `version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: ${join(work, 'registry-data')}\nhttp:\n  addr: ${registryUrl}\nlog:\n  level: warn\n`,
    );
    const registry = spawn(toolBinary('registry'), ['serve', join(work, 'registry.yml')], { stdio: 'ignore' });
    stopRegistry = () => registry.kill();
    await until(
      async () => (await fetch(`http://${registryUrl}/v2/`).catch(() => null))?.ok === true,
      'the registry to answer',
      20_000,
    );

    // The checkout's chart and package.json in a scratch directory: the steps write dist/ and keys there.
    await cp(CHART_DIR, join(work, 'charts/dsync'), { recursive: true });
    await cp(join(REPO_DIR, 'package.json'), join(work, 'package.json'));
    const bin = join(work, 'bin');
    await mkdir(bin);
    const [helm] = helms();
    await writeFile(
      join(bin, 'helm'),
      `#!/usr/bin/env bash\ncase "$1" in push|show|pull|template) exec ${helm!.bin} "$@" --plain-http ;; *) exec ${helm!.bin} "$@" ;; esac\n`,
      { mode: 0o755 },
    );
    const cosign = toolBinary('cosign');
    await writeFile(
      join(bin, 'cosign'),
      `#!/usr/bin/env bash\ncase "$1" in\n  sign) exec ${cosign} "$@" --tlog-upload=false --use-signing-config=false --allow-http-registry ;;\n  verify) exec ${cosign} "$@" --insecure-ignore-tlog --allow-http-registry ;;\n  *) exec ${cosign} "$@" ;;\nesac\n`,
      { mode: 0o755 },
    );
    env = {
      PATH: `${bin}:${process.env['PATH']}`,
      HOME: work,
      DOCKER_CONFIG: join(work, 'docker'),
      HELM_CACHE_HOME: join(work, 'helm-cache'),
      HELM_CONFIG_HOME: join(work, 'helm-config'),
      HELM_DATA_HOME: join(work, 'helm-data'),
      COSIGN_PASSWORD: 'release-test',
    };
    for (const key of ['cosign', 'other']) {
      await mkdir(join(work, key));
      await ok(cosign, ['generate-key-pair'], { env, cwd: join(work, key) });
    }
    await cp(join(work, 'cosign/cosign.key'), join(work, 'cosign.key'));
    await cp(join(work, 'cosign/cosign.pub'), join(work, 'cosign.pub'));
  });

  after(async () => {
    stopRegistry();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('packages, pushes, shows, signs and verifies the chart; a signature by another key does not verify', async () => {
    const [versions] = blocksOf('release-versions');
    expect(versions!.code, 'the placeholder registry of the page').to.contain('REGISTRY=registry.example.com/dsync');
    const script = [
      'set -euo pipefail',
      versions!.code.replace('registry.example.com/dsync', `${registryUrl}/dsync`),
      ...blocksOf('release-chart').map((b) => b.code),
      ...blocksOf('release-sign').map((b) => b.code),
      'echo "CHART_DIGEST=$CHART_DIGEST"',
    ].join('\n');
    const result = await run('bash', ['-c', script], { env, cwd: work });
    expect(result.code, result.stderr + result.stdout).to.equal(0);
    expect(result.stdout)
      .to.match(/^name: dsync$/m)
      .and.to.match(/^apiVersion: v2$/m);
    const digest = /^CHART_DIGEST=(sha256:[0-9a-f]{64})$/m.exec(result.stdout)?.[1];
    expect(digest, result.stdout).to.be.a('string');
    expect(result.stderr).to.contain('The signatures were verified against the specified public key');

    const reference = `${registryUrl}/dsync/charts/dsync@${digest}`;
    const other = await run('cosign', ['verify', '--key', join(work, 'other/cosign.pub'), reference], {
      env,
      cwd: work,
    });
    expect(other.code, 'verified with a key that did not sign it').to.not.equal(0);
    expect(other.stderr).to.match(/no matching (signatures|attestations)/, other.stderr);
  });

  it("renders the pushed chart with the Install with Helm page's helm install (oci://$REGISTRY/charts/dsync, the image from $REGISTRY)", async () => {
    const install = helmPageCommand('helm install', { REGISTRY: `${registryUrl}/dsync` });
    expect(install.slice(0, 3)).to.deep.equal(['helm', 'install', 'dsync']);
    expect(install[3]).to.equal(`oci://${registryUrl}/dsync/charts/dsync`);
    const result = await run('helm', ['template', ...install.slice(2)], { env, cwd: work });
    expect(result.code, result.stderr).to.equal(0);
    const appVersion = /^appVersion: "?([^"\n]+)"?$/m.exec(
      await ok('helm', ['show', 'chart', install[3]!], { env, cwd: work }),
    )![1];
    const images = parseObjects(result.stdout)
      .filter((o) => o.kind === 'Deployment')
      .map(
        (o) =>
          (o as unknown as { spec: { template: { spec: { containers: Array<{ image: string }> } } } }).spec.template
            .spec.containers[0]!.image,
      );
    expect(images).to.deep.equal([
      `${registryUrl}/dsync/dsync:${appVersion}`,
      `${registryUrl}/dsync/dsync:${appVersion}`,
    ]);
  });
});
