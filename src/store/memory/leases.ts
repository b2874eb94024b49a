/** Expiring leases of the memory store (delivery's and the pull sync's): one holder at a time, until expiry. */
import type { Lease } from './directory.js';

/** An expiring lease held in `holder[slot]`: free, expired, or re-entered by its owner. */
export function takeLease<K extends string>(
  holder: { [key in K]?: Lease } | undefined,
  slot: K,
  owner: string,
  ttlMs: number,
): boolean {
  if (!holder) return false;
  const now = Date.now();
  const lease = holder[slot];
  if (lease && lease.owner !== owner && lease.expires > now) return false;
  holder[slot] = { owner, expires: now + ttlMs };
  return true;
}

/** Extends the lease only while `owner` still holds it. */
export function extendLease(lease: Lease | undefined, owner: string, ttlMs: number): boolean {
  if (!lease || lease.owner !== owner || lease.expires <= Date.now()) return false;
  lease.expires = Date.now() + ttlMs;
  return true;
}
