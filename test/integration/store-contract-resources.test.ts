/**
 * The store contract (test/support/store-contract.ts), users, groups and memberships: uniqueness, lookups, versions,
 * member sets and their events, deletes.
 */
import { expect } from 'chai';
import type { Store } from '../../src/core/store-port.js';
import { D, ev, labels, res, storeContract } from '../support/store-contract.js';

storeContract((current) => {
  let store: Store;
  beforeEach(() => {
    store = current();
  });

  it('creates users and enforces case-insensitive userName uniqueness', async () => {
    const first = await store.createUser(D, res('u1', { userName: 'Ann@x.io' }), { userName: 'Ann@x.io', emails: [] }, [
      ev('c1'),
    ]);
    expect(first).to.include({ status: 'ok', version: 1 });
    const dup = await store.createUser(D, res('u2', { userName: 'ann@X.IO' }), { userName: 'ann@X.IO', emails: [] }, [
      ev('c2'),
    ]);
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
    await store.createUser(
      D,
      res('u1', { userName: 'a' }),
      { userName: 'A', externalId: 'ext-1', emails: ['A@x.io', 'a2@x.io'] },
      [],
    );
    await store.createUser(
      D,
      res('u2', { userName: 'b' }),
      { userName: 'b', externalId: 'ext-2', emails: ['a@X.io'] },
      [],
    );
    expect(await store.findUserIds(D, 'userName', 'a')).to.deep.equal(['u1']);
    expect(await store.findUserIds(D, 'externalId', 'ext-2')).to.deep.equal(['u2']);
    expect(await store.findUserIds(D, 'externalId', 'EXT-2')).to.deep.equal([]);
    expect((await store.findUserIds(D, 'email', 'a@x.io')).sort()).to.deep.equal(['u1', 'u2']);

    const upd = await store.updateUser(
      D,
      'u1',
      1,
      { userName: 'c' },
      { userName: 'c', emails: ['c@x.io'] },
      [ev('u')],
      Date.now() + 5,
    );
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
    expect((await store.updateUser(D, 'u1', 7, {}, { userName: 'a', emails: [] }, [ev('x')], 1)).status).to.equal(
      'stale',
    );
    expect((await store.updateUser(D, 'u1', 1, {}, { userName: 'B', emails: [] }, [ev('x')], 1)).status).to.equal(
      'conflict',
    );
    expect((await store.updateUser(D, 'nope', 1, {}, { userName: 'z', emails: [] }, [ev('x')], 1)).status).to.equal(
      'missing',
    );
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
    const noop = await store.updateGroup(D, 'g1', {
      add: [{ userId: 'u2', userVersion: 1, event: ev('noop') }],
      remove: [],
      events: [],
      now: Date.now(),
    });
    expect(noop).to.deep.include({ status: 'ok', version: 2, applied: [false] });
    expect((await store.groupMemberIds(D, 'g1', 0, 10)).items).to.deep.equal(['u1', 'u2']);
    expect(await store.userGroupIds(D, 'u2')).to.deep.equal(['g1']);
    expect(await labels(store, D)).to.deep.equal(['g-created', 'add-u1', 'add-u2']);
  });

  it('keeps client-sent member displays until the member leaves', async () => {
    await store.createUser(D, res('u1', { userName: 'a' }), { userName: 'a', emails: [] }, []);
    await store.createUser(D, res('u2', { userName: 'b' }), { userName: 'b', emails: [] }, []);
    await store.createGroup(
      D,
      res('g1', { displayName: 'G' }),
      { displayName: 'G' },
      [{ userId: 'u1', userVersion: 1, event: ev('a1'), display: 'Ann' }],
      [],
    );
    expect(await store.memberDisplays(D, 'g1', ['u1', 'u2'])).to.deep.equal(['Ann', null]);
    await store.updateGroup(D, 'g1', {
      add: [{ userId: 'u2', userVersion: 1, event: ev('a2'), display: 'Bob' }],
      remove: [],
      events: [],
      displays: [
        { userId: 'u1', display: 'Annie' },
        { userId: 'ghost', display: 'x' },
      ],
      now: 1,
    });
    expect(await store.memberDisplays(D, 'g1', ['u1', 'u2', 'ghost'])).to.deep.equal(['Annie', 'Bob', null]);
    await store.updateGroup(D, 'g1', {
      add: [],
      remove: [{ userId: 'u1', userVersion: 1, event: ev('r1') }],
      events: [],
      now: 2,
    });
    expect(await store.memberDisplays(D, 'g1', ['u1'])).to.deep.equal([null]);
  });

  it("applies one write's changes of the same member in order: a member removed and added back goes last, a second add is no change", async () => {
    for (const id of ['u1', 'u2', 'u3'])
      await store.createUser(D, res(id, { userName: id }), { userName: id, emails: [] }, []);
    const member = (userId: string, label: string, display?: string) => ({
      userId,
      userVersion: 1,
      event: ev(label),
      ...(display && { display }),
    });
    await store.createGroup(
      D,
      res('g1', { displayName: 'G' }),
      { displayName: 'G' },
      [member('u1', 'a1', 'Ann'), member('u2', 'a2', 'Bo')],
      [],
    );
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
    expect(
      (await store.createGroup(D, res('g1', { displayName: 'G' }), { displayName: 'G' }, [staleUser], [ev('c')]))
        .status,
    ).to.equal('stale');
    expect(await store.getGroup(D, 'g1')).to.equal(null);
    await store.createGroup(D, res('g1', { displayName: 'G' }), { displayName: 'G' }, [], []);
    expect((await store.updateGroup(D, 'g1', { add: [staleUser], remove: [], events: [], now: 2 })).status).to.equal(
      'stale',
    );
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
    const clash = await store.updateGroup(D, 'g1', {
      body: { displayName: 'b' },
      keys: { displayName: 'b' },
      expectedVersion: 1,
      add: [],
      remove: [],
      events: [],
      now: 1,
    });
    expect(clash.status).to.equal('conflict');
    const stale = await store.updateGroup(D, 'g1', {
      body: { displayName: 'C' },
      keys: { displayName: 'C' },
      expectedVersion: 3,
      add: [],
      remove: [],
      events: [],
      now: 1,
    });
    expect(stale.status).to.equal('stale');
    const renamed = await store.updateGroup(D, 'g1', {
      body: { displayName: 'C' },
      keys: { displayName: 'C' },
      expectedVersion: 1,
      add: [],
      remove: [],
      events: [ev('renamed')],
      now: 1,
    });
    expect(renamed.status).to.equal('ok');
    expect(await store.findGroupIds(D, 'displayName', 'a')).to.deep.equal([]);
    expect(await store.findGroupIds(D, 'displayName', 'c')).to.deep.equal(['g1']);
    expect(await store.findGroupIds(D, 'externalId', 'e2')).to.deep.equal(['g2']);
    expect(await labels(store, D)).to.deep.equal(['renamed']);
  });

  it('deletes a user with its memberships, refusing when its groups changed since read', async () => {
    await store.createUser(D, res('u1', { userName: 'a' }), { userName: 'a', externalId: 'x', emails: ['a@x.io'] }, []);
    await store.createGroup(
      D,
      res('g1', { displayName: 'G1' }),
      { displayName: 'G1' },
      [{ userId: 'u1', userVersion: 1, event: ev('add') }],
      [],
    );
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
    await store.createGroup(
      D,
      res('g1', { displayName: 'G' }),
      { displayName: 'G', externalId: 'e' },
      [{ userId: 'u1', userVersion: 1, event: ev('add') }],
      [],
    );
    expect((await store.deleteGroup(D, 'g1', 5, [ev('x')])).status).to.equal('stale');
    expect((await store.deleteGroup(D, 'g1', 1, [ev('gone')])).status).to.equal('ok');
    expect(await store.getGroup(D, 'g1')).to.equal(null);
    expect(await store.userGroupIds(D, 'u1')).to.deep.equal([]);
    expect(await store.findGroupIds(D, 'displayName', 'g')).to.deep.equal([]);
    expect(await store.countGroups(D)).to.equal(0);
  });
});
