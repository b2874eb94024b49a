/**
 * An HRIS directory's credentials, kept in the store beside the directory (never in it: the directory is shown
 * by the API), written only after the provider accepted them.
 */
import type { PullSyncStore } from '../../core/store-port.js';
import { SyncRecord } from '../pull/sync-record.js';

export interface StoredCredentials {
  credentials: Record<string, string>;
  /** When they were accepted: a changed-since cursor belongs to the credentials of its time. */
  connected_at: string;
}

export class CredentialStore extends SyncRecord<StoredCredentials> {
  constructor(store: Pick<PullSyncStore, 'getSyncRecord' | 'putSyncRecord'>) {
    super(store, 'hris-credentials');
  }
}
