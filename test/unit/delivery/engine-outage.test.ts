import { expect } from 'chai';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { StoreUnavailableError } from '../../../src/core/errors.js';
import { DeliveryEngine } from '../../../src/delivery/engine.js';
import { RetryPolicy } from '../../../src/delivery/retry-policy.js';
import { CallbackSink } from '../../../src/delivery/sinks.js';
import { MemoryStore } from '../../../src/store/memory.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('delivery engine during a store outage', () => {
  it('backs off its polling, logs the first failure (not every poll), survives, and resumes when the store is back', async () => {
    const store = new MemoryStore();
    let down = true;
    let polls = 0;
    const realDue = store.dueDirectories.bind(store);
    store.dueDirectories = async (now, limit) => {
      polls++;
      if (down) throw new StoreUnavailableError('Command timed out');
      return realDue(now, limit);
    };
    const lines: Array<{ msg: string; level: number }> = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const engine = new DeliveryEngine({
      store,
      sink: new CallbackSink(() => undefined),
      policy: new RetryPolicy([10]),
      logger: pino({ level: 'info' }, sink),
      realtime: true,
      pollIntervalMs: 10,
      sweepIntervalMs: 60_000,
    });
    engine.start();
    try {
      await sleep(1000);
      // Without backoff a 10 ms poll runs ~100 times a second; with it, a handful (10, 20, 40... ms apart).
      expect(polls, 'polls during a 1 s outage').to.be.within(2, 15);
      const failures = lines.filter((l) => l.msg.startsWith('delivery poll failed'));
      expect(failures, 'poll failures logged').to.have.length(1);
      down = false;
      const before = polls;
      await sleep(3000);
      expect(polls, 'polling resumed').to.be.greaterThan(before + 50);
      expect(lines.some((l) => l.msg === 'delivery poll works again')).to.equal(true);
    } finally {
      await engine.stop();
    }
  }).timeout(10_000);
});
