/**
 * The store contract (test/integration/store-contract-*.test.ts): one contract, every adapter; the memory store
 * must behave exactly like the Redis store. Fixtures, and the loop that defines a contract's tests per adapter.
 */
import type { Directory, PendingEvent, StoredResource } from '../../src/core/model.js';
import type { Store } from '../../src/core/store-port.js';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import { freshRedisStore, freshReplicatedStore } from './services.js';

let n = 0;
export const ev = (label: string): PendingEvent => ({
  id: `evt_${++n}`,
  json: JSON.stringify({ id: `evt_${n}`, label }),
});
export const labels = async (store: Store, dir: string) =>
  (await store.readEvents(dir, null, 1000)).map((e) => (JSON.parse(e.json) as { label: string }).label);

export function directory(id: string): Directory {
  const now = new Date().toISOString();
  return {
    id,
    name: id,
    tenant: 't',
    product: 'p',
    type: 'generic-scim-v2',
    log_webhook_events: false,
    deactivated: false,
    scim: { path: `/api/scim/v2.0/${id}`, secret: 's', endpoint: `http://x/api/scim/v2.0/${id}` },
    webhook: { endpoint: '', secret: '' },
    created_at: now,
    updated_at: now,
  };
}

export const res = (id: string, body: Record<string, unknown>, created = Date.now()): StoredResource => ({
  id,
  body,
  created,
  lastModified: created,
  version: 1,
});

/** The directory every contract test starts with. */
export const D = 'dir-1';

const ADAPTERS: Array<[name: string, open: () => Promise<Store>]> = [
  ['memory', async () => new MemoryStore()],
  ['redis', () => freshRedisStore(1)],
  ['redis cluster, WAIT 1', () => freshReplicatedStore('cluster')],
  ['redis sentinel, WAIT 1', () => freshReplicatedStore('sentinel')],
];

/** Defines `define`'s tests once per adapter, each test on a fresh store that holds directory D. */
export function storeContract(define: (current: () => Store) => void): void {
  for (const [name, open] of ADAPTERS) {
    describe(`store contract: ${name}`, () => {
      let store: Store;
      beforeEach(async () => {
        store = await open();
        await store.createDirectory(directory(D));
      });
      afterEach(() => store.close());
      define(() => store);
    });
  }
}
