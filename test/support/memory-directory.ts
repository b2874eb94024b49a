/** A directory in a fresh in-process memory store, for unit tests of the core writers. */
import type { Directory } from '../../src/core/model.js';
import { MemoryStore } from '../../src/store/memory/users-groups.js';

export async function memoryDirectory(): Promise<{ store: MemoryStore; directory: Directory }> {
  const store = new MemoryStore();
  const at = new Date().toISOString();
  const directory: Directory = {
    id: 'd1',
    name: 'D',
    tenant: 't',
    product: 'p',
    type: 'generic-scim-v2',
    log_webhook_events: false,
    deactivated: false,
    scim: { path: '/s', secret: 's', endpoint: 'http://x/s' },
    webhook: { endpoint: '', secret: '' },
    created_at: at,
    updated_at: at,
  };
  await store.createDirectory(directory);
  return { store, directory };
}
