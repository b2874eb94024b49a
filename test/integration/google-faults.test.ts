/**
 * The Google pull sync when things go wrong: Google's rate limits and 5xx (retried), listings cut short (nothing
 * deleted), the mass-deletion guard, concurrent runs, an expired access token (refreshed and saved), a revoked
 * refresh token (a visible error state while other directories still sync).
 */
import { expect } from 'chai';
import type { GUser } from '../support/fake-google-wire.js';
import { labels, startGoogleTest, type GoogleTest } from '../support/google-harness.js';
import { openStore, startService, STORE_KINDS } from '../support/harness.js';
import { createLogger } from '../../src/logger.js';
import { createDsync } from '../../src/service.js';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { FAKE_CLIENT, FakeGoogle } from '../support/fake-google.js';
import { redisUrl } from '../support/services.js';
import { googleOptionsFor } from '../support/google-harness.js';

async function metric(t: GoogleTest, name: string): Promise<string> {
  return t.service.dsync.metrics.registry.getSingleMetricAsString(name);
}

for (const kind of STORE_KINDS) {
  describe(`Google pull sync faults (${kind} store)`, function () {
    this.timeout(30_000);
    let t: GoogleTest;
    let dir: any;
    let users: GUser[];
    let groupId: string;

    beforeEach(async () => {
      t = await startGoogleTest(await openStore(kind, 7));
      users = Array.from({ length: 30 }, () => t.fake.addUser());
      groupId = t.fake.addGroup({ name: 'Eng' }).id;
      for (const u of users.slice(0, 10)) t.fake.addMember(groupId, u.id);
      t.fake.addGroup({ name: 'Ops' });
      dir = await t.directory();
    });
    afterEach(() => t.close());

    const state = async (id = dir.id) =>
      (await t.service.api('GET', `/api/v1/directory-sync/${id}/google/sync`)).body.data;

    it("retries Google's 403 rate-limit reasons, 429 and 5xx, and completes", async () => {
      t.fake.inject({ route: 'users', kind: 'status', status: 403, reason: 'userRateLimitExceeded', times: 2 });
      t.fake.inject({ route: 'groups', kind: 'status', status: 429, reason: 'rateLimitExceeded' });
      // Each members request meets the next of these, in order.
      t.fake.inject({ route: 'members', kind: 'status', status: 403, reason: 'quotaExceeded' });
      t.fake.inject({ route: 'members', kind: 'status', status: 503 });
      t.fake.inject({ route: 'members', kind: 'status', status: 500 });
      t.fake.inject({ route: 'members', kind: 'truncate' });
      const report = await t.sync();
      expect(report.directories[0]).to.deep.include({ state: 'succeeded', error: null });
      expect(report.created).to.equal(32);
      expect(labels(await t.newEvents(dir.id)).filter((l) => l.startsWith('group.user_added'))).to.have.length(10);
      const retries = await metric(t, 'dsync_google_api_retries_total');
      for (const reason of ['userRateLimitExceeded', '429', 'quotaExceeded', '503', '500', 'network']) {
        expect(retries, reason).to.match(new RegExp(`reason="${reason}"} [1-9]`));
      }
    });

    it('a 403 that is not a rate limit fails the directory at once (no retry loop), and deletes nothing', async () => {
      await t.sync();
      t.fake.removeUser(users[0]!.id);
      t.fake.inject({ route: 'groups', kind: 'status', status: 403, reason: 'forbidden', times: Infinity });
      const calls = t.fake.calls.groups;
      const report = await t.sync();
      expect(report.directories[0].state).to.equal('failed');
      expect(report.directories[0].error.code).to.equal('DSYNC_GOOGLE_API');
      expect(t.fake.calls.groups - calls).to.be.at.most(2); // the client's one refresh-and-retry on a 403, no more
      expect(await t.service.dsync.store.getUser(dir.id, users[0]!.id)).to.not.equal(null);
    });

    for (const [what, fault] of [
      ['a members page cut off mid-body, every time', { route: 'members', kind: 'truncate', times: Infinity }],
      [
        'the groups listing failing half-way (500 after retries)',
        { route: 'groups', kind: 'status', status: 500, times: Infinity },
      ],
      ['a users listing that comes back empty', { route: 'users', kind: 'empty', times: Infinity }],
    ] as const) {
      it(`deletes nothing when a listing is incomplete: ${what}`, async () => {
        await t.sync();
        await t.newEvents(dir.id);
        t.fake.removeUser(users[0]!.id);
        t.fake.removeMember(groupId, users[1]!.id);
        t.fake.removeGroup([...t.fake.groups.keys()][1]!);
        t.fake.inject(fault);
        const report = await t.sync();
        expect(report.directories[0].state).to.equal('failed');
        expect(report.directories[0].error.code).to.match(/DSYNC_GOOGLE_(INCOMPLETE_LISTING|API)/);
        expect(labels(await t.newEvents(dir.id)).filter((l) => /deleted|removed/.test(l))).to.deep.equal([]);
        expect(await t.service.dsync.store.countUsers(dir.id)).to.equal(30);
        expect(await t.service.dsync.store.countGroups(dir.id)).to.equal(2);
        t.fake.clearFaults();
        await t.sync();
        expect(labels(await t.newEvents(dir.id))).to.have.members([
          `group.user_removed:Eng/${users[1]!.primaryEmail}`,
          `group.user_removed:Eng/${users[0]!.primaryEmail}`,
          'group.deleted:Ops',
          `user.deleted:${users[0]!.primaryEmail}`,
        ]);
      });
    }

    it('the mass-deletion guard stops the deletions of a run that would delete more than 20%, and reports it', async () => {
      await t.sync();
      await t.newEvents(dir.id);
      for (const u of users.slice(5, 25)) t.fake.removeUser(u.id);
      const added = t.fake.addUser();
      const report = await t.sync();
      expect(report).to.deep.include({ failed: 1, deleted: 0, created: 1 });
      expect(report.directories[0].state).to.equal('guarded');
      expect(report.directories[0].error.code).to.equal('DSYNC_GOOGLE_MASS_DELETION');
      expect(report.directories[0].error.message).to.match(/delete 20 of 32 users and groups/);
      expect(labels(await t.newEvents(dir.id))).to.deep.equal([`user.created:${added.primaryEmail}`]);
      expect(await t.service.dsync.store.countUsers(dir.id)).to.equal(31);
      expect((await state()).state).to.equal('guarded');
      expect(await metric(t, 'dsync_google_sync_runs_total')).to.match(/outcome="guarded"} 1/);
    });

    it('concurrent runs on one directory do the work once', async () => {
      t.fake.delayMs = 5;
      // Redis: a second replica on the same store; memory: a second caller in the same process.
      const second =
        kind === 'redis'
          ? await startService(new RedisStore(`${redisUrl()}/7`), { google: googleOptionsFor(t.fake) })
          : t.service;
      try {
        const [a, b, c] = await Promise.all([
          t.sync(),
          second.api('POST', '/api/v1/dsync/cron/sync-google').then((r) => r.body.data),
          t.service.dsync.google.sync(),
        ]);
        const states = [a, b, c].map((r) => r.directories[0].state);
        expect(
          states.filter((s) => s !== 'succeeded' && s !== 'skipped'),
          JSON.stringify([a, b, c]),
        ).to.deep.equal([]);
        expect(states.filter((s) => s === 'succeeded').length, JSON.stringify(states)).to.be.at.least(1);
        // Once between them: the three reports add up to the 30 users and 2 groups, created by one run.
        expect(a.created + b.created + c.created, JSON.stringify([a, b, c])).to.equal(32);
        expect([a, b, c].filter((r) => r.created > 0)).to.have.length(1);
        const skipped = [a, b, c].flatMap((r) => r.directories).filter((d) => d.state === 'skipped');
        expect(skipped.length).to.be.at.least(1);
        expect(skipped[0].error.code).to.equal('DSYNC_GOOGLE_SYNC_BUSY');
        const events = labels(await t.newEvents(dir.id));
        expect(events.filter((l) => l.startsWith('user.created'))).to.have.length(30);
        expect(events.filter((l) => l.startsWith('group.created'))).to.have.length(2);
        expect(events.filter((l) => l.startsWith('group.user_added'))).to.have.length(10);
      } finally {
        if (second !== t.service) await second.close();
      }
    });

    it('an expired access token is refreshed once and the new one saved on the directory', async () => {
      t.fake.oauth.expireAccessTokens();
      const report = await t.sync();
      expect(report.directories[0].state).to.equal('succeeded');
      expect(t.fake.oauth.grants.refresh_token).to.equal(1);
      const saved = (await t.service.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data;
      expect(saved.google_access_token).to.not.equal(dir.google_access_token);
      expect(t.fake.oauth.validAccess(`Bearer ${saved.google_access_token}`)).to.equal(true);
      expect(saved.google_refresh_token).to.equal(dir.google_refresh_token);
      await t.sync();
      expect(t.fake.oauth.grants.refresh_token, 'the saved token is used: no refresh').to.equal(1);
    });

    it('a revoked refresh token puts that directory in a visible error state while the others still sync; re-authorizing clears it', async () => {
      const healthy = await t.directory({ name: 'Healthy' });
      t.fake.oauth.expireAccessTokens();
      t.fake.oauth.revoke(dir.google_refresh_token);
      const report = await t.sync();
      const byId = Object.fromEntries(report.directories.map((d: any) => [d.id, d]));
      expect(byId[dir.id]).to.deep.include({ state: 'invalid_credentials' });
      expect(byId[dir.id].error.code).to.equal('DSYNC_GOOGLE_INVALID_CREDENTIALS');
      expect(byId[healthy.id]).to.deep.include({ state: 'succeeded', error: null });
      expect(report.failed).to.equal(1);
      const status = await state();
      expect(status).to.deep.include({ state: 'invalid_credentials' });
      expect(status.error.message).to.match(/authorize again/);
      expect(JSON.stringify(status)).to.not.contain(dir.google_refresh_token);
      expect(await metric(t, 'dsync_google_sync_runs_total')).to.match(/outcome="invalid_credentials"} 1/);
      const gauge = await metric(t, 'dsync_google_directories');
      expect(gauge).to.match(/state="invalid_credentials"} 1/);
      expect(gauge).to.match(/state="succeeded"} 1/);

      const fresh = t.fake.oauth.issueTokens();
      const put = await t.service.api('PUT', `/api/v1/directory-sync/${dir.id}/google/token`, fresh);
      expect(put.status).to.equal(200);
      expect((await state()).state).to.equal('pending');
      expect((await t.sync(dir.id)).directories[0].state).to.equal('succeeded');
    });
  });
}

describe('Google pull sync logs', function () {
  this.timeout(20_000);
  it('log a failing directory with its error, never a token, the client secret or a key', async () => {
    const lines: string[] = [];
    const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
    const fake = await new FakeGoogle().start();
    const store = new MemoryStore();
    const dsync = createDsync({ store, externalUrl: 'http://localhost', logger, google: googleOptionsFor(fake) });
    try {
      fake.addUser();
      const tokens = fake.oauth.issueTokens();
      const dir = await dsync.directories.create({
        name: 'A',
        tenant: 'a',
        product: 'p',
        type: 'google',
        google_access_token: tokens.access_token,
        google_refresh_token: tokens.refresh_token,
      });
      fake.oauth.expireAccessTokens();
      fake.oauth.revoke(tokens.refresh_token);
      expect((await dsync.google.sync()).directories[0]!.state).to.equal('invalid_credentials');
      const text = lines.join('');
      expect(text).to.contain('Google sync of a directory did not succeed').and.to.contain(dir.id);
      for (const secret of [tokens.access_token, tokens.refresh_token, FAKE_CLIENT.secret])
        expect(text).to.not.contain(secret);
    } finally {
      await dsync.close();
      await fake.close();
    }
  });
});
