/**
 * Model-based test of the Google sync on the fake Directory API (which keeps Google's rule that an address is one
 * user's or group's at a time): random sequences of workspace changes — users created, renamed (a new primary
 * address, the old one kept as an alias), given new names, suspended, archived, deleted, undeleted; aliases
 * removed, so that an address can move to another user or group; groups created, renamed, given a new address,
 * deleted; members added and removed (users, nested groups, members from outside the workspace); access tokens
 * expiring — with a sync after every few changes, and now and then a sync that a failing Google cuts short.
 * After each sequence the directory must hold what a fresh directory gets from one full sync of the same
 * workspace, and the events it emitted must replay to that same state. Seeded: a failure names its seed
 * (DSYNC_MODEL_SEED=<seed> DSYNC_MODEL_SEQUENCES=1 runs it alone); DSYNC_MODEL_SEQUENCES sets how many.
 */
import { expect } from 'chai';
import type { FakeGoogle, Route } from '../support/fake-google.js';
import { startGoogleTest, type GoogleTest } from '../support/google-harness.js';
import { openStore } from '../support/harness.js';
import {
  allEvents,
  applyOne,
  modelSeed,
  modelSequences,
  replayState,
  runSequences,
  storeState,
  type Choice,
  type Rng,
} from '../support/model.js';

/** A small pool of addresses, shared by users and groups, so that addresses are often reused and moved. */
const ADDRESSES = ['ann', 'bob', 'cat', 'dan', 'eve', 'fay', 'gus', 'hal', 'sales', 'eng', 'ops', 'all'].map(
  (a) => `${a}@example.com`,
);
/** Group names from a small pool: Google lets two groups share one. */
const NAMES = ['Sales', 'Engineering', 'Support', 'All staff'];

/** Whether `target` is `from` or a group nested (at any depth) in it: nesting `from` in `target` would make a cycle. */
function reaches(fake: FakeGoogle, from: string, target: string): boolean {
  if (from === target) return true;
  return [...(fake.members.get(from)?.values() ?? [])].some((m) => m.type === 'GROUP' && reaches(fake, m.id, target));
}

/** The addresses users and groups held at the last sync (what the synced directory still holds). */
function addresses(fake: FakeGoogle): Set<string> {
  return new Set([
    ...[...fake.users.values()].map((u) => u.primaryEmail),
    ...[...fake.groups.values()].map((g) => g.email),
  ]);
}

/**
 * One random change to the workspace, told in `log`; what exists decides what can happen (as in Google). The
 * workspace's admin (`admin`) stays: a workspace always has one user, and a listing of none is an outage to dsync.
 * A new address is most often one that another user or group held at the last sync (`held`) and has since
 * left: the moves that a listing diff must order.
 */
