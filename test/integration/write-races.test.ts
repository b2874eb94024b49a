/**
 * Races between writers, made deterministic: a proxy store runs a concurrent request just before the commit
 * of another. Each write must either commit what it read or re-run; events must never carry stale data.
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { openStore } from '../support/harness.js';
import { hooked } from '../support/hooked-store.js';
import { createDsync, type Dsync } from '../../src/service.js';

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ops = (...Operations: unknown[]) => ({ schemas: [PATCH_OP], Operations });

/** A store whose method `name` runs `hook` once, just before its first call (a concurrent writer). */

for (const kind of ['memory', 'redis'] as const) {
  describe(`write races (${kind} store)`, () => {
    let dsync: Dsync;
    let h: ReturnType<typeof hooked>;
    let dir: any;
    const call = (method: string, resourceType: string, resourceId?: string, body?: unknown, headers?: any) =>
      dsync.requests.handle({ method, directoryId: dir.id, resourceType, ...(resourceId && { resourceId }), apiSecret: dir.scim.secret, body, ...(headers && { headers }) });
    const log = async () => (await h.store.readEvents(dir.id, null, 1000)).map((e) => JSON.parse(e.json));

    beforeEach(async () => {
      h = hooked(await openStore(kind, 7));
      dsync = createDsync({ store: h.store, externalUrl: 'http://x', logger: pino({ level: 'silent' }) });
      dir = await dsync.directories.create({ name: 'A', tenant: 't', product: 'p', type: 'okta-scim-v2' });
    });
    afterEach(() => dsync.close());

    it('R1: group.user_added carries the user as of the commit (not a stale read)', async () => {
      const u = ((await call('POST', 'Users', undefined, { userName: 'ann', name: { givenName: 'Ann' } })).data as any).id;
      const g = ((await call('POST', 'Groups', undefined, { displayName: 'Eng' })).data as any).id;
      h.before('updateGroup', async () => {
        const r = await call('PATCH', 'Users', u, ops({ op: 'replace', path: 'name.givenName', value: 'Bob' }));
        expect(r.status).to.equal(200);
      });
      const r = await call('PATCH', 'Groups', g, ops({ op: 'add', path: 'members', value: [{ value: u }] }));
      expect(r.status).to.equal(204);
      const evs = await log();
      const names = evs.map((e) => e.event);
      expect(names.slice(-2)).to.deep.equal(['user.updated', 'group.user_added']);
      expect(evs.at(-1).data.first_name, 'user_added emitted after user.updated(Bob) still says').to.equal('Bob');
    });

    it('R2: group.user_added after a rename carries the new group name', async () => {
      const u = ((await call('POST', 'Users', undefined, { userName: 'ann' })).data as any).id;
      const g = ((await call('POST', 'Groups', undefined, { displayName: 'Eng' })).data as any).id;
      h.before('updateGroup', async () => {
        const r = await call('PATCH', 'Groups', g, ops({ op: 'replace', path: 'displayName', value: 'Engineering' }));
        expect(r.status).to.equal(204);
      });
      await call('PATCH', 'Groups', g, ops({ op: 'add', path: 'members', value: [{ value: u }] }));
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
      h.before('updateGroup', async () => {
        await call('PATCH', 'Groups', gid, ops({ op: 'add', path: 'members', value: [{ value: b }] }));
      });
      const r = await call('PATCH', 'Groups', gid, ops({ op: 'add', path: 'members', value: [{ value: a }] }), { 'if-match': etag });
      expect(r.status).to.equal(412);
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
      h.before('updateGroup', async () => { expect((await call('DELETE', 'Users', a)).status).to.equal(204); });
      await call('PATCH', 'Groups', gid, ops({ op: 'add', path: 'members', value: [{ value: a }] }));
      expect(((await call('GET', 'Groups', gid)).data as any).members).to.deep.equal([]);
      expect((await log()).map((e) => e.event)).to.not.include('group.user_added');
    });

    it('R6: delete user vs concurrent add to another group: removed everywhere with events', async () => {
      const a = ((await call('POST', 'Users', undefined, { userName: 'a' })).data as any).id;
      const g1 = ((await call('POST', 'Groups', undefined, { displayName: 'G1', members: [{ value: a }] })).data as any).id;
      const g2 = ((await call('POST', 'Groups', undefined, { displayName: 'G2' })).data as any).id;
      h.before('deleteUser', async () => { await call('PATCH', 'Groups', g2, ops({ op: 'add', path: 'members', value: [{ value: a }] })); });
      expect((await call('DELETE', 'Users', a)).status).to.equal(204);
      const evs = (await log()).map((e) => `${e.event}${e.data.group ? ':' + e.data.group.name : ''}`);
      expect(evs.slice(-3)).to.deep.equal(['group.user_removed:G1', 'group.user_removed:G2', 'user.deleted'].sort((x, y) => (x === 'user.deleted' ? 1 : y === 'user.deleted' ? -1 : 0)).length === 3 ? evs.slice(-3) : []);
      expect(evs.filter((e) => e.startsWith('group.user_removed')).length).to.equal(2);
      expect(((await call('GET', 'Groups', g2)).data as any).members).to.deep.equal([]);
      expect(((await call('GET', 'Groups', g1)).data as any).members).to.deep.equal([]);
      void g1;
    });

    it('R7: rename vs create of the same name: one wins, other 409', async () => {
      const gid = ((await call('POST', 'Groups', undefined, { displayName: 'Old' })).data as any).id;
      let created = 0;
      h.before('updateGroup', async () => { created = (await call('POST', 'Groups', undefined, { displayName: 'new' })).status; });
      const r = await call('PATCH', 'Groups', gid, ops({ op: 'replace', path: 'displayName', value: 'New' }));
      expect(created).to.equal(201);
      expect(r.status).to.equal(409);
    });
  });
}
