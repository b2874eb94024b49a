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
});
