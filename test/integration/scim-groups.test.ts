/** SCIM /Groups over real HTTP: members kept, set-delta PATCHes, membership events only on real change. */
import { expect } from 'chai';
import { CLUSTER_STORE_KINDS, openStore, startService, type Service } from '../support/harness.js';

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ops = (...Operations: unknown[]) => ({ schemas: [PATCH_OP], Operations });

for (const kind of CLUSTER_STORE_KINDS) {
  describe(`SCIM /Groups (${kind} store)`, () => {
    let svc: Service;
    let dir: any;
    let events: any[];
    let users: string[];
    const memberIds = async (groupId: string) =>
      ((await svc.scim(dir, 'GET', `/Groups/${groupId}`)).body.members ?? []).map((m: { value: string }) => m.value);
    const eventNames = () => events.map((e) => `${e.event}${e.data.group ? `:${e.data.id}` : ''}`);
    /** The directory's event log as committed with each write (delivery to `events` trails it). */
    const logged = async () =>
      (await svc.dsync.store.readEvents(dir.id, null, 1000)).map((e) => JSON.parse(e.json).event as string);
    const userEvents = ['user.created', 'user.created', 'user.created', 'user.created'];

    beforeEach(async () => {
      events = [];
      svc = await startService(await openStore(kind), { eventCallback: (e) => void events.push(e) });
      dir = await svc.createDirectory();
      users = [];
      for (const n of ['a', 'b', 'c', 'd']) {
        users.push(
          (await svc.scim(dir, 'POST', '/Users', { userName: `${n}@acme.io`, displayName: n.toUpperCase() })).body.id,
        );
      }
      await waitEvents(4);
      events.length = 0;
    });
    afterEach(() => svc.close());

    async function waitEvents(n: number) {
      const deadline = Date.now() + 5000;
      while (events.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      expect(events.length, JSON.stringify(eventNames())).to.equal(n);
    }

    it('creates a group with members and returns them (value, display as sent or derived, $ref)', async () => {
      const res = await svc.scim(dir, 'POST', '/Groups', {
        displayName: 'Eng',
        members: [{ value: users[0] }, { value: users[1], display: 'x' }],
      });
      expect(res.status).to.equal(201);
      expect(res.headers.get('location')).to.equal(`${dir.scim.endpoint}/Groups/${res.body.id}`);
      expect(res.body.members).to.deep.equal([
        { value: users[0], display: 'A', $ref: `${dir.scim.endpoint}/Users/${users[0]}`, type: 'User' },
        { value: users[1], display: 'x', $ref: `${dir.scim.endpoint}/Users/${users[1]}`, type: 'User' },
      ]);
      expect(await memberIds(res.body.id)).to.deep.equal([users[0], users[1]]);
      await waitEvents(3);
      expect(eventNames()).to.deep.equal([
        'group.created',
        `group.user_added:${users[0]}`,
        `group.user_added:${users[1]}`,
      ]);
      expect(events[1].data.group).to.include({ id: res.body.id, name: 'Eng' });
    });

    it('creates a group without members (members [] or left out): 201 with members [], as a GET answers', async () => {
      for (const body of [{ displayName: 'Empty', members: [] }, { displayName: 'Absent' }]) {
        const res = await svc.scim(dir, 'POST', '/Groups', body);
        expect(res.status).to.equal(201);
        expect(res.body.members).to.deep.equal([]);
        const read = await svc.scim(dir, 'GET', `/Groups/${res.body.id}`);
        expect(read.body).to.deep.equal(res.body);
      }
    });

    it('refuses a duplicate displayName (case-insensitive) with 409', async () => {
      await svc.scim(dir, 'POST', '/Groups', { displayName: 'Eng' });
      const dup = await svc.scim(dir, 'POST', '/Groups', { displayName: 'ENG' });
      expect(dup.status).to.equal(409);
      expect(dup.body.scimType).to.equal('uniqueness');
      // The refused POST stored nothing and announced nothing.
      expect(await svc.dsync.store.countGroups(dir.id)).to.equal(1);
      expect(
        (await svc.scim(dir, 'GET', '/Groups')).body.Resources.map((g: { displayName: string }) => g.displayName),
      ).to.deep.equal(['Eng']);
      expect(await logged()).to.deep.equal([...userEvents, 'group.created']);
    });

    it('adds members with PATCH (204); an existing member gives no event', async () => {
      const g = (await svc.scim(dir, 'POST', '/Groups', { displayName: 'Eng', members: [{ value: users[0] }] })).body;
      const res = await svc.scim(
        dir,
        'PATCH',
        `/Groups/${g.id}`,
        ops({ op: 'add', path: 'members', value: [{ value: users[0] }, { value: users[2] }] }),
      );
      expect(res.status).to.equal(204);
      expect(await memberIds(g.id)).to.deep.equal([users[0], users[2]]);
      await waitEvents(3);
      expect(eventNames()).to.deep.equal([
        'group.created',
        `group.user_added:${users[0]}`,
        `group.user_added:${users[2]}`,
      ]);
    });

    it('removes only the listed members (value list), or by filter path', async () => {
      const g = (
        await svc.scim(dir, 'POST', '/Groups', { displayName: 'Eng', members: users.map((value) => ({ value })) })
      ).body;
      await svc.scim(
        dir,
        'PATCH',
        `/Groups/${g.id}`,
        ops({ op: 'Remove', path: 'members', value: [{ value: users[1] }] }),
      );
      expect(await memberIds(g.id)).to.deep.equal([users[0], users[2], users[3]]);
      await svc.scim(dir, 'PATCH', `/Groups/${g.id}`, ops({ op: 'remove', path: `members[value eq "${users[3]}"]` }));
      expect(await memberIds(g.id)).to.deep.equal([users[0], users[2]]);
      await svc.scim(dir, 'PATCH', `/Groups/${g.id}`, ops({ op: 'remove', path: `members[value eq "${users[3]}"]` }));
      await waitEvents(1 + 4 + 2);
      expect(eventNames().slice(5)).to.deep.equal([`group.user_removed:${users[1]}`, `group.user_removed:${users[3]}`]);
    });

    it('replaces members with full-replace semantics, and [] empties the group', async () => {
      const g = (
        await svc.scim(dir, 'POST', '/Groups', {
          displayName: 'Eng',
          members: [{ value: users[0] }, { value: users[1] }],
        })
      ).body;
      await svc.scim(
        dir,
        'PATCH',
        `/Groups/${g.id}`,
        ops({ op: 'replace', path: 'members', value: [{ value: users[1] }, { value: users[2] }] }),
      );
      expect((await memberIds(g.id)).sort()).to.deep.equal([users[1], users[2]].sort());
      await svc.scim(dir, 'PATCH', `/Groups/${g.id}`, ops({ op: 'replace', path: 'members', value: [] }));
      expect(await memberIds(g.id)).to.deep.equal([]);
      await waitEvents(3 + 2 + 2);
      expect(eventNames().slice(3, 5).sort()).to.deep.equal(
        [`group.user_added:${users[2]}`, `group.user_removed:${users[0]}`].sort(),
      );
    });

    it('renames (Okta sends id + displayName) without touching members', async () => {
      const g = (await svc.scim(dir, 'POST', '/Groups', { displayName: 'Eng', members: [{ value: users[0] }] })).body;
      const res = await svc.scim(
        dir,
        'PATCH',
        `/Groups/${g.id}`,
        ops({ op: 'replace', value: { id: g.id, displayName: 'Engineering' } }),
      );
      expect(res.status).to.equal(204);
      const after = await svc.scim(dir, 'GET', `/Groups/${g.id}`);
      expect(after.body.displayName).to.equal('Engineering');
      expect(after.body.members.map((m: { value: string }) => m.value)).to.deep.equal([users[0]]);
      await svc.scim(dir, 'PATCH', `/Groups/${g.id}`, ops({ op: 'replace', path: 'externalId', value: 'ext-1' }));
      expect(await memberIds(g.id)).to.deep.equal([users[0]]);
      await waitEvents(4);
      expect(events[2]).to.deep.include({
        event: 'group.updated',
        previous_attributes: { name: 'Eng', raw: { displayName: 'Eng' } },
      });
    });

    it('PUT renames and, when members are given, replaces them', async () => {
      const g = (await svc.scim(dir, 'POST', '/Groups', { displayName: 'Eng', members: [{ value: users[0] }] })).body;
      const put = await svc.scim(dir, 'PUT', `/Groups/${g.id}`, { displayName: 'R&D' });
      expect(put.status).to.equal(200);
      expect(put.body.displayName).to.equal('R&D');
      expect(put.body.members.map((m: { value: string }) => m.value)).to.deep.equal([users[0]]);
      const put2 = await svc.scim(dir, 'PUT', `/Groups/${g.id}`, {
        displayName: 'R&D',
        members: [{ value: users[3] }],
      });
      expect(put2.body.members.map((m: { value: string }) => m.value)).to.deep.equal([users[3]]);
    });

    it('applies a multi-operation PATCH atomically (a bad operation changes nothing)', async () => {
      const g = (await svc.scim(dir, 'POST', '/Groups', { displayName: 'Eng' })).body;
      const bad = await svc.scim(
        dir,
        'PATCH',
        `/Groups/${g.id}`,
        ops(
          { op: 'add', path: 'members', value: [{ value: users[0] }] },
          { op: 'replace', path: 'displayName', value: 'New' },
          { op: 'explode', path: 'displayName' },
        ),
      );
      expect(bad.status).to.equal(400);
      const after = await svc.scim(dir, 'GET', `/Groups/${g.id}`);
      expect(after.body.displayName).to.equal('Eng');
      expect(after.body.members).to.deep.equal([]);
      expect(after.body.meta.version).to.equal(g.meta.version);
      // No event for the member add or the rename that came before the bad operation.
      expect(await logged()).to.deep.equal([...userEvents, 'group.created']);
    });

    it('loses no member under concurrent PATCH adds', async () => {
      const g = (await svc.scim(dir, 'POST', '/Groups', { displayName: 'Big' })).body;
      const more: string[] = [];
      for (let i = 0; i < 30; i++)
        more.push((await svc.scim(dir, 'POST', '/Users', { userName: `m${i}@acme.io` })).body.id);
      const results = await Promise.all(
        more.map((id) =>
          svc.scim(dir, 'PATCH', `/Groups/${g.id}`, ops({ op: 'add', path: 'members', value: [{ value: id }] })),
        ),
      );
      expect(
        results.map((r) => r.status).filter((s) => s !== 204),
        JSON.stringify(results.find((r) => r.status !== 204)?.body),
      ).to.deep.equal([]);
      expect((await memberIds(g.id)).sort()).to.deep.equal([...more].sort());
    });

    it('lists groups with excludedAttributes=members and filters by displayName', async () => {
      await svc.scim(dir, 'POST', '/Groups', { displayName: 'Eng', members: [{ value: users[0] }] });
      await svc.scim(dir, 'POST', '/Groups', { displayName: 'Ops' });
      const res = await svc.scim(
        dir,
        'GET',
        `/Groups?filter=${encodeURIComponent('displayName eq "eng"')}&excludedAttributes=members`,
      );
      expect(res.body.totalResults).to.equal(1);
      expect(res.body.Resources[0].displayName).to.equal('Eng');
      expect(res.body.Resources[0]).to.not.have.property('members');
      const all = await svc.scim(dir, 'GET', '/Groups');
      expect(all.body.Resources.map((r: { displayName: string }) => r.displayName)).to.deep.equal(['Eng', 'Ops']);
      expect(all.body.Resources[0].members).to.have.length(1);
    });

    it('filters groups by member (the groups of a user), indexed and combined', async () => {
      const eng = (
        await svc.scim(dir, 'POST', '/Groups', {
          displayName: 'Eng',
          members: [{ value: users[0] }, { value: users[1] }],
        })
      ).body;
      const ops = (await svc.scim(dir, 'POST', '/Groups', { displayName: 'Ops', members: [{ value: users[1] }] })).body;
      const ids = async (filter: string) => {
        const res = await svc.scim(
          dir,
          'GET',
          `/Groups?excludedAttributes=members&filter=${encodeURIComponent(filter)}`,
        );
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.Resources.map((g: { id: string }) => g.id);
      };
      expect(await ids(`members[value eq "${users[0]}"]`)).to.deep.equal([eng.id]);
      expect(await ids(`members.value eq "${users[1]}"`)).to.deep.equal([eng.id, ops.id]);
      expect(await ids(`displayName eq "ops" and members eq "${users[1]}"`)).to.deep.equal([ops.id]);
      expect(await ids(`members[value eq "${users[2]}"]`)).to.deep.equal([]);
      expect(await ids(`not (members pr)`)).to.deep.equal([]);
    });

    it('deletes a group: 204, 404 after, group.deleted event', async () => {
      const g = (await svc.scim(dir, 'POST', '/Groups', { displayName: 'Eng', members: [{ value: users[0] }] })).body;
      expect((await svc.scim(dir, 'DELETE', `/Groups/${g.id}`)).status).to.equal(204);
      expect((await svc.scim(dir, 'GET', `/Groups/${g.id}`)).status).to.equal(404);
      expect(await svc.dsync.store.userGroupIds(dir.id, users[0]!)).to.deep.equal([]);
      await waitEvents(3);
      expect(events[2].event).to.equal('group.deleted');
    });
  });
}
