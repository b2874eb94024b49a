/**
 * The store contract (test/support/store-contract.ts), per directory: the event log, directory deletes and lists,
 * leases, pull-sync and single-use records, sync runs, due marks; and what only the Redis store can get wrong (a
 * cut-short delete, log ids).
 */
import { expect } from 'chai';
import { withSequence } from '../../src/core/event-sequence.js';
import type { Store } from '../../src/core/store-port.js';
import { eventLogId } from '../../src/store/redis/event-ids.js';
import { freshRedisStore } from '../support/services.js';
import { D, directory, ev, res, storeContract } from '../support/store-contract.js';

storeContract((current) => {
  let store: Store;
  beforeEach(() => {
    store = current();
  });

  it('reads the event log after a cursor, trims it, and reports the newest seq', async () => {
    await store.createUser(D, res('u1', { userName: 'a' }), { userName: 'a', emails: [] }, [
      ev('e1'),
      ev('e2'),
      ev('e3'),
    ]);
    const all = await store.readEvents(D, null, 10);
    expect(all).to.have.length(3);
    expect(await store.lastEventSeq(D)).to.equal(all[2]!.seq);
    const after = await store.readEvents(D, all[0]!.seq, 10);
    expect(after.map((e) => e.seq)).to.deep.equal([all[1]!.seq, all[2]!.seq]);
    await store.trimEvents(D, all[1]!.seq, Date.now() + 60_000);
    expect((await store.readEvents(D, null, 10)).map((e) => e.seq)).to.deep.equal([all[2]!.seq]);
    await store.trimEvents(D, all[2]!.seq, 0);
    expect(await store.readEvents(D, null, 10)).to.have.length(1);
  });

  it('numbers every event of a directory (`sequence`, from 1, one more for each) as it reads the log', async () => {
    await store.createDirectory(directory('dir-2'));
    await store.createUser(D, res('u1', { userName: 'a' }), { userName: 'a', emails: [] }, [ev('e1'), ev('e2')]);
    await store.createUser('dir-2', res('u1', { userName: 'a' }), { userName: 'a', emails: [] }, [ev('x1')]);
    await store.createGroup(
      D,
      res('g1', { displayName: 'G' }),
      { displayName: 'G' },
      [{ userId: 'u1', userVersion: 1, event: ev('m') }],
      [ev('g')],
    );
    const sequences = async (dir: string, after: string | null = null) =>
      (await store.readEvents(dir, after, 100)).map((e) => (JSON.parse(e.json) as { sequence: number }).sequence);
    expect(await sequences(D)).to.deep.equal([1, 2, 3, 4]);
    expect(await sequences('dir-2')).to.deep.equal([1]);
    const [first] = await store.readEvents(D, null, 1);
    expect(await sequences(D, first!.seq), 'read after a cursor').to.deep.equal([2, 3, 4]);
    // Each event also comes as committed (what `resource` ordering reads its user or group from).
    for (const e of await store.readEvents(D, null, 100)) {
      expect(withSequence(e.stored!, (JSON.parse(e.json) as { sequence: number }).sequence)).to.equal(e.json);
    }
    // Trimming delivered events never renumbers what is left, nor what comes next.
    await store.trimEvents(D, (await store.lastEventSeq(D))!, Date.now() + 60_000);
    await store.createUser(D, res('u2', { userName: 'b' }), { userName: 'b', emails: [] }, [ev('e5')]);
    expect(await sequences(D)).to.deep.equal([5]);
  });

  it('cascades a directory delete and refuses later writes', async () => {
    await store.createUser(D, res('u1', { userName: 'a' }), { userName: 'a', emails: [] }, [ev('e')]);
    await store.createGroup(
      D,
      res('g1', { displayName: 'G' }),
      { displayName: 'G' },
      [{ userId: 'u1', userVersion: 1, event: ev('m') }],
      [],
    );
    expect(await store.deleteDirectory(D)).to.equal(true);
    expect(await store.getDirectory(D)).to.equal(null);
    expect(await store.getUser(D, 'u1')).to.equal(null);
    expect(await store.countUsers(D)).to.equal(0);
    expect(await store.readEvents(D, null, 10)).to.deep.equal([]);
    expect(
      (await store.createUser(D, res('u2', { userName: 'b' }), { userName: 'b', emails: [] }, [])).status,
    ).to.equal('missing');
    expect(await store.listDirectoryIds()).to.not.include(D);
  });

  it('disables a webhook only while its endpoint is still the one that answered 410', async () => {
    const d = (await store.getDirectory(D))!;
    await store.updateDirectory({ ...d, webhook: { endpoint: 'https://new.example.com/h', secret: 's' } });
    expect(await store.disableWebhook(D, 'https://old.example.com/h', '2026-11-21T00:00:00.000Z')).to.equal(false);
    expect((await store.getDirectory(D))!.webhook_disabled_at).to.equal(undefined);
    expect(await store.disableWebhook(D, 'https://new.example.com/h', '2026-11-21T00:00:00.000Z')).to.equal(true);
    const after = (await store.getDirectory(D))!;
    expect(after.webhook_disabled_at).to.equal('2026-11-21T00:00:00.000Z');
    expect({ ...after, webhook_disabled_at: undefined }).to.deep.equal({
      ...d,
      webhook: { endpoint: 'https://new.example.com/h', secret: 's' },
      webhook_disabled_at: undefined,
    });
  });

  it('lists directories by tenant and product', async () => {
    await store.createDirectory({ ...directory('dir-2'), tenant: 'other' });
    expect((await store.listDirectories({ tenant: 't', product: 'p' })).map((d) => d.id)).to.deep.equal([D]);
    expect(await store.listDirectoryIds()).to.have.members([D, 'dir-2']);
  });

  it('grants one delivery lease at a time and guards state writes with it', async () => {
    expect(await store.acquireLease(D, 'a', 5_000)).to.equal(true);
    expect(await store.acquireLease(D, 'b', 5_000)).to.equal(false);
    expect(await store.saveDeliveryState(D, 'b', { cursor: 'x', attempts: 0, pinned: null }, 5_000)).to.equal(false);
    expect(await store.saveDeliveryState(D, 'a', { cursor: 'x', attempts: 2, pinned: 'y' }, 5_000)).to.equal(true);
    expect(await store.deliveryState(D)).to.deep.equal({ cursor: 'x', attempts: 2, pinned: 'y' });
    await store.releaseLease(D, 'b');
    expect(await store.acquireLease(D, 'b', 5_000)).to.equal(false);
    await store.releaseLease(D, 'a');
    expect(await store.acquireLease(D, 'b', 50)).to.equal(true);
    await new Promise((r) => setTimeout(r, 80));
    expect(await store.acquireLease(D, 'a', 5_000)).to.equal(true);
  });

  it('keeps pull-sync records per directory, deletes them with it, and refuses them for a missing directory', async () => {
    expect(await store.getSyncRecord(D, 'google-sync-status')).to.equal(null);
    expect(await store.putSyncRecord(D, 'google-sync-status', '{"state":"succeeded"}')).to.equal(true);
    expect(await store.putSyncRecord(D, 'google-service-account', '{"k":1}')).to.equal(true);
    expect(await store.getSyncRecord(D, 'google-sync-status')).to.equal('{"state":"succeeded"}');
    expect(await store.putSyncRecord(D, 'google-service-account', null)).to.equal(true);
    expect(await store.getSyncRecord(D, 'google-service-account')).to.equal(null);
    expect(await store.putSyncRecord('nope', 'google-sync-status', '{}')).to.equal(false);
    expect(await store.getSyncRecord('nope', 'google-sync-status')).to.equal(null);
    await store.deleteDirectory(D);
    expect(await store.getSyncRecord(D, 'google-sync-status')).to.equal(null);
  });

  it('grants one sync lease at a time, apart from the delivery lease', async () => {
    expect(await store.acquireSyncLease(D, 'a', 5_000)).to.equal(true);
    expect(await store.acquireLease(D, 'z', 5_000)).to.equal(true);
    expect(await store.acquireSyncLease(D, 'b', 5_000)).to.equal(false);
    expect(await store.renewSyncLease(D, 'b', 5_000)).to.equal(false);
    expect(await store.renewSyncLease(D, 'a', 5_000)).to.equal(true);
    await store.releaseSyncLease(D, 'b');
    expect(await store.acquireSyncLease(D, 'b', 5_000)).to.equal(false);
    await store.releaseSyncLease(D, 'a');
    expect(await store.acquireSyncLease(D, 'b', 50)).to.equal(true);
    await new Promise((r) => setTimeout(r, 80));
    expect(await store.renewSyncLease(D, 'b', 5_000)).to.equal(false);
    expect(await store.acquireSyncLease(D, 'a', 5_000)).to.equal(true);
    expect(await store.acquireSyncLease('nope', 'a', 5_000)).to.equal(false);
  });

  it('gives a single-use record to one taker only, and forgets it after its time to live', async () => {
    expect(await store.putOnce('flow-a', 'v1', 5_000)).to.equal(true);
    expect(await store.putOnce('flow-a', 'v2', 5_000), 'a key in use is not overwritten').to.equal(false);
    const takes = await Promise.all(Array.from({ length: 10 }, () => store.takeOnce('flow-a')));
    expect(takes.filter((t) => t !== null)).to.deep.equal(['v1']);
    expect(await store.takeOnce('flow-a')).to.equal(null);
    expect(await store.putOnce('flow-b', 'v', 50)).to.equal(true);
    await new Promise((r) => setTimeout(r, 80));
    expect(await store.takeOnce('flow-b')).to.equal(null);
    expect(await store.putOnce('flow-b', 'again', 5_000), 'an expired key is free again').to.equal(true);
  });

  it('saves refreshed Google tokens alone, only while the refresh token is the one expected', async () => {
    const dir = { ...directory('g-1'), type: 'google' as const, google_access_token: 'a1', google_refresh_token: 'r1' };
    await store.createDirectory(dir);
    await store.updateDirectory({ ...dir, name: 'renamed' });
    expect(await store.saveGoogleTokens('g-1', 'r1', { accessToken: 'a2' }, '2030-01-01T00:00:00.000Z')).to.equal(true);
    expect(await store.getDirectory('g-1')).to.deep.equal({
      ...dir,
      name: 'renamed',
      google_access_token: 'a2',
      updated_at: '2030-01-01T00:00:00.000Z',
    });
    expect(
      await store.saveGoogleTokens('g-1', 'r1', { accessToken: 'a3', refreshToken: 'r2' }, dir.updated_at),
    ).to.equal(true);
    expect(
      await store.saveGoogleTokens('g-1', 'r1', { accessToken: 'a4' }, dir.updated_at),
      'the refresh token changed',
    ).to.equal(false);
    expect(await store.getDirectory('g-1')).to.deep.include({ google_access_token: 'a3', google_refresh_token: 'r2' });
    expect(await store.saveGoogleTokens('nope', 'r1', { accessToken: 'a4' }, dir.updated_at)).to.equal(false);
    expect(
      await store.saveGoogleTokens(D, undefined, { accessToken: 'a5' }, dir.updated_at),
      'none stored, none expected',
    ).to.equal(true);
    expect((await store.getDirectory(D))?.google_access_token).to.equal('a5');
  });

  it('runs one background sync run per scope at a time, and keeps each run record', async () => {
    expect(await store.claimSyncRun('google:*', 'run-a', 5_000)).to.equal('run-a');
    expect(await store.claimSyncRun('google:*', 'run-b', 5_000), 'joins the run going').to.equal('run-a');
    expect(await store.claimSyncRun('google:dir-1', 'run-b', 5_000), 'another scope').to.equal('run-b');
    expect(await store.currentSyncRun('google:*')).to.equal('run-a');
    expect(await store.renewSyncRun('google:*', 'run-b', 5_000)).to.equal(false);
    await store.releaseSyncRun('google:*', 'run-b');
    expect(await store.currentSyncRun('google:*'), 'only its holder releases it').to.equal('run-a');
    await store.releaseSyncRun('google:*', 'run-a');
    expect(await store.currentSyncRun('google:*')).to.equal(null);
    expect(await store.claimSyncRun('google:*', 'run-c', 50)).to.equal('run-c');
    await new Promise((r) => setTimeout(r, 80));
    expect(await store.renewSyncRun('google:*', 'run-c', 5_000), 'expired').to.equal(false);
    expect(await store.currentSyncRun('google:*')).to.equal(null);
    await store.putSyncRun('run-a', '{"state":"running"}', 5_000);
    await store.putSyncRun('run-a', '{"state":"succeeded"}', 5_000);
    await store.putSyncRun('run-short', '{}', 50);
    expect(await store.getSyncRun('run-a')).to.equal('{"state":"succeeded"}');
    await new Promise((r) => setTimeout(r, 80));
    expect(await store.getSyncRun('run-short')).to.equal(null);
    expect(await store.getSyncRun('nope')).to.equal(null);
    await store.releaseSyncRun('google:dir-1', 'run-b');
  });

  it('keeps the earliest due mark and lists due directories', async () => {
    await store.markDue(D, 5_000);
    await store.markDue(D, 9_000);
    expect(await store.dueDirectories(4_999, 10)).to.deep.equal([]);
    expect(await store.dueDirectories(5_000, 10)).to.deep.equal([D]);
    await store.markDue(D, 1_000);
    expect(await store.dueDirectories(1_000, 10)).to.deep.equal([D]);
    await store.clearDue(D);
    expect(await store.dueDirectories(Date.now(), 10)).to.deep.equal([]);
  });
});

