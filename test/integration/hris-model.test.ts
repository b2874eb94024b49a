/**
 * Model-based test of each HRIS provider's sync: random HR changes on the fake, a sync after each batch (BambooHR
 * through its changed-since feed, the others a snapshot diffed against the store). At the end the delta-synced
 * directory must equal a fresh directory synced once in full from the same company, and its events, replayed in
 * order, must rebuild exactly its state. Seeded: DSYNC_TEST_SEED replays a run; the seed is in every failure.
 */
import { expect } from 'chai';
import { openStore } from '../support/harness.js';
import { HR_TYPES } from '../support/hr-fakes.js';
import { startHrisTest, type HrisTest } from '../support/hris-harness.js';
import { randomChange, replay, storedState } from '../support/hris-model.js';
import { seeded } from '../support/path-spellings.js';

const ROUNDS = 20;

for (const type of HR_TYPES) {
  describe(`HRIS model: delta-synced ${type} equals a full sync, and its events replay to it (redis store)`, function () {
    this.timeout(60_000);
    let t: HrisTest;
    afterEach(() => t.close());

    it('holds for a seeded random sequence of changes', async () => {
      const seed = Number(process.env.DSYNC_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));
      const random = seeded(seed);
      t = await startHrisTest(await openStore('redis', 9));
      const f = t.fakes[type];
      for (let i = 0; i < 30; i++) f.hire({ department: ['Engineering', 'Sales', 'Support'][i % 3]! });
      f.age();
      const dir = await t.directory(type);
      const log: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const changes = 1 + Math.floor(random() * 3);
        for (let c = 0; c < changes; c++) log.push(randomChange(f, random, round * 10 + c));
        const report = await t.sync(dir.id);
        expect(
          report.failed,
          `seed ${seed}, round ${round}: ${JSON.stringify(report.directories[0].error)}; changes ${log.join(', ')}`,
        ).to.equal(0);
        f.age();
      }
      const delta = await storedState(t.service.dsync.store, dir.id);
      const fresh = await t.directory(type, { name: 'Fresh' });
      expect((await t.sync(fresh.id)).failed).to.equal(0);
      const full = await storedState(t.service.dsync.store, fresh.id);
      const why = `seed ${seed} (DSYNC_TEST_SEED=${seed} replays it); changes: ${log.join(', ')}`;
      expect(delta, `delta-synced vs full sync; ${why}`).to.deep.equal(full);
      expect(replay(await t.newEvents(dir.id)), `replayed events vs stored state; ${why}`).to.deep.equal(delta);
    });
  });
}
