/**
 * A SCIM request that names a user or group (GET, PUT, PATCH, DELETE of /Users/<id>, /Groups/<id>) reads
 * it with the directory's access, in the authentication's round trip: the write starts from that read instead of
 * reading again. A write that finds it moved on meanwhile reads afresh; a wrong token is never given the record.
 */
import { expect } from 'chai';
import type { Directory } from '../../src/core/model.js';
import { ScimTokens } from '../../src/core/scim-tokens.js';
import type { Store } from '../../src/core/store-port.js';
import type { RedisStore } from '../../src/store/redis/users-groups.js';
import { createDsync, type Dsync } from '../../src/service.js';
import { STORE_KINDS, openStore } from '../support/harness.js';
import { hooked } from '../support/hooked-store.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

for (const kind of STORE_KINDS) {
  describe(`the named resource read with the authentication (${kind} store)`, () => {
    let raw: Store;
    let w: ReturnType<typeof hooked>;
    let dsync: Dsync;
    let directory: Directory;
    let call: (method: string, path: string, body?: unknown) => Promise<{ status: number; data: any }>;

    beforeEach(async () => {
      raw = await openStore(kind, 15);
      w = hooked(raw);
      dsync = createDsync({ store: w.store, externalUrl: 'https://app.example.com' });
      directory = await dsync.directories.create({
        name: 'Acme',
        tenant: 'acme',
        product: 'app',
        type: 'okta-scim-v2',
      });
      call = async (method, path, body) => {
        const [resourceType, resourceId] = path.split('/') as [string, string?];
        const req = {
          directoryId: directory.id,
          apiSecret: directory.scim.secret,
          method,
          resourceType,
          query: {},
          body,
        };
        return dsync.requests.handle(resourceId === undefined ? req : { ...req, resourceId }) as Promise<{
          status: number;
          data: any;
        }>;
      };
    });
    afterEach(() => dsync.close());

    /** The store calls one request makes. */
    const callsOf = async (
      method: string,
      path: string,
      body?: unknown,
    ): Promise<{ status: number; calls: string[]; data: any }> => {
      const from = w.calls.length;
      const res = await call(method, path, body);
      return { status: res.status, data: res.data, calls: w.calls.slice(from) };
    };

    it('a user PUT, PATCH, GET and DELETE read it only with the authentication', async () => {
      const { id } = (await call('POST', 'Users', { schemas: [USER], userName: 'ann@acme.io' })).data;
      for (const [method, body, status] of [
        ['GET', undefined, 200],
        ['PUT', { schemas: [USER], userName: 'ann@acme.io', title: 'Dr' }, 200],
        ['PATCH', { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] }, 200],
        ['DELETE', undefined, 204],
      ] as const) {
        const res = await callsOf(method, `Users/${id}`, body);
        expect(res.status, method).to.equal(status);
        expect(res.calls, method).to.include('getDirectoryAccess').and.not.include('getUser');
      }
      const gone = await callsOf('PUT', `Users/${id}`, { schemas: [USER], userName: 'ann@acme.io' });
      expect(gone.status).to.equal(404);
      expect(gone.calls).to.not.include('getUser');
    });

    it('a group PATCH, PUT, GET and DELETE read it only with the authentication', async () => {
      const user = (await call('POST', 'Users', { schemas: [USER], userName: 'ann@acme.io' })).data;
      const { id } = (await call('POST', 'Groups', { displayName: 'Eng' })).data;
      for (const [method, body, status] of [
        [
          'PATCH',
          { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: user.id }] }] },
          204,
        ],
        ['GET', undefined, 200],
        ['PUT', { displayName: 'Engineering' }, 200],
        ['DELETE', undefined, 204],
      ] as const) {
        const res = await callsOf(method, `Groups/${id}`, body);
        expect(res.status, method).to.equal(status);
        expect(res.calls, method).to.include('getDirectoryAccess').and.not.include('getGroup');
      }
    });

    it('a write that finds the resource moved on since the authentication read reads it afresh', async () => {
      const { id } = (await call('POST', 'Users', { schemas: [USER], userName: 'ann@acme.io' })).data;
      // Another writer lands between this request's authentication (its read) and its commit.
      w.before('updateUser', async () => {
        expect(
          (
            await call('PATCH', `Users/${id}`, {
              schemas: [PATCH_OP],
              Operations: [{ op: 'add', path: 'title', value: 'Dr' }],
            })
          ).status,
        ).to.equal(200);
      });
      const res = await callsOf('PATCH', `Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'add', path: 'nickName', value: 'Annie' }],
      });
      expect(res.status).to.equal(200);
      expect(res.data).to.deep.include({ title: 'Dr', nickName: 'Annie' });
      expect(res.data.meta.version).to.equal('W/"3"');
      expect(res.calls.filter((c) => c === 'getUser')).to.have.length(1);
    });

    it('a wrong token is not given the record', async () => {
      const { id } = (await call('POST', 'Users', { schemas: [USER], userName: 'ann@acme.io' })).data;
      const tokens = new ScimTokens({ store: raw });
      const wrong = await tokens.authenticate(directory.id, 'wrong', { kind: 'user', id });
      expect(wrong).to.deep.equal({ directory: (await raw.getDirectory(directory.id))!, tokenId: null });
      const right = await tokens.authenticate(directory.id, directory.scim.secret, { kind: 'user', id });
      expect(right).to.deep.include({ tokenId: 'scim-secret' });
      expect((right as { resource?: { id: string } }).resource?.id).to.equal(id);
    });

    if (kind === 'redis') {
      it('a user PUT is two store commands: the authentication with the user, the write', async () => {
        const { id } = (await call('POST', 'Users', { schemas: [USER], userName: 'ann@acme.io' })).data;
        const sent: string[] = [];
        (raw as RedisStore).observeCommands((command) => void sent.push(command));
        expect(
          (await call('PUT', `Users/${id}`, { schemas: [USER], userName: 'ann@acme.io', title: 'Dr' })).status,
        ).to.equal(200);
        expect(sent.filter((c) => c === 'mget' || c === 'get' || c === 'evalsha')).to.deep.equal(['mget', 'evalsha']);
      });
    }
  });
}
