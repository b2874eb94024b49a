/** One contract, two adapters: the memory store must behave exactly like the Redis store. */
import { expect } from 'chai';
import { withSequence } from '../../src/core/event-sequence.js';
import type { Directory, PendingEvent, StoredResource } from '../../src/core/model.js';
import { MemoryStore } from '../../src/store/memory.js';
import { eventLogId } from '../../src/store/redis-event-ids.js';
import type { Store } from '../../src/core/store-port.js';
import { freshRedisStore, freshReplicatedStore } from '../support/services.js';

let n = 0;
const ev = (label: string): PendingEvent => ({ id: `evt_${++n}`, json: JSON.stringify({ id: `evt_${n}`, label }) });
const labels = async (store: Store, dir: string) =>
  (await store.readEvents(dir, null, 1000)).map((e) => (JSON.parse(e.json) as { label: string }).label);

function directory(id: string): Directory {
  const now = new Date().toISOString();
  return {
    id,
    name: id,
    tenant: 't',
    product: 'p',
    type: 'generic-scim-v2',
    log_webhook_events: false,
    deactivated: false,
    scim: { path: `/api/scim/v2.0/${id}`, secret: 's', endpoint: `http://x/api/scim/v2.0/${id}` },
    webhook: { endpoint: '', secret: '' },
    created_at: now,
    updated_at: now,
  };
}

const res = (id: string, body: Record<string, unknown>, created = Date.now()): StoredResource => ({
  id,
  body,
  created,
  lastModified: created,
  version: 1,
});

