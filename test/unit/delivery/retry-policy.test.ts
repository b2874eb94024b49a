import { expect } from 'chai';
import { RetryPolicy, retryAfterMs } from '../../../src/delivery/retry-policy.js';

describe('retry policy', () => {
  const policy = new RetryPolicy([1000, 60_000], () => 0.5);

  it('delivers on any 2xx, disables on 410, retries others on the schedule, then gives up', () => {
    expect(policy.judge({ status: 204 }, 1)).to.deep.equal({ kind: 'delivered' });
    expect(policy.judge({ status: 410 }, 1)).to.deep.equal({ kind: 'disable' });
    expect(policy.judge({ status: 500 }, 1)).to.deep.equal({ kind: 'retry', delayMs: 1000 });
    expect(policy.judge({}, 2)).to.deep.equal({ kind: 'retry', delayMs: 60_000 });
    expect(policy.judge({ status: 302 }, 2)).to.deep.equal({ kind: 'retry', delayMs: 60_000 });
    expect(policy.judge({ status: 500 }, 3)).to.deep.equal({ kind: 'dead' });
    expect(policy.judge({ permanent: true }, 1)).to.deep.equal({ kind: 'dead' });
  });

  it('jitters by ±20%', () => {
    expect(new RetryPolicy([1000], () => 0).judge({ status: 500 }, 1)).to.deep.equal({ kind: 'retry', delayMs: 800 });
    expect(new RetryPolicy([1000], () => 1).judge({ status: 500 }, 1)).to.deep.equal({ kind: 'retry', delayMs: 1200 });
  });

  it('waits at least Retry-After on 429 and 503 (seconds or HTTP date, capped at a day)', () => {
    expect(policy.judge({ status: 429, retryAfter: '30' }, 1)).to.deep.equal({ kind: 'retry', delayMs: 30_000 });
    expect(policy.judge({ status: 503, retryAfter: '0' }, 1)).to.deep.equal({ kind: 'retry', delayMs: 1000 });
    expect(policy.judge({ status: 500, retryAfter: '30' }, 1)).to.deep.equal({ kind: 'retry', delayMs: 1000 });
    const now = Date.parse('2026-11-21T08:00:00Z');
    expect(retryAfterMs('Sat, 21 Nov 2026 08:00:10 GMT', now)).to.equal(10_000);
    expect(retryAfterMs('999999', now)).to.equal(86_400_000);
    expect(retryAfterMs('soon', now)).to.equal(undefined);
  });
});
