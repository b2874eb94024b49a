// The test-count guard: blocks of tests that a loop generates (one per store, Redis topology, Helm major...)
// can vanish without a trace when what the loop runs over comes up short on some machine (Helm 4 not built
// made 18 tests disappear, 1,095 passed instead of 1,113, and the run was green). test/known-blocks.json lists
// such blocks with the number of tests each had; when a spec file of the run defines fewer tests in one of its
// blocks, the run fails and says which. Files the run did not load are not checked, so a part of the suite
// (`bash test/run.sh test/integration/foo.test.ts`) runs as before.
'use strict';
const { readFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const MANIFEST = join(__dirname, '..', 'known-blocks.json');

/** `{ file: { blockTitle: minTests } }` from the manifest (keys starting with "//" are comments). */
function knownBlocks() {
  const raw = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  return Object.fromEntries(Object.entries(raw).filter(([file]) => !file.startsWith('//')));
}

/** Tests each block (a suite's full title) defines itself, and the spec files loaded, relative to `cwd`. */
function definedBlocks(root, cwd) {
  const counts = new Map();
  const files = new Set();
  (function walk(suite) {
    if (suite.file) files.add(relative(cwd, suite.file));
    if (!suite.root && suite.tests.length > 0)
      counts.set(suite.fullTitle(), (counts.get(suite.fullTitle()) ?? 0) + suite.tests.length);
    for (const child of suite.suites) walk(child);
  })(root);
  return { counts, files };
}

/** One line per known block that a loaded spec file defines fewer tests in than the manifest says. */
function missingBlocks(root, cwd = process.cwd()) {
  const { counts, files } = definedBlocks(root, cwd);
  const missing = [];
  for (const [file, blocks] of Object.entries(knownBlocks())) {
    if (!files.has(file)) continue;
    for (const [title, min] of Object.entries(blocks)) {
      const found = counts.get(title) ?? 0;
      if (found < min) missing.push(`${file}: "${title}" defines ${found} test(s), the manifest knows ${min}`);
    }
  }
  return missing;
}

module.exports = { missingBlocks, MANIFEST };
