/**
 * SCIM tokens, setup links and the activity record on each store (memory, Redis, Redis Cluster): the core
 * services over the AccessStore port, so the adapters are held to one behaviour.
 */
import { expect } from 'chai';
import { ActivityRecorder, ACTIVITY_KEEP } from '../../src/core/activity.js';
import { DirectoryService } from '../../src/core/directories.js';
import { PRIMARY_TOKEN_ID, sha256Hex } from '../../src/core/scim-token-list.js';
import { ScimTokens } from '../../src/core/scim-tokens.js';
import { SetupLinks } from '../../src/core/setup-links.js';
import type { Store } from '../../src/core/store-port.js';
import { CLUSTER_STORE_KINDS, openStore, until } from '../support/harness.js';

for (const kind of CLUSTER_STORE_KINDS) {
  describe(`setup access: tokens, links, activity (${kind} store)`, function () {
    this.timeout(20_000);
    let store: Store;
    let directories: DirectoryService;
    let tokens: ScimTokens;
    let links: SetupLinks;
    let dir: Awaited<ReturnType<DirectoryService['create']>>;

    beforeEach(async () => {
      store = await openStore(kind, 12);
      directories = new DirectoryService({ store, externalUrl: 'https://sync.example' });
      tokens = new ScimTokens({ store, usageIntervalMs: 0 });
      links = new SetupLinks({ store, baseUrl: 'https://sync.example/setup/' });
      dir = await directories.create({ name: 'Acme', tenant: 'acme', product: 'app', type: 'okta-scim-v2' });
    });
    afterEach(() => store.close());

    const tokenOf = async (presented: string) => {
      const auth = await tokens.authenticate(dir.id, presented);
      return auth.directory ? auth.tokenId : 'no directory';
    };

    it('scim.secret is the first token; a second works beside it; a third is refused until one is revoked', async () => {
      expect((await tokens.list(dir.id)).map((t) => t.id)).to.deep.equal([PRIMARY_TOKEN_ID]);
      expect(await tokenOf(dir.scim.secret)).to.equal(PRIMARY_TOKEN_ID);
      const second = await tokens.create(dir.id);
      expect(second.token).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(await tokenOf(second.token)).to.equal(second.id);
      expect(await tokenOf(dir.scim.secret)).to.equal(PRIMARY_TOKEN_ID);
      const third = await tokens.create(dir.id).catch((e: unknown) => e);
      expect(third).to.have.property('status', 409);

      await tokens.revoke(dir.id, PRIMARY_TOKEN_ID);
      expect(await tokenOf(dir.scim.secret)).to.equal(null);
      expect((await directories.get(dir.id)).scim.secret).to.equal('');
      const listed = await tokens.list(dir.id);
      expect(listed.map((t) => t.id)).to.deep.equal([second.id]);
      expect(JSON.stringify(listed)).not.to.contain(second.token);

      const again = await tokens.create(dir.id);
      await tokens.revoke(dir.id, second.id);
      expect(await tokenOf(second.token)).to.equal(null);
      expect(await tokenOf(again.token)).to.equal(again.id);
      expect(await tokens.revoke(dir.id, second.id).catch((e: unknown) => e)).to.have.property('status', 404);
      expect(await tokenOf('')).to.equal(null);
      expect(await tokens.authenticate('nope', again.token)).to.deep.equal({ directory: null });
    });

    it('stores a created token only as its SHA-256', async () => {
      const created = await tokens.create(dir.id);
      const access = (await store.getDirectoryAccess(dir.id))!;
      expect(access.tokens).to.deep.equal([
        { id: created.id, hash: sha256Hex(created.token), created_at: created.created_at },
      ]);
      expect(access.tokensRevision).not.to.contain(created.token);
    });

    it('concurrent creates with one free place: exactly one wins', async () => {
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => tokens.create(dir.id)));
      expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
      expect(
        results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.status),
      ).to.deep.equal([409, 409, 409, 409, 409]);
      expect(await tokens.list(dir.id)).to.have.length(2);
    });

    it('records when a token was last used, off the request path', async () => {
      const created = await tokens.create(dir.id);
      expect((await tokens.list(dir.id)).every((t) => t.last_used_at === null)).to.equal(true);
      await tokenOf(created.token);
      await until(
        async () => (await tokens.list(dir.id)).find((t) => t.id === created.id)!.last_used_at !== null,
        'last_used_at',
      );
      expect((await tokens.list(dir.id)).find((t) => t.id === PRIMARY_TOKEN_ID)!.last_used_at).to.equal(null);
    });

    it('a rotation through put keeps the replaced scim.secret working beside the new one, then lets it expire', async () => {
      await directories.put({ ...dir, scim: { ...dir.scim, secret: 'rotated-secret' } });
      expect(await tokenOf('rotated-secret')).to.equal(PRIMARY_TOKEN_ID);
      const previous = await tokenOf(dir.scim.secret);
      expect(previous).to.match(/^tok_/);
      const listed = await tokens.list(dir.id);
      expect(listed.map((t) => t.id)).to.have.members([previous, PRIMARY_TOKEN_ID]);
      expect(Date.parse(listed.find((t) => t.id === previous)!.expires_at!) - Date.now()).to.be.greaterThan(
        6 * 86_400_000,
      );
      expect(listed.find((t) => t.id === PRIMARY_TOKEN_ID)!.expires_at).to.equal(undefined);
      // Retried (the record write failed after the token was kept): still one previous token.
      await directories.put({ ...dir, scim: { ...dir.scim, secret: 'rotated-secret' } });
      expect(await tokens.list(dir.id)).to.have.length(2);
      // Its grace ends: gone from the list and from authentication.
      const access = (await store.getDirectoryAccess(dir.id))!;
      const ended = access.tokens.map((t) =>
        t.primary ? t : { ...t, expires_at: new Date(Date.now() - 1).toISOString() },
      );
      expect(await store.putScimTokens(dir.id, access.tokensRevision, ended)).to.equal('ok');
      expect(await tokenOf(dir.scim.secret)).to.equal(null);
      expect((await tokens.list(dir.id)).map((t) => t.id)).to.deep.equal([PRIMARY_TOKEN_ID]);
    });

    it('the token list is compare-and-set: a stale revision writes nothing; a deleted directory is missing', async () => {
      const access = (await store.getDirectoryAccess(dir.id))!;
      await tokens.create(dir.id);
      expect(await store.putScimTokens(dir.id, access.tokensRevision, [])).to.equal('stale');
      expect(await tokens.list(dir.id)).to.have.length(2);
      await directories.delete(dir.id);
      expect(await store.putScimTokens(dir.id, '', [])).to.equal('missing');
      expect(await store.getDirectoryAccess(dir.id)).to.equal(null);
    });

    it('setup links: the URL opens its directory, is stored hashed, listed without it, revoked at once', async () => {
      const link = await links.create(dir.id);
      expect(link.url).to.match(/^https:\/\/sync\.example\/setup\/[A-Za-z0-9_-]{43}$/);
      expect(Date.parse(link.expires_at) - Date.now()).to.be.closeTo(7 * 86_400_000, 60_000);
      const token = link.url.split('/').pop()!;
      const resolved = await links.resolve(token);
      expect(resolved.status).to.equal('valid');
      expect(resolved.status === 'valid' && resolved.directory.id).to.equal(dir.id);
      const listed = await links.list(dir.id);
      expect(listed).to.deep.equal([
        { id: link.id, created_at: listed[0]!.created_at, expires_at: link.expires_at, revoked: false },
      ]);
      expect(JSON.stringify(await store.listSetupLinks(dir.id))).not.to.contain(token);

      await links.revoke(dir.id, link.id);
      expect((await links.resolve(token)).status).to.equal('revoked');
      expect((await links.list(dir.id))[0]!.revoked).to.equal(true);
      await links.revoke(dir.id, link.id); // again: fine
      expect(await links.revoke(dir.id, 'sl_nope').catch((e: unknown) => e)).to.have.property('status', 404);
      expect(await links.revoke('nope', link.id).catch((e: unknown) => e)).to.have.property('status', 404);
    });

    it('setup links: expiry bounds, an expired link, a guessed one, another directory, and the cascade delete', async () => {
      expect(await links.create(dir.id, { expires_in: 31 * 86_400 }).catch((e: unknown) => e)).to.have.property(
        'status',
        400,
      );
      expect(await links.create(dir.id, { expires_in: 'soon' }).catch((e: unknown) => e)).to.have.property(
        'status',
        400,
      );
      expect(await links.create('nope').catch((e: unknown) => e)).to.have.property('status', 404);
      const long = await links.create(dir.id, { expires_in: 30 * 86_400 });
      const short = await links.create(dir.id, { expires_in: 60 });
      const shortToken = short.url.split('/').pop()!;
      // Expired: the stored record says so (the store keeps it for a while to tell it from a guess).
      const stored = (await store.listSetupLinks(dir.id)).find((l) => l.id === short.id)!;
      await store.putSetupLink(
        { ...stored, expires_at: new Date(Date.now() - 1000).toISOString() },
        Date.now() + 60_000,
      );
      expect((await links.resolve(shortToken)).status).to.equal('expired');
      expect((await links.resolve('A'.repeat(43))).status).to.equal('unknown');
      expect((await links.resolve('../../etc')).status).to.equal('unknown');

      const other = await directories.create({ name: 'Other', tenant: 'other', product: 'app', type: 'okta-scim-v2' });
      expect(await links.revoke(other.id, long.id).catch((e: unknown) => e)).to.have.property('status', 404);
      expect(await links.list(other.id)).to.deep.equal([]);

      await directories.delete(dir.id);
      expect((await links.resolve(long.url.split('/').pop()!)).status).to.equal('unknown');
    });

    it('activity: newest first, bounded, last_request_at kept; a deleted directory takes its record along', async () => {
      const activity = new ActivityRecorder({ store, flushIntervalMs: 5 });
      for (let i = 0; i < ACTIVITY_KEEP + 5; i++)
        activity.record(dir.id, { method: 'get', path: `/Users/${i}`, status: 200 });
      activity.record(dir.id, { method: 'POST', path: '/Users', status: 409, error: 'userName "ann" already exists' });
      const view = await activity.read(dir.id, 3);
      expect(view.recent.map((e) => [e.method, e.path, e.status, e.error])).to.deep.equal([
        ['POST', '/Users', 409, 'userName "ann" already exists'],
        ['GET', `/Users/${ACTIVITY_KEEP + 4}`, 200, null],
        ['GET', `/Users/${ACTIVITY_KEEP + 3}`, 200, null],
      ]);
      expect(view.last_request_at).to.equal(view.recent[0]!.at);
      expect((await store.readActivity(dir.id, 5000)).recent).to.have.length(ACTIVITY_KEEP);
      activity.record(dir.id, { method: 'GET', path: '/Users', status: 200, error: 'x'.repeat(5000) });
      expect((await activity.read(dir.id, 1)).recent[0]!.error!.length).to.be.at.most(500);

      await directories.delete(dir.id);
      activity.record(dir.id, { method: 'GET', path: '/Users', status: 200 });
      await activity.close();
      expect(await store.readActivity(dir.id, 10)).to.deep.equal({ last_request_at: null, recent: [] });
    });
  });
}
