// The test-count guard of the summary reporter: a known block that a loaded spec file defines fewer tests in
// is reported; files the run did not load are not checked.
import { expect } from 'chai';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Mocha from 'mocha';

const require = createRequire(import.meta.url);
const { missingBlocks } = require('../support/block-guard.cjs') as {
  missingBlocks: (root: Mocha.Suite, cwd: string) => string[];
};

const CHART = 'Helm chart (helm lint, template, install against a real kube-apiserver)';
/** What the manifest knows of the chart's helm3 block (the same for helm4). */
const KNOWN = (require('../known-blocks.json') as Record<string, Record<string, number>>)['test/k8s/chart.test.ts']![
  `${CHART} helm3`
]!;

/** A root suite holding the chart file's blocks, as mocha builds it, with `n` tests in each named block. */
function runOf(file: string, blocks: Record<string, number>): Mocha.Suite {
  const root = new Mocha.Suite('', new Mocha.Context());
  root.root = true;
  const top = Mocha.Suite.create(root, CHART);
  top.file = join('/repo', file);
  for (const [name, n] of Object.entries(blocks)) {
    const block = Mocha.Suite.create(top, name);
    block.file = top.file;
    for (let i = 0; i < n; i++) block.addTest(new Mocha.Test(`test ${i}`, () => undefined));
  }
  return root;
}

describe('test-count guard (test/known-blocks.json)', () => {
  it('passes a run that defines every known block of its files', () => {
    expect(missingBlocks(runOf('test/k8s/chart.test.ts', { helm3: KNOWN, helm4: KNOWN }), '/repo')).to.deep.equal([]);
  });

  it('names a known block that vanished (Helm 4 not built) or came up short', () => {
    expect(missingBlocks(runOf('test/k8s/chart.test.ts', { helm3: KNOWN }), '/repo')).to.deep.equal([
      `test/k8s/chart.test.ts: "${CHART} helm4" defines 0 test(s), the manifest knows ${KNOWN}`,
    ]);
    expect(missingBlocks(runOf('test/k8s/chart.test.ts', { helm3: KNOWN - 1, helm4: KNOWN }), '/repo')).to.have.length(
      1,
    );
  });

  it('does not check the files a run did not load (a part of the suite)', () => {
    expect(missingBlocks(runOf('test/k8s/other.test.ts', {}), '/repo')).to.deep.equal([]);
  });
});