function change(fake: FakeGoogle, rng: Rng, log: string[], admin: string, held: ReadonlySet<string>): void {
  const users = [...fake.users.keys()];
  const groups = [...fake.groups.keys()];
  const n = rng.int(0, 9999);
  const free = () => {
    const left = [...held].filter((a) => !fake.taken(a));
    const address = left.length > 0 && rng.chance(0.6) ? rng.pick(left)! : rng.pick(ADDRESSES)!;
    return fake.taken(address) ? undefined : address;
  };
  const withAliases = [...fake.users.values(), ...fake.groups.values()].filter((x) => x.aliases.length > 0);
  const choices: Choice[] = [
    [
      3,
      () => {
        const address = free();
        if (!address) return undefined;
        const u = fake.addUser({
          primaryEmail: address,
          givenName: `G${n}`,
          familyName: `F${n}`,
          suspended: rng.chance(0.1),
        });
        return `create user ${u.id} ${address}${u.suspended ? ' (suspended)' : ''}`;
      },
    ],
    [
      2,
      () => {
        const id = rng.pick(users);
        const address = free();
        if (!id || !address) return undefined;
        const old = fake.users.get(id)!.primaryEmail;
        fake.renameUser(id, address);
        return `rename user ${id} ${old} -> ${address} (alias kept)`;
      },
    ],
    [
      2,
      () => {
        const user = fake.users.get(rng.pick(users) ?? '');
        if (!user) return undefined;
        const givenName = rng.chance(0.5) ? `G${n}` : user.name.givenName;
        const familyName = rng.chance(0.5) ? `F${n}` : user.name.familyName;
        user.name = { givenName, familyName, fullName: `${givenName} ${familyName}` };
        return `name user ${user.id} "${user.name.fullName}"`;
      },
    ],
    [
      2,
      () => {
        const user = fake.users.get(rng.pick(users) ?? '');
        if (!user) return undefined;
        const field = rng.chance(0.7) ? 'suspended' : 'archived';
        user[field] = !user[field];
        return `${field} ${user[field]} for user ${user.id}`;
      },
    ],
    [
      2,
      () => {
        const id = rng.pick(users.filter((u) => u !== admin));
        if (!id) return undefined;
        fake.removeUser(id);
        return `delete user ${id}`;
      },
    ],
    [
      2,
      () => {
        const id = rng.pick([...fake.deletedUsers.keys()]);
        if (!id || fake.taken(fake.deletedUsers.get(id)!.primaryEmail)) return undefined;
        fake.undeleteUser(id);
        return `undelete user ${id} ${fake.users.get(id)!.primaryEmail}`;
      },
    ],
    [
      3,
      () => {
        const holder = rng.pick(withAliases);
        if (!holder) return undefined;
        const alias = rng.pick(holder.aliases)!;
        fake.removeAlias(holder.id, alias);
        return `remove alias ${alias} of ${holder.id}`;
      },
    ],
    [
      2,
      () => {
        const email = free();
        if (!email) return undefined;
        const g = fake.addGroup({ email, name: rng.pick(NAMES)! });
        return `create group ${g.id} ${email} "${g.name}"`;
      },
    ],
    [
      2,
      () => {
        const group = fake.groups.get(rng.pick(groups) ?? '');
        if (!group) return undefined;
        group.name = rng.pick(NAMES)!;
        return `name group ${group.id} "${group.name}"`;
      },
    ],
    [
      1,
      () => {
        const id = rng.pick(groups);
        const email = free();
        if (!id || !email) return undefined;
        const old = fake.groups.get(id)!.email;
        fake.renameGroupEmail(id, email);
        return `rename group ${id} ${old} -> ${email} (alias kept)`;
      },
    ],
    [
      2,
      () => {
        const id = rng.pick(groups);
        if (!id) return undefined;
        fake.removeGroup(id);
        return `delete group ${id}`;
      },
    ],
    [
      5,
      () => {
        const g = rng.pick(groups);
        // Often the newest user (a new hire added to groups at once), else any.
        const u = rng.chance(0.5) ? users.at(-1) : rng.pick(users);
        if (!g || !u || fake.members.get(g)!.has(u)) return undefined;
        fake.addMember(g, u);
        return `add user ${u} to ${g}`;
      },
    ],
    [
      1,
      () => {
        const g = rng.pick(groups);
        const child = rng.pick(groups);
        if (!g || !child || reaches(fake, child, g) || fake.members.get(g)!.has(child)) return undefined;
        fake.addMember(g, child, 'GROUP');
        return `nest group ${child} in ${g}`;
      },
    ],
    [
      1,
      () => {
        const g = rng.pick(groups);
        if (!g) return undefined;
        const [id, type] = rng.chance(0.5) ? ['C0fake', 'CUSTOMER' as const] : [`9${rng.hex(11)}`, 'USER' as const];
        fake.addMember(g, id, type);
        return `add ${type} member ${id} from outside the workspace to ${g}`;
      },
    ],
    [
      3,
      () => {
        const g = rng.pick(groups);
        const m = g && rng.pick([...fake.members.get(g)!.keys()]);
        if (!g || !m) return undefined;
        fake.removeMember(g, m);
        return `remove ${m} from ${g}`;
      },
    ],
    [1, () => (fake.oauth.expireAccessTokens(), 'access tokens expire')],
  ];
  applyOne(rng, log, choices);
}

