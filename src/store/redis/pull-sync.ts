/**
/**
 * The Redis store's pull-sync side (PullSyncStore, SyncRunStore): `dsync:{d}:slease`, the sync lease (like
 * delivery's), and `dsync:{d}:sr:<name>`, the small records (status, service-account key), written only beside a
 * live directory; `dsync:runclaim:<scope>` and `dsync:run:<id>`, background runs (global keys, one per command);
 * and `dsync:once:<key>`, the single-use records of the OAuth flows (OneTimeStore: SET NX PX, taken by GETDEL).
 */
import type { OneTimeStore, PullSyncStore, SyncRecordName, SyncRunStore } from '../../core/store-port.js';
import { failFast } from './fail-fast.js';
import { RedisDeliveryStore } from './delivery.js';
import { prefix } from './keys.js';

/** Every record name, for the directory's cascade delete. */
export const SYNC_RECORD_NAMES: readonly SyncRecordName[] = [
  'google-sync-status',
  'google-service-account',
  'microsoft-sync-status',
  'microsoft-delta',
  'microsoft-subscriptions',
  'hris-sync-status',
  'hris-credentials',
  'hris-cursor',
];
export const syncKeys = (directoryId: string): string[] => [
  `${prefix(directoryId)}slease`,
  ...SYNC_RECORD_NAMES.map((name) => `${prefix(directoryId)}sr:${name}`),
];

const runClaimKey = (scope: string) => `dsync:runclaim:${scope}`;
const runKey = (runId: string) => `dsync:run:${runId}`;

export class RedisPullSyncStore extends RedisDeliveryStore implements PullSyncStore, OneTimeStore, SyncRunStore {
  async getSyncRecord(directoryId: string, name: SyncRecordName): Promise<string | null> {
    return this.redis.get(`${prefix(directoryId)}sr:${name}`);
  }
  async putSyncRecord(directoryId: string, name: SyncRecordName, json: string | null): Promise<boolean> {
    const p = prefix(directoryId);
    return (await this.command('dsyncPutSyncRecord', `${p}dir`, `${p}sr:${name}`, json ?? '')) === 1;
  }
  async acquireSyncLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean> {
    const p = prefix(directoryId);
    if ((await this.redis.exists(`${p}dir`)) === 0) return false;
    if ((await this.redis.set(`${p}slease`, owner, 'PX', ttlMs, 'NX')) === 'OK') return true;
    return this.renewSyncLease(directoryId, owner, ttlMs); // re-entrant for the holder
  }
  async renewSyncLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.command('dsyncRenewLease', `${prefix(directoryId)}slease`, owner, ttlMs)) === 1;
  }
  async releaseSyncLease(directoryId: string, owner: string): Promise<void> {
    await this.command('dsyncReleaseLease', `${prefix(directoryId)}slease`, owner);
  }
  async putOnce(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(`dsync:once:${key}`, value, 'PX', ttlMs, 'NX')) === 'OK';
  }
  async takeOnce(key: string): Promise<string | null> {
    return this.redis.getdel(`dsync:once:${key}`);
  }

  async claimSyncRun(scope: string, runId: string, ttlMs: number): Promise<string> {
    return String(await this.command('dsyncClaim', runClaimKey(scope), runId, ttlMs));
  }
  async currentSyncRun(scope: string): Promise<string | null> {
    return this.redis.get(runClaimKey(scope));
  }
  async renewSyncRun(scope: string, runId: string, ttlMs: number): Promise<boolean> {
    return (await this.command('dsyncRenewLease', runClaimKey(scope), runId, ttlMs)) === 1;
  }
  async releaseSyncRun(scope: string, runId: string): Promise<void> {
    await this.command('dsyncReleaseLease', runClaimKey(scope), runId);
  }
  async putSyncRun(runId: string, json: string, ttlMs: number): Promise<void> {
    await this.redis.set(runKey(runId), json, 'PX', ttlMs);
  }
  async getSyncRun(runId: string): Promise<string | null> {
    return this.redis.get(runKey(runId));
  }
}

failFast(RedisPullSyncStore.prototype);
