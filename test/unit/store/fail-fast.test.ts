import { expect } from 'chai';
import { StoreNotDurableError, StoreUnavailableError } from '../../../src/core/errors.js';
import { asStoreError, failFast } from '../../../src/store/fail-fast.js';

describe('fail-fast store errors', () => {
  const unavailable: Array<[string, Error]> = [
    ['a command timeout', new Error('Command timed out')],
    ['no offline queue', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    ['a closed connection', new Error('Connection is closed.')],
    ['max retries', new Error('Reached the max retries per request limit (which is 1). Refer to "maxRetriesPerRequest" option for details.')],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' })],
    ['a loading server', new Error('LOADING Redis is loading the dataset in memory')],
    ['a read-only replica after failover', new Error("READONLY You can't write against a read only replica.")],
    ['a busy script', new Error('BUSY Redis is busy running a script.')],
    ['a cluster without a master for a slot', new Error('CLUSTERDOWN The cluster is down')],
    ['a slot being migrated', new Error('TRYAGAIN Multiple keys request during rehashing of slot')],
    ['redirections exhausted', new Error('Too many Cluster redirections. Last error: Error: Connection is closed.')],
    ['unknown slots', new Error('Failed to refresh slots cache.')],
    ['no startup node', new Error('None of startup nodes is available')],
    ['a cluster reconnecting', new Error("Cluster isn't ready and enableOfflineQueue options is false")],
    ['no sentinel', new Error('All sentinels are unreachable. Retrying from scratch after 10ms.')],
    ['persistence failing', new Error('MISCONF Redis is configured to save RDB snapshots, but it is currently not able to persist on disk.')],
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

  it('leaves coded errors alone: a write reported not durable stays StoreNotDurableError', () => {
    const err = new StoreNotDurableError('the WAIT failed: read ECONNRESET');
    expect(asStoreError(err)).to.equal(err);
    expect(err).to.include({ code: 'STORE_NOT_DURABLE', status: 503, retryAfter: 1 });
    expect(err.message).to.match(/may or may not survive a failover, and is safe to retry/);
  });

  it('leaves our own bugs alone (they stay 500s)', () => {
    expect(asStoreError(new Error("ERR CROSSSLOT Keys in request don't hash to the same slot"))).to.be.instanceOf(Error).and.not.instanceOf(StoreUnavailableError);
    for (const err of [new Error('ERR Error running script: attempt to index a nil value'), new TypeError('x is not a function')]) {
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
