/**
 * A membership change bigger than one chunk is applied in chunks, yet atomically from every
 * client's point of view: readers never see half of it, a change committed by a process that died before
 * applying it is completed by the next reader or writer (with all its events, before later events), and a write
 * that dies while staging leaves nothing visible but a staging list that expires.
 */
import { expect } from 'chai';
import type { PendingEvent, StoredResource } from '../../src/core/model.js';
import type { MemberChange, Store } from '../../src/core/store-port.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { seedUsers } from '../support/big-group.js';
import { STORE_KINDS, openStore } from '../support/harness.js';
import { redisUrl } from '../support/services.js';

const N = 5000; // five chunks
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const event = (label: string): PendingEvent => ({ id: label, json: JSON.stringify({ id: label, event: label }) });
const changes = (users: string[], type: string): MemberChange[] =>
  users.map((userId) => ({ userId, userVersion: 1, event: event(`${type}:${userId}`) }));
const labels = async (store: Store, dir: string) =>
  (await store.readEvents(dir, null, 100_000)).map((e) => (JSON.parse(e.json) as { event: string }).event);

async function setup(store: Store) {
  const dir = `dir-${Math.random().toString(36).slice(2)}`;
  const now = new Date().toISOString();
  await store.createDirectory({
    id: dir,
    name: dir,
    tenant: 't',
    product: 'p',
    type: 'generic-scim-v2',
    log_webhook_events: false,
    deactivated: false,
    scim: { path: '', secret: 's', endpoint: '' },
    webhook: { endpoint: '', secret: '' },
    created_at: now,
    updated_at: now,
  });
  const users = await seedUsers(store, dir, N);
  const group: StoredResource = {
    id: 'g1',
    body: { schemas: [GROUP_SCHEMA], displayName: 'All' },
    created: Date.now(),
    lastModified: Date.now(),
    version: 1,
  };
  expect((await store.createGroup(dir, group, { displayName: 'All' }, [], [event('group.created')])).status).to.equal(
    'ok',
  );
  return { dir, users };
}

for (const kind of STORE_KINDS) {
  describe(`big membership changes are atomic (${kind} store)`, function () {
    this.timeout(60_000);
    let store: Store;
    beforeEach(async () => {
      // 5 s, as DSYNC_REDIS_COMMAND_TIMEOUT can set it: with the suite's other processes on the two cores a command
      // of the 5,000 users' seeding outlasted the 500 ms default. What this suite proves is what readers see; how
      // dsync answers a slow store is store-faults' subject.
      store = await openStore(kind, undefined, { commandTimeout: 5000 });
    });
    afterEach(() => store.close());

    it('readers see all of a 5,000-member change or none of it, while it is applied in chunks', async () => {
      const { dir, users } = await setup(store);
      const seen = new Set<string>();
      let writing = true;
      const reader = (async () => {
        while (writing) {
          const [page, groups] = await Promise.all([
            store.groupMemberIds(dir, 'g1', 0, 0),
            store.userGroupIds(dir, users[N - 1]!),
          ]);
          seen.add(`${page.total}/${groups.length}`);
          await new Promise((r) => setImmediate(r));
        }
      })();
      const added = await store.updateGroup(dir, 'g1', {
        add: changes(users, 'group.user_added'),
        remove: [],
        events: [],
        now: Date.now(),
      });
      const removed = await store.updateGroup(dir, 'g1', {
        add: [],
        remove: changes(users, 'group.user_removed'),
        events: [],
        now: Date.now(),
      });
      writing = false;
      await reader;
      expect(added.status === 'ok' && added.applied.every(Boolean) && added.applied.length === N).to.equal(true);
      expect(removed.status === 'ok' && removed.applied.filter(Boolean).length).to.equal(N);
      expect(
        [...seen].every((s) => s === '0/0' || s === `${N}/1`),
        [...seen].join(' '),
      ).to.equal(true);
      const log = await labels(store, dir);
      expect(log.filter((l) => l.startsWith('group.user_added'))).to.have.length(N);
      expect(log.filter((l) => l.startsWith('group.user_removed'))).to.have.length(N);
    });

    it('deletes a 5,000-member group at once and leaves no user linked to it', async () => {
      const { dir, users } = await setup(store);
      await store.updateGroup(dir, 'g1', {
        add: changes(users, 'group.user_added'),
        remove: [],
        events: [],
        now: Date.now(),
      });
      const group = (await store.getGroup(dir, 'g1'))!;
      expect((await store.deleteGroup(dir, 'g1', group.version, [event('group.deleted')])).status).to.equal('ok');
      expect(await store.getGroup(dir, 'g1')).to.equal(null);
      for (const u of [users[0]!, users[N - 1]!]) expect(await store.userGroupIds(dir, u)).to.deep.equal([]);
      expect((await store.groupMemberIds(dir, 'g1', 0, 10)).total).to.equal(0);
    });
  });
}

