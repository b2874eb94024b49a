/**
 * The Entra ID pull sync against a fake Entra over real HTTPS, through the real msal-node and Graph client: the
 * first (full) sync, a delta with nothing to do, each kind of change through delta (exactly its events), a delta
 * token Graph no longer knows (a resync with exactly the real differences), and nested groups as the Google
 * sync treats them. Memory store, one Redis and the shared Redis Cluster.
 */
import { expect } from 'chai';
import type { EGroup, EUser, Tenant } from '../support/fake-entra/index.js';
import { labels } from '../support/google-harness.js';
import { startEntraTest, TENANT_A, type EntraTest } from '../support/entra-harness.js';
import { CLUSTER_STORE_KINDS, openStore } from '../support/harness.js';
import { providerExtension } from '../../src/core/custom-attributes.js';
import { OWN_PROPS } from '../support/fake-entra/user-props.js';

const ENTRA = providerExtension('entra');

for (const kind of CLUSTER_STORE_KINDS) {
  describe(`Microsoft Entra ID pull sync (${kind} store)`, function () {
    this.timeout(20_000);
    let t: EntraTest;
    let tenant: Tenant;
    let dir: any;
    let users: EUser[];
    let eng: EGroup;
    let ops: EGroup;
    let big: EGroup;

    beforeEach(async () => {
      t = await startEntraTest(await openStore(kind, 7));
      tenant = t.tenant();
      // 30 users and 4 groups, one of them with more members than Graph puts in one group instance.
      users = Array.from({ length: 30 }, (_, i) => tenant.addUser(i === 0 ? OWN_PROPS : {}));
      eng = tenant.addGroup({ displayName: 'Eng' });
      ops = tenant.addGroup({ displayName: 'Ops' });
      big = tenant.addGroup({ displayName: 'Everyone' });
      tenant.addGroup({ displayName: 'Empty' });
      tenant.addMember(eng.id, users[0]!.id);
      tenant.addMember(eng.id, users[1]!.id);
      tenant.addMember(ops.id, users[2]!.id);
      for (const u of users.slice(0, 25)) tenant.addMember(big.id, u.id);
      dir = await t.directory();
    });
    afterEach(() => t.close());

    it('first sync (full) creates every user, group and membership; a delta with no change calls Graph twice and emits nothing', async () => {
      const report = await t.sync();
      expect(report).to.deep.include({ created: 34, updated: 0, deleted: 0, failed: 0 });
      expect(report.directories[0]).to.deep.include({ id: dir.id, state: 'succeeded', error: null });
      const events = await t.newEvents(dir.id);
      const l = labels(events);
      expect(l.filter((x) => x.startsWith('user.created'))).to.have.length(30);
      const ann = events.find((e) => e.event === 'user.created' && e.data.id === users[0]!.id);
      expect(ann.data.raw[ENTRA]).to.deep.equal(OWN_PROPS);
      expect(ann.data.raw.schemas).to.include(ENTRA);
      expect(
        events.find((e) => e.event === 'user.created' && e.data.id === users[1]!.id).data.raw,
      ).to.not.have.property(ENTRA);
      expect(l.filter((x) => x.startsWith('group.created'))).to.deep.equal([
        'group.created:Eng',
        'group.created:Ops',
        'group.created:Everyone',
        'group.created:Empty',
      ]);
      expect(l.filter((x) => x.startsWith('group.user_added:Everyone/'))).to.have.length(25); // spread over two instances
      expect(l.filter((x) => x.startsWith('group.user_added:Eng/'))).to.have.length(2);
      const status = await t.status(dir.id);
      expect(status).to.deep.include({
        state: 'succeeded',
        mode: 'full',
        tenant_id: TENANT_A,
        seen: { users: 30, groups: 4 },
        throttled: 0,
      });
      // No public https URL here: no subscriptions, the scheduled sync alone.
      expect(status.notifications).to.deep.equal({ state: 'off', expires_at: null, error: null, retry_at: null });
      const stored = await t.service.dsync.store.getUser(dir.id, users[0]!.id);
      expect(stored!.body).to.deep.include({
        userName: users[0]!.userPrincipalName,
        externalId: users[0]!.id,
        active: true,
      });

      const calls = t.fake.graphCalls(TENANT_A);
      const again = await t.sync();
      expect(again).to.deep.include({ created: 0, updated: 0, deleted: 0, failed: 0 });
      expect(await t.newEvents(dir.id)).to.deep.equal([]);
      expect(t.fake.graphCalls(TENANT_A) - calls).to.equal(2); // one delta page each for users and groups
      expect(await t.status(dir.id)).to.deep.include({ mode: 'delta', seen: { users: 0, groups: 0 } });
    });

    describe('after a first sync, each change through delta yields exactly its events', () => {
      beforeEach(async () => {
        await t.sync();
        await t.newEvents(dir.id);
      });
      const changed = async () => {
        const report = await t.sync();
        expect(report.failed, JSON.stringify(report)).to.equal(0);
        expect((await t.status(dir.id)).mode).to.equal('delta');
        return labels(await t.newEvents(dir.id));
      };

      it('a user created', async () => {
        const added = tenant.addUser();
        expect(await changed()).to.deep.equal([`user.created:${added.mail}`]);
      });

      it('a user renamed: only the changed property comes, the rest is kept', async () => {
        tenant.updateUser(users[3]!.id, { givenName: 'Renamed' });
        const events = await t.sync().then(() => t.newEvents(dir.id));
        expect(labels(events)).to.deep.equal([`user.updated:${users[3]!.mail}`]);
        expect(events[0].data).to.deep.include({
          first_name: 'Renamed',
          last_name: users[3]!.surname,
          email: users[3]!.mail,
          active: true,
        });
      });

      it("a provider property changed or cleared: only it comes, the user's other ones are kept", async () => {
        tenant.updateUser(users[0]!.id, { officeLocation: 'Building 5', businessPhones: [] });
        const events = await t.sync().then(() => t.newEvents(dir.id));
        expect(labels(events)).to.deep.equal([`user.updated:${users[0]!.mail}`]);
        const { businessPhones: _, ...rest } = OWN_PROPS;
        expect(events[0].data.raw[ENTRA]).to.deep.equal({ ...rest, officeLocation: 'Building 5' });
      });

      it('a user disabled: active false, memberships kept', async () => {
        tenant.updateUser(users[0]!.id, { accountEnabled: false });
        const events = await t.sync().then(() => t.newEvents(dir.id));
        expect(labels(events)).to.deep.equal([`user.updated:${users[0]!.mail}`]);
        expect(events[0].data.active).to.equal(false);
        expect((await t.service.dsync.store.userGroupIds(dir.id, users[0]!.id)).sort()).to.deep.equal(
          [eng.id, big.id].sort(),
        );
      });

      it('a user deleted, then restored', async () => {
        tenant.removeUser(users[1]!.id);
        expect(await changed()).to.deep.equal([
          `group.user_removed:Eng/${users[1]!.mail}`,
          `group.user_removed:Everyone/${users[1]!.mail}`,
          `user.deleted:${users[1]!.mail}`,
        ]);
        tenant.restoreUser(users[1]!.id);
        expect(await changed()).to.deep.equal([
          `user.created:${users[1]!.mail}`,
          `group.user_added:Eng/${users[1]!.mail}`,
          `group.user_added:Everyone/${users[1]!.mail}`,
        ]);
      });

      it('a member added and a member removed', async () => {
        tenant.addMember(ops.id, users[5]!.id);
        tenant.removeMember(eng.id, users[1]!.id);
        expect(await changed()).to.deep.equal([
          `group.user_added:Ops/${users[5]!.mail}`,
          `group.user_removed:Eng/${users[1]!.mail}`,
        ]);
      });

      it('a group created with members, a group renamed, a group deleted', async () => {
        const sales = tenant.addGroup({ displayName: 'Sales' });
        tenant.addMember(sales.id, users[9]!.id);
        tenant.updateGroup(ops.id, { displayName: 'Operations' });
        tenant.removeGroup(eng.id);
        // In Graph's order of the changes; the deletion once the round is complete.
        expect(await changed()).to.deep.equal([
          'group.created:Sales',
          `group.user_added:Sales/${users[9]!.mail}`,
          'group.updated:Operations',
          'group.deleted:Eng',
        ]);
      });

      it('Graph refuses the delta token (410 syncStateNotFound): a full resync emits exactly the real differences', async () => {
        tenant.updateUser(users[4]!.id, { surname: 'Changed' });
        tenant.removeMember(big.id, users[7]!.id);
        const added = tenant.addUser();
        t.fake.expireDeltaTokens(TENANT_A);
        const report = await t.sync();
        expect(report.failed, JSON.stringify(report)).to.equal(0);
        expect((await t.status(dir.id)).mode).to.equal('resync');
        expect(await t.newEvents(dir.id).then(labels)).to.deep.equal([
          `user.created:${added.mail}`,
          `user.updated:${users[4]!.mail}`,
          `group.user_removed:Everyone/${users[7]!.mail}`,
        ]);
        // And the links the resync saved work: the next run is a delta with nothing to do.
        await t.sync();
        expect(await t.status(dir.id)).to.deep.include({ mode: 'delta', seen: { users: 0, groups: 0 } });
        expect(await t.newEvents(dir.id)).to.deep.equal([]);
      });
    });

    it('nested groups as the Google sync treats them: skipped unless the directory expands them, then kept current through delta', async () => {
      const inner = tenant.addGroup({ displayName: 'Inner' });
      tenant.addMember(inner.id, users[7]!.id);
      tenant.addMember(eng.id, inner.id, 'group');
      await t.sync();
      const members = async (d: string, g: string) =>
        (await t.service.dsync.store.groupMemberIds(d, g, 0, 100)).items.sort();
      expect(await members(dir.id, eng.id)).to.deep.equal([users[0]!.id, users[1]!.id].sort());

      const nested = await t.directory(TENANT_A, { name: 'Nested', microsoft_nested_groups: true });
      await t.sync(nested.id);
      expect(await members(nested.id, eng.id)).to.deep.equal([users[0]!.id, users[1]!.id, users[7]!.id].sort());
      await t.newEvents(nested.id);
      tenant.addMember(inner.id, users[8]!.id);
      tenant.removeMember(inner.id, users[7]!.id);
      await t.sync(nested.id);
      expect(labels(await t.newEvents(nested.id))).to.have.members([
        `group.user_added:Inner/${users[8]!.mail}`,
        `group.user_added:Eng/${users[8]!.mail}`,
        `group.user_removed:Inner/${users[7]!.mail}`,
        `group.user_removed:Eng/${users[7]!.mail}`,
      ]);
      expect(await members(nested.id, eng.id)).to.deep.equal([users[0]!.id, users[1]!.id, users[8]!.id].sort());
    });
  });
}
