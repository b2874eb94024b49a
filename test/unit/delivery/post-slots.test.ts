import { expect } from 'chai';
import { PostSlots } from '../../../src/delivery/pass-context.js';

describe("the process's POST slots (PostSlots)", () => {
  it('hands a released slot to the longest waiting pass, not to whoever takes next', async () => {
    const slots = new PostSlots(1);
    expect(slots.tryTake(), 'the one slot').to.equal(true);
    const first = slots.wait(10_000);
    const second = slots.wait(10_000);
    slots.release();
    // The busy directory whose answer freed the slot tries again at once: the slot is the waiter's already.
    expect(slots.tryTake(), 'a take while a pass waits').to.equal(false);
    expect(await first, 'the longest waiting pass got the slot').to.equal(true);
    slots.release();
    expect(await second, 'then the next one').to.equal(true);
    slots.release();
    expect(slots.tryTake(), 'with nobody waiting a release frees the slot').to.equal(true);
    expect(slots.tryTake(), 'and only one').to.equal(false);
  });

  it('a wait that nobody ends resolves false after its time, and takes no slot', async () => {
    const slots = new PostSlots(1);
    slots.tryTake();
    expect(await slots.wait(20)).to.equal(false);
    slots.release();
    expect(slots.tryTake(), 'the released slot is free: the timed-out waiter left the line').to.equal(true);
  });
});
