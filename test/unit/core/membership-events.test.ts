/**
 * A membership change serialises the directory's fields once and the side its events share once (the
 * group of a member change, the user of a deletion) and splices the other in; every event must stay byte for
 * byte what buildEvent gives with the data `{ ...user, group }` (the signature covers these bytes).
 */
import { expect } from 'chai';
import type { CommitListener } from '../../../src/core/commit.js';
import { buildEvent, groupData, MembershipEvents, userData, writerBuilt } from '../../../src/core/events.js';
import { GroupWriter } from '../../../src/core/groups.js';
import { memberChanges } from '../../../src/core/memberships.js';
import type { PendingEvent } from '../../../src/core/model.js';
import { UserWriter } from '../../../src/core/users.js';
import type { Directory, GroupEventData, ScimBody, StoredResource, UserEventData } from '../../../src/core/model.js';
import { MemoryStore } from '../../../src/store/memory/users-groups.js';

const NOW = 1_700_000_000_123;

/** What buildEvent gives for a membership, with `id` in place of its own event id. */
function built(
  dir: Directory,
  type: 'group.user_added' | 'group.user_removed',
  user: UserEventData,
  group: GroupEventData,
  id: string,
  now = NOW,
): string {
  const event = buildEvent(dir, type, { ...user, group }, undefined, now);
  return event.json.replace(JSON.stringify(event.id), JSON.stringify(id));
}

function directory(over: Partial<Directory> = {}): Directory {
  const at = new Date(NOW).toISOString();
  return {
    id: 'd1',
    name: 'D',
    tenant: 't',
    product: 'p',
    type: 'generic-scim-v2',
    log_webhook_events: false,
    deactivated: false,
    scim: { path: '/s', secret: 's', endpoint: 'http://x/s' },
    webhook: { endpoint: '', secret: '' },
    created_at: at,
    updated_at: at,
    ...over,
  };
}

const users: Array<[string, ScimBody]> = [
  [
    'u1',
    {
      userName: 'ada@acme.io',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      emails: [{ value: 'ada@acme.io', primary: true }],
      active: true,
    },
  ],
  [
    'u2',
    {
      userName: 'no-email',
      active: false,
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'R&D "lab"' },
    },
  ],
  [
    'u3',
    {
      userName: 'żółw 🐢',
      id: 'stale-id',
      name: {},
      emails: [],
      groups: [{ value: 'g9' }],
      n: 1e21,
      nested: { a: [null, true, '\u2028'] },
    },
  ],
];

describe('membership events built once per change', () => {
  const dirs = [directory(), directory({ id: 'd "2"', tenant: 'tenant\\with\\slashes', product: 'ünï</script>' })];
  const groups: Array<[string, ScimBody]> = [
    ['g1', { displayName: 'All' }],
    ['g "2"', { displayName: 'Ops \n "night"', externalId: 'x', members: [] }],
    ['g3', {}],
  ];
  for (const dir of dirs) {
    for (const [gid, gbody] of groups) {
      for (const type of ['group.user_added', 'group.user_removed'] as const) {
        it(`${type} in directory ${JSON.stringify(dir.id)}, group ${JSON.stringify(gid)}: the bytes buildEvent gives`, () => {
          const group = groupData(gid, gbody);
          const events = new MembershipEvents(dir, type, NOW);
          const groupJson = JSON.stringify(group);
          for (const [uid, body] of users) {
            const user = userData(uid, body);
            const spliced = events.of(JSON.stringify(user), groupJson);
            expect(spliced.id).to.match(/^evt_[0-9a-f]{30}$/);
            expect(spliced.json).to.equal(built(dir, type, user, group, spliced.id));
            expect(JSON.parse(spliced.json).id).to.equal(spliced.id);
          }
        });
      }
    }
  }

  it('a change of one chunk keeps its events as strings; a bigger one packs them (memberChanges)', async () => {
    const store = new MemoryStore();
    const dir = directory();
    await store.createDirectory(dir);
    for (let i = 0; i < 1001; i++) {
      await store.createUser(
        'd1',
        { id: `u${i}`, body: { userName: `u${i}@acme.io` }, created: 1, lastModified: 1, version: 1 },
        { userName: `u${i}@acme.io`, emails: [] },
        [],
      );
    }
    const group = { id: 'g1', body: { displayName: 'All' } };
    const refs = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `u${i}` }));
    const small = await memberChanges(store, dir, 'group.user_added', refs(25), group, NOW);
    const big = await memberChanges(store, dir, 'group.user_added', refs(1001), group, NOW);
    expect(small).to.have.length(25);
    expect(Object.getOwnPropertyDescriptor(small[0]!.event, 'json')?.value).to.be.a('string');
    expect(Object.getOwnPropertyDescriptor(big[0]!.event, 'json')).to.equal(undefined);
    expect(small[24]!.event.json).to.equal(
      built(
        dir,
        'group.user_added',
        userData('u24', { userName: 'u24@acme.io' }),
        groupData('g1', group.body),
        small[24]!.event.id,
      ),
    );
    expect(JSON.parse(big[1000]!.event.json).data).to.deep.include({ id: 'u1000', email: 'u1000@acme.io' });
  });

  it("a user's deletion: one group.user_removed per group, each the bytes buildEvent gives, then user.deleted", async () => {
    const store = new MemoryStore();
    const dir = directory();
    await store.createDirectory(dir);
    const committed: PendingEvent[] = [];
    // The memory store builds no membership events: its writers build every one.
    const listener: CommitListener = (_, events) => void committed.push(...events.map(writerBuilt));
    const userWriter = new UserWriter({ store, committed: listener });
    const groupWriter = new GroupWriter({ store, committed: listener });
    const [, body] = users[0]!;
    const user = await userWriter.create(dir, body);
    const groupBodies = [
      { displayName: 'All' },
      { displayName: 'Ops "night"', externalId: 'x' },
      { displayName: 'żółw' },
    ];
    const groups: StoredResource[] = [];
    for (const g of groupBodies) groups.push(await groupWriter.create(dir, g, [{ value: user.id }]));
    committed.length = 0;
    await userWriter.delete(dir, user.id);
    expect(committed.map((e) => JSON.parse(e.json).event)).to.deep.equal([
      'group.user_removed',
      'group.user_removed',
      'group.user_removed',
      'user.deleted',
    ]);
    const now = Date.parse(JSON.parse(committed[0]!.json).created_at);
    const removedFrom = committed.slice(0, 3).map((e) => JSON.parse(e.json).data.group.id as string);
    expect([...removedFrom].sort()).to.deep.equal(groups.map((g) => g.id).sort());
    committed.slice(0, 3).forEach((e, i) => {
      const group = groups.find((g) => g.id === removedFrom[i])!;
      expect(e.json).to.equal(
        built(dir, 'group.user_removed', userData(user.id, body), groupData(group.id, group.body), e.id, now),
      );
    });
  });
});
