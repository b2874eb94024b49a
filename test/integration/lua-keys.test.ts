/**
 * Every Lua script declares the keys it touches, so a Redis Cluster can route and check it (and answer
 * ASK/TRYAGAIN while a slot migrates rather than let it see half a directory). On real Redis: a key a script
 * would touch undeclared is refused with a clear error; keys that follow from stored data are asked for
 * (`keys`) before anything is written; a declaration that no longer matches the data answers `stale`.
 */
import { expect } from 'chai';
import type { RedisStore } from '../../src/store/redis/users-groups.js';
import { SCRIPT_KEYS } from '../../src/store/redis/lua/keys.js';
import { FIELD_SEP } from '../../src/store/redis/lua/prelude.js';
import { SCRIPTS, type ScriptName } from '../../src/store/redis/lua/scripts.js';
import { freshRedisStore } from '../support/services.js';

const DIR = 'lua-keys';
const p = `dsync:{${DIR}}:`;
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const event = (label: string) => ({ id: label, json: JSON.stringify({ event: label }) });
/** A membership entry as src/store/redis/lua/memberships.ts encodes it. */
const entry = (op: '+' | '-', uid: string) =>
  `${op}${uid}${FIELD_SEP}1${FIELD_SEP}${JSON.stringify({ event: `${op}${uid}` })}${FIELD_SEP}`;

