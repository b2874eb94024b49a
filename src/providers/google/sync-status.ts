/** Per-directory status of the pull sync (GET /api/v1/directory-sync/<id>/google/sync), kept in the store. */
import type { PullSyncStore } from '../../core/store-port.js';

export type SyncState =
  /** Never synced yet, or re-authorized since the last failure. */
  | 'pending'
  | 'running'
  | 'succeeded'
  /** Something failed (Google unreachable, an incomplete listing...): nothing was deleted; the next run retries. */
  | 'failed'
  /** The mass-deletion guard stopped the deletions of this run; creations and updates were applied. */
  | 'guarded'
  /** Google refused the credentials (revoked or expired refresh token): an admin must authorize again. */
  | 'invalid_credentials'
  /** No tokens and no service account yet. */
  | 'not_authorized';

/** A type, not an interface: it stands for a run's generic `Record<string, number>` of counts (sync-runs.ts). */
export type SyncCounts = {
  users_created: number;
  users_updated: number;
  users_deleted: number;
  groups_created: number;
  groups_updated: number;
  groups_deleted: number;
  members_added: number;
  members_removed: number;
};

export const zeroCounts = (): SyncCounts => ({
  users_created: 0,
  users_updated: 0,
  users_deleted: 0,
  groups_created: 0,
  groups_updated: 0,
  groups_deleted: 0,
  members_added: 0,
  members_removed: 0,
});

export interface SyncStatus {
  directory_id: string;
  state: SyncState;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  counts: SyncCounts;
  /** What Google listed in the last run. */
  listed: { users: number; groups: number };
  /** Directory API requests of the last run (retries included). */
  google_requests: number;
  error: { code: string; message: string } | null;
  /** When the directory last finished a run without error. */
  last_success_at: string | null;
}

export function initialStatus(directoryId: string): SyncStatus {
  return {
    directory_id: directoryId,
    state: 'pending',
    started_at: null,
    finished_at: null,
    duration_ms: null,
    counts: zeroCounts(),
    listed: { users: 0, groups: 0 },
    google_requests: 0,
    error: null,
    last_success_at: null,
  };
}

export class SyncStatuses {
  constructor(private readonly store: Pick<PullSyncStore, 'getSyncRecord' | 'putSyncRecord'>) {}

  async get(directoryId: string): Promise<SyncStatus> {
    const json = await this.store.getSyncRecord(directoryId, 'google-sync-status');
    return json ? (JSON.parse(json) as SyncStatus) : initialStatus(directoryId);
  }

  async put(status: SyncStatus): Promise<void> {
    await this.store.putSyncRecord(status.directory_id, 'google-sync-status', JSON.stringify(status));
  }

  /** New credentials clear a credentials failure: the directory waits for its next run. */
  async reauthorized(directoryId: string): Promise<void> {
    const status = await this.get(directoryId);
    if (status.state !== 'invalid_credentials' && status.state !== 'not_authorized') return;
    await this.put({ ...status, state: 'pending', error: null });
  }
}
