import { expect } from 'chai';
import { LoopWait } from '../../../src/delivery/loop-wait.js';

const settled = async (p: Promise<void>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

describe("a pass's loop wait (LoopWait)", () => {
  it('a wake ends the wait; a wake while the loop is busy ends its next wait at once, once', async () => {
    const wait = new LoopWait(250);
    const waiting = wait.idle(Infinity);
    expect(await settled(waiting), 'waits until woken').to.equal(false);
    wait.wake();
    expect(await settled(waiting), 'woken').to.equal(true);
    wait.wake();
    expect(await settled(wait.idle(Infinity)), 'the wake that came while busy').to.equal(true);
    expect(await settled(wait.idle(Infinity)), 'is kept once only').to.equal(false);
    wait.wake();
  });

  it('a wait shorter than the tick ends on its own; a longer one waits for a wake (the tick)', async () => {
    const wait = new LoopWait(250);
    // Timers fire in the order they are due, and the wait's end runs before the next timer's callback: on a
    // machine too busy to run either in time, this still tells a timer of its own from none.
    let later = false;
    const timer = setTimeout(() => (later = true), 200);
    const started = Date.now();
    await wait.idle(30);
    expect(later, 'ended by a timer of its own, before a later one').to.equal(false);
    expect(Date.now() - started).to.be.at.least(20);
    clearTimeout(timer);
    const long = wait.idle(300);
    await new Promise((r) => setTimeout(r, 350));
    expect(await settled(long), 'no timer past the tick').to.equal(false);
    wait.wake();
    expect(await settled(long)).to.equal(true);
  });

  it('is parked only while it waits in park', async () => {
    const wait = new LoopWait(250);
    expect(wait.parked).to.equal(false);
    const parked = wait.park(Infinity);
    expect(wait.parked, 'during the wait').to.equal(true);
    wait.wake();
    await parked;
    expect(wait.parked, 'after it').to.equal(false);
  });
});
