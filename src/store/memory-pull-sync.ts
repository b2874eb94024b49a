/**
 * The memory store's pull-sync side (PullSyncStore): each directory's sync lease and small records; and the
 * single-use records of the pull providers' OAuth flows (OneTimeStore).
 */
import type { OneTimeStore, PullSyncStore, SyncRecordName } from '../core/store-port.js';
import { MemoryDeliveryStore } from './memory-delivery.js';
import type { DirectoryData } from './memory-directory.js';
import { extendLease, takeLease } from './memory-leases.js';

/** Single-use records kept at most; past it the expired ones are dropped (a flood of starts cannot grow it). */
const MAX_ONE_TIME = 100_000;

export class MemoryPullSyncStore extends MemoryDeliveryStore implements PullSyncStore, OneTimeStore {
  private readonly once = new Map<string, { value: string; expiresAt: number }>();

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

  async putOnce(key: string, value: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    if ((this.once.get(key)?.expiresAt ?? 0) > now) return false;
    if (this.once.size >= MAX_ONE_TIME) for (const [k, r] of this.once) if (r.expiresAt <= now) this.once.delete(k);
    this.once.set(key, { value, expiresAt: now + ttlMs });
    return true;
  }
  async takeOnce(key: string): Promise<string | null> {
    const record = this.once.get(key);
    this.once.delete(key);
    return record && record.expiresAt > Date.now() ? record.value : null;
  }
}
