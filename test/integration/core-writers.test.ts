/** The user and group write use cases of core, called directly (no SCIM), on both stores. */
import { expect } from 'chai';
import type { CommitListener } from '../../src/core/commit.js';
import { DirectoryService } from '../../src/core/directories.js';
import { ConflictError, ContentionError, NotFoundError, ValidationError } from '../../src/core/errors.js';
import { GroupWriter } from '../../src/core/groups.js';
import type { Directory, DirectorySyncEvent, PendingEvent } from '../../src/core/model.js';
import type { Store } from '../../src/core/store-port.js';
import { UserWriter } from '../../src/core/users.js';
import { createDsync } from '../../src/service.js';
import { STORE_KINDS, openStore, until } from '../support/harness.js';
import { hooked } from '../support/hooked-store.js';

const SCHEMA_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const SCHEMA_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const person = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [SCHEMA_USER],
  userName,
  ...extra,
});
const team = (displayName: string) => ({ schemas: [SCHEMA_GROUP], displayName });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

for (const kind of STORE_KINDS) {
  describe(`core writers (${kind} store)`, () => {
    let store: Store;
    let dir: Directory;
    let told: Array<{ directoryId: string; events: Parameters<CommitListener>[1] }>;
    let users: UserWriter;
    let groups: GroupWriter;
    const wire = (s: Store) => {
      const committed: CommitListener = (directoryId, events) => void told.push({ directoryId, events });
      users = new UserWriter({ store: s, committed });
      groups = new GroupWriter({ store: s, committed });
    };
    const logged = async (): Promise<DirectorySyncEvent[]> =>
      (await store.readEvents(dir.id, null, 1000)).map((e) => JSON.parse(e.json) as DirectorySyncEvent);
    const types = async () => (await logged()).map((e) => e.event);

    beforeEach(async () => {
      store = await openStore(kind, 9);
      const directories = new DirectoryService({ store, externalUrl: 'https://dsync.example' });
      dir = await directories.create({ name: 'Acme', tenant: 'acme', product: 'app', type: 'okta-scim-v2' });
      told = [];
      wire(store);
    });
    afterEach(() => store.close());

    it('creates, updates and deletes a user, one event each, told to the listener and the call', async () => {
      const own: string[] = [];
      const onCommitted = (events: PendingEvent[]) => own.push(...events.map((e) => e.id));
      const user = await users.create(dir, person('ada@acme.io'), { id: 'u-ada', onCommitted });
      expect(user).to.include({ id: 'u-ada', version: 1 });
      const updated = await users.update(dir, 'u-ada', (current) => ({ ...current.body, title: 'Countess' }), {
        onCommitted,
      });
      expect(updated.version).to.equal(2);
      expect(updated.body.title).to.equal('Countess');
      await users.delete(dir, 'u-ada', { onCommitted });
      expect(await store.getUser(dir.id, 'u-ada')).to.equal(null);
      const events = await logged();
      expect(events.map((e) => e.event)).to.deep.equal(['user.created', 'user.updated', 'user.deleted']);
      expect(events[1]!.previous_attributes).to.deep.equal({ attributes: { job_title: null }, raw: { title: null } });
      expect(told.map((t) => t.directoryId)).to.deep.equal([dir.id, dir.id, dir.id]);
      expect(told.flatMap((t) => t.events.map((e) => e.id))).to.deep.equal(events.map((e) => e.id));
      expect(own).to.deep.equal(events.map((e) => e.id));
    });

    it('commits nothing when the change is undefined or changes nothing', async () => {
      await users.create(dir, person('ada@acme.io'), { id: 'u1' });
      expect((await users.update(dir, 'u1', () => undefined)).version).to.equal(1);
      expect((await users.update(dir, 'u1', (current) => ({ ...current.body }))).version).to.equal(1);
      expect(await types()).to.deep.equal(['user.created']);
      expect(told).to.have.length(1);
    });

    it('refuses a taken userName with ConflictError (409), on create and on update', async () => {
      await users.create(dir, person('ada@acme.io'), { id: 'u1' });
      await users.create(dir, person('bob@acme.io'), { id: 'u2' });
      const onCreate = await rejection(users.create(dir, person('ADA@acme.io')));
      expect(onCreate).to.be.instanceOf(ConflictError).and.include({ status: 409, code: 'DSYNC_CONFLICT' });
      const onUpdate = await rejection(users.update(dir, 'u2', (c) => ({ ...c.body, userName: 'ada@acme.io' })));
      expect(onUpdate).to.be.instanceOf(ConflictError);
      expect(await store.countUsers(dir.id)).to.equal(2);
      expect(await types()).to.deep.equal(['user.created', 'user.created']);
    });

    it('answers NotFoundError (404) for a missing user or group, and ValidationError for a control character', async () => {
      expect(await rejection(users.update(dir, 'nope', (c) => c.body)))
        .to.be.instanceOf(NotFoundError)
        .and.include({ status: 404 });
      expect(await rejection(groups.delete(dir, 'nope'))).to.be.instanceOf(NotFoundError);
      const bad = await rejection(users.create(dir, person('a\u0007b@acme.io')));
      expect(bad).to.be.instanceOf(ValidationError).and.include({ status: 400, field: 'userName' });
      expect(await store.countUsers(dir.id)).to.equal(0);
    });

    it('creates a group with its members (unknown users skipped) and changes membership by deltas', async () => {
      await users.create(dir, person('ada@acme.io'), { id: 'u1' });
      await users.create(dir, person('bob@acme.io'), { id: 'u2' });
      await users.create(dir, person('cy@acme.io'), { id: 'u3' });
      await groups.create(dir, team('Eng'), [{ value: 'u1', display: 'Ada' }, { value: 'ghost' }, { value: 'u1' }], {
        id: 'g1',
      });
      expect((await store.groupMemberIds(dir.id, 'g1', 0, 10)).items).to.deep.equal(['u1']);
      told = [];
      await groups.addMembers(dir, 'g1', [{ value: 'u1' }, { value: 'u2' }, { value: 'u3' }]);
      await groups.removeMembers(dir, 'g1', ['u3', 'u3', 'ghost']);
      expect((await store.groupMemberIds(dir.id, 'g1', 0, 10)).items).to.deep.equal(['u1', 'u2']);
      const events = await logged();
      const membership = events.slice(4).map((e) => `${e.event}:${(e.data as { id: string }).id}`);
      expect(events.slice(3, 4).map((e) => e.event)).to.deep.equal(['group.created']);
      expect(membership).to.deep.equal([
        'group.user_added:u1',
        'group.user_added:u2',
        'group.user_added:u3',
        'group.user_removed:u3',
      ]);
      // Only real changes are events: u1 was a member already.
      expect(told.flatMap((t) => t.events)).to.have.length(3);
    });

    it('updates a group body and replaces its members with a full list', async () => {
      for (const id of ['u1', 'u2', 'u3']) await users.create(dir, person(`${id}@acme.io`), { id });
      await groups.create(dir, team('Eng'), [{ value: 'u1' }, { value: 'u2' }], { id: 'g1' });
      const renamed = await groups.update(dir, 'g1', (current) => ({
        body: { ...current.body, displayName: 'Engineering' },
        target: [{ value: 'u2' }, { value: 'u3', display: 'Cy' }],
      }));
      expect(renamed).to.include({ version: 2 });
      expect(renamed.body.displayName).to.equal('Engineering');
      expect((await store.groupMemberIds(dir.id, 'g1', 0, 10)).items).to.have.members(['u2', 'u3']);
      expect(await store.memberDisplays(dir.id, 'g1', ['u3'])).to.deep.equal(['Cy']);
      expect((await types()).slice(6)).to.deep.equal(['group.updated', 'group.user_removed', 'group.user_added']);
    });

    it('deletes a user: group.user_removed for each of its groups, then user.deleted', async () => {
      await users.create(dir, person('ada@acme.io'), { id: 'u1' });
      await groups.create(dir, team('Eng'), [{ value: 'u1' }], { id: 'g1' });
      await groups.create(dir, team('Ops'), [{ value: 'u1' }], { id: 'g2' });
      told = [];
      await users.delete(dir, 'u1');
      const last = (await logged()).slice(-3);
      expect(last.map((e) => e.event)).to.deep.equal(['group.user_removed', 'group.user_removed', 'user.deleted']);
      expect(last.slice(0, 2).map((e) => (e.data as { group: { id: string } }).group.id)).to.have.members(['g1', 'g2']);
      expect(await store.userGroupIds(dir.id, 'u1')).to.deep.equal([]);
      expect(told).to.have.length(1);
      await groups.delete(dir, 'g1');
      expect((await types()).at(-1)).to.equal('group.deleted');
    });

    it('re-reads and recomputes when another write lands between its read and its commit (stale)', async () => {
      await users.create(dir, person('ada@acme.io', { title: 'a' }), { id: 'u1' });
      const race = hooked(store);
      wire(race.store);
      const other = new UserWriter({ store, committed: () => {} });
      race.before('updateUser', async () => {
        await other.update(dir, 'u1', (c) => ({ ...c.body, nickName: 'Countess' }));
      });
      const seen: unknown[] = [];
      const result = await users.update(dir, 'u1', (current) => {
        seen.push(current.body.nickName);
        return { ...current.body, title: 'b' };
      });
      // The first attempt read no nickName and was refused; the second saw the concurrent write and kept it.
      expect(seen).to.deep.equal([undefined, 'Countess']);
      expect(result.body).to.include({ title: 'b', nickName: 'Countess' });
      expect(result.version).to.equal(3);
      expect(await types()).to.deep.equal(['user.created', 'user.updated', 'user.updated']);
    });

    it('gives up with ContentionError (503, Retry-After) when every attempt is stale', async () => {
      await users.create(dir, person('ada@acme.io'), { id: 'u1' });
      let attempts = 0;
      const alwaysStale = new Proxy(store, {
        get: (target, prop, receiver) =>
          prop === 'updateUser'
            ? async () => (attempts++, { status: 'stale' as const })
            : Reflect.get(target, prop, receiver),
      });
      wire(alwaysStale);
      const err = await rejection(users.update(dir, 'u1', (c) => ({ ...c.body, title: 'x' })));
      expect(err).to.be.instanceOf(ContentionError).and.include({ status: 503, retryAfter: 1 });
      expect(attempts).to.equal(20);
      expect(await types()).to.deep.equal(['user.created']);
    });

    it('refuses a write whose precondition throws, before committing anything', async () => {
      await users.create(dir, person('ada@acme.io'), { id: 'u1' });
      const refused = new Error('version mismatch');
      const precondition = (current: { version: number }) => {
        if (current.version !== 7) throw refused;
      };
      expect(await rejection(users.delete(dir, 'u1', { precondition }))).to.equal(refused);
      expect(await store.getUser(dir.id, 'u1')).to.not.equal(null);
      expect(await types()).to.deep.equal(['user.created']);
    });
  });
}

describe('core writers wired by the service', () => {
  it('delivers what dsync.users and dsync.groups commit, like a SCIM write (the listener wakes delivery)', async () => {
    const delivered: string[] = [];
    const dsync = createDsync({
      store: await openStore('memory'),
      externalUrl: 'https://dsync.example',
      eventCallback: (event) => void delivered.push(event.event),
      delivery: { pollIntervalMs: 60_000, sweepIntervalMs: 60_000 },
    });
    try {
      dsync.start();
      const dir = await dsync.directories.create({ name: 'Acme', tenant: 'acme', product: 'app', type: 'google' });
      const user = await dsync.users.create(dir, person('ada@acme.io'));
      await dsync.groups.create(dir, team('Eng'), [{ value: user.id }]);
      // Long poll and sweep intervals: only the writers' listener can have woken delivery this soon.
      await until(
        () => delivered.length === 3,
        () => `3 events, got ${JSON.stringify(delivered)}`,
        3000,
      );
      expect(delivered).to.deep.equal(['user.created', 'group.created', 'group.user_added']);
    } finally {
      await dsync.close();
    }
  });
});
