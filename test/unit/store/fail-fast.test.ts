import { expect } from 'chai';
import { StoreNotDurableError, StoreUnavailableError } from '../../../src/core/errors.js';
import { asStoreError, failFast } from '../../../src/store/redis/fail-fast.js';

describe('fail-fast store errors', () => {
  // What real faults produce (a paused, killed, busy, read-only, slot-less or save-failing server, a cluster or
  // Sentinels not there) is checked against real redis-servers in test/integration/fail-fast.test.ts. These are
  // the messages of states no test can call up on demand: ioredis' own for a cluster mid-reshard or reconnecting,
  // and replies of servers mid-failover or loading a big dataset.
  const unavailable: Array<[string, Error]> = [
    ['a closed connection', new Error('Connection is closed.')],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' })],
    ['a loading server', new Error('LOADING Redis is loading the dataset in memory')],
    ['a slot being migrated', new Error('TRYAGAIN Multiple keys request during rehashing of slot')],
    ['redirections exhausted', new Error('Too many Cluster redirections. Last error: Error: Connection is closed.')],
    [
      'an auto-pipelined batch split by a slot move',
      new Error('All keys in the pipeline should belong to the same slots allocation group'),
    ],
    ['unknown slots', new Error('Failed to refresh slots cache.')],
    ['a cluster reconnecting', new Error("Cluster isn't ready and enableOfflineQueue options is false")],
    ['no sentinel', new Error('All sentinels are unreachable. Retrying from scratch after 10ms.')],
  ];
  for (const [what, err] of unavailable) {
    it(`maps ${what} to StoreUnavailableError (503, Retry-After 1)`, () => {
      const mapped = asStoreError(err) as StoreUnavailableError;
      expect(mapped).to.be.instanceOf(StoreUnavailableError);
      expect(mapped.code).to.equal('STORE_UNAVAILABLE');
      expect(mapped.status).to.equal(503);
      expect(mapped.retryAfter).to.equal(1);
      expect(mapped.cause).to.equal(err);
    });
  }

  it('looks inside a MULTI refused as a whole (EXECABORT): unavailable when a command in it was, a bug otherwise', () => {
    const execabort = (...previousErrors: Error[]) =>
      Object.assign(new Error('EXECABORT Transaction discarded because of previous errors.'), { previousErrors });
    const readonly = execabort(new Error("READONLY You can't write against a read only replica."));
    const mapped = asStoreError(readonly) as StoreUnavailableError;
    expect(mapped).to.be.instanceOf(StoreUnavailableError);
    expect(mapped.message).to.equal(
      "The data store is unavailable (READONLY You can't write against a read only replica.); retry shortly",
    );
    expect(mapped.cause).to.equal(readonly);
    const bug = execabort(new Error("ERR wrong number of arguments for 'hset' command"));
    expect(asStoreError(bug)).to.equal(bug);
  });

  it('leaves coded errors alone: a write reported not durable stays StoreNotDurableError', () => {
    const err = new StoreNotDurableError('the WAIT failed: read ECONNRESET');
    expect(asStoreError(err)).to.equal(err);
    expect(err).to.include({ code: 'STORE_NOT_DURABLE', status: 503, retryAfter: 1 });
    expect(err.message).to.match(/may or may not survive a failover, and is safe to retry/);
  });

  it('leaves our own bugs alone (they stay 500s)', () => {
    expect(asStoreError(new Error("ERR CROSSSLOT Keys in request don't hash to the same slot")))
      .to.be.instanceOf(Error)
      .and.not.instanceOf(StoreUnavailableError);
    for (const err of [
      new Error('ERR Error running script: attempt to index a nil value'),
      new TypeError('x is not a function'),
    ]) {
      expect(asStoreError(err)).to.equal(err);
    }
  });

  it('wraps every method once: async rejections are mapped, synchronous methods stay synchronous', async () => {
    class Fake {
      calls = 0;
      isSeq(v: string): boolean {
        return v === 'ok';
      }
      async read(): Promise<string> {
        this.calls++;
        throw new Error('Command timed out');
      }
      async broken(): Promise<string> {
        throw new Error('ERR wrong number of arguments');
      }
    }
    failFast(Fake.prototype);
    const fake = new Fake();
    expect(fake.isSeq('ok')).to.equal(true);
    const err = await fake.read().catch((e: unknown) => e);
    expect(err).to.be.instanceOf(StoreUnavailableError);
    expect(fake.calls).to.equal(1);
    const bug = await fake.broken().catch((e: unknown) => e);
    expect(bug).not.to.be.instanceOf(StoreUnavailableError);
  });
});
