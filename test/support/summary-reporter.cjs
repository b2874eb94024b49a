// Mocha's spec reporter plus one plain closing line, `N passed, N failed`, that CI reads in any language.
'use strict';
const Mocha = require('mocha');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      process.stdout.on('drain', () => {});
      setImmediate(() => {
        process.stdout.write(`\ntests: ${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}\n`);
      });
    });
  }
}

module.exports = SummaryReporter;
