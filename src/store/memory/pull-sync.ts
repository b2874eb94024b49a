/**
 * The memory store's pull-sync side (PullSyncStore, SyncRunStore): sync leases, small records, background runs;
 * and the single-use records of the pull providers' OAuth flows (OneTimeStore).
 */
import type { OneTimeStore, PullSyncStore, SyncRecordName, SyncRunStore } from '../../core/store-port.js';
import { MemoryDeliveryStore } from './delivery.js';
import type { DirectoryData, Lease } from './directory.js';
import { extendLease, takeLease } from './leases.js';

/** Single-use records kept at most; past it the expired ones are dropped (a flood of starts cannot grow it). */
const MAX_ONE_TIME = 100_000;

export class MemoryPullSyncStore extends MemoryDeliveryStore implements PullSyncStore, OneTimeStore, SyncRunStore {
  private readonly once = new Map<string, { value: string; expiresAt: number }>();
  private readonly runClaims: Record<string, Lease> = {};
  private readonly runs = new Map<string, { json: string; expires: number }>();

  /** The directory's data while the directory exists (users-groups.ts creates and deletes it). */
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

  async claimSyncRun(scope: string, runId: string, ttlMs: number): Promise<string> {
    takeLease(this.runClaims, scope, runId, ttlMs);
    return this.runClaims[scope]!.owner;
  }
  async currentSyncRun(scope: string): Promise<string | null> {
    const claim = this.runClaims[scope];
    return claim && claim.expires > Date.now() ? claim.owner : null;
  }
  async renewSyncRun(scope: string, runId: string, ttlMs: number): Promise<boolean> {
    return extendLease(this.runClaims[scope], runId, ttlMs);
  }
  async releaseSyncRun(scope: string, runId: string): Promise<void> {
    if (this.runClaims[scope]?.owner === runId) delete this.runClaims[scope];
  }
  async putSyncRun(runId: string, json: string, ttlMs: number): Promise<void> {
    const now = Date.now();
    for (const [id, run] of this.runs) if (run.expires <= now) this.runs.delete(id); // as Redis expires them
    this.runs.set(runId, { json, expires: now + ttlMs });
  }
  async getSyncRun(runId: string): Promise<string | null> {
    const run = this.runs.get(runId);
    return run && run.expires > Date.now() ? run.json : null;
  }
}
