// The controller's one outcome switch: error → backoff retry, TerminalError → no retry, requeueAfter → timer,
// success → forget; each counted under controller_runtime_reconcile_total{result}.
import { expect } from 'chai';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { Controller, type ReconcileOutcome } from '../../../src/operator/controller/controller.js';
import { NotLeaderError, TerminalError } from '../../../src/operator/errors.js';
import { OperatorMetrics } from '../../../src/operator/metrics.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function setup(behaviour: (key: string, attempt: number) => Promise<ReconcileOutcome>) {
  const metrics = new OperatorMetrics(new Registry());
  const attempts = new Map<string, number>();
  const running = new Set<string>();
  let overlap = false;
  let maxRunning = 0;
  const controller = new Controller({
    name: 'test',
    workers: 3,
    metrics,
    logger: pino({ level: 'silent' }),
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    reconciler: {
      async reconcile(key) {
        if (running.has(key)) overlap = true;
        running.add(key);
        maxRunning = Math.max(maxRunning, running.size);
        const attempt = (attempts.get(key) ?? 0) + 1;
        attempts.set(key, attempt);
        try {
          return await behaviour(key, attempt);
        } finally {
          running.delete(key);
        }
      },
    },
  });
  const results = async () => {
    const { values } = await metrics.reconcileTotal.get();
    return Object.fromEntries(values.map((v) => [v.labels.result, v.value]));
  };
  return {
    controller,
    metrics,
    attempts,
    results,
    overlap: () => overlap,
    running: () => running.size,
    maxRunning: () => maxRunning,
  };
}

describe('Controller', () => {
  it('retries an error with backoff until it succeeds', async () => {
    const { controller, attempts, results } = setup(async (_key, attempt) => {
      if (attempt < 3) throw new Error('store down');
      return {};
    });
    controller.start();
    controller.enqueue('ns/a');
    await sleep(100);
    await controller.stop();
    expect(attempts.get('ns/a')).to.equal(3);
    expect(await results()).to.deep.equal({ error: 2, success: 1 });
  });

  it('does not retry a TerminalError', async () => {
    const { controller, attempts, metrics, results } = setup(async () => {
      throw new TerminalError('invalid spec');
    });
    controller.start();
    controller.enqueue('ns/a');
    await sleep(60);
    await controller.stop();
    expect(attempts.get('ns/a')).to.equal(1);
    expect(await results()).to.deep.equal({ error: 1 });
    expect((await metrics.terminalReconcileErrors.get()).values[0]?.value).to.equal(1);
  });

  it('does not retry a reconcile whose write was fenced off (NotLeaderError)', async () => {
    const { controller, attempts, results } = setup(async () => {
      throw new NotLeaderError();
    });
    controller.start();
    controller.enqueue('ns/a');
    await sleep(100);
    await controller.stop();
    expect(attempts.get('ns/a')).to.equal(1);
    expect(await results()).to.deep.equal({ error: 1 });
  });

  it('comes back after requeueAfterMs', async () => {
    const { controller, attempts, results } = setup(async (_key, attempt) =>
      attempt === 1 ? { requeueAfterMs: 20 } : {},
    );
    controller.start();
    controller.enqueue('ns/a');
    await sleep(80);
    await controller.stop();
    expect(attempts.get('ns/a')).to.equal(2);
    expect(await results()).to.deep.equal({ requeue_after: 1, success: 1 });
  });

  it('reconciles different keys concurrently (as many as its 3 workers), never one key twice at once', async () => {
    // Every reconcile is held until the test lets go, so what runs at once can be counted, not guessed from timing.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { controller, attempts, overlap, running, maxRunning } = setup(() => held.then(() => ({})));
    controller.start();
    for (let i = 0; i < 20; i++) controller.enqueue(`ns/${i % 4}`);
    for (let waited = 0; running() < 3 && waited < 5_000; waited += 5) await sleep(5);
    expect(running(), 'reconciles held at once').to.equal(3);
    // The same keys again while three of them are held: queued for later, never run beside themselves.
    for (let i = 0; i < 20; i++) controller.enqueue(`ns/${i % 4}`);
    await sleep(20);
    expect(running(), 'still only the three workers').to.equal(3);
    release();
    await controller.queue.idle();
    await controller.stop();
    expect(overlap()).to.equal(false);
    expect(maxRunning()).to.equal(3);
    expect([...attempts.keys()].sort()).to.deep.equal(['ns/0', 'ns/1', 'ns/2', 'ns/3']);
    // Each key ran once, and once more if it was enqueued again while it ran.
    expect(
      [...attempts.values()].every((n) => n >= 1 && n <= 2),
      JSON.stringify([...attempts]),
    ).to.equal(true);
  });

  it('ignores keys while stopped (a standby does not reconcile) and finishes in-flight work on stop', async () => {
    let finished = false;
    const { controller, attempts } = setup(async () => {
      await sleep(30);
      finished = true;
      return {};
    });
    controller.enqueue('ns/early');
    controller.start();
    controller.enqueue('ns/a');
    await sleep(5);
    await controller.stop();
    expect(finished).to.equal(true);
    expect(attempts.has('ns/early')).to.equal(false);
  });
  it('periodic resync: queues only keys not reconciled within the window, so a backlog is not doubled', async () => {
    const { controller, attempts } = setup(async () => ({}));
    controller.start();
    for (const key of ['ns/a', 'ns/b']) controller.enqueue(key);
    await controller.queue.idle();
    controller.resync(['ns/a', 'ns/b', 'ns/new'], 60_000); // a and b were just reconciled; new never was
    await controller.queue.idle();
    expect(Object.fromEntries(attempts)).to.deep.equal({ 'ns/a': 1, 'ns/b': 1, 'ns/new': 1 });
    await sleep(20);
    controller.resync(['ns/a'], 10); // older than the window now: a again; b is no longer listed
    await controller.queue.idle();
    expect(Object.fromEntries(attempts)).to.deep.equal({ 'ns/a': 2, 'ns/b': 1, 'ns/new': 1 });
    controller.resync(['ns/b'], 60_000); // b was forgotten when it was not listed: a new key to it
    await controller.queue.idle();
    expect(attempts.get('ns/b')).to.equal(2);
    await controller.stop();
  });
});
