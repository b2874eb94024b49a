/**
 * On Redis a small membership change leaves its events to the write's script, which builds each from the
 * user record it holds (the splice stored beside the body) instead of the writer reading the users and sending
 * every event's bytes. Every event must be byte for byte what the writer builds (the signature covers these
 * bytes), and a record the script cannot build from (written or rewritten by an older dsync, a body or an id it
 * cannot splice) falls back to the writer, writing nothing twice.
 */
import { expect } from 'chai';
import type { CommitListener } from '../../src/core/commit.js';
import { groupData, MembershipEvents, storeBuilt, userDataJson } from '../../src/core/events.js';
import { GroupWriter } from '../../src/core/groups.js';
import type { Directory, ScimBody } from '../../src/core/model.js';
import { UserWriter } from '../../src/core/users.js';
import type { RedisStore } from '../../src/store/redis/users-groups.js';
import { BODY_SEP, FIELD_SEP } from '../../src/store/redis/lua/prelude.js';
import { freshRedisStore } from '../support/services.js';

const AT = new Date(1_700_000_000_000).toISOString();
const directory = (id: string, over: Partial<Directory> = {}): Directory => ({
  id,
  name: 'D',
  tenant: 't',
  product: 'p',
  type: 'generic-scim-v2',
  log_webhook_events: false,
  deactivated: false,
  scim: { path: '/s', secret: 's', endpoint: 'http://x/s' },
  webhook: { endpoint: '', secret: '' },
  created_at: AT,
  updated_at: AT,
  ...over,
});

const bodies: ScimBody[] = [
  {
    userName: 'ada@acme.io',
    name: { givenName: 'Ada', familyName: 'Lovelace' },
    emails: [{ value: 'ada@acme.io', primary: true }],
    active: true,
  },
  {
    userName: 'no-email',
    active: false,
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'R&D "lab" \\ </script>' },
  },
  {
    userName: 'żółw 🐢',
    name: { givenName: 'Zoë\u2028', familyName: 'a/b' },
    emails: [],
    groups: [{ value: 'g9' }],
    n: 1e21,
    nested: { a: [null, true, '\t'] },
  },
  { userName: 'bob@acme.io', emails: [{ value: 'second@acme.io' }, { value: 'bob@acme.io', primary: true }] },
];

