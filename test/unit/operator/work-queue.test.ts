import { expect } from 'chai';
import { WorkQueue } from '../../../src/operator/controller/work-queue.js';
import { InvalidOptionError } from '../../../src/operator/errors.js';

const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('WorkQueue', () => {
  it('queues a key once however often it is added, in FIFO order', async () => {
    let adds = 0;
    const q = new WorkQueue({ hooks: { added: () => adds++ } });
    for (const key of ['a', 'b', 'a', 'c', 'b']) q.add(key);
    expect(q.length).to.equal(3);
    expect(adds).to.equal(5);
    expect([await q.get(), await q.get(), await q.get()]).to.deep.equal(['a', 'b', 'c']);
  });

  it('never hands a key being processed to a second worker; an add meanwhile re-queues it on done', async () => {
    const q = new WorkQueue();
    q.add('a');
    const key = await q.get();
    q.add('a');
    expect(q.length).to.equal(0);
    let second: string | undefined;
    void q.get().then((k) => (second = k));
    await tick();
    expect(second).to.equal(undefined);
    q.done(key!);
    await tick();
    expect(second).to.equal('a');
  });

  it('hands an added key straight to a waiting worker', async () => {
    const q = new WorkQueue();
    const waiting = q.get();
    q.add('x');
    expect(await waiting).to.equal('x');
    expect(q.length).to.equal(0);
  });

  it('backs off per key exponentially, capped, and forgets on success', async () => {
    const q = new WorkQueue({ baseDelayMs: 10, maxDelayMs: 40 });
    /** The delay addRateLimited schedules (the timer it sets), not how late a loaded machine fires it. */
    const backoff = (key: string): number => {
      const real = globalThis.setTimeout;
      let scheduled = NaN;
      globalThis.setTimeout = ((fn: () => void, ms: number) => {
        scheduled = ms;
        return real(fn, ms);
      }) as typeof setTimeout;
      try {
        q.addRateLimited(key);
      } finally {
        globalThis.setTimeout = real;
      }
      return scheduled;
    };
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      const t0 = performance.now();
      delays.push(backoff('k'));
      const key = await q.get();
      // Never handed out before its backoff (a timer fires late on a loaded machine, never early).
      expect(performance.now() - t0, `wait ${i + 1}`).to.be.at.least(delays[i]! - 1);
      q.done(key!);
    }
    expect(q.numRequeues('k')).to.equal(4);
    expect(delays).to.deep.equal([10, 20, 40, 40]); // 40: the cap
    q.forget('k');
    expect(q.numRequeues('k')).to.equal(0);
    expect(backoff('k'), 'after forget, from the base again').to.equal(10);
  });

  it('keeps the earliest of two delayed adds of a key', async () => {
    const q = new WorkQueue();
    q.addAfter('k', 5_000);
    q.addAfter('k', 10);
    q.addAfter('k', 5_000);
    const t0 = Date.now();
    expect(await q.get()).to.equal('k');
    expect(Date.now() - t0).to.be.below(1_000);
  });

  it('reports depth and retries through its hooks', async () => {
    const depths: number[] = [];
    let retries = 0;
    const q = new WorkQueue({ baseDelayMs: 1, hooks: { depth: (d) => depths.push(d), retried: () => retries++ } });
    q.add('a');
    q.add('b');
    await q.get();
    q.addRateLimited('c');
    expect(depths.slice(0, 3)).to.deep.equal([1, 2, 1]);
    expect(retries).to.equal(1);
  });

  it('idle() waits for queued and in-flight keys', async () => {
    const q = new WorkQueue();
    q.add('a');
    let idle = false;
    void q.idle().then(() => (idle = true));
    const key = await q.get();
    await tick();
    expect(idle).to.equal(false);
    q.done(key!);
    await tick();
    expect(idle).to.equal(true);
  });

  it('shutDown releases waiting workers and drops pending delays', async () => {
    const q = new WorkQueue();
    const waiting = q.get();
    q.addAfter('later', 50);
    q.shutDown();
    expect(await waiting).to.equal(undefined);
    q.add('x');
    expect(q.length).to.equal(0);
    expect(await q.get()).to.equal(undefined);
  });

  it('rejects bad options, naming them', () => {
    expect(() => new WorkQueue({ baseDelayMs: 0 })).to.throw(InvalidOptionError, 'baseDelayMs must be > 0');
    expect(() => new WorkQueue({ baseDelayMs: 10, maxDelayMs: 5 })).to.throw(InvalidOptionError, 'maxDelayMs');
  });
});
