/**
 * Membership events take each user's data JSON from memory while its stored body is the same text
 * (core/user-data-cache.ts). What it answers must always be what `userData` gives for the body stored now.
 */
import { expect } from 'chai';
import type { CommitListener } from '../../../src/core/commit.js';
import { userData, userDataJson, writerBuilt } from '../../../src/core/events.js';
import { GroupWriter } from '../../../src/core/groups.js';
import type { PendingEvent } from '../../../src/core/model.js';
import { UserDataCache } from '../../../src/core/user-data-cache.js';
import { UserWriter } from '../../../src/core/users.js';
import { memoryDirectory } from '../../support/memory-directory.js';

const fresh = (id: string, bodyJson: string): string => JSON.stringify(userData(id, JSON.parse(bodyJson)));

describe('user data JSON remembered per stored body', () => {
  it('userDataJson splices the stored text: the bytes JSON.stringify(userData) gives, for awkward bodies too', () => {
    const bodies = [
      {},
      {
        userName: 'ada@acme.io',
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [{ value: 'ada@acme.io', primary: true }],
        active: true,
      },
      {
        userName: 'no-email',
        active: false,
        'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'R&D "lab"' },
      },
      {
        userName: 'żółw 🐢',
        id: 'stale-id',
        name: {},
        emails: [],
        groups: [{ value: 'g9' }],
        n: 1e21,
        nested: { a: [null, true, '\u2028'] },
      },
      { 2: 'integer keys first', b: 1, ['__proto__']: { x: 1 }, userName: 'u' },
    ];
    for (const body of bodies) {
      const text = JSON.stringify(body);
      for (const id of ['u1', 'id "quoted" \\ ü']) expect(userDataJson(id, text)).to.equal(fresh(id, text));
    }
  });

  it("answers userData's JSON, and follows the body when it changes", () => {
    const cache = new UserDataCache();
    const v1 = JSON.stringify({ userName: 'ada@acme.io', name: { givenName: 'Ada' }, active: true });
    const v2 = JSON.stringify({
      userName: 'ada@acme.io',
      name: { givenName: 'Ada', familyName: 'King' },
      active: false,
    });
    expect(cache.of('u1', v1)).to.equal(fresh('u1', v1));
    expect(cache.of('u1', v1)).to.equal(fresh('u1', v1));
    expect(cache.of('u1', v2)).to.equal(fresh('u1', v2));
    expect(JSON.parse(cache.of('u1', v2))).to.deep.include({ last_name: 'King', active: false });
    // The same id with another body (another directory, a pull provider's ids): never the other's data.
    expect(cache.of('u1', v1)).to.equal(fresh('u1', v1));
  });

  const body = (i: number) => JSON.stringify({ userName: `user${i}@acme.io`, active: true });
  const entrySize = (i: number) => `u${i}`.length + body(i).length + fresh(`u${i}`, body(i)).length;

  it('holds at most its budget of characters while every user is read again and again', () => {
    const budget = entrySize(10) * 20;
    const cache = new UserDataCache(budget);
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 50; i++) {
        // Two reads of each user in a row: half the calls hit, so it never rests.
        expect(cache.of(`u${i}`, body(i))).to.equal(fresh(`u${i}`, body(i)));
        expect(cache.of(`u${i}`, body(i))).to.equal(fresh(`u${i}`, body(i)));
        expect(cache.size).to.be.at.most(budget);
      }
    }
    expect(cache.size).to.be.greaterThan(budget / 4);
    // An entry bigger than half the budget is answered and not kept.
    const huge = JSON.stringify({ userName: 'x'.repeat(budget) });
    const before = cache.size;
    expect(cache.of('big', huge)).to.equal(fresh('big', huge));
    expect(cache.size).to.equal(before);
  });

  it('builds a user again only when its body changed or it fell out of both generations', () => {
    const built: string[] = [];
    const budget = entrySize(10) * 20;
    const cache = new UserDataCache(budget, (id, text) => (built.push(id), fresh(id, text)));
    const read = (i: number) => expect(cache.of(`u${i}`, body(i))).to.equal(fresh(`u${i}`, body(i)));
    for (let i = 0; i < 5; i++) read(i);
    for (let i = 0; i < 5; i++) read(i);
    expect(built).to.deep.equal(['u0', 'u1', 'u2', 'u3', 'u4']);
    // Enough other users to turn the young generation old: u0..u4 are still answered from memory.
    for (let i = 100; i < 106; i++) read(i);
    built.length = 0;
    for (let i = 0; i < 5; i++) read(i);
    expect(built).to.deep.equal([]);
    // A changed body is built again.
    expect(cache.of('u0', JSON.stringify({ userName: 'renamed@acme.io' }))).to.equal(
      fresh('u0', JSON.stringify({ userName: 'renamed@acme.io' })),
    );
    expect(built).to.deep.equal(['u0']);
    // Two generations' worth of other users later, u1 is gone and built again.
    for (let i = 200; i < 240; i++) read(i);
    built.length = 0;
    read(1);
    expect(built).to.deep.equal(['u1']);
  });

  it("a member PATCH after a user's PUT carries the user as stored now", async () => {
    const { store, directory: dir } = await memoryDirectory();
    const committed: PendingEvent[] = [];
    // The memory store builds no membership events: its writers build every one.
    const listener: CommitListener = (_, events) => void committed.push(...events.map(writerBuilt));
    const users = new UserWriter({ store, committed: listener });
    const groups = new GroupWriter({ store, committed: listener });
    const user = await users.create(dir, { userName: 'ada@acme.io', name: { givenName: 'Ada' } });
    const first = await groups.create(dir, { displayName: 'First' }, [{ value: user.id }]);
    await users.update(dir, user.id, () => ({ userName: 'ada@acme.io', name: { givenName: 'Augusta' } }));
    committed.length = 0;
    await groups.create(dir, { displayName: 'Second' }, [{ value: user.id }]);
    const added = committed.map((e) => JSON.parse(e.json)).find((e) => e.event === 'group.user_added');
    expect(first.id).to.be.a('string');
    expect(added.data).to.deep.include({ id: user.id, first_name: 'Augusta' });
  });
});
