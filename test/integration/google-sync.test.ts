/**
 * The Google pull sync against a fake Google over real HTTP, through the real googleapis clients: the first sync,
 * a sync with nothing to do, and each kind of change, each yielding exactly its events (memory store, one Redis
 * and the shared Redis Cluster, about 2 s each).
 */
import { expect } from 'chai';
import type { GGroup, GUser } from '../support/fake-google-wire.js';
import { labels, startGoogleTest, type GoogleTest } from '../support/google-harness.js';
import { CLUSTER_STORE_KINDS, openStore } from '../support/harness.js';
import { GOOGLE_USER } from '../../src/core/attributes.js';

/**
 * Google's own fields (`google:<field>`) as the Directory API sends them; custom schemas with `projection=full` only.
 */
const OWN = {
  orgUnitPath: '/Engineering',
  isAdmin: true,
  recoveryEmail: 'ann@home.example',
  locations: [{ type: 'desk', area: 'desk', buildingId: 'B1', floorName: '3', deskCode: '3-14' }],
  phones: [{ value: '+1 555 0100', type: 'work', primary: true }],
  addresses: [
    {
      type: 'work',
      formatted: '1 Main St, Springfield',
      locality: 'Springfield',
      country: 'United States',
      countryCode: 'US',
      primary: true,
    },
  ],
  customSchemas: { Employment: { badge: '42' } },
};

