import { expect } from 'chai';
import { newEventId } from '../../../src/core/ids.js';

describe('event ids', () => {
  it('are unique, sorted by creation and free of dots', () => {
    const ids = Array.from({ length: 5000 }, () => newEventId(1_700_000_000_000));
    expect(new Set(ids).size).to.equal(ids.length);
    expect([...ids].sort()).to.deep.equal(ids);
    expect(ids.every((id) => /^evt_[0-9a-f]{30}$/.test(id))).to.equal(true);
    expect(newEventId(1_800_000_000_000) > ids.at(-1)!).to.equal(true);
  });

  it('carry the millisecond they were made in, and the sequence within it', () => {
    const ms = (id: string) => Number.parseInt(id.slice(4, 16), 16);
    const first = newEventId(1_900_000_000_000);
    const second = newEventId(1_900_000_000_000);
    const next = newEventId(1_900_000_000_001);
    expect([ms(first), ms(second), ms(next)]).to.deep.equal([1_900_000_000_000, 1_900_000_000_000, 1_900_000_000_001]);
    expect(second.slice(0, 28)).to.equal(first.slice(0, 28));
    expect(Number.parseInt(second.slice(28), 16)).to.equal(Number.parseInt(first.slice(28), 16) + 1);
    expect(next.slice(28)).to.equal('000000');
  });
});
