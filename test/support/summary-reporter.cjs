// Mocha's spec reporter plus one plain closing line, `N passed, N failed`, that CI reads in any language.
// It also ends a run that something left open: a server, socket or timer a test forgot to close keeps mocha
// (which does not force an exit) alive after the last test, and CI then waits until its own time limit. The
// leftovers are named, then the process exits with mocha's status.
'use strict';
const Mocha = require('mocha');

const GRACE_MS = 10_000;

/** One line per open handle that keeps the process alive: what it is and where it points. */
function openHandles() {
  return process._getActiveHandles().map((h) => {
    const kind = h.constructor ? h.constructor.name : typeof h;
    if (h === process.stdout || h === process.stderr || h === process.stdin) return `${kind} (stdio)`;
    if (kind === 'ChildProcess') return `${kind} pid ${h.pid}: ${(h.spawnargs || []).join(' ').slice(0, 200)}`;
    if (typeof h.address === 'function' && !h.remoteAddress) return `${kind} listening on ${JSON.stringify(h.address())}`;
    if (h.remoteAddress) return `${kind} to ${h.remoteAddress}:${h.remotePort}`;
    return kind;
  });
}

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      process.stdout.on('drain', () => {});
      setImmediate(() => {
        process.stdout.write(`\ntests: ${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}\n`);
      });
      setTimeout(() => {
        const left = openHandles().filter((h) => !h.endsWith('(stdio)'));
        process.stderr.write(
          `\nthe test process was still running ${GRACE_MS / 1000} s after the last test; left open by a test:\n` +
            `${left.map((h) => `  ${h}`).join('\n') || `  ${process.getActiveResourcesInfo().join(', ')}`}\n`,
        );
        process.exit(Math.min(failures, 255));
      }, GRACE_MS).unref();
    });
  }
}

module.exports = SummaryReporter;
