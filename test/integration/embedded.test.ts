/**
 * dsync as a library (the SCIM request shape, the event callback), exactly as the Embedding guide
 * (docs/guides/embedding.md) shows it.
 */
import { expect } from 'chai';
import { createDsync, MemoryStore, type DirectorySyncEvent } from '../../src/index.js';
import { freshRedisStore } from '../support/services.js';

for (const kind of ['memory', 'redis'] as const) {
  describe(`embedded library (${kind} store)`, () => {
    it('handles SCIM requests, calls the per-request callback with that request’s events, and answers the management operations', async () => {
      const store = kind === 'memory' ? new MemoryStore() : await freshRedisStore(4);
      const background: DirectorySyncEvent[] = [];
      const dsync = createDsync({
        store,
        externalUrl: 'https://app.example.com',
        eventCallback: (e) => void background.push(e),
      });
      dsync.start();
      try {
        const directory = await dsync.directories.create({
          name: 'Acme',
          tenant: 'acme',
          product: 'app',
          type: 'okta-scim-v2',
        });
        expect(directory.scim.endpoint).to.equal(`https://app.example.com/api/scim/v2.0/${directory.id}`);
        const base = { directoryId: directory.id, apiSecret: directory.scim.secret, query: {} };

        const mine: DirectorySyncEvent[] = [];
        const created = await dsync.requests.handle(
          {
            ...base,
            method: 'POST',
            resourceType: 'users',
            body: { userName: 'ann@acme.io', name: { givenName: 'Ann' } },
          },
          (e) => void mine.push(e),
        );
        expect(created.status).to.equal(201);
        const user = created.data as { id: string };
        expect(mine.map((e) => e.event)).to.deep.equal(['user.created']);

        const group = await dsync.requests.handle(
          {
            ...base,
            method: 'POST',
            resourceType: 'Groups',
            body: { displayName: 'Eng', members: [{ value: user.id }] },
          },
          (e) => void mine.push(e),
        );
        expect(group.status).to.equal(201);
        expect(mine.map((e) => e.event)).to.deep.equal(['user.created', 'group.created', 'group.user_added']);

        const list = await dsync.requests.handle({
          ...base,
          method: 'GET',
          resourceType: 'users',
          query: { filter: 'userName eq "ANN@acme.io"', count: 10 },
        });
        expect(list).to.deep.include({ status: 200 });
        expect((list.data as { totalResults: number }).totalResults).to.equal(1);

        const denied = await dsync.requests.handle({
          ...base,
          apiSecret: 'wrong',
          method: 'GET',
          resourceType: 'users',
        });
        expect(denied.status).to.equal(401);
        expect(denied.data).to.deep.include({ status: '401' });

        const users = await dsync.queries.listUsers({ tenant: 'acme', product: 'app' }, { offset: 0, limit: 10 });
        expect(users.map((u) => u.first_name)).to.deep.equal(['Ann']);
        const g = await dsync.queries.getGroup({ directoryId: directory.id }, (group.data as { id: string }).id);
        expect(g.members).to.deep.equal([{ group_id: g.id, user_id: user.id }]);

        const deadline = Date.now() + 5000;
        while (background.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        expect(background.map((e) => e.id)).to.deep.equal(mine.map((e) => e.id));
      } finally {
        await dsync.close();
      }
    });
  });
}
