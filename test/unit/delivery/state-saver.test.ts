import { expect } from 'chai';
import { SAVE_EVERY, SAVE_MS } from '../../../src/delivery/pass-context.js';
import { StateSaver } from '../../../src/delivery/state-saver.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a resource pass's state saves (StateSaver)", () => {
  it('saves a first change at once, then at most once a SAVE_MS, each save carrying every change before it', async () => {
    const saves: Array<{ changes: number; at: number }> = [];
    let changes = 0;
    const saver = new StateSaver(
      async () => {
        saves.push({ changes, at: Date.now() });
        return true;
      },
      (err) => expect.fail(String(err)),
    );
    changes++;
    saver.changed();
    await sleep(10);
    expect(
      saves.map((s) => s.changes),
      'the first change',
    ).to.deep.equal([1]);
    for (let i = 0; i < 5; i++) {
      changes++;
      saver.changed();
    }
    for (let waited = 0; saves.length < 2 && waited < 5_000; waited += 20) await sleep(20);
    expect(
      saves.map((s) => s.changes),
      'one more save, with all five',
    ).to.deep.equal([1, 6]);
    expect(saves[1]!.at - saves[0]!.at, 'SAVE_MS after the first').to.be.at.least(SAVE_MS - 5);
  });

  it('saves at once after SAVE_EVERY changes, and flush saves what is left at once', async () => {
    const saves: number[] = [];
    let changes = 0;
    const saver = new StateSaver(
      async () => {
        saves.push(changes);
        return true;
      },
      (err) => expect.fail(String(err)),
    );
    saver.changed();
    await sleep(10);
    for (let i = 0; i < SAVE_EVERY; i++) {
      changes++;
      saver.changed();
    }
    await sleep(10);
    expect(saves, 'SAVE_EVERY changes do not wait for SAVE_MS').to.deep.equal([0, SAVE_EVERY]);
    changes++;
    saver.changed();
    // Its wait for SAVE_MS would end after this timer; the save that flush makes at once comes before it.
    let later = false;
    const timer = setTimeout(() => (later = true), SAVE_MS - 50);
    await saver.flush();
    clearTimeout(timer);
    expect(saves.at(-1), 'the last change saved').to.equal(SAVE_EVERY + 1);
    expect(later, 'without waiting for SAVE_MS').to.equal(false);
  });

  it('stops saving once a save finds the lease gone, and reports a failed save', async () => {
    let saves = 0;
    const lost = new StateSaver(
      async () => {
        saves++;
        return false;
      },
      (err) => expect.fail(String(err)),
    );
    lost.changed();
    await lost.flush();
    lost.changed();
    await lost.flush();
    expect(saves, 'one save, the one that found the lease gone').to.equal(1);
    const failures: unknown[] = [];
    const failing = new StateSaver(
      () => Promise.reject(new Error('store down')),
      (err) => failures.push(err),
    );
    await failing.flush();
    expect(failures.map((e) => (e as Error).message)).to.deep.equal(['store down']);
  });
});
