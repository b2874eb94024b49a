/** The per-company pacer: a key's requests spaced by its budget, held back after a Retry-After, other keys not. */
import { expect } from 'chai';
import { KeyedPacer } from '../../../src/providers/pull/keyed-pacer.js';

describe('KeyedPacer', () => {
  it("spaces one key's requests by its budget (lower bounds only: a slow machine only waits longer)", async () => {
    const pacer = new KeyedPacer((key) => (key === 'hibob:a' ? 1200 : 0)); // 50 ms apart
    const started = performance.now();
    await Promise.all([pacer.take('hibob:a'), pacer.take('hibob:a'), pacer.take('hibob:a')]);
    expect(performance.now() - started).to.be.at.least(95);
  });

  it('holds a key back for as long as the provider said, and only that key', async () => {
    const pacer = new KeyedPacer(() => 0);
    pacer.block('bamboohr:acme', 80);
    const order: string[] = [];
    const started = performance.now();
    await Promise.all([
      pacer.take('bamboohr:acme').then(() => order.push('blocked')),
      pacer.take('bamboohr:other').then(() => order.push('other')),
    ]);
    expect(order).to.deep.equal(['other', 'blocked']);
    expect(performance.now() - started).to.be.at.least(75);
  });

  it('an unpaced key never waits, and keeps no state', async () => {
    const pacer = new KeyedPacer(() => 0);
    for (let i = 0; i < 100; i++) await pacer.take(`k${i}`);
    expect((pacer as unknown as { next: Map<string, number> }).next.size).to.equal(0);
  });
});
