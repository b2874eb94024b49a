/** Per-directory status of an HRIS sync (GET /api/v1/directory-sync/<id>/hris/sync), and where its feed resumes. */
import type { PullSyncStore } from '../../core/store-port.js';
import { SyncRecord } from '../pull/sync-record.js';
import { baseStatus, PullSyncStatuses, type BaseSyncStatus } from '../pull/sync-status.js';
import type { HrisType } from './connector.js';

/** full: every employee listed and diffed; changed-since: only the employees the provider's feed named, read again. */
export type HrisSyncMode = 'full' | 'changed-since';

export interface HrisSyncStatus extends BaseSyncStatus {
  provider: HrisType | null;
  mode: HrisSyncMode | null;
  /** Employees the last run read (all of them in a full run; the changed ones in a changed-since run). */
  employees_read: number;
  /** Requests to the provider in the last run (retries included). */
  provider_requests: number;
  /** Answers of the last run that told it to slow down (429, or 503 with Retry-After). */
  throttled: number;
}

export const initialStatus = (directoryId: string): HrisSyncStatus => ({
  ...baseStatus(directoryId),
  provider: null,
  mode: null,
  employees_read: 0,
  provider_requests: 0,
  throttled: 0,
});

export class HrisSyncStatuses extends PullSyncStatuses<HrisSyncStatus> {
  constructor(store: Pick<PullSyncStore, 'getSyncRecord' | 'putSyncRecord'>) {
    super(store, 'hris-sync-status', initialStatus);
  }
}

/** Where a changed-since feed resumes: the provider's clock at the last complete run, for the credentials then. */
export interface Cursor {
  since: string;
  connected_at: string;
}

export class Cursors extends SyncRecord<Cursor> {
  constructor(store: Pick<PullSyncStore, 'getSyncRecord' | 'putSyncRecord'>) {
    super(store, 'hris-cursor');
  }
}