function contract(name: string, open: () => Promise<Store>) {
  describe(`store contract: ${name}`, () => {
    let store: Store;
    const D = 'dir-1';
    beforeEach(async () => {
      store = await open();
      await store.createDirectory(directory(D));
    });
    afterEach(() => store.close());

    it('creates users and enforces case-insensitive userName uniqueness', async () => {
      const first = await store.createUser(D, res('u1', { userName: 'Ann@x.io' }), { userName: 'Ann@x.io', emails: [] }, [ev('c1')]);
      expect(first).to.include({ status: 'ok', version: 1 });
      const dup = await store.createUser(D, res('u2', { userName: 'ann@X.IO' }), { userName: 'ann@X.IO', emails: [] }, [ev('c2')]);
      expect(dup.status).to.equal('conflict');
      expect(await store.getUser(D, 'u2')).to.equal(null);
      expect(await labels(store, D)).to.deep.equal(['c1']);
    });

    it('gives exactly one winner among concurrent duplicate creates', async () => {
      const results = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          store.createUser(D, res(`c${i}`, { userName: 'same' }), { userName: 'SAME', emails: [] }, [ev(`c${i}`)]),
        ),
      );
      expect(results.filter((r) => r.status === 'ok')).to.have.length(1);
      expect(results.filter((r) => r.status === 'conflict')).to.have.length(24);
      expect(await labels(store, D)).to.have.length(1);
    });

    it('finds users by userName, externalId and email, and re-indexes on update', async () => {
      await store.createUser(D, res('u1', { userName: 'a' }), { userName: 'A', externalId: 'ext-1', emails: ['A@x.io', 'a2@x.io'] }, []);
      await store.createUser(D, res('u2', { userName: 'b' }), { userName: 'b', externalId: 'ext-2', emails: ['a@X.io'] }, []);
      expect(await store.findUserIds(D, 'userName', 'a')).to.deep.equal(['u1']);
      expect(await store.findUserIds(D, 'externalId', 'ext-2')).to.deep.equal(['u2']);
      expect(await store.findUserIds(D, 'externalId', 'EXT-2')).to.deep.equal([]);
      expect((await store.findUserIds(D, 'email', 'a@x.io')).sort()).to.deep.equal(['u1', 'u2']);

      const upd = await store.updateUser(D, 'u1', 1, { userName: 'c' }, { userName: 'c', emails: ['c@x.io'] }, [ev('u')], Date.now() + 5);
      expect(upd).to.include({ status: 'ok', version: 2 });
      expect(await store.findUserIds(D, 'userName', 'a')).to.deep.equal([]);
      expect(await store.findUserIds(D, 'userName', 'C')).to.deep.equal(['u1']);
      expect(await store.findUserIds(D, 'externalId', 'ext-1')).to.deep.equal([]);
      expect(await store.findUserIds(D, 'email', 'a@x.io')).to.deep.equal(['u2']);
      expect(await store.findUserIds(D, 'email', 'c@x.io')).to.deep.equal(['u1']);
      expect((await store.getUser(D, 'u1'))!.body).to.deep.equal({ userName: 'c' });
    });

    it('refuses stale, conflicting and missing updates without side effects', async () => {
      await store.createUser(D, res('u1', { userName: 'a' }), { userName: 'a', emails: [] }, []);
      await store.createUser(D, res('u2', { userName: 'b' }), { userName: 'b', emails: [] }, []);
      expect((await store.updateUser(D, 'u1', 7, {}, { userName: 'a', emails: [] }, [ev('x')], 1)).status).to.equal('stale');
      expect((await store.updateUser(D, 'u1', 1, {}, { userName: 'B', emails: [] }, [ev('x')], 1)).status).to.equal('conflict');
      expect((await store.updateUser(D, 'nope', 1, {}, { userName: 'z', emails: [] }, [ev('x')], 1)).status).to.equal('missing');
      expect(await labels(store, D)).to.deep.equal([]);
      expect(await store.findUserIds(D, 'userName', 'a')).to.deep.equal(['u1']);
    });

    it('pages users in creation order with a true total', async () => {
      for (let i = 0; i < 12; i++) {
        await store.createUser(D, res(`u${i}`, { userName: `n${i}` }, 1000 + i), { userName: `n${i}`, emails: [] }, []);
      }
      const page = await store.listUsers(D, 5, 4);
      expect(page.total).to.equal(12);
      expect(page.items.map((u) => u.id)).to.deep.equal(['u5', 'u6', 'u7', 'u8']);
      expect((await store.listUsers(D, 11, 10)).items.map((u) => u.id)).to.deep.equal(['u11']);
      expect(await store.countUsers(D)).to.equal(12);
    });

    it('keeps group members as a set and emits membership events only on real change', async () => {
      await store.createUser(D, res('u1', { userName: 'a' }), { userName: 'a', emails: [] }, []);
      await store.createUser(D, res('u2', { userName: 'b' }), { userName: 'b', emails: [] }, []);
      const created = await store.createGroup(
        D,
        res('g1', { displayName: 'Eng' }),
        { displayName: 'Eng' },
        [
          { userId: 'u1', userVersion: 1, event: ev('add-u1') },
          { userId: 'ghost', userVersion: 1, event: ev('add-ghost') },
        ],
        [ev('g-created')],
      );
      expect(created).to.deep.include({ status: 'ok', version: 1, applied: [true, false] });
      const again = await store.updateGroup(D, 'g1', {
        add: [
          { userId: 'u1', userVersion: 1, event: ev('add-u1-again') },
          { userId: 'u2', userVersion: 1, event: ev('add-u2') },
        ],
        remove: [{ userId: 'u9', userVersion: 1, event: ev('rm-u9') }],
        events: [],
        now: Date.now(),
      });
      expect(again).to.deep.include({ status: 'ok', version: 2, applied: [false, false, true] });
      const noop = await store.updateGroup(D, 'g1', { add: [{ userId: 'u2', userVersion: 1, event: ev('noop') }], remove: [], events: [], now: Date.now() });
      expect(noop).to.deep.include({ status: 'ok', version: 2, applied: [false] });
      expect((await store.groupMemberIds(D, 'g1', 0, 10)).items).to.deep.equal(['u1', 'u2']);
      expect(await store.userGroupIds(D, 'u2')).to.deep.equal(['g1']);
      expect(await labels(store, D)).to.deep.equal(['g-created', 'add-u1', 'add-u2']);
    });

    it('keeps client-sent member displays until the member leaves', async () => {
      await store.createUser(D, res('u1', { userName: 'a' }), { userName: 'a', emails: [] }, []);
      await store.createUser(D, res('u2', { userName: 'b' }), { userName: 'b', emails: [] }, []);
      await store.createGroup(D, res('g1', { displayName: 'G' }), { displayName: 'G' }, [{ userId: 'u1', userVersion: 1, event: ev('a1'), display: 'Ann' }], []);
      expect(await store.memberDisplays(D, 'g1', ['u1', 'u2'])).to.deep.equal(['Ann', null]);
      await store.updateGroup(D, 'g1', {
        add: [{ userId: 'u2', userVersion: 1, event: ev('a2'), display: 'Bob' }],
        remove: [],
        events: [],
        displays: [{ userId: 'u1', display: 'Annie' }, { userId: 'ghost', display: 'x' }],
        now: 1,
      });
      expect(await store.memberDisplays(D, 'g1', ['u1', 'u2', 'ghost'])).to.deep.equal(['Annie', 'Bob', null]);
      await store.updateGroup(D, 'g1', { add: [], remove: [{ userId: 'u1', userVersion: 1, event: ev('r1') }], events: [], now: 2 });
      expect(await store.memberDisplays(D, 'g1', ['u1'])).to.deep.equal([null]);
    });

    it('applies one write\'s changes of the same member in order: a member removed and added back goes last, a second add is no change', async () => {
      for (const id of ['u1', 'u2', 'u3']) await store.createUser(D, res(id, { userName: id }), { userName: id, emails: [] }, []);
      const member = (userId: string, label: string, display?: string) => ({ userId, userVersion: 1, event: ev(label), ...(display && { display }) });
      await store.createGroup(D, res('g1', { displayName: 'G' }), { displayName: 'G' }, [member('u1', 'a1', 'Ann'), member('u2', 'a2', 'Bo')], []);
      const moved = await store.updateGroup(D, 'g1', {
        add: [member('u1', 'a1-back'), member('u3', 'a3', 'Cy'), member('u3', 'a3-again')],
        remove: [member('u1', 'r1'), member('u2', 'r2')],
        events: [],
        now: 1,
      });
      expect(moved).to.deep.include({ status: 'ok', version: 2, applied: [true, true, true, true, false] });
      expect((await store.groupMemberIds(D, 'g1', 0, 10)).items).to.deep.equal(['u1', 'u3']);
      expect(await store.memberDisplays(D, 'g1', ['u1', 'u2', 'u3'])).to.deep.equal([null, null, 'Cy']);
      expect(await store.userGroupIds(D, 'u1')).to.deep.equal(['g1']);
      expect(await store.userGroupIds(D, 'u2')).to.deep.equal([]);
      expect(await labels(store, D)).to.deep.equal(['a1', 'a2', 'r1', 'r2', 'a1-back', 'a3']);
    });

    it('refuses membership writes whose events were built from data that changed since (stale)', async () => {
      await store.createUser(D, res('u1', { userName: 'a' }), { userName: 'a', emails: [] }, []);
      await store.updateUser(D, 'u1', 1, { userName: 'a', displayName: 'Ann' }, { userName: 'a', emails: [] }, [], 1);
      const staleUser = { userId: 'u1', userVersion: 1, event: ev('stale-add') };
      expect((await store.createGroup(D, res('g1', { displayName: 'G' }), { displayName: 'G' }, [staleUser], [ev('c')])).status).to.equal('stale');
      expect(await store.getGroup(D, 'g1')).to.equal(null);
      await store.createGroup(D, res('g1', { displayName: 'G' }), { displayName: 'G' }, [], []);
      expect((await store.updateGroup(D, 'g1', { add: [staleUser], remove: [], events: [], now: 2 })).status).to.equal('stale');
      const wrongBody = await store.updateGroup(D, 'g1', {
        expectedBody: JSON.stringify({ displayName: 'Old' }),
        add: [{ userId: 'u1', userVersion: 2, event: ev('add') }],
        remove: [],
        events: [],
        now: 2,
      });
      expect(wrongBody.status).to.equal('stale');
      const fresh = await store.updateGroup(D, 'g1', {
        expectedBody: JSON.stringify({ displayName: 'G' }),
        add: [{ userId: 'u1', userVersion: 2, event: ev('add') }],
        remove: [],
        events: [],
        now: 2,
      });
      expect(fresh).to.deep.include({ status: 'ok', applied: [true] });
      expect((await store.deleteUser(D, 'u1', 2, [{ id: 'g1', version: 1 }], [ev('del')], 3)).status).to.equal('stale');
      expect((await store.deleteUser(D, 'u1', 2, [{ id: 'g1', version: 2 }], [ev('del')], 3)).status).to.equal('ok');
      expect(await labels(store, D)).to.deep.equal(['add', 'del']);
    });

    it('renames groups with displayName uniqueness and version checks', async () => {
      await store.createGroup(D, res('g1', { displayName: 'A' }), { displayName: 'A' }, [], []);
      await store.createGroup(D, res('g2', { displayName: 'B' }), { displayName: 'B', externalId: 'e2' }, [], []);
      const clash = await store.updateGroup(D, 'g1', { body: { displayName: 'b' }, keys: { displayName: 'b' }, expectedVersion: 1, add: [], remove: [], events: [], now: 1 });
      expect(clash.status).to.equal('conflict');
      const stale = await store.updateGroup(D, 'g1', { body: { displayName: 'C' }, keys: { displayName: 'C' }, expectedVersion: 3, add: [], remove: [], events: [], now: 1 });
      expect(stale.status).to.equal('stale');
      const renamed = await store.updateGroup(D, 'g1', { body: { displayName: 'C' }, keys: { displayName: 'C' }, expectedVersion: 1, add: [], remove: [], events: [ev('renamed')], now: 1 });
      expect(renamed.status).to.equal('ok');
      expect(await store.findGroupIds(D, 'displayName', 'a')).to.deep.equal([]);
      expect(await store.findGroupIds(D, 'displayName', 'c')).to.deep.equal(['g1']);
      expect(await store.findGroupIds(D, 'externalId', 'e2')).to.deep.equal(['g2']);
      expect(await labels(store, D)).to.deep.equal(['renamed']);
    });

    it('deletes a user with its memberships, refusing when its groups changed since read', async () => {
      await store.createUser(D, res('u1', { userName: 'a' }), { userName: 'a', externalId: 'x', emails: ['a@x.io'] }, []);
      await store.createGroup(D, res('g1', { displayName: 'G1' }), { displayName: 'G1' }, [{ userId: 'u1', userVersion: 1, event: ev('add') }], []);
      expect((await store.deleteUser(D, 'u1', 1, [], [ev('del')], Date.now())).status).to.equal('stale');
      const del = await store.deleteUser(D, 'u1', 1, [{ id: 'g1', version: 1 }], [ev('removed'), ev('del')], Date.now());
      expect(del.status).to.equal('ok');
      expect(await store.getUser(D, 'u1')).to.equal(null);
      expect((await store.groupMemberIds(D, 'g1', 0, 10)).total).to.equal(0);
      expect(await store.findUserIds(D, 'userName', 'a')).to.deep.equal([]);
      expect(await store.findUserIds(D, 'email', 'a@x.io')).to.deep.equal([]);
      expect(await store.findUserIds(D, 'externalId', 'x')).to.deep.equal([]);
      expect((await store.getGroup(D, 'g1'))!.version).to.equal(2);
      expect(await labels(store, D)).to.deep.equal(['add', 'removed', 'del']);
    });

    it('deletes a group and every membership of it', async () => {
      await store.createUser(D, res('u1', { userName: 'a' }), { userName: 'a', emails: [] }, []);
      await store.createGroup(D, res('g1', { displayName: 'G' }), { displayName: 'G', externalId: 'e' }, [{ userId: 'u1', userVersion: 1, event: ev('add') }], []);
      expect((await store.deleteGroup(D, 'g1', 5, [ev('x')])).status).to.equal('stale');
      expect((await store.deleteGroup(D, 'g1', 1, [ev('gone')])).status).to.equal('ok');
      expect(await store.getGroup(D, 'g1')).to.equal(null);
      expect(await store.userGroupIds(D, 'u1')).to.deep.equal([]);
      expect(await store.findGroupIds(D, 'displayName', 'g')).to.deep.equal([]);
      expect(await store.countGroups(D)).to.equal(0);
    });

    it('reads the event log after a cursor, trims it, and reports the newest seq', async () => {
      await store.createUser(D, res('u1', { userName: 'a' }), { userName: 'a', emails: [] }, [ev('e1'), ev('e2'), ev('e3')]);
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
      await store.createGroup(D, res('g1', { displayName: 'G' }), { displayName: 'G' }, [{ userId: 'u1', userVersion: 1, event: ev('m') }], [ev('g')]);
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
      await store.createGroup(D, res('g1', { displayName: 'G' }), { displayName: 'G' }, [{ userId: 'u1', userVersion: 1, event: ev('m') }], []);
      expect(await store.deleteDirectory(D)).to.equal(true);
      expect(await store.getDirectory(D)).to.equal(null);
      expect(await store.getUser(D, 'u1')).to.equal(null);
      expect(await store.countUsers(D)).to.equal(0);
      expect(await store.readEvents(D, null, 10)).to.deep.equal([]);
      expect((await store.createUser(D, res('u2', { userName: 'b' }), { userName: 'b', emails: [] }, [])).status).to.equal('missing');
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
      expect({ ...after, webhook_disabled_at: undefined }).to.deep.equal({ ...d, webhook: { endpoint: 'https://new.example.com/h', secret: 's' }, webhook_disabled_at: undefined });
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
      expect(await store.getDirectory('g-1')).to.deep.equal({ ...dir, name: 'renamed', google_access_token: 'a2', updated_at: '2030-01-01T00:00:00.000Z' });
      expect(await store.saveGoogleTokens('g-1', 'r1', { accessToken: 'a3', refreshToken: 'r2' }, dir.updated_at)).to.equal(true);
      expect(await store.saveGoogleTokens('g-1', 'r1', { accessToken: 'a4' }, dir.updated_at), 'the refresh token changed').to.equal(false);
      expect(await store.getDirectory('g-1')).to.deep.include({ google_access_token: 'a3', google_refresh_token: 'r2' });
      expect(await store.saveGoogleTokens('nope', 'r1', { accessToken: 'a4' }, dir.updated_at)).to.equal(false);
      expect(await store.saveGoogleTokens(D, undefined, { accessToken: 'a5' }, dir.updated_at), 'none stored, none expected').to.equal(true);
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
}

contract('memory', async () => new MemoryStore());
contract('redis', () => freshRedisStore(1));
contract('redis cluster, WAIT 1', () => freshReplicatedStore('cluster'));
contract('redis sentinel, WAIT 1', () => freshReplicatedStore('sentinel'));

describe('redis store: crash in the middle of a directory delete', () => {
  it('purges what a cut-short cascade left behind when the delete runs again', async () => {
    const store = await freshRedisStore(1);
    try {
      await store.createDirectory(directory('dir-x'));
      await store.createUser('dir-x', res('u1', { userName: 'a' }), { userName: 'a', emails: ['a@x.io'] }, [ev('e')]);
      await store.createGroup('dir-x', res('g1', { displayName: 'G' }), { displayName: 'G' }, [{ userId: 'u1', userVersion: 1, event: ev('m') }], []);
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
      const read = (await store.readEvents('dir-s', null, 10)).map((e) => JSON.parse(e.json) as { label: string; sequence: number });
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
      await store.redis.xadd('dsync:{dir-c}:ev', eventLogId(ahead, 41), 'e', JSON.stringify({ id: 'evt_a', label: 'ahead' }));
      await store.createUser('dir-c', res('u1', { userName: 'a' }), { userName: 'a', emails: [] }, [ev('e1'), ev('e2')]);
      const logged = await store.readEvents('dir-c', null, 10);
      expect(logged.map((e) => e.seq).slice(1)).to.deep.equal([eventLogId(ahead, 41), eventLogId(ahead, 42), eventLogId(ahead, 43)]);
      // Emptied by trimming, the log still knows its last id; the counter goes on.
      await store.trimEvents('dir-c', logged[3]!.seq, ahead + 1);
      expect(await store.readEvents('dir-c', null, 10)).to.deep.equal([]);
      await store.createUser('dir-c', res('u2', { userName: 'b' }), { userName: 'b', emails: [] }, [ev('e3')]);
      const [next] = await store.readEvents('dir-c', null, 10);
      expect([next!.seq.split('-')[0], (JSON.parse(next!.json) as { sequence: number }).sequence]).to.deep.equal([String(ahead), 44]);
    } finally {
      await store.close();
    }
  });
});