for (const kind of CLUSTER_STORE_KINDS) {
  describe(`Google pull sync (${kind} store)`, function () {
    this.timeout(20_000);
    let t: GoogleTest;
    let dir: any;
    let users: GUser[];
    let eng: GGroup;
    let ops: GGroup;

    beforeEach(async () => {
      t = await startGoogleTest(await openStore(kind, 6));
      const { fake } = t;
      // 30 users and 5 groups: one change stays well under the mass-deletion guard.
      users = Array.from({ length: 30 }, (_, i) => fake.addUser(i === 0 ? OWN : {}));
      eng = fake.addGroup({ name: 'Eng', email: 'eng@example.com' });
      ops = fake.addGroup({ name: 'Ops', email: 'ops@example.com' });
      for (const name of ['A', 'B', 'C']) fake.addGroup({ name, email: `${name.toLowerCase()}@example.com` });
      fake.addMember(eng.id, users[0]!.id);
      fake.addMember(eng.id, users[1]!.id);
      fake.addMember(ops.id, users[2]!.id);
      dir = await t.directory();
    });
    afterEach(() => t.close());

    it('first sync creates every user, group and membership with exactly their events; a second sync emits and writes nothing', async () => {
      const report = await t.sync();
      expect(report).to.deep.include({ created: 35, updated: 0, deleted: 0, failed: 0 });
      expect(report.directories).to.have.length(1);
      expect(report.directories[0]).to.deep.include({ id: dir.id, state: 'succeeded', error: null });
      const events = await t.newEvents(dir.id);
      const l = labels(events);
      expect(l.filter((x) => x.startsWith('user.created'))).to.have.length(30);
      expect(l.slice(30)).to.deep.equal([
        'group.created:Eng',
        `group.user_added:Eng/${users[0]!.primaryEmail}`,
        `group.user_added:Eng/${users[1]!.primaryEmail}`,
        'group.created:Ops',
        `group.user_added:Ops/${users[2]!.primaryEmail}`,
        'group.created:A',
        'group.created:B',
        'group.created:C',
      ]);
      const ann = events.find((e) => e.event === 'user.created' && e.data.id === users[0]!.id);
      expect(ann.data).to.deep.include({
        email: users[0]!.primaryEmail,
        first_name: users[0]!.name.givenName,
        last_name: users[0]!.name.familyName,
        active: true,
      });
      expect(ann.data.raw).to.deep.include({ userName: users[0]!.primaryEmail, externalId: users[0]!.id });
      expect(ann.data.raw).to.not.have.property('lastLoginTime');
      expect(ann.data.raw[GOOGLE_USER]).to.deep.equal(OWN);
      const plain = events.find((e) => e.event === 'user.created' && e.data.id === users[1]!.id);
      expect(plain.data.raw[GOOGLE_USER]).to.deep.equal({ orgUnitPath: '/', isAdmin: false });

      const before = await t.service.dsync.store.getUser(dir.id, users[0]!.id);
      const again = await t.sync();
      expect(again).to.deep.include({ created: 0, updated: 0, deleted: 0, failed: 0 });
      expect(await t.newEvents(dir.id)).to.deep.equal([]);
      expect(await t.service.dsync.store.getUser(dir.id, users[0]!.id)).to.deep.equal(before);
      const group = await t.service.dsync.store.getGroup(dir.id, eng.id);
      expect(group!.version).to.equal(1); // created with its members; nothing since

      const status = await t.service.api('GET', `/api/v1/directory-sync/${dir.id}/google/sync`);
      expect(status.status).to.equal(200);
      expect(status.body.data).to.deep.include({
        directory_id: dir.id,
        state: 'succeeded',
        error: null,
        listed: { users: 30, groups: 5 },
      });
      expect(status.body.data.counts).to.deep.include({ users_created: 0, members_added: 0 });
      expect(status.body.data.duration_ms).to.be.a('number');
      expect(status.body.data.google_requests).to.equal(1 + 1 + 5);
    });

    it('an empty ?directoryId= names no directory (404) rather than all of them', async () => {
      const res = await t.service.api('POST', '/api/v1/dsync/cron/sync-google?directoryId=');
      expect(res.status, JSON.stringify(res.body)).to.equal(404);
      expect((await t.service.api('GET', `/api/v1/directory-sync/${dir.id}/google/sync`)).body.data.state).to.equal(
        'pending',
      );
    });

    it('tokens a header cannot carry are refused at input; one stored before that is invalid_credentials at once, not retried', async () => {
      const bad = 'ya29.\u0100\u4e2d';
      const refused = [
        await t.service.api('POST', '/api/v1/directory-sync', {
          name: 'G',
          tenant: 't',
          product: 'p',
          type: 'google',
          google_access_token: bad,
        }),
        await t.service.api('PATCH', `/api/v1/directory-sync/${dir.id}`, { google_refresh_token: 'r\u00e9' }),
        await t.service.api('PUT', `/api/v1/directory-sync/${dir.id}/google/token`, {
          access_token: bad,
          refresh_token: 'r',
        }),
        await t.service.api('PUT', `/api/v1/directory-sync/${dir.id}/google/token`, {
          access_token: 'a b',
          refresh_token: 'r',
        }),
      ];
      expect(
        refused.map((r) => r.status),
        JSON.stringify(refused.map((r) => r.body)),
      ).to.deep.equal([400, 400, 400, 400]);
      expect(refused[0]!.body.error.message).to.equal(
        'google_access_token must be visible ASCII characters (no spaces)',
      );
      const stored = (await t.service.dsync.store.getDirectory(dir.id))!;
      await t.service.dsync.store.updateDirectory({ ...stored, google_access_token: bad });
      const report = await t.sync(dir.id);
      expect(report.directories[0]).to.deep.include({ state: 'invalid_credentials' });
      expect(t.fake.totalCalls + t.fake.calls.token).to.equal(0);
    });

    describe('after a first sync, each change yields exactly its events', () => {
      beforeEach(async () => {
        await t.sync();
        await t.newEvents(dir.id);
      });
      const changed = async () => {
        const report = await t.sync();
        expect(report.failed, JSON.stringify(report)).to.equal(0);
        return labels(await t.newEvents(dir.id));
      };

      it('a user renamed', async () => {
        const name = t.fake.users.get(users[3]!.id)!.name;
        const old = name.givenName;
        Object.assign(name, { givenName: 'Renamed', fullName: `Renamed ${name.familyName}` });
        const events = await t.sync().then(() => t.newEvents(dir.id));
        expect(labels(events)).to.deep.equal([`user.updated:${users[3]!.primaryEmail}`]);
        expect(events[0].data.first_name).to.equal('Renamed');
        expect(events[0].previous_attributes).to.deep.include({ first_name: old });
      });

      it('a primary email changed: an update of the same user (Google id), not a delete and a create', async () => {
        t.fake.users.get(users[0]!.id)!.primaryEmail = 'renamed@example.com';
        expect(await changed()).to.deep.equal(['user.updated:renamed@example.com']);
        const stored = await t.service.dsync.store.getUser(dir.id, users[0]!.id);
        expect(stored!.body.userName).to.equal('renamed@example.com');
        expect(await t.service.dsync.store.userGroupIds(dir.id, users[0]!.id)).to.deep.equal([eng.id]);
      });

      it('a user suspended (active false, memberships kept), then archived stays inactive', async () => {
        t.fake.users.get(users[0]!.id)!.suspended = true;
        const events = await t.sync().then(() => t.newEvents(dir.id));
        expect(labels(events)).to.deep.equal([`user.updated:${users[0]!.primaryEmail}`]);
        expect(events[0].data.active).to.equal(false);
        expect(events[0].previous_attributes).to.deep.include({ active: true });
        expect(await t.service.dsync.store.userGroupIds(dir.id, users[0]!.id)).to.deep.equal([eng.id]);
        Object.assign(t.fake.users.get(users[0]!.id)!, { suspended: false, archived: true });
        expect(await changed()).to.deep.equal([]);
      });

      it('a user deleted: removed from its groups, then deleted', async () => {
        t.fake.removeUser(users[0]!.id);
        expect(await changed()).to.deep.equal([
          `group.user_removed:Eng/${users[0]!.primaryEmail}`,
          `user.deleted:${users[0]!.primaryEmail}`,
        ]);
      });

      it("a deleted user's email taken by a new user: the delete first, then the create (no clash)", async () => {
        const email = users[4]!.primaryEmail;
        t.fake.removeUser(users[4]!.id);
        const successor = t.fake.addUser({ primaryEmail: email });
        expect(await changed()).to.deep.equal([`user.deleted:${email}`, `user.created:${email}`]);
        expect((await t.service.dsync.store.getUser(dir.id, successor.id))!.body.userName).to.equal(email);
      });

      it("a deleted user's email taken by a new user in the same group: the new user and its membership in one sync", async () => {
        const email = users[0]!.primaryEmail; // a member of Eng
        t.fake.removeUser(users[0]!.id);
        const successor = t.fake.addUser({ primaryEmail: email });
        t.fake.addMember(eng.id, successor.id);
        expect(await changed()).to.deep.equal([
          `group.user_removed:Eng/${email}`,
          `user.deleted:${email}`,
          `user.created:${email}`,
          `group.user_added:Eng/${email}`,
        ]);
        expect(await t.service.dsync.store.userGroupIds(dir.id, successor.id)).to.deep.equal([eng.id]);
      });

      it("addresses passed along users (each takes the next one's old address): every user updated in one sync", async () => {
        const [a, b, c] = [users[0]!, users[1]!, users[2]!];
        const [eb, ec] = [b.primaryEmail, c.primaryEmail];
        // Listed a, b, c: a's new address is held by b until b's update, b's by c until c's.
        c.primaryEmail = 'moved@example.com';
        b.primaryEmail = ec;
        a.primaryEmail = eb;
        const events = await changed();
        expect(events).to.have.members([`user.updated:moved@example.com`, `user.updated:${ec}`, `user.updated:${eb}`]);
        expect(events).to.have.length(3);
      });

      it("a deleted group's email taken by a new group: the delete first, then the create with its members (no clash)", async () => {
        t.fake.removeGroup(ops.id);
        const successor = t.fake.addGroup({ name: 'Ops 2', email: ops.email });
        t.fake.addMember(successor.id, users[3]!.id);
        expect(await changed()).to.deep.equal([
          'group.deleted:Ops',
          'group.created:Ops 2',
          `group.user_added:Ops 2/${users[3]!.primaryEmail}`,
        ]);
      });

      it("a group's email taken by a group listed before the one that left it: both updated in one sync", async () => {
        const old = ops.email;
        ops.email = 'operations@example.com';
        Object.assign(eng, { email: old, name: 'Eng (was Ops)' });
        expect(await changed()).to.deep.equal(['group.updated:Ops', 'group.updated:Eng (was Ops)']);
        expect((await t.service.dsync.store.getGroup(dir.id, eng.id))!.body.externalId).to.equal(old);
      });

      it('a new user', async () => {
        const added = t.fake.addUser();
        expect(await changed()).to.deep.equal([`user.created:${added.primaryEmail}`]);
      });

      it('a group renamed, a group deleted', async () => {
        t.fake.groups.get(ops.id)!.name = 'Operations';
        t.fake.removeGroup(eng.id);
        expect(await changed()).to.deep.equal(['group.updated:Operations', 'group.deleted:Eng']);
      });

      it('a member added and a member removed', async () => {
        t.fake.addMember(ops.id, users[5]!.id);
        t.fake.removeMember(eng.id, users[1]!.id);
        expect(await changed()).to.deep.equal([
          `group.user_added:Ops/${users[5]!.primaryEmail}`,
          `group.user_removed:Eng/${users[1]!.primaryEmail}`,
        ]);
      });

      it('a member moved between groups', async () => {
        t.fake.removeMember(eng.id, users[0]!.id);
        t.fake.addMember(ops.id, users[0]!.id);
        expect(await changed()).to.deep.equal([
          `group.user_added:Ops/${users[0]!.primaryEmail}`,
          `group.user_removed:Eng/${users[0]!.primaryEmail}`,
        ]);
      });
    });

    it('paces its requests under DSYNC_GOOGLE_QUERIES_PER_MINUTE', async () => {
      await t.close();
      t = await startGoogleTest(await openStore(kind, 6), { queriesPerMinute: 1200 }); // one request per 50 ms
      t.fake.addUser();
      for (let i = 0; i < 4; i++) t.fake.addGroup();
      dir = await t.directory();
      const started = Date.now();
      const report = await t.sync();
      expect(report.directories[0].state).to.equal('succeeded');
      expect(t.fake.totalCalls).to.equal(6);
      expect(Date.now() - started).to.be.at.least(5 * 50);
    });

    it('two groups with one name both sync (Google names are not unique; the email is)', async () => {
      const twin = t.fake.addGroup({ name: 'Eng', email: 'eng-emea@example.com' });
      t.fake.addMember(twin.id, users[9]!.id);
      const report = await t.sync();
      expect(report.failed, JSON.stringify(report)).to.equal(0);
      const [a, b] = await Promise.all([
        t.service.dsync.store.getGroup(dir.id, eng.id),
        t.service.dsync.store.getGroup(dir.id, twin.id),
      ]);
      expect([a!.body.displayName, b!.body.displayName]).to.deep.equal(['Eng', 'Eng']);
      expect(b!.body.externalId).to.equal('eng-emea@example.com');
      t.fake.groups.get(twin.id)!.name = 'Eng EMEA';
      await t.newEvents(dir.id);
      await t.sync();
      expect(labels(await t.newEvents(dir.id))).to.deep.equal(['group.updated:Eng EMEA']);
    });

    it('only USER members of this directory: external, customer and nested-group members are skipped unless the directory expands nested groups', async () => {
      const inner = t.fake.addGroup({ name: 'Inner', email: 'inner@example.com' });
      t.fake.addMember(inner.id, users[7]!.id);
      t.fake.addMember(eng.id, inner.id, 'GROUP');
      t.fake.addMember(eng.id, 'C0fake', 'CUSTOMER');
      t.fake.addMember(eng.id, '999999999999', 'USER'); // someone outside the workspace
      await t.sync();
      const members = async (g: string) => (await t.service.dsync.store.groupMemberIds(dir.id, g, 0, 100)).items.sort();
      expect(await members(eng.id)).to.deep.equal([users[0]!.id, users[1]!.id].sort());

      const nested = await t.directory({ name: 'Nested', google_nested_groups: true });
      expect(nested.google_nested_groups).to.equal(true);
      await t.sync(nested.id);
      const nestedMembers = (await t.service.dsync.store.groupMemberIds(nested.id, eng.id, 0, 100)).items.sort();
      expect(nestedMembers).to.deep.equal([users[0]!.id, users[1]!.id, users[7]!.id].sort());
    });
  });
}