describe('membership events built by the Redis write script', () => {
  let store: RedisStore;
  let told: Array<Parameters<CommitListener>[1][number]>;
  let users: UserWriter;
  let groups: GroupWriter;

  beforeEach(async () => {
    store = (await freshRedisStore(15)) as RedisStore;
    told = [];
    const committed: CommitListener = (_, events) => void told.push(...events);
    users = new UserWriter({ store, committed });
    groups = new GroupWriter({ store, committed });
  });
  afterEach(() => store.close());

  /** The writer's bytes for a logged membership event: MembershipEvents.of on the user as stored now. */
  async function expectWritersBytes(
    dir: Directory,
    json: string,
    group: { id: string; body: ScimBody },
  ): Promise<void> {
    const event = JSON.parse(json) as {
      id: string;
      event: 'group.user_added' | 'group.user_removed';
      created_at: string;
      data: { id: string };
    };
    const [stored] = await store.getUsersJson(dir.id, [event.data.id]);
    const built = new MembershipEvents(dir, event.event, Date.parse(event.created_at)).of(
      userDataJson(event.data.id, stored!.bodyJson),
      JSON.stringify(groupData(group.id, group.body)),
    );
    expect(json).to.equal(built.json.replace(`"id":"${built.id}"`, `"id":"${event.id}"`));
  }
  /** An event as its writer or script built it: the store adds `sequence` as it reads the log. */
  const unsequenced = (json: string): string => json.replace(/,"sequence":\d+}$/, '}');
  const membershipEvents = async (dirId: string): Promise<string[]> =>
    (await store.readEvents(dirId, null, 1000))
      .map((e) => unsequenced(e.json))
      .filter((j) => j.includes('"group.user_'));

  for (const dir of [
    directory('d1'),
    directory('d "2"', { tenant: 'tenant\\with\\slashes', product: 'ünï</script>' }),
  ]) {
    it(`adds and removes members in directory ${JSON.stringify(dir.id)}: the script's events are the writer's bytes`, async () => {
      await store.createDirectory(dir);
      const ids: string[] = [];
      for (const body of bodies) ids.push((await users.create(dir, body)).id);
      const groupBody = { displayName: 'Ops "night" 🌙 \\ \u2028', externalId: 'x/1', description: 'tab\there' };
      const group = await groups.create(dir, groupBody, []);
      told = [];
      await groups.addMembers(dir, group.id, [...ids.map((value) => ({ value })), { value: 'nobody' }]);
      // Left to the store: no JSON came back to this process, the unknown user skipped.
      expect(told).to.have.length(bodies.length);
      expect(told.every(storeBuilt)).to.equal(true);
      await groups.removeMembers(dir, group.id, [ids[1]!, ids[2]!]);
      const logged = await membershipEvents(dir.id);
      expect(logged).to.have.length(bodies.length + 2);
      expect(logged.map((j) => JSON.parse(j).event)).to.deep.equal([
        ...ids.map(() => 'group.user_added'),
        'group.user_removed',
        'group.user_removed',
      ]);
      expect(logged.map((j) => JSON.parse(j).id)).to.deep.equal(told.map((e) => e.id));
      for (const json of logged) await expectWritersBytes(dir, json, { id: group.id, body: groupBody });
      expect(await store.groupMemberIds(dir.id, group.id, 0, 10)).to.deep.include({ items: [ids[0], ids[3]] });
    });
  }

  it('members added by store-built changes list in the order they were added, a member already in taking no place', async () => {
    const dir = directory('d-order');
    await store.createDirectory(dir);
    const ids: string[] = [];
    for (const body of [...bodies, { userName: 'fifth@example.com' }]) ids.push((await users.create(dir, body)).id);
    const group = await groups.create(dir, { displayName: 'Order' }, []);
    told = [];
    await groups.addMembers(dir, group.id, [{ value: ids[2]! }, { value: ids[0]! }]);
    await groups.addMembers(dir, group.id, [
      { value: ids[0]! },
      { value: ids[4]! },
      { value: 'nobody' },
      { value: ids[1]! },
    ]);
    expect(told.every(storeBuilt)).to.equal(true);
    expect((await store.groupMemberIds(dir.id, group.id, 0, 10)).items).to.deep.equal([ids[2], ids[0], ids[4], ids[1]]);
    expect((await store.groupMemberIds(dir.id, group.id, 2, 10)).items).to.deep.equal([ids[4], ids[1]]);
    for (const id of [ids[0]!, ids[4]!]) expect(await store.userGroupIds(dir.id, id)).to.deep.equal([group.id]);
    expect(await store.userGroupIds(dir.id, ids[3]!)).to.deep.equal([]);
    expect((await membershipEvents(dir.id)).map((j) => JSON.parse(j).data.id)).to.deep.equal([
      ids[2],
      ids[0],
      ids[4],
      ids[1],
    ]);
  });

  it('a member PATCH after a PUT carries the user as stored now', async () => {
    const dir = directory('d3');
    await store.createDirectory(dir);
    const user = await users.create(dir, bodies[0]!);
    await users.update(dir, user.id, (current) => ({ ...current.body, name: { givenName: 'Augusta' }, emails: [] }));
    const group = await groups.create(dir, { displayName: 'All' }, []);
    await groups.addMembers(dir, group.id, [{ value: user.id }]);
    const [json] = await membershipEvents(dir.id);
    expect(JSON.parse(json!).data).to.deep.include({ first_name: 'Augusta', email: 'ada@acme.io' });
    expect(JSON.parse(json!).data).to.not.have.property('last_name');
    await expectWritersBytes(dir, json!, { id: group.id, body: { displayName: 'All' } });
  });

  /** A user record as an older dsync wrote or rewrote it: without the splice, or with one of another version. */
  const rewrite = async (dirId: string, userId: string, fields: (header: string[]) => string[]) => {
    const key = `dsync:{${dirId}}:u:${userId}`;
    const rec = (await store.redis.get(key))!;
    const split = rec.indexOf(BODY_SEP);
    await store.redis.set(key, fields(rec.slice(0, split).split(FIELD_SEP)).join(FIELD_SEP) + rec.slice(split));
  };
  const olderRecords: Array<[string, (header: string[]) => string[]]> = [
    ['written by an older dsync (no event fields)', (h) => h.slice(0, 6)],
    [
      'whose body an older dsync rewrote (event fields of another version)',
      (h) => [String(Number(h[0]) + 1), ...h.slice(1)],
    ],
    ['written before roles were kept (no roles field)', (h) => h.slice(0, 14)],
  ];
  for (const [what, fields] of olderRecords) {
    it(`a user record ${what}: the writer builds the events, each committed once`, async () => {
      const dir = directory('d4');
      await store.createDirectory(dir);
      const [a, b] = [await users.create(dir, bodies[0]!), await users.create(dir, bodies[2]!)];
      await rewrite(dir.id, b.id, fields);
      const group = await groups.create(dir, { displayName: 'All' }, []);
      told = [];
      await groups.addMembers(dir, group.id, [{ value: a.id }, { value: b.id }]);
      expect(told.map((e) => 'json' in e)).to.deep.equal([true, true]);
      const logged = await membershipEvents(dir.id);
      expect(logged).to.have.length(2);
      for (const json of logged) await expectWritersBytes(dir, json, { id: group.id, body: { displayName: 'All' } });
      // The user's next write stores the splice again: the next change is the script's.
      await users.update(dir, b.id, (current) => ({ ...current.body, title: 'Dr' }));
      told = [];
      await groups.removeMembers(dir, group.id, [b.id]);
      expect(told.map((e) => 'template' in e)).to.deep.equal([true]);
      await expectWritersBytes(dir, (await membershipEvents(dir.id))[2]!, {
        id: group.id,
        body: { displayName: 'All' },
      });
    });
  }

  it('a body with its own id, or an id its JSON escapes: the writer builds the events', async () => {
    const dir = directory('d5');
    await store.createDirectory(dir);
    for (const [id, body] of [
      ['u-own', { userName: 'own@acme.io', id: 'stale-id' }],
      ['u "quoted" \\', { userName: 'q@acme.io' }],
    ] as const) {
      const user = { id, body, created: 1, lastModified: 1, version: 1 };
      expect((await store.createUser(dir.id, user, { userName: body.userName, emails: [] }, [])).status).to.equal('ok');
    }
    const group = await groups.create(dir, { displayName: 'All' }, [{ value: 'u-own' }, { value: 'u "quoted" \\' }]);
    expect(told.filter((e) => e.id !== told[0]!.id).map((e) => 'json' in e)).to.deep.equal([true, true]);
    const logged = await membershipEvents(dir.id);
    expect(logged.map((j) => JSON.parse(j).data.raw)).to.deep.equal([
      { userName: 'own@acme.io', id: 'u-own' },
      { userName: 'q@acme.io', id: 'u "quoted" \\' },
    ]);
    for (const json of logged) await expectWritersBytes(dir, json, { id: group.id, body: { displayName: 'All' } });
  });

  it("reads a membership event logged as three fields (a later release's shape) as the same event, beside one-field entries", async () => {
    const dir = directory('d7');
    await store.createDirectory(dir);
    const ids: string[] = [];
    for (const body of bodies) ids.push((await users.create(dir, body)).id);
    const group = await groups.create(dir, { displayName: 'Three' }, []);
    await groups.addMembers(
      dir,
      group.id,
      ids.map((value) => ({ value })),
    );
    const logged = await membershipEvents(dir.id);
    expect(logged).to.have.length(bodies.length);
    const log = `dsync:{${dir.id}}:ev`;
    const after = (await store.readEvents(dir.id, null, 1000)).at(-1)!.seq;
    // Each as the later writer logs it: the JSON before `raw`, the user's record as GET gives it, the JSON after.
    for (const json of logged) {
      const userId = (JSON.parse(json) as { data: { id: string } }).data.id;
      const rec = (await store.redis.get(`dsync:{${dir.id}}:u:${userId}`))!;
      const body = rec.slice(rec.indexOf(BODY_SEP) + 1);
      const head = json.slice(0, json.indexOf(',"raw":') + ',"raw":'.length);
      const tail = json.slice(head.length + body.length - 1);
      expect(head + body.slice(0, -1) + tail).to.equal(json);
      await store.redis.xadd(log, '*', 'e', head, 'r', rec, 't', tail);
      await store.redis.xadd(log, '*', 'e', json);
    }
    const reread = (await store.readEvents(dir.id, after, 1000)).map((e) => unsequenced(e.json));
    expect(reread).to.deep.equal(logged.flatMap((json) => [json, json]));
    // A shape it does not know is never delivered as a guess.
    await store.redis.xadd(log, '*', 'e', '{"id":', 'x', '"?"}');
    const unknown = await store.readEvents(dir.id, after, 1000).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(unknown).to.equal('an event log entry of unknown shape (fields: e, x), written by a newer dsync?');
  });

  it('a call that reads its events (onCommitted, the embedded callback) gets them built by the writer', async () => {
    const dir = directory('d6');
    await store.createDirectory(dir);
    const user = await users.create(dir, bodies[1]!);
    const group = await groups.create(dir, { displayName: 'All' }, []);
    const own: string[] = [];
    await groups.addMembers(dir, group.id, [{ value: user.id }], {
      onCommitted: (events) => own.push(...events.map((e) => e.json)),
    });
    expect(own).to.deep.equal(await membershipEvents(dir.id));
  });
});
