/**
 * A process's first contact with Redis (src/core/wait-for-store.ts): a Redis that comes up a moment after the
 * service is waited for, one that stays away fails the start once the wait is over, and a refusal that waiting
 * cannot mend (a wrong password) fails it at once.
 */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { StoreUnavailableError } from '../../src/core/errors.js';
import { waitForStore } from '../../src/core/wait-for-store.js';
import { createLogger } from '../../src/logger.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { RedisServer } from '../support/redis-server.js';

function capture() {
  const lines: Array<{ msg: string }> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)) as { msg: string });
      done();
    },
  });
  return { lines, logger: createLogger('info', stream) };
}

describe('waiting for the store at start (one Redis server)', () => {
  let server: RedisServer;
  const stores: RedisStore[] = [];
  const open = (url: string): RedisStore => {
    const store = new RedisStore(url);
    store.redis.on('error', () => undefined); // refused connections are the point here (the service logs them)
    stores.push(store);
    return store;
  };

  before(async () => {
    server = await RedisServer.start();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    if (!server.running) await server.start();
  });
  after(() => server.stop());

  it('waits for a Redis that starts after the service, and says so once in the log', async () => {
    await server.kill();
    const { lines, logger } = capture();
    const waited = waitForStore(open(server.url), logger, 10_000);
    let settled = false;
    void waited.finally(() => (settled = true)).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // three 500 ms command timeouts
    expect(settled, 'still waiting while Redis is away').to.equal(false);
    await server.start();
    await waited;
    expect(lines.map((l) => l.msg)).to.deep.equal(['store not reachable yet; waiting for it', 'store reached']);
  });

  it('gives up with StoreUnavailableError when Redis stays away past the wait', async () => {
    await server.kill();
    const started = Date.now();
    const err = await waitForStore(open(server.url), capture().logger, 1_500).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(StoreUnavailableError);
    expect(Date.now() - started).to.be.within(1_000, 4_000);
  });

  it('fails at once on a wrong password: waiting cannot mend it', async () => {
    const admin = new Redis(server.url);
    await admin.config('SET', 'requirepass', 'right');
    admin.disconnect();
    const started = Date.now();
    const err = await waitForStore(open(`redis://:wrong@127.0.0.1:${server.port}`), capture().logger, 10_000).catch(
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(Error).and.not.instanceOf(StoreUnavailableError);
    expect(String((err as Error).message)).to.match(/WRONGPASS|invalid username-password/);
    expect(Date.now() - started).to.be.below(5_000);
  });
});
