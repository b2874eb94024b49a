/** Per-directory status of the Google pull sync (GET /api/v1/directory-sync/<id>/google/sync). */
import type { PullSyncStore } from '../../core/store-port.js';
import { baseStatus, PullSyncStatuses, type BaseSyncStatus } from '../pull/sync-status.js';

export { zeroCounts, type SyncCounts, type SyncState } from '../pull/sync-status.js';

export interface SyncStatus extends BaseSyncStatus {
  /** What Google listed in the last run. */
  listed: { users: number; groups: number };
  /** Directory API requests of the last run (retries included). */
  google_requests: number;
}

export const initialStatus = (directoryId: string): SyncStatus => ({
  ...baseStatus(directoryId),
  listed: { users: 0, groups: 0 },
  google_requests: 0,
});

export class SyncStatuses extends PullSyncStatuses<SyncStatus> {
  constructor(store: Pick<PullSyncStore, 'getSyncRecord' | 'putSyncRecord'>) {
    super(store, 'google-sync-status', initialStatus);
  }
}