/** The Redis store's write-script runner, whose steps these tests cut short or intercept. */
interface WriteSteps {
  drain: () => Promise<void>;
  raw: (name: string, ...rest: unknown[]) => Promise<unknown>;
}
const writesOf = (store: RedisStore): WriteSteps => (store as unknown as { writes: WriteSteps }).writes;

describe('big membership changes survive a crash (redis store)', function () {
  this.timeout(60_000);
  const stores: RedisStore[] = [];
  const open = async () => {
    const s = (await openStore('redis', 3)) as RedisStore;
    stores.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });

  it('a change committed by a process that died before applying it is completed, events first, by the next one', async () => {
    const writer = await open();
    const { dir, users } = await setup(writer);
    // The writer "dies" right after the commit: it never applies the journal.
    writesOf(writer).drain = async () => {};
    expect(
      (
        await writer.updateGroup(dir, 'g1', {
          add: changes(users, 'group.user_added'),
          remove: [],
          events: [],
          now: Date.now(),
        })
      ).status,
    ).to.equal('ok');
    expect(await writer.redis.zcard(`dsync:{${dir}}:m:g1`)).to.be.below(N); // really half-applied underneath

    const other = new RedisStore(`${redisUrl()}/3`);
    stores.push(other);
    expect((await other.groupMemberIds(dir, 'g1', 0, 0)).total).to.equal(N);
    // A user write waits for pending memberships: the user's user_added event precedes its update.
    const u = (await other.getUser(dir, users[N - 1]!))!;
    const updated = await other.updateUser(
      dir,
      u.id,
      u.version,
      u.body,
      { userName: String(u.body.userName), emails: [] },
      [event('user.updated')],
      Date.now(),
    );
    expect(updated.status).to.equal('ok');
    const log = await labels(other, dir);
    expect(log.filter((l) => l.startsWith('group.user_added'))).to.have.length(N);
    expect(log.at(-1)).to.equal('user.updated');
    expect(await other.redis.exists(`dsync:{${dir}}:gj:g1`, `dsync:{${dir}}:gt:g1`)).to.equal(0);
  });

  /** Runs `before` just ahead of the first commit of a staged group write, and counts the script calls. */
  function intercept(store: RedisStore, before: () => Promise<unknown>) {
    const calls: Record<string, number> = {};
    const raw = writesOf(store).raw.bind(writesOf(store));
    let pending: (() => Promise<unknown>) | undefined = before;
    writesOf(store).raw = async (name, ...rest) => {
      calls[name] = (calls[name] ?? 0) + 1;
      if (name === 'dsyncUpdateGroup' && pending) {
        const run = pending;
        pending = undefined;
        await run();
      }
      return raw(name, ...rest);
    };
    return calls;
  }
  const touchUser = async (store: Store, dir: string, id: string) => {
    const u = (await store.getUser(dir, id))!;
    const result = await store.updateUser(
      dir,
      id,
      u.version,
      { ...u.body, title: 'x' },
      { userName: String(u.body.userName), emails: [] },
      [event('user.updated')],
      Date.now(),
    );
    expect(result.status).to.equal('ok');
  };

  it('a user written while a change is staged: commits after re-checking the staged versions, without re-staging', async () => {
    const store = await open();
    const { dir, users } = await setup(store);
    const now = Date.now();
    const other = { id: 'other', body: { userName: 'other@acme.io' }, created: now, lastModified: now, version: 1 };
    await store.createUser(dir, other, { userName: 'other@acme.io', emails: [] }, []);
    const calls = intercept(store, () => touchUser(store, dir, 'other'));
    const result = await store.updateGroup(dir, 'g1', {
      add: changes(users, 'group.user_added'),
      remove: [],
      events: [],
      now: Date.now(),
    });
    expect(result.status === 'ok' && result.applied.filter(Boolean).length).to.equal(N);
    expect(calls).to.include({ dsyncStage: N / 1000, dsyncVerify: N / 1000, dsyncUpdateGroup: 2 });
    expect((await store.groupMemberIds(dir, 'g1', 0, 0)).total).to.equal(N);
  });

  it('a user of the change written while it is staged: the write answers stale (re-read) and stages nothing', async () => {
    const store = await open();
    const { dir, users } = await setup(store);
    intercept(store, () => touchUser(store, dir, users[4321]!));
    const result = await store.updateGroup(dir, 'g1', {
      add: changes(users, 'group.user_added'),
      remove: [],
      events: [],
      now: Date.now(),
    });
    expect(result.status).to.equal('stale');
    expect((await store.groupMemberIds(dir, 'g1', 0, 0)).total).to.equal(0);
    expect(await store.redis.keys(`dsync:{${dir}}:gs:*`)).to.deep.equal([]);
  });

  it('a write that fails before its commit leaves no member, no event, and drops its staging list (which expires anyway)', async () => {
    const store = await open();
    const { dir, users } = await setup(store);
    const raw = writesOf(store).raw.bind(writesOf(store));
    let ttls: number[] = [];
    writesOf(store).raw = async (name, ...rest) => {
      if (name !== 'dsyncUpdateGroup') return raw(name, ...rest);
      // A process dying here would leave the list: it must expire on its own.
      ttls = await Promise.all((await store.redis.keys(`dsync:{${dir}}:gs:*`)).map((k) => store.redis.pttl(k)));
      throw new Error('Command timed out');
    };
    const before = await labels(store, dir);
    let failed: unknown;
    await store
      .updateGroup(dir, 'g1', { add: changes(users, 'group.user_added'), remove: [], events: [], now: Date.now() })
      .catch((err) => (failed = err));
    expect(String(failed)).to.contain('timed out');
    expect(ttls).to.have.length(1);
    expect(ttls[0])
      .to.be.above(0)
      .and.at.most(15 * 60_000);
    expect((await store.groupMemberIds(dir, 'g1', 0, 0)).total).to.equal(0);
    expect(await labels(store, dir)).to.deep.equal(before);
    expect(await store.redis.keys(`dsync:{${dir}}:gs:*`), 'staging lists left behind').to.deep.equal([]);
  });

  it('a change whose writer timed out after the commit is completed by finishPendingWrites (the delivery sweep), with no other request', async () => {
    const writer = await open();
    const { dir, users } = await setup(writer);
    writesOf(writer).drain = async () => {
      throw new Error('Command timed out'); // the IdP gets a 503; the change is committed
    };
    const failed = await writer
      .updateGroup(dir, 'g1', { add: changes(users, 'group.user_added'), remove: [], events: [], now: Date.now() })
      .catch((err: unknown) => err);
    expect(String(failed)).to.contain('timed out');
    expect(await writer.redis.zcard(`dsync:{${dir}}:m:g1`)).to.be.below(N);

    const sweeper = new RedisStore(`${redisUrl()}/3`);
    stores.push(sweeper);
    await sweeper.finishPendingWrites(dir);
    expect(await sweeper.redis.zcard(`dsync:{${dir}}:m:g1`)).to.equal(N);
    expect((await labels(sweeper, dir)).filter((l) => l.startsWith('group.user_added'))).to.have.length(N);
    expect(await sweeper.redis.smembers(`dsync:{${dir}}:gpend`)).to.deep.equal([]);
  });
});