describe('Lua scripts declare every key they touch (redis store)', () => {
  let store: RedisStore;
  /** Calls a write script directly: the directory record and `keys` (names after the prefix) declared, then `args`. */
  const script = (name: ScriptName, keys: string[], args: string[]): Promise<unknown> => {
    const declared = [`${p}dir`, ...keys.map((key) => p + key)];
    return store.redis.eval(SCRIPTS[name], declared.length, ...declared, ...args);
  };
  const refusal = (promise: Promise<unknown>): Promise<string> =>
    promise.then(
      (reply) => `answered ${JSON.stringify(reply)}`,
      (err: Error) => err.message,
    );

  beforeEach(async () => {
    store = await freshRedisStore(6);
    const now = new Date().toISOString();
    await store.createDirectory({
      id: DIR,
      name: DIR,
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
    for (const id of ['u1', 'u2', 'u3']) {
      const body = { schemas: [USER_SCHEMA], userName: `${id}@acme.io` };
      const created = await store.createUser(
        DIR,
        { id, body, created: 1, lastModified: 1, version: 1 },
        { userName: body.userName, emails: [] },
        [],
      );
      expect(created.status).to.equal('ok');
    }
  });
  afterEach(() => store.close());

  const createGroup = async (id: string, members: string[]) => {
    const group = { id, body: { schemas: [GROUP_SCHEMA], displayName: id }, created: 1, lastModified: 1, version: 1 };
    const add = members.map((userId) => ({ userId, userVersion: 1, event: event(`added ${userId}`) }));
    expect((await store.createGroup(DIR, group, { displayName: id }, add, [])).status).to.equal('ok');
  };

  // Each script with only the directory record declared: its first key is refused before anything is written.
  const cases: Array<[ScriptName, string[], string, string?]> = [
    ['dsyncCreateUser', ['u9', 'u9@acme.io', '', '', '1', '1', '{}', '', '', '', '[]', '{}', '0'], 'un'],
    ['dsyncUpdateUser', ['u1', '1', 'u1@acme.io', '', '', '1', '{}', '', '', '', '[]', '{}', '0'], 'u:u1'],
    ['dsyncDeleteUser', ['u1', '1', '1', '0', '0'], 'u:u1'],
    ['dsyncCreateGroup', ['g9', 'g9', '', '1', '1', '{}', '0', 'i', '1', entry('+', 'u1')], 'u:u1'],
    [
      'dsyncCreateGroup',
      [
        'g9',
        'g9',
        '',
        '1',
        '1',
        '{}',
        '0',
        'b',
        ',"r":',
        ',"a":',
        '{}',
        '1',
        `+u1${FIELD_SEP}${FIELD_SEP}evt_1${FIELD_SEP}`,
      ],
      'u:u1',
      ' (events built by the script)',
    ],
    ['dsyncUpdateGroup', ['g1', '', '', '', '', '1', '', '', '0', 'i', '0'], 'g:g1'],
    ['dsyncDeleteGroup', ['g1', '1', '1000', '0'], 'g:g1'],
    ['dsyncDrain', ['g1', '1000', '1'], 'gj:g1'],
    ['dsyncStage', ['g1', 'tok', '60000', entry('+', 'u1')], 'gs:g1:tok'],
    ['dsyncVerify', ['g1', 'tok', '0', '1000'], 'uw'],
  ];
  for (const [name, args, first, how = ''] of cases) {
    it(`${name}${how} refuses an undeclared key with a clear error`, async () => {
      const before = await store.redis.dbsize();
      expect(await refusal(script(name, [], args))).to.match(
        new RegExp(`^ERR undeclared key dsync:\\{${DIR}\\}:${first} `),
      );
      expect(await store.redis.dbsize()).to.equal(before);
    });
  }

  it('a key missing from a declaration is refused even where the script reaches it last', async () => {
    const keys = SCRIPT_KEYS.createUser('u9').filter((key) => key !== 'um');
    const args = ['u9', 'u9@acme.io', '', 'u9@acme.io', '1', '1', '{}', '', '', '', '[]', '{}', '0'];
    expect(await refusal(script('dsyncCreateUser', keys, args))).to.match(/^ERR undeclared key dsync:\{lua-keys\}:um /);
    // Declared in full, such a write goes through (a refused script stops where it stands, like any script error:
    // a miss is a bug these suites catch, not a path at run time).
    const full = ['u8', 'u8@acme.io', '', 'u8@acme.io', '1', '1', '{}', '', '', '', '[]', '{}', '0'];
    expect(await script('dsyncCreateUser', SCRIPT_KEYS.createUser('u8'), full)).to.deep.equal(['ok', '1', '1', '']);
  });

  it('deleting a group asks for the keys of its members first, writes nothing until they are declared', async () => {
    await createGroup('g1', ['u1', 'u2']);
    const args = ['g1', '1', '1000', '1', event('group.deleted').json];
    expect(await script('dsyncDeleteGroup', SCRIPT_KEYS.deleteGroup('g1'), args)).to.deep.equal([
      'keys',
      'ug:u1',
      'ug:u2',
    ]);
    expect(await store.redis.exists(`${p}g:g1`, `${p}m:g1`)).to.equal(2);
    const keys = [...SCRIPT_KEYS.deleteGroup('g1'), 'ug:u1', 'ug:u2'];
    expect(((await script('dsyncDeleteGroup', keys, args)) as string[])[0]).to.equal('ok');
    expect(await store.redis.exists(`${p}g:g1`, `${p}m:g1`, `${p}ug:u1`, `${p}ug:u2`)).to.equal(0);
    // Through the store, the members are read and declared first.
    await createGroup('g2', ['u3']);
    expect((await store.deleteGroup(DIR, 'g2', 1, [event('group.deleted')])).status).to.equal('ok');
    expect(await store.userGroupIds(DIR, 'u3')).to.deep.equal([]);
  });

  it('draining a journal asks for the keys of each chunk (its users, its flags) before applying it', async () => {
    await createGroup('g1', []);
    // A committed change, as dsyncUpdateGroup leaves it: the journal, its token, the group listed as pending.
    await store.redis.rpush(`${p}gj:g1`, entry('+', 'u1'), entry('+', 'u2'), entry('+', 'u3'));
    await store.redis.set(`${p}gt:g1`, 'tok');
    await store.redis.sadd(`${p}gpend`, 'g1');
    const firstChunk = ['keys', 'u:u1', 'ug:u1', 'u:u2', 'ug:u2', 'gf:tok'];
    expect(await script('dsyncDrain', SCRIPT_KEYS.drain('g1'), ['g1', '2', '1'])).to.deep.equal(firstChunk);
    expect(await store.redis.llen(`${p}gj:g1`)).to.equal(3);
    // Declared, the chunk is applied and the answer names the next one (peek)...
    expect(
      await script('dsyncDrain', [...SCRIPT_KEYS.drain('g1'), ...firstChunk.slice(1)], ['g1', '1', '1']),
    ).to.deep.equal(['keys', 'u:u2', 'ug:u2', 'gf:tok']);
    // ...or, for the writer that declares each chunk from its own entries, just says there is more.
    expect(
      await script(
        'dsyncDrain',
        [...SCRIPT_KEYS.drain('g1'), ...SCRIPT_KEYS.journalChunk('tok', ['u2'])],
        ['g1', '1', ''],
      ),
    ).to.deep.equal(['more']);
    expect(await store.redis.zrange(`${p}m:g1`, 0, -1)).to.deep.equal(['u1', 'u2']);
    // A writer whose declaration is not the journal's head (another drainer went first) is told what it is.
    expect(
      await script(
        'dsyncDrain',
        [...SCRIPT_KEYS.drain('g1'), ...SCRIPT_KEYS.journalChunk('tok', ['u9'])],
        ['g1', '1', ''],
      ),
    ).to.deep.equal(['keys', 'u:u3', 'ug:u3', 'gf:tok']);
    // The store finishes it, asking as it goes.
    expect((await store.groupMemberIds(DIR, 'g1', 0, 10)).items).to.deep.equal(['u1', 'u2', 'u3']);
    expect(await store.redis.smembers(`${p}gpend`)).to.deep.equal([]);
    expect(await store.redis.get(`${p}gf:tok`)).to.equal('111');
  });

  it('a declaration that no longer matches the data answers stale and writes nothing', async () => {
    await createGroup('g1', ['u1']);
    await createGroup('g2', ['u1']);
    // u1 is in g1 and g2; a delete declaring g1 only (read before g2 got it) is stale.
    const args = ['u1', '1', '1', '1', 'g1', '1', '0'];
    expect(await script('dsyncDeleteUser', SCRIPT_KEYS.deleteUser('u1', ['g1']), args)).to.deep.equal(['stale']);
    expect(await store.redis.exists(`${p}u:u1`)).to.equal(1);
    // A staged list holding a user the re-check did not declare is not what was staged: stale.
    await store.redis.rpush(`${p}gs:g1:tok`, entry('+', 'u2'), entry('+', 'u3'));
    const verify = (users: string[]) =>
      script('dsyncVerify', SCRIPT_KEYS.stage('g1', 'tok', users), ['g1', 'tok', '0', '1000']);
    expect(await verify(['u2'])).to.deep.equal(['stale']);
    expect(((await verify(['u2', 'u3'])) as string[])[0]).to.equal('ok');
  });
});
