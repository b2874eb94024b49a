/**
 * What the npm package holds: the built service and client, the CRDs and assets, and nothing only a build
 * needs (the generators of committed files live in scripts/, which is not shipped).
 */
import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { installPackedPackage } from '../support/packed.js';

function files(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.name === 'node_modules'
      ? []
      : e.isDirectory()
        ? files(join(dir, e.name), root)
        : [relative(root, join(dir, e.name))],
  );
}

describe('the npm package', function () {
  this.timeout(180_000);

  it('ships the built service, the client and the CRD, and no generator of committed files', async () => {
    const { dir } = await installPackedPackage();
    const shipped = files(dir);
    expect(shipped).to.include.members([
      'package.json',
      'dist/cli.js',
      'dist/client/index.js',
      'crds/dsync.io_directoryconnections.yaml',
    ]);
    expect(
      shipped.filter((f) => /(^|\/)generate[^/]*\.(js|ts|d\.ts)$/.test(f) || f.startsWith('scripts/')),
    ).to.deep.equal([]);
    expect(shipped.filter((f) => f.startsWith('dist/')).length).to.be.above(100);
  });
});
