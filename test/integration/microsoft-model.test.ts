/**
 * Model-based test of the Entra sync on the fake Graph (which keeps Graph's published rules and restore
 * behaviour): random sequences of tenant changes — users created, renamed, disabled, soft-deleted, restored,
 * deleted for good; members added and removed (users, and groups in groups); groups created (security and
 * Microsoft 365), renamed, deleted, restored, deleted for good; delta tokens expiring — with a delta sync after
 * each step. After each sequence the directory must hold what a fresh directory gets from one full sync of the
 * same tenant, and the events it emitted must replay to that same state. Seeded: a failure names its seed
 * (DSYNC_MODEL_SEED=<seed> DSYNC_MODEL_SEQUENCES=1 runs it alone); DSYNC_MODEL_SEQUENCES sets how many.
 */
import { expect } from 'chai';
import type { Tenant } from '../support/fake-entra/index.js';
import { startEntraTest, type EntraTest } from '../support/entra-harness.js';
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

/**
 * One random change to the tenant, told in `log`; what exists decides what can happen (as in Entra). The tenant's
 * admin (`admin`) stays: a tenant always has one user, and a listing of none is an outage to dsync.
 */
function change(tenant: Tenant, rng: Rng, log: string[], names: string[], admin: string, expire: () => void): void {
  const users = [...tenant.users.keys()];
  const deletable = users.filter((u) => u !== admin);
  const groups = [...tenant.groups.keys()];
  const bin = tenant.recycleBin;
  const n = tenant.seq;
  /** Applies `apply` to `id` when there is one: what was done, or undefined (another change is drawn). */
  const act = (id: string | undefined, apply: (id: string) => void, what: string) => {
    if (id === undefined) return undefined;
    apply(id);
    return `${what} ${id}`;
  };
  const choices: Choice[] = [
    [
      3,
      () =>
        `create user ${tenant.addUser({ displayName: `User ${n}`, mail: rng.chance(0.2) ? null : `mail${n}.${rng.hex(4)}@${tenant.domain}` }).id}`,
    ],
    [
      3,
      () => {
        const id = rng.pick(users);
        if (!id) return undefined;
        const what = rng.int(0, 3);
        if (what === 0) tenant.updateUser(id, { displayName: `Renamed ${n}` });
        else if (what === 1) tenant.updateUser(id, { givenName: `G${n}`, surname: rng.chance(0.5) ? null : `S${n}` });
        else if (what === 2) tenant.updateUser(id, { userPrincipalName: `upn${n}.${rng.hex(4)}@${tenant.domain}` });
        else tenant.updateUser(id, { mail: rng.chance(0.3) ? null : `mail${n}.${rng.hex(4)}@${tenant.domain}` });
        return `update user ${id} (${['displayName', 'names', 'userPrincipalName', 'mail'][what]})`;
      },
    ],
    [
      2,
      () => {
        const id = rng.pick(users);
        if (!id) return undefined;
        const enabled = !tenant.users.get(id)!.accountEnabled;
        tenant.updateUser(id, { accountEnabled: enabled });
        return `${enabled ? 'enable' : 'disable'} user ${id}`;
      },
    ],
    [
      2,
      () => {
        const id = rng.pick(users);
        if (!id) return undefined;
        // The manager may be anyone, gone or not, the user included (Entra does not check a manager's tenure).
        const manager = rng.chance(0.3) ? null : (rng.pick([...users, ...bin.users]) ?? null);
        const org = rng.chance(0.5)
          ? null
          : { division: rng.chance(0.5) ? null : `Div ${n}`, costCenter: `CC-${rng.int(1, 3)}` };
        tenant.updateUser(id, {
          jobTitle: rng.chance(0.3) ? null : `Title ${n}`,
          department: rng.pick(['Eng', 'Ops', null])!,
          employeeId: `E${n}`,
          employeeOrgData: org,
          manager,
        });
        return `set attributes of user ${id} (manager ${manager})`;
      },
    ],
    [
      2,
      () => {
        const id = rng.pick(users);
        if (!id) return undefined;
        const hired = rng.chance(0.5) ? null : `202${rng.int(0, 4)}-0${rng.int(1, 9)}-01T00:00:00Z`;
        tenant.updateUser(id, {
          officeLocation: rng.chance(0.3) ? null : `Office ${n}`,
          businessPhones: rng.chance(0.5) ? [] : [`+1 555 ${n}`],
          employeeHireDate: hired,
        });
        return `set provider properties of user ${id}`;
      },
    ],
    [2, () => act(rng.pick(deletable), (id) => tenant.removeUser(id), 'soft-delete user')],
    [2, () => act(rng.pick(bin.users), (id) => tenant.restoreUser(id), 'restore user')],
    [1, () => act(rng.pick(bin.users), (id) => tenant.purgeUser(id), 'purge user')],
    [
      5,
      () => {
        const g = rng.pick(groups);
        const u = rng.pick(users);
        if (!g || !u || tenant.members.get(g)!.has(u)) return undefined;
        tenant.addMember(g, u);
        return `add user ${u} to ${g}`;
      },
    ],
    [
      1,
      () => {
        const g = rng.pick(groups);
        const child = rng.pick(groups.filter((x) => x !== g && !tenant.groups.get(x)!.groupTypes.includes('Unified')));
        if (!g || !child || tenant.groups.get(g)!.groupTypes.includes('Unified') || tenant.members.get(g)!.has(child))
          return undefined;
        tenant.addMember(g, child, 'group');
        return `nest group ${child} in ${g}`;
      },
    ],
    [
      3,
      () => {
        const g = rng.pick(groups);
        const m = g && rng.pick([...tenant.members.get(g)!.keys()]);
        if (!g || !m) return undefined;
        tenant.removeMember(g, m);
        return `remove ${m} from ${g}`;
      },
    ],
    [
      2,
      () => {
        const unified = rng.chance(0.5);
        const g = tenant.addGroup({
          displayName: rng.pick(names)!,
          ...(unified && { groupTypes: ['Unified'], mailEnabled: true, securityEnabled: false }),
        });
        return `create ${unified ? 'Microsoft 365' : 'security'} group ${g.id} "${g.displayName}"`;
      },
    ],
    [2, () => act(rng.pick(groups), (g) => tenant.updateGroup(g, { displayName: rng.pick(names)! }), 'rename group')],
    [2, () => act(rng.pick(groups), (g) => tenant.removeGroup(g), 'delete group')],
    [1, () => act(rng.pick(bin.groups), (g) => tenant.restoreGroup(g), 'restore group')],
    [1, () => act(rng.pick(bin.groups), (g) => tenant.purgeGroup(g), 'purge group')],
    [1, () => act('all', () => expire(), 'delta tokens expire for')],
  ];
  applyOne(rng, log, choices);
}

