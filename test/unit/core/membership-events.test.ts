/**
 * Issue 23: a membership change serialises the directory's fields and the group once and splices each member's
 * data in; every event must stay byte for byte what buildEvent gives (the signature covers these bytes).
 */
import { expect } from 'chai';
import { buildEvent, groupData, MembershipEvents, membershipData, userData } from '../../../src/core/events.js';
import { memberChanges } from '../../../src/core/memberships.js';
import type { Directory, ScimBody } from '../../../src/core/model.js';
import { MemoryStore } from '../../../src/store/memory.js';

const NOW = 1_700_000_000_123;

function directory(over: Partial<Directory> = {}): Directory {
  const at = new Date(NOW).toISOString();
  return {
    id: 'd1', name: 'D', tenant: 't', product: 'p', type: 'generic-scim-v2', log_webhook_events: false, deactivated: false,
    scim: { path: '/s', secret: 's', endpoint: 'http://x/s' }, webhook: { endpoint: '', secret: '' }, created_at: at, updated_at: at,
    ...over,
  };
}

const users: Array<[string, ScimBody]> = [
  ['u1', { userName: 'ada@acme.io', name: { givenName: 'Ada', familyName: 'Lovelace' }, emails: [{ value: 'ada@acme.io', primary: true }], active: true }],
  ['u2', { userName: 'no-email', active: false, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'R&D "lab"' } }],
  ['u3', { userName: 'żółw 🐢', id: 'stale-id', name: {}, emails: [], groups: [{ value: 'g9' }], n: 1e21, nested: { a: [null, true, '\u2028'] } }],
];

describe('membership events built once per change (issue 23)', () => {
  const dirs = [directory(), directory({ id: 'd "2"', tenant: 'tenant\\with\\slashes', product: 'ünï</script>' })];
  const groups: Array<[string, ScimBody]> = [['g1', { displayName: 'All' }], ['g "2"', { displayName: 'Ops \n "night"', externalId: 'x', members: [] }], ['g3', {}]];
  for (const dir of dirs) {
    for (const [gid, gbody] of groups) {
      for (const type of ['group.user_added', 'group.user_removed'] as const) {
        it(`${type} in directory ${JSON.stringify(dir.id)}, group ${JSON.stringify(gid)}: the bytes buildEvent gives`, () => {
          const group = groupData(gid, gbody);
          const events = new MembershipEvents(dir, type, group, NOW);
          for (const [uid, body] of users) {
            const user = userData(uid, body);
            const spliced = events.of(user);
            const built = buildEvent(dir, type, membershipData(user, group), undefined, NOW);
            expect(spliced.id).to.match(/^evt_[0-9a-f]{30}$/);
            expect(spliced.id).to.not.equal(built.id);
            expect(spliced.json).to.equal(built.json.replace(JSON.stringify(built.id), JSON.stringify(spliced.id)));
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
      await store.createUser('d1', { id: `u${i}`, body: { userName: `u${i}@acme.io` }, created: 1, lastModified: 1, version: 1 }, { userName: `u${i}@acme.io`, emails: [] }, []);
    }
    const group = { id: 'g1', body: { displayName: 'All' } };
    const refs = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `u${i}` }));
    const small = await memberChanges(store, dir, 'group.user_added', refs(25), group, NOW);
    const big = await memberChanges(store, dir, 'group.user_added', refs(1001), group, NOW);
    expect(small).to.have.length(25);
    expect(Object.getOwnPropertyDescriptor(small[0]!.event, 'json')?.value).to.be.a('string');
    expect(Object.getOwnPropertyDescriptor(big[0]!.event, 'json')).to.equal(undefined);
    const expected = buildEvent(dir, 'group.user_added', membershipData(userData('u24', { userName: 'u24@acme.io' }), groupData('g1', group.body)), undefined, NOW);
    expect(small[24]!.event.json).to.equal(expected.json.replace(JSON.stringify(expected.id), JSON.stringify(small[24]!.event.id)));
    expect(JSON.parse(big[1000]!.event.json).data).to.deep.include({ id: 'u1000', email: 'u1000@acme.io' });
  });
});
