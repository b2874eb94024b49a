import { expect } from 'chai';
import { kubeTime, setCondition } from '../../../src/operator/conditions.js';

const t1 = new Date('2026-01-01T00:00:00.123Z');
const t2 = new Date('2026-01-02T00:00:00.000Z');

describe('conditions', () => {
  it('formats metav1.Time with seconds precision', () => {
    expect(kubeTime(t1)).to.equal('2026-01-01T00:00:00Z');
  });

  it('keeps lastTransitionTime while the status holds, moves it when the status changes', () => {
    const ready = setCondition(
      undefined,
      { type: 'Ready', status: 'False', reason: 'SecretNotFound', message: 'a' },
      t1,
    );
    const sameStatus = setCondition(
      ready,
      { type: 'Ready', status: 'False', reason: 'StoreUnavailable', message: 'b' },
      t2,
    );
    expect(sameStatus[0]).to.deep.include({ reason: 'StoreUnavailable', lastTransitionTime: '2026-01-01T00:00:00Z' });
    const flipped = setCondition(sameStatus, { type: 'Ready', status: 'True', reason: 'Reconciled', message: 'c' }, t2);
    expect(flipped[0]).to.deep.include({ status: 'True', lastTransitionTime: '2026-01-02T00:00:00Z' });
  });

  it('replaces a condition in place and appends new types', () => {
    const list = [
      { type: 'Ready', status: 'True' as const, reason: 'Reconciled', message: '', lastTransitionTime: 'x' },
      { type: 'Other', status: 'True' as const, reason: 'Fine', message: '', lastTransitionTime: 'y' },
    ];
    const next = setCondition(list, { type: 'Ready', status: 'True', reason: 'Reconciled', message: 'now' }, t2);
    expect(next.map((c) => c.type)).to.deep.equal(['Ready', 'Other']);
    expect(
      setCondition(list, { type: 'New', status: 'Unknown', reason: 'Wait', message: '' }, t2).map((c) => c.type),
    ).to.deep.equal(['Ready', 'Other', 'New']);
  });
});
