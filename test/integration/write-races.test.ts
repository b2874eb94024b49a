/**
 * Races between writers, made deterministic: a proxy store runs a concurrent request just before the commit
 * of another. Each write must either commit what it read or re-run; events must never carry stale data.
 * A hook only records what the concurrent request answered; the test checks it afterwards (an assertion
 * failing inside the hook would be caught by the SCIM handler and only turn the outer request into a 500).
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { openStore } from '../support/harness.js';
import { hooked } from '../support/hooked-store.js';
import { createDsync, type Dsync } from '../../src/service.js';

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ops = (...Operations: unknown[]) => ({ schemas: [PATCH_OP], Operations });

for (const kind of ['memory', 'redis'] as const) {
  describe(`write races (${kind} store)`, () => {
    let dsync: Dsync;
    let h: ReturnType<typeof hooked>;
    let dir: any;
    const call = (method: string, resourceType: string, resourceId?: string, body?: unknown, headers?: any) =>
      dsync.requests.handle({
        method,
        directoryId: dir.id,
        resourceType,
        ...(resourceId && { resourceId }),
        apiSecret: dir.scim.secret,
        body,
        ...(headers && { headers }),
      });
    const log = async () => (await h.store.readEvents(dir.id, null, 1000)).map((e) => JSON.parse(e.json));

    beforeEach(async () => {
      h = hooked(await openStore(kind, 7));
      dsync = createDsync({ store: h.store, externalUrl: 'http://x', logger: pino({ level: 'silent' }) });
      dir = await dsync.directories.create({ name: 'A', tenant: 't', product: 'p', type: 'okta-scim-v2' });
    });
    afterEach(() => dsync.close());

    it('R1: group.user_added carries the user as of the commit (not a stale read)', async () => {
      const u = ((await call('POST', 'Users', undefined, { userName: 'ann', name: { givenName: 'Ann' } })).data as any)
        .id;
      const g = ((await call('POST', 'Groups', undefined, { displayName: 'Eng' })).data as any).id;
      let renamed = 0;
      h.before('updateGroup', async () => {
        renamed = (await call('PATCH', 'Users', u, ops({ op: 'replace', path: 'name.givenName', value: 'Bob' })))
          .status;
      });
      const r = await call('PATCH', 'Groups', g, ops({ op: 'add', path: 'members', value: [{ value: u }] }));
      expect(renamed, 'the concurrent user PATCH').to.equal(200);
      expect(r.status).to.equal(204);
      const evs = await log();
      const names = evs.map((e) => e.event);
      expect(names.slice(-2)).to.deep.equal(['user.updated', 'group.user_added']);
      expect(evs.at(-1).data.first_name, 'user_added emitted after user.updated(Bob) still says').to.equal('Bob');
    });

    it('R2: group.user_added after a rename carries the new group name', async () => {
      const u = ((await call('POST', 'Users', undefined, { userName: 'ann' })).data as any).id;
      const g = ((await call('POST', 'Groups', undefined, { displayName: 'Eng' })).data as any).id;
      let renamed = 0;
      h.before('updateGroup', async () => {
        renamed = (await call('PATCH', 'Groups', g, ops({ op: 'replace', path: 'displayName', value: 'Engineering' })))
          .status;
      });
      expect(
        (await call('PATCH', 'Groups', g, ops({ op: 'add', path: 'members', value: [{ value: u }] }))).status,
      ).to.equal(204);
      expect(renamed, 'the concurrent rename').to.equal(204);
      const evs = await log();
      expect(evs.map((e) => e.event).slice(-2)).to.deep.equal(['group.updated', 'group.user_added']);
      expect(evs.at(-1).data.group.name).to.equal('Engineering');
    });

    it('R3: If-Match on a membership PATCH is enforced at commit (412 when the group moved on)', async () => {
      const [a, b] = [
        ((await call('POST', 'Users', undefined, { userName: 'a' })).data as any).id,
        ((await call('POST', 'Users', undefined, { userName: 'b' })).data as any).id,
      ];
      const g = await call('POST', 'Groups', undefined, { displayName: 'Eng' });
      const gid = (g.data as any).id;
      const etag = g.headers!.ETag;
      let concurrent = 0;
      h.before('updateGroup', async () => {
        concurrent = (await call('PATCH', 'Groups', gid, ops({ op: 'add', path: 'members', value: [{ value: b }] })))
          .status;
      });
      const before = (await log()).length;
      const r = await call('PATCH', 'Groups', gid, ops({ op: 'add', path: 'members', value: [{ value: a }] }), {
        'if-match': etag,
      });
      expect(concurrent, 'the concurrent add').to.equal(204);
      expect(r.status).to.equal(412);
      // Nothing of the refused PATCH was added or announced: only the concurrent add is there.
      expect(((await call('GET', 'Groups', gid)).data as any).members.map((m: any) => m.value)).to.deep.equal([b]);
      expect((await log()).slice(before).map((e) => `${e.event}:${e.data.id}`)).to.deep.equal([
        `group.user_added:${b}`,
      ]);
    });

    it('R4: replace-members vs concurrent add ends with exactly the replace list', async () => {
      const [a, b] = [
        ((await call('POST', 'Users', undefined, { userName: 'a' })).data as any).id,
        ((await call('POST', 'Users', undefined, { userName: 'b' })).data as any).id,
      ];
      const gid = ((await call('POST', 'Groups', undefined, { displayName: 'Eng' })).data as any).id;
      h.before('updateGroup', async () => {
        await call('PATCH', 'Groups', gid, ops({ op: 'add', path: 'members', value: [{ value: b }] }));
      });
      await call('PATCH', 'Groups', gid, ops({ op: 'replace', path: 'members', value: [{ value: a }] }));
      const members = ((await call('GET', 'Groups', gid)).data as any).members.map((m: any) => m.value);
      expect(members).to.deep.equal([a]);
    });

    it('R5: user deleted while being added: no membership, no event', async () => {
      const a = ((await call('POST', 'Users', undefined, { userName: 'a' })).data as any).id;
      const gid = ((await call('POST', 'Groups', undefined, { displayName: 'Eng' })).data as any).id;
      let deleted = 0;
      h.before('updateGroup', async () => {
        deleted = (await call('DELETE', 'Users', a)).status;
      });
      const r = await call('PATCH', 'Groups', gid, ops({ op: 'add', path: 'members', value: [{ value: a }] }));
      expect(deleted, 'the concurrent DELETE').to.equal(204);
      expect(r.status, JSON.stringify(r.data)).to.equal(204);
      expect(((await call('GET', 'Groups', gid)).data as any).members).to.deep.equal([]);
      const events = (await log()).map((e) => e.event);
      expect(events.at(-1), 'the delete is the last event').to.equal('user.deleted');
      expect(events).to.not.include('group.user_added');
    });

    it('R6: delete user vs concurrent add to another group: removed everywhere with events', async () => {
      const a = ((await call('POST', 'Users', undefined, { userName: 'a' })).data as any).id;
      const g1 = ((await call('POST', 'Groups', undefined, { displayName: 'G1', members: [{ value: a }] })).data as any)
        .id;
      const g2 = ((await call('POST', 'Groups', undefined, { displayName: 'G2' })).data as any).id;
      let added = 0;
      h.before('deleteUser', async () => {
        added = (await call('PATCH', 'Groups', g2, ops({ op: 'add', path: 'members', value: [{ value: a }] }))).status;
      });
      const before = (await log()).length;
      expect((await call('DELETE', 'Users', a)).status).to.equal(204);
      expect(added, 'the concurrent add to G2').to.equal(204);
      const evs = (await log()).slice(before).map((e) => `${e.event}${e.data.group ? ':' + e.data.group.name : ''}`);
      // The add committed first; the delete then removed the user from both groups (in either order), then itself.
      expect(evs[0]).to.equal('group.user_added:G2');
      expect(evs.slice(1, 3).sort()).to.deep.equal(['group.user_removed:G1', 'group.user_removed:G2']);
      expect(evs.slice(3)).to.deep.equal(['user.deleted']);
      expect(((await call('GET', 'Groups', g2)).data as any).members).to.deep.equal([]);
      expect(((await call('GET', 'Groups', g1)).data as any).members).to.deep.equal([]);
    });

    it('R7: rename vs create of the same name: one wins, other 409', async () => {
      const gid = ((await call('POST', 'Groups', undefined, { displayName: 'Old' })).data as any).id;
      let created = 0;
      h.before('updateGroup', async () => {
        created = (await call('POST', 'Groups', undefined, { displayName: 'new' })).status;
      });
      const r = await call('PATCH', 'Groups', gid, ops({ op: 'replace', path: 'displayName', value: 'New' }));
      expect(created).to.equal(201);
      expect(r.status).to.equal(409);
    });
  });
}
