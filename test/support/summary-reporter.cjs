// Mocha's spec reporter plus one plain closing line, `N passed, N failed`, that CI reads in any language, with
// one `failed: <test> (<file>): <first line of the error>` line per failure just above it: CI often keeps only
// the tail of a long run, and mocha's own failure list is far above it (test/support/sum-summaries.sh repeats
// these lines at the very end).
// Before that line, the test-count guard (block-guard.cjs): a known block of tests that a spec file of the run
// no longer defines is named, and counted as a failure (so the exit status is non-zero too).
// It also ends a run that something left open: a server, socket or timer a test forgot to close keeps mocha
// (which does not force an exit) alive after the last test, and CI then waits until its own time limit. The
// leftovers are named, then the process exits with mocha's status.
'use strict';
const Mocha = require('mocha');
const { relative } = require('node:path');
const { missingBlocks, MANIFEST } = require('./block-guard.cjs');

const GRACE_MS = 10_000;

/**
 * Where each interval and each timeout of a second or more was set, so a timer still pending after the last test
 * can be named by the line that started it (a timer is not among process._getActiveHandles()).
 */
const timers = new Map();
function track(name) {
  const original = global[name];
  global[name] = function (fn, ms, ...args) {
    const timer = original.call(this, fn, ms, ...args);
    if (name === 'setInterval' || ms >= 1000) {
      timers.set(timer, `${name}(${ms} ms) set\n${new Error().stack.split('\n').slice(2, 6).join('\n')}`);
      // Fired and cleared timers go, so the map holds no closure alive for long.
      if (timers.size % 1000 === 0) for (const t of timers.keys()) if (t._destroyed) timers.delete(t);
    }
    return timer;
  };
}
track('setInterval');
track('setTimeout');

/**
 * Each ioredis client, with the test (or hook) that first connected it: a client a test forgot to close keeps
 * reconnecting to a server the test stopped, and only its creator can be told apart.
 */
let current = '(outside any test)';
const clients = [];
try {
  const { Redis } = require(require.resolve('ioredis', { paths: [process.cwd()] }));
  const connect = Redis.prototype.connect;
  Redis.prototype.connect = function (...args) {
    if (!this.__openedIn) {
      this.__openedIn = current;
      clients.push(new WeakRef(this));
    }
    return connect.apply(this, args);
  };
} catch {
  // no ioredis in this project: nothing to watch
}

function openClients() {
  const out = [];
  for (const ref of clients) {
    const c = ref.deref();
    if (c && c.status !== 'end')
      out.push(`ioredis client of ${c.options.host}:${c.options.port} (${c.status}), connected in "${c.__openedIn}"`);
  }
  return out;
}

function pendingTimers() {
  const out = [];
  for (const [timer, where] of timers) if (!timer._destroyed && timer.hasRef()) out.push(where);
  return out;
}

/** One line per open handle that keeps the process alive: what it is and where it points. */
function openHandles() {
  return process._getActiveHandles().map((h) => {
    const kind = h.constructor ? h.constructor.name : typeof h;
    if (h === process.stdout || h === process.stderr || h === process.stdin) return `${kind} (stdio)`;
    if (kind === 'ChildProcess') return `${kind} pid ${h.pid}: ${(h.spawnargs || []).join(' ').slice(0, 200)}`;
    if (typeof h.address === 'function' && !h.remoteAddress)
      return `${kind} listening on ${JSON.stringify(h.address())}`;
    if (h.remoteAddress) return `${kind} to ${h.remoteAddress}:${h.remotePort}`;
    return kind;
  });
}

/** One line naming a failed test or hook, its spec file and the first line of its error. */
function failureLine(test, err) {
  const file = test.file ? ` (${relative(process.cwd(), test.file)})` : '';
  const message = String((err && (err.message || err)) || 'failed')
    .split('\n')[0]
    .slice(0, 300);
  return `failed: ${test.fullTitle()}${file}: ${message}`;
}

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const { EVENT_TEST_BEGIN, EVENT_HOOK_BEGIN, EVENT_TEST_FAIL } = Mocha.Runner.constants;
    const failed = [];
    runner.on(EVENT_TEST_BEGIN, (test) => (current = test.fullTitle()));
    runner.on(EVENT_TEST_FAIL, (test, err) => failed.push(failureLine(test, err)));
    runner.on(EVENT_HOOK_BEGIN, (hook) => (current = hook.fullTitle()));
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const missing = missingBlocks(runner.suite);
      if (missing.length > 0) {
        // Registered before mocha's own end handler, which exits with runner.failures.
        runner.failures += missing.length;
        runner.stats.failures += missing.length;
        process.stdout.write(
          `\nKNOWN TESTS MISSING: ${missing.length} block(s) of ${relative(process.cwd(), MANIFEST)} defined fewer tests than it knows ` +
            `(a tool or service the loop runs over missing? e.g. Helm 4: bash test/k8s/helm.sh build):\n` +
            `${missing.map((m) => `  ${m}`).join('\n')}\n`,
        );
      }
      const { passes, failures, pending } = runner.stats;
      process.stdout.on('drain', () => {});
      setImmediate(() => {
        if (failed.length > 0) process.stdout.write(`\n${failed.join('\n')}\n`);
        process.stdout.write(`\ntests: ${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}\n`);
      });
      setTimeout(() => {
        const left = [...openHandles().filter((h) => !h.endsWith('(stdio)')), ...pendingTimers(), ...openClients()];
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
