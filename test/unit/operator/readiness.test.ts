import { expect } from 'chai';
import { readiness, type ReadinessInput } from '../../../src/operator/readiness.js';

const base: ReadinessInput = {
  synced: true,
  leading: false,
  electing: true,
  sinceLeaseContactMs: 500,
  leaseDurationMs: 15_000,
};

describe('operator readiness', () => {
  it('is not ready before the caches have synced, leading or not', () => {
    expect(readiness({ ...base, synced: false })).to.deep.equal({ ready: false, detail: 'caches not synced yet' });
    expect(readiness({ ...base, synced: false, leading: true }).ready).to.equal(false);
  });

  it('is ready while leading, and as a standby that read the Lease within a lease duration', () => {
    expect(readiness({ ...base, leading: true, sinceLeaseContactMs: Infinity })).to.deep.equal({
      ready: true,
      detail: 'leading',
    });
    expect(readiness(base).ready).to.equal(true);
  });

  it('is not ready as a standby cut off from the Lease for a lease duration, or that never reached it', () => {
    expect(readiness({ ...base, sinceLeaseContactMs: 15_000 })).to.deep.equal({
      ready: false,
      detail: 'standby that has not reached the Lease for 15 s',
    });
    expect(readiness({ ...base, sinceLeaseContactMs: Infinity }).detail).to.equal(
      'standby that has not reached the Lease yet',
    );
  });

  it('without leader election, is ready only once reconciling', () => {
    expect(readiness({ ...base, electing: false, sinceLeaseContactMs: Infinity }).ready).to.equal(false);
    expect(readiness({ ...base, electing: false, leading: true }).ready).to.equal(true);
  });
});