describe('redis store: crash in the middle of a directory delete', () => {
  it('purges what a cut-short cascade left behind when the delete runs again', async () => {
    const store = await freshRedisStore(1);
    try {
      await store.createDirectory(directory('dir-x'));
      await store.createUser('dir-x', res('u1', { userName: 'a' }), { userName: 'a', emails: ['a@x.io'] }, [ev('e')]);
      await store.createGroup(
        'dir-x',
        res('g1', { displayName: 'G' }),
        { displayName: 'G' },
        [{ userId: 'u1', userVersion: 1, event: ev('m') }],
        [],
      );
      // The crash: the record was removed, the batches never ran.
      await store.redis.del('dsync:{dir-x}:dir');
      expect(await store.redis.keys('dsync:{dir-x}:*')).to.not.deep.equal([]);
      expect(await store.deleteDirectory('dir-x')).to.equal(false);
      expect(await store.redis.keys('dsync:{dir-x}:*')).to.deep.equal([]);
    } finally {
      await store.close();
    }
  });
});

describe('redis store: event sequences in the log ids', () => {
  it('an entry an older dsync added (XADD *) reads as sequence 0, and counting goes on after it', async () => {
    const store = await freshRedisStore(1);
    try {
      await store.createDirectory(directory('dir-s'));
      await store.createUser('dir-s', res('u1', { userName: 'a' }), { userName: 'a', emails: [] }, [ev('e1')]);
      await new Promise((r) => setTimeout(r, 2)); // in a millisecond of its own, as almost every such entry is
      await store.redis.xadd('dsync:{dir-s}:ev', '*', 'e', JSON.stringify({ id: 'evt_old', label: 'old' }));
      await store.createUser('dir-s', res('u2', { userName: 'b' }), { userName: 'b', emails: [] }, [ev('e2')]);
      const read = (await store.readEvents('dir-s', null, 10)).map(
        (e) => JSON.parse(e.json) as { label: string; sequence: number },
      );
      expect(read.map((e) => [e.label, e.sequence])).to.deep.equal([
        ['e1', 1],
        ['old', 0],
        ['e2', 2],
      ]);
    } finally {
      await store.close();
    }
  });

  it("never goes below the log's last id: a clock behind the one that wrote it, a counter behind the log", async () => {
    const store = await freshRedisStore(1);
    try {
      await store.createDirectory(directory('dir-c'));
      const ahead = Date.now() + 3_600_000;
      await store.createUser('dir-c', res('u0', { userName: 'z' }), { userName: 'z', emails: [] }, [ev('e0')]);
      // An entry from a clock an hour ahead, with a sequence the counter has not reached.
      await store.redis.xadd(
        'dsync:{dir-c}:ev',
        eventLogId(ahead, 41),
        'e',
        JSON.stringify({ id: 'evt_a', label: 'ahead' }),
      );
      await store.createUser('dir-c', res('u1', { userName: 'a' }), { userName: 'a', emails: [] }, [
        ev('e1'),
        ev('e2'),
      ]);
      const logged = await store.readEvents('dir-c', null, 10);
      expect(logged.map((e) => e.seq).slice(1)).to.deep.equal([
        eventLogId(ahead, 41),
        eventLogId(ahead, 42),
        eventLogId(ahead, 43),
      ]);
      // Emptied by trimming, the log still knows its last id; the counter goes on.
      await store.trimEvents('dir-c', logged[3]!.seq, ahead + 1);
      expect(await store.readEvents('dir-c', null, 10)).to.deep.equal([]);
      await store.createUser('dir-c', res('u2', { userName: 'b' }), { userName: 'b', emails: [] }, [ev('e3')]);
      const [next] = await store.readEvents('dir-c', null, 10);
      expect([next!.seq.split('-')[0], (JSON.parse(next!.json) as { sequence: number }).sequence]).to.deep.equal([
        String(ahead),
        44,
      ]);
    } finally {
      await store.close();
    }
  });
});
