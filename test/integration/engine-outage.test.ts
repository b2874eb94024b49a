/**
 * The delivery engine while its store is down: a RedisStore on a redis-server of this file's own, killed (every
 * command fails at once: the connection is refused) and started again with its data. The engine polls the real
 * store; the test only counts the polls.
 */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { DeliveryEngine } from '../../src/delivery/engine.js';
import { RetryPolicy } from '../../src/delivery/retry-policy.js';
import { CallbackSink } from '../../src/delivery/sinks.js';
import { logRedisConnection } from '../../src/store/redis/connection-log.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { sleep, until } from '../support/harness.js';
import { RedisServer } from '../support/redis-server.js';

describe('delivery engine during a store outage (own redis-server, killed and restarted)', function () {
  this.timeout(30_000);
  let server: RedisServer;
  let store: RedisStore;

  before(async () => {
    server = await RedisServer.start();
    store = new RedisStore(server.url);
    logRedisConnection(store, pino({ level: 'silent' })); // as a process does: connection errors go to the log
  });
  after(async () => {
    await store?.close();
    await server?.stop();
  });

  it('backs off its polling, logs the first failure (not every poll), survives, and resumes when the store is back', async () => {
    let polls = 0;
    const errors: unknown[] = [];
    const dueDirectories = store.dueDirectories.bind(store);
    store.dueDirectories = (now, limit) => {
      polls++;
      return dueDirectories(now, limit).catch((err: unknown) => {
        errors.push(err);
        throw err;
      });
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
      await until(() => polls > 5, 'the engine to poll');
      await server.kill();
      await until(() => errors.length > 0, 'a poll to fail');
      const atOutage = polls;
      await sleep(1000);
      // Refused connections fail each poll at once: a 10 ms poll would run ~100 times a second; backing off
      // (20, 40, 80... ms apart) it runs a handful. A slow machine only polls less.
      expect(polls - atOutage, 'polls during 1 s of outage').to.be.within(1, 15);
      expect(
        errors.every((e) => (e as Error).name === 'StoreUnavailableError'),
        String(errors[0]),
      ).to.equal(true);
      expect(
        lines.filter((l) => l.msg.startsWith('delivery poll failed')),
        'poll failures logged',
      ).to.have.length(1);

      await server.start();
      await until(() => lines.some((l) => l.msg === 'delivery poll works again'), 'polling to work again', 10_000);
      const before = polls;
      await until(() => polls > before + 50, 'polling at its pace again', 10_000);
    } finally {
      await engine.stop();
    }
  });
});