// Most sequences on the memory store (fast); some on Redis, whose scripts commit the same writes.
for (const [kind, sequences] of [
  ['memory', 200],
  ['redis', 30],
] as const) {
  describe(`Google Workspace sync, model-based (${kind} store)`, function () {
    this.timeout(240_000);
    let t: GoogleTest;

    before(async () => {
      t = await startGoogleTest(await openStore(kind, 11), { maxDeleteShare: 1 });
    });
    after(() => t?.close());

    it('delta-synced state equals a fresh full sync, and the events replay to it, over random workspace change sequences', async () => {
      const store = t.service.dsync.store;
      const sync = async (id: string) => (await t.service.dsync.google.sync({ directoryId: id })).directories[0]!;
      const syncOk = async (id: string) => {
        const r = await sync(id);
        expect(r.state, `sync of ${id}: ${JSON.stringify(r.error)}`).to.equal('succeeded');
      };
      await runSequences(
        `Google (${kind})`,
        { seed: modelSeed(), count: modelSequences(sequences) },
        async (rng, log) => {
          const { fake } = t;
          fake.clear();
          const admin = fake.addUser({
            primaryEmail: 'admin@example.com',
            givenName: 'Admin',
            familyName: 'Istrator',
          }).id;
          const unused = () => ADDRESSES.filter((a) => !fake.taken(a));
          for (let i = rng.int(0, 4); i > 0; i--)
            fake.addUser({ primaryEmail: rng.pick(unused())!, suspended: rng.chance(0.1) });
          for (let i = rng.int(1, 3); i > 0; i--) fake.addGroup({ email: rng.pick(unused())!, name: rng.pick(NAMES)! });
          for (const g of fake.groups.keys())
            for (const u of fake.users.keys()) if (rng.chance(0.4)) fake.addMember(g, u);
          const nested = rng.chance(0.3);
          log.push(
            `workspace: ${fake.users.size} users, ${fake.groups.size} groups${nested ? ', nested groups expanded' : ''}`,
          );
          const tokens = () => {
            const { access_token, refresh_token } = fake.oauth.issueTokens();
            return { google_access_token: access_token, google_refresh_token: refresh_token };
          };
          const input = {
            type: 'google',
            name: 'model',
            tenant: 'model',
            product: 'model',
            google_domain: 'example.com',
            google_nested_groups: nested,
          };
          const dir = await t.service.dsync.directories.create({ ...input, ...tokens() });
          await syncOk(dir.id);
          let held = addresses(fake);
          for (let step = rng.int(1, 3); step > 0; step--) {
            for (let k = rng.int(1, 8); k > 0; k--) change(fake, rng, log, admin, held);
            if (rng.chance(0.15)) {
              // Google fails past the retries on some listing, part-way: the run stops, having written some of it.
              const route = rng.pick<Route>(['users', 'groups', 'members'])!;
              const fault = rng.chance(0.5)
                ? ({ kind: 'status', status: 503 } as const)
                : ({ kind: 'truncate' } as const);
              fake.inject({ route, ...fault, skip: rng.int(0, 2), times: Infinity });
              log.push(`-- sync cut short (${route}: ${fault.kind})`);
              const r = await sync(dir.id);
              fake.clearFaults();
              // Succeeded when the listing ended before the fault's turn came.
              expect(r.state, JSON.stringify(r.error)).to.be.oneOf(['failed', 'succeeded']);
              for (let k = rng.int(0, 2); k > 0; k--) change(fake, rng, log, admin, held);
            }
            log.push('-- sync');
            await syncOk(dir.id);
            held = addresses(fake);
          }
          const fresh = await t.service.dsync.directories.create({ ...input, ...tokens() });
          await syncOk(fresh.id);
          const truth = await storeState(store, fresh.id);
          expect(
            await storeState(store, dir.id),
            'the delta-synced directory holds what a full sync gives',
          ).to.deep.equal(truth);
          expect(replayState(await allEvents(store, dir.id)), 'its events replay to the same state').to.deep.equal(
            truth,
          );
          await t.service.dsync.directories.delete(dir.id);
          await t.service.dsync.directories.delete(fresh.id);
        },
      );
    });
  });
}
