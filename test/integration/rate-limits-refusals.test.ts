/**
 * A refused request spends neither window's budget. With the Developer preset (scim: 1 per
 * second, 10 per minute) an IdP that retries at once on a 429 used to spend a sustained point on every refused
 * retry and starve itself for the rest of the minute; now it gets exactly its 10 requests. Real Redis counters.
 */
import { expect } from 'chai';
import { sleep } from '../support/harness.js';
import { startLimited, type LimitedService } from '../support/rate-limits.js';
import { freshRedisStore } from '../support/services.js';

const DB = 10;

describe('rate limits: a refused request spends no budget (Developer preset, Redis counters)', function () {
  this.timeout(40_000);
  let svc: LimitedService;
  let dir: any;

  before(async () => {
    svc = await startLimited(await freshRedisStore(DB), { plan: 'developer' });
    dir = await svc.dsync.directories.create({ name: 'A', tenant: 'acme', product: 'app', type: 'generic-scim-v2' });
  });
  after(async () => svc?.close());

  const listUsers = () => svc.scim(dir, 'GET', '/Users');

  it('lets a client that retries at once on every 429 through exactly 10 times in the minute, and refuses the 11th', async () => {
    const started = Date.now();
    let allowed = 0;
    let refused = 0;
    // Each second: a request, then a retry at once that the burst window refuses (a retrying IdP).
    for (let second = 0; second < 10; second++) {
      const r = await listUsers();
      expect(r.status, `request of second ${second}`).to.equal(200);
      allowed++;
      const retry = await listUsers();
      expect(retry.status).to.equal(429);
      // Refused by the burst window (wait a second); the 10th second's retry by the minute window too.
      if (second < 9) expect(retry.headers.get('retry-after'), 'refused by the burst window').to.equal('1');
      refused++;
      await sleep(1_050); // the burst window starts over; the minute window keeps counting
    }
    expect(Date.now() - started, 'all inside one minute window').to.be.below(60_000);
    const over = await listUsers();
    expect(over.status).to.equal(429);
    expect(over.headers.get('ratelimit-limit'), 'refused by the minute window').to.equal('10');
    expect(Number(over.headers.get('retry-after'))).to.be.within(40, 60);
    // Retries stay refused by the minute window until it starts over.
    for (let i = 0; i < 3; i++) expect((await listUsers()).headers.get('ratelimit-limit')).to.equal('10');
    expect(allowed).to.equal(10);
    expect(await svc.decisions('scim', 'burst', 'limited')).to.equal(refused);
    expect(await svc.decisions('scim', 'sustained', 'limited'), "the 10th second's retry, then the four over").to.equal(
      5,
    );
  });
});
