/** Per-directory status of the Entra sync (GET /api/v1/directory-sync/<id>/microsoft/sync), and its delta state. */
import type { PullSyncStore } from '../../core/store-port.js';
import { SyncRecord } from '../pull/sync-record.js';
import { baseStatus, PullSyncStatuses, type BaseSyncStatus } from '../pull/sync-status.js';
import type { DeltaState, SyncMode } from './delta-sync.js';

/**
 * The change-notification subscriptions, apart from the sync's own outcome: a subscription Graph refuses never
 * makes a run that synced its users and groups a failed one.
 */
export interface NotificationsStatus {
  /** off: no public https URL (DSYNC_EXTERNAL_URL); active: both subscriptions live; failed: see error. */
  state: 'off' | 'active' | 'failed';
  /** When the sooner of the two subscriptions expires (each sync renews ahead of it). */
  expires_at: string | null;
  /** Why subscribing failed, with Graph's own message. */
  error: string | null;
  /** When subscribing is tried again (failed only): sooner runs do not ask Graph, later ones back off further. */
  retry_at: string | null;
}

export interface MicrosoftSyncStatus extends BaseSyncStatus {
  /** The Entra tenant synced. */
  tenant_id: string | null;
  /** full: the first sync; delta: only the changes; resync: Graph refused the delta links, so a full diff. */
  mode: SyncMode | null;
  /** Users and groups the last run's delta rounds named (everything in a full round, the changes in a delta). */
  seen: { users: number; groups: number };
  /** Graph requests of the last run (retries included). */
  graph_requests: number;
  /** Answers of the last run that told it to slow down (429/503 with Retry-After). */
  throttled: number;
  notifications: NotificationsStatus;
}

export const initialStatus = (directoryId: string): MicrosoftSyncStatus => ({
  ...baseStatus(directoryId),
  tenant_id: null,
  mode: null,
  seen: { users: 0, groups: 0 },
  graph_requests: 0,
  throttled: 0,
  notifications: { state: 'off', expires_at: null, error: null, retry_at: null },
});

export class MicrosoftSyncStatuses extends PullSyncStatuses<MicrosoftSyncStatus> {
  constructor(store: Pick<PullSyncStore, 'getSyncRecord' | 'putSyncRecord'>) {
    super(store, 'microsoft-sync-status', initialStatus);
  }
}

/** The delta links saved after each complete run. */
export class DeltaStates extends SyncRecord<DeltaState> {
  constructor(store: Pick<PullSyncStore, 'getSyncRecord' | 'putSyncRecord'>) {
    super(store, 'microsoft-delta');
  }
}
