/**
 * An HRIS directory's credentials, kept in the store beside the directory (never in it: the directory is shown
 * by the API), written only after the provider accepted them.
 */
import type { PullSyncStore } from '../../core/store-port.js';

export interface StoredCredentials {
  credentials: Record<string, string>;
  /** When they were accepted: a changed-since cursor belongs to the credentials of its time. */
  connected_at: string;
}

export class CredentialStore {
  constructor(private readonly store: Pick<PullSyncStore, 'getSyncRecord' | 'putSyncRecord'>) {}

  async get(directoryId: string): Promise<StoredCredentials | null> {
    const json = await this.store.getSyncRecord(directoryId, 'hris-credentials');
    return json ? (JSON.parse(json) as StoredCredentials) : null;
  }

  /** False when the directory is gone. */
  put(directoryId: string, stored: StoredCredentials | null): Promise<boolean> {
    return this.store.putSyncRecord(directoryId, 'hris-credentials', stored ? JSON.stringify(stored) : null);
  }
}