// Most sequences on the memory store (fast); some on Redis, whose scripts commit the same writes.
for (const [kind, sequences] of [
  ['memory', 300],
  ['redis', 40],
] as const) {
  describe(`Microsoft Entra ID sync, model-based (${kind} store)`, function () {
    this.timeout(240_000);
    let t: EntraTest;

    before(async () => {
      t = await startEntraTest(await openStore(kind, 11), { maxDeleteShare: 1 });
    });
    after(() => t?.close());

    it('delta-synced state equals a fresh full sync, and the events replay to it, over random tenant change sequences', async () => {
      const store = t.service.dsync.store;
      const sync = async (id: string) => {
        const report = await t.service.dsync.microsoft.sync({ directoryId: id });
        const r = report.directories[0]!;
        expect(r.state, `sync of ${id}: ${JSON.stringify(r.error)}`).to.equal('succeeded');
      };
      await runSequences(
        `Entra (${kind})`,
        { seed: modelSeed(), count: modelSequences(sequences) },
        async (rng, log) => {
          const tenantId = `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-8${rng.hex(3)}-${rng.hex(12)}`;
          const tenant = t.fake.tenant(tenantId, `t${rng.hex(6)}.onmicrosoft.com`);
          // Group names from a small pool: Entra lets two groups share one.
          const names = ['Sales', 'Engineering', 'Support', 'All staff'];
          const admin = tenant.addUser({ displayName: 'Admin' }).id;
          for (let i = rng.int(0, 4); i > 0; i--) tenant.addUser();
          for (let i = rng.int(0, 3); i > 0; i--)
            tenant.addGroup({
              displayName: rng.pick(names)!,
              ...(rng.chance(0.5) && { groupTypes: ['Unified'], mailEnabled: true }),
            });
          for (const g of tenant.groups.keys())
            for (const u of tenant.users.keys()) if (rng.chance(0.4)) tenant.addMember(g, u);
          const nested = rng.chance(0.3);
          log.push(
            `tenant ${tenantId}: ${tenant.users.size} users, ${tenant.groups.size} groups${nested ? ', nested groups' : ''}`,
          );
          const input = {
            type: 'microsoft-entra',
            name: 'model',
            tenant: 'model',
            product: 'model',
            microsoft_tenant_id: tenantId,
            microsoft_nested_groups: nested,
          };
          const dir = await t.service.dsync.directories.create(input);
          await sync(dir.id);
          for (let step = rng.int(1, 4); step > 0; step--) {
            for (let k = rng.int(1, 5); k > 0; k--)
              change(tenant, rng, log, names, admin, () => t.fake.expireDeltaTokens(tenantId));
            log.push('-- sync');
            await sync(dir.id);
          }
          const fresh = await t.service.dsync.directories.create(input);
          await sync(fresh.id);
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
