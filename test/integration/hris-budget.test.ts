/**
 * A company's request budget shared by replicas (HiBob's per-company limit): two services on one Redis, each
 * syncing its own directory of the same Bob company, spend one budget between them. The budget is scaled to a
 * 1-second window so the test is short; the bound asserted is a lower one (a loaded machine only takes longer).
 */
import { expect } from 'chai';
import { createDsync } from '../../src/service.js';
import { FakeHiBob } from '../support/fake-hibob.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { freshRedisStore, redisUrl } from '../support/services.js';

describe('HRIS: a company budget shared by every replica (two services, one Redis, fake HiBob)', function () {
  this.timeout(30_000);

  it('two services syncing the same company at once keep to one budget between them', async () => {
    const fake = await new FakeHiBob().start();
    fake.perMinute = 0;
    for (let i = 0; i < 4; i++) fake.hire();
    // 120 a minute = 2 requests in each 1-second window, shared; each process alone would space them 0.5 s.
    const hris = {
      apiUrls: { bamboohr: fake.url, hibob: fake.url, personio: fake.url },
      perMinute: { hibob: 120 },
      budgetWindowSeconds: 1,
      webhookDelayMs: 600_000,
    };
    const a = createDsync({ store: await freshRedisStore(10), externalUrl: 'http://localhost', hris });
    const b = createDsync({ store: new RedisStore(`${redisUrl()}/10`), externalUrl: 'http://localhost', hris });
    try {
      const credentials = { service_user_id: 'SERVICE-USER-1', token: 'hibob-token-1' };
      const dirs: Array<{ id: string }> = [];
      for (const [i, dsync] of [a, b].entries()) {
        const dir = await dsync.directories.create({
          name: `Bob ${i}`,
          tenant: `t${i}`,
          product: 'app',
          type: 'hibob',
        });
        await dsync.hris.setCredentials(dir.id, credentials);
        dirs.push(dir);
      }
      fake.resetCalls();
      const started = performance.now();
      // Two syncs in each service (each 2 requests): 8 requests, 2 per window between them.
      await Promise.all(
        [a, b].map(async (dsync, i) => {
          for (let round = 0; round < 2; round++)
            expect((await dsync.hris.sync({ directoryId: dirs[i]!.id })).failed).to.equal(0);
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      expect(fake.totalCalls).to.equal(8);
      // Alone, each process would take ~1.5 s (4 requests 0.5 s apart); sharing 2 a second, 8 requests span at least 3
      // windows.
      expect(seconds).to.be.at.least(2.5);
    } finally {
      await a.close();
      await b.close();
      await fake.close();
    }
  });
});
