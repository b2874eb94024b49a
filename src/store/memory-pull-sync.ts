/** The memory store's pull-sync side (PullSyncStore): each directory's sync lease and small records. */
import type { PullSyncStore, SyncRecordName } from '../core/store-port.js';
import { MemoryDeliveryStore } from './memory-delivery.js';
import type { DirectoryData } from './memory-directory.js';
import { extendLease, takeLease } from './memory-leases.js';

export class MemoryPullSyncStore extends MemoryDeliveryStore implements PullSyncStore {
  /** The directory's data while the directory exists (memory.ts creates and deletes it). */
  protected live(directoryId: string): DirectoryData | undefined {
    return this.data.get(directoryId);
  }

  async getSyncRecord(directoryId: string, name: SyncRecordName): Promise<string | null> {
    return this.live(directoryId)?.syncRecords.get(name) ?? null;
  }
  async putSyncRecord(directoryId: string, name: SyncRecordName, json: string | null): Promise<boolean> {
    const d = this.live(directoryId);
    if (!d) return false;
    if (json === null) d.syncRecords.delete(name);
    else d.syncRecords.set(name, json);
    return true;
  }
  async acquireSyncLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean> {
    return takeLease(this.live(directoryId), 'syncLease', owner, ttlMs);
  }
  async renewSyncLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean> {
    return extendLease(this.live(directoryId)?.syncLease, owner, ttlMs);
  }
  async releaseSyncLease(directoryId: string, owner: string): Promise<void> {
    const d = this.live(directoryId);
    if (d?.syncLease?.owner === owner) d.syncLease = undefined;
  }
}
