/** How a commit wakes delivery while this process is already delivering its directory (engine.ts: notify). */
import { expect } from 'chai';
import { createDsync, MemoryStore, type DirectorySyncEvent } from '../../../src/index.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An embedded dsync whose callback holds the first event until `release()`; counts the due marks. */
async function gatedService(store: MemoryStore) {
  const marks: string[] = [];
  const markDue = store.markDue.bind(store);
  store.markDue = async (directoryId, at) => {
    marks.push(directoryId);
    return markDue(directoryId, at);
  };
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const delivered: DirectorySyncEvent[] = [];
  const dsync = createDsync({
    store,
    externalUrl: 'https://app.example.com',
    eventCallback: async (e) => {
      if (delivered.length === 0) await gate;
      delivered.push(e);
    },
    delivery: { sweepIntervalMs: 60_000, pollIntervalMs: 60_000 },
  });
  dsync.start();
  const directory = await dsync.directories.create({
    name: 'Acme',
    tenant: 'acme',
    product: 'app',
    type: 'okta-scim-v2',
  });
  const create = (i: number) =>
    dsync.requests.handle({
      directoryId: directory.id,
      apiSecret: directory.scim.secret,
      method: 'POST',
      resourceType: 'Users',
      body: { userName: `u${i}@acme.io` },
    });
  const waitFor = async (n: number) => {
    const deadline = Date.now() + 5000;
    while (delivered.length < n && Date.now() < deadline) await sleep(10);
  };
  return { dsync, directory, marks, release, delivered, create, waitFor };
}

describe('delivery engine: commits while this process delivers the directory', () => {
  it('are delivered by the running drain, in order, without a due mark each', async () => {
    const s = await gatedService(new MemoryStore());
    try {
      expect((await s.create(0)).status).to.equal(201);
      await sleep(50); // the drain started and holds the first event
      const before = s.marks.length;
      for (let i = 1; i <= 5; i++) expect((await s.create(i)).status).to.equal(201);
      expect(s.marks.length, 'due marks while the drain ran').to.equal(before);
      s.release();
      await s.waitFor(6);
      expect(s.delivered.map((e) => e.data.raw.userName)).to.deep.equal([0, 1, 2, 3, 4, 5].map((i) => `u${i}@acme.io`));
    } finally {
      await s.dsync.close();
    }
  });

  it('are marked due when the drain, going round again, finds the lease taken by another replica', async () => {
    const store = new MemoryStore();
    const s = await gatedService(store);
    try {
      expect((await s.create(0)).status).to.equal(201);
      await sleep(50);
      // From now on another replica holds the lease.
      store.acquireLease = async () => false;
      // A pass goes on with new commits for up to 1 s; past that, the drain goes round again for them.
      await sleep(1100);
      expect((await s.create(1)).status).to.equal(201);
      const before = s.marks.length;
      s.release();
      const deadline = Date.now() + 5000;
      while (s.marks.length === before && Date.now() < deadline) await sleep(10);
      expect(s.marks.slice(before), 'due marks after the lease was lost').to.deep.equal([s.directory.id]);
    } finally {
      await s.dsync.close();
    }
  }).timeout(10_000);
});
