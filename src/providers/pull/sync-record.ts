/** One small JSON record per directory in the store's pull-sync records (a cursor, credentials...). */
import type { PullSyncStore, SyncRecordName } from '../../core/store-port.js';

export class SyncRecord<T> {
  constructor(
    private readonly store: Pick<PullSyncStore, 'getSyncRecord' | 'putSyncRecord'>,
    private readonly name: SyncRecordName,
  ) {}

  async get(directoryId: string): Promise<T | null> {
    const json = await this.store.getSyncRecord(directoryId, this.name);
    return json ? (JSON.parse(json) as T) : null;
  }

  /** Saves (null: deletes) the record; false when the directory is gone. */
  put(directoryId: string, value: T | null): Promise<boolean> {
    return this.store.putSyncRecord(directoryId, this.name, value === null ? null : JSON.stringify(value));
  }
}
