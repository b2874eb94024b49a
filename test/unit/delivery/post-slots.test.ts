import { expect } from 'chai';
import { PostSlots } from '../../../src/delivery/pass-context.js';

describe("the process's POST slots (PostSlots)", () => {
  it('hands a released slot to the pass longest in line, not to whoever takes next', () => {
    const slots = new PostSlots(1);
    expect(slots.tryTake(), 'the one slot').to.equal(true);
    const handed: string[] = [];
    slots.join(() => handed.push('first'));
    slots.join(() => handed.push('second'));
    slots.release();
    expect(handed, 'the longest in line got the slot').to.deep.equal(['first']);
    // The busy directory whose answer freed the slot tries again at once: the slot is the first pass's already.
    expect(slots.tryTake(), 'a take while a pass is in line').to.equal(false);
    slots.release();
    expect(handed, 'then the next one').to.deep.equal(['first', 'second']);
    slots.release();
    expect(slots.tryTake(), 'with nobody in line a release frees the slot').to.equal(true);
    expect(slots.tryTake(), 'and only one').to.equal(false);
  });

  it('a pass that left the line is handed nothing, and a pass that joins twice holds two places', () => {
    const slots = new PostSlots(1);
    slots.tryTake();
    const handed: string[] = [];
    const leave = slots.join(() => handed.push('left'));
    slots.join(() => handed.push('twice'));
    slots.join(() => handed.push('twice'));
    leave();
    slots.release();
    slots.release();
    expect(handed).to.deep.equal(['twice', 'twice']);
    slots.release();
    expect(slots.tryTake(), 'the line empty, the released slot is free').to.equal(true);
  });
});
