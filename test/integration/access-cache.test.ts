/**
 * The Redis store parses a directory's record and token list once per text and hands every request the
 * same frozen copy (and the directory's secret is hashed once per copy). A change written through the store, or
 * by another replica straight into Redis, is seen by the very next request: a revoked secret or token stops
 * working at once, a new one works at once, and nothing a request does can change the shared copy.
 */
import { expect } from 'chai';
import type { Directory } from '../../src/core/model.js';
import type { Store } from '../../src/core/store-port.js';
import type { Redis } from 'ioredis';
import type { RedisStore } from '../../src/store/redis/users-groups.js';
import { prefix } from '../../src/store/redis/keys.js';
import { createDsync, type Dsync } from '../../src/service.js';
import { STORE_KINDS, openStore } from '../support/harness.js';

for (const kind of STORE_KINDS) {
  describe(`a directory's access as each request reads it (${kind} store)`, () => {
    let store: Store;
    let dsync: Dsync;
    let directory: Directory;
    const ok = async (secret: string) => {
      const auth = await dsync.scimTokens.authenticate(directory.id, secret);
      return auth.directory !== null && auth.tokenId !== null;
    };

    beforeEach(async () => {
      store = await openStore(kind, 14);
      dsync = createDsync({ store, externalUrl: 'https://app.example.com' });
      directory = await dsync.directories.create({
        name: 'Acme',
        tenant: 'acme',
        product: 'app',
        type: 'okta-scim-v2',
      });
    });
    afterEach(() => dsync.close());

    it('sees a new secret, a revoked one and a new token at the next request', async () => {
      const first = directory.scim.secret;
      expect(await ok(first)).to.equal(true);
      expect(await ok(first)).to.equal(true);
      await store.updateDirectory({ ...directory, scim: { ...directory.scim, secret: 'rotated-secret-0123456789' } });
      expect(await ok('rotated-secret-0123456789')).to.equal(true);
      expect(await ok(first)).to.equal(false);
      const token = await dsync.scimTokens.create(directory.id);
      expect(await ok(token.token)).to.equal(true);
      await dsync.scimTokens.revoke(directory.id, token.id);
      expect(await ok(token.token)).to.equal(false);
      await dsync.scimTokens.revoke(directory.id, 'scim-secret');
      expect(await ok('rotated-secret-0123456789')).to.equal(false);
    });

    it('sees a deactivation at the next request', async () => {
      await store.getDirectoryAccess(directory.id);
      await store.updateDirectory({ ...directory, deactivated: true });
      const res = await dsync.requests.handle({
        method: 'GET',
        directoryId: directory.id,
        resourceType: 'Users',
        apiSecret: directory.scim.secret,
      });
      expect(res.status).to.equal(403);
    });

    if (kind === 'redis') {
      it('hands out one frozen copy per text, and a new one when another replica changed the record', async () => {
        const a = (await store.getDirectoryAccess(directory.id))!;
        const b = (await store.getDirectoryAccess(directory.id))!;
        expect(b.directory).to.equal(a.directory);
        expect(b.tokens).to.equal(a.tokens);
        expect(Object.isFrozen(a.directory) && Object.isFrozen(a.directory.scim) && Object.isFrozen(a.tokens)).to.equal(
          true,
        );
        expect(() => {
          (a.directory.scim as { secret: string }).secret = 'changed';
        }).to.throw(TypeError);
        // Another replica's write goes straight to Redis: the text differs, so the next read parses it.
        await ((store as RedisStore).redis as Redis).set(
          `${prefix(directory.id)}dir`,
          JSON.stringify({ ...directory, scim: { ...directory.scim, secret: 'from-another-replica-42' } }),
        );
        const c = (await store.getDirectoryAccess(directory.id))!;
        expect(c.directory).to.not.equal(a.directory);
        expect(c.directory.scim.secret).to.equal('from-another-replica-42');
        expect(await ok('from-another-replica-42')).to.equal(true);
        expect(await ok(directory.scim.secret)).to.equal(false);
      });
    }
  });
}
