/**
 * Per-directory status of a pull sync (GET …/google/sync, …/microsoft/sync), kept in the store as one small
 * record per directory. Each provider adds its own fields (requests made, what was listed) to the common ones.
 */
import type { PullSyncStore, SyncRecordName } from '../../core/store-port.js';
import { SyncRecord } from './sync-record.js';

export type SyncState =
  /** Never synced yet, or re-authorized since the last failure. */
  | 'pending'
  | 'running'
  | 'succeeded'
  /**
   * Something failed (the provider unreachable, an incomplete listing...): nothing was deleted; the next run retries.
   */
  | 'failed'
  /** The mass-deletion guard stopped the deletions of this run; creations and updates were applied. */
  | 'guarded'
  /** The provider refused the credentials (revoked token or consent): an admin must authorize again. */
  | 'invalid_credentials'
  /** No credentials (tokens, service account, consent) yet. */
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

export interface BaseSyncStatus {
  directory_id: string;
  state: SyncState;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  counts: SyncCounts;
  error: { code: string; message: string } | null;
  /** When the directory last finished a run without error. */
  last_success_at: string | null;
}

export const baseStatus = (directoryId: string): BaseSyncStatus => ({
  directory_id: directoryId,
  state: 'pending',
  started_at: null,
  finished_at: null,
  duration_ms: null,
  counts: zeroCounts(),
  error: null,
  last_success_at: null,
});

export class PullSyncStatuses<S extends BaseSyncStatus> {
  private readonly records: SyncRecord<S>;

  constructor(
    store: Pick<PullSyncStore, 'getSyncRecord' | 'putSyncRecord'>,
    record: SyncRecordName,
    private readonly initial: (directoryId: string) => S,
  ) {
    this.records = new SyncRecord(store, record);
  }

  async get(directoryId: string): Promise<S> {
    const saved = await this.records.get(directoryId);
    return saved ? { ...this.initial(directoryId), ...saved } : this.initial(directoryId);
  }

  async put(status: S): Promise<void> {
    await this.records.put(status.directory_id, status);
  }

  /** New credentials clear a credentials failure: the directory waits for its next run. */
  async reauthorized(directoryId: string): Promise<void> {
    const status = await this.get(directoryId);
    if (status.state !== 'invalid_credentials' && status.state !== 'not_authorized') return;
    await this.put({ ...status, state: 'pending', error: null });
  }
}
