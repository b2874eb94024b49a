/**
 * What is waiting for delivery across all directories, for the backlog metrics: events not yet delivered (and
 * the age of the oldest), dead letters not yet replayed, and webhooks a 410 Gone disabled. Read from the store
 * only (any replica can measure it); pending events are counted up to PENDING_CAP per directory, so one huge
 * backlog costs a bounded read.
 */
import type { Store } from '../core/store-port.js';
import { mapLimit } from '../core/chunks.js';

export const PENDING_CAP = 1_000;

export interface Backlog {
  pendingEvents: number;
  /** Age of the oldest undelivered event, 0 when none. */
  oldestPendingAgeSeconds: number;
  deadLetters: number;
  webhooksDisabled: number;
}

export async function measureBacklog(store: Store, now = Date.now()): Promise<Backlog> {
  const backlog: Backlog = { pendingEvents: 0, oldestPendingAgeSeconds: 0, deadLetters: 0, webhooksDisabled: 0 };
  const ids = await store.listDirectoryIds();
  await mapLimit(ids, 8, async (id) => {
    const directory = await store.getDirectory(id);
    if (!directory) return; // deleted meanwhile
    // Read first, add after: `total += await x` would add to the total as it was before the await.
    const letters = await store.listDeadLetters(id);
    const { cursor } = await store.deliveryState(id);
    const pending = await store.readEvents(id, cursor, PENDING_CAP);
    if (directory.webhook_disabled_at) backlog.webhooksDisabled++;
    backlog.deadLetters += letters.length;
    backlog.pendingEvents += pending.length;
    const oldest = pending[0] && Date.parse((JSON.parse(pending[0].json) as { created_at: string }).created_at);
    if (oldest)
      backlog.oldestPendingAgeSeconds = Math.max(backlog.oldestPendingAgeSeconds, Math.max(0, (now - oldest) / 1000));
  });
  return backlog;
}
