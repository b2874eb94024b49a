/**
 * Assembles the two buckets' middlewares from a policy: `scim` keyed by the directory of the path, `default`
 * keyed by a short hash of the API key (a raw key is never a Redis key nor a log field). Counters and locks
 * live on the store's Redis when there is one, in this process otherwise.
 */
import type { Request, RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import { BucketLimiter, type RedisClient } from './bucket-limiter.js';
import { shortHash } from './counter-keys.js';
import { InsuredInflightLocks, MemoryInflightLocks, RedisInflightLocks, type InflightLocks } from './inflight-locks.js';
import { DEFAULT_INFLIGHT_RULES, type InflightRule } from './inflight-rules.js';
import { bucketMiddleware, type KeyOf, type RecordDecision } from './middleware.js';
import { refuseManagement, refuseScim } from './refusals.js';
import { fallbackLogger } from './report-log.js';
import type { RateLimitPolicy } from './settings.js';

export interface RateLimitsOptions {
  policy: RateLimitPolicy;
  /**
   * Whether a SCIM request carries its directory's credential. Only those count against the directory's budget;
   * the rest share a separate budget per directory, so whoever knows a directory id (it is in the IdP's URL)
   * cannot use up the budget of its real IdP.
   */
  scimAuthenticated: (directoryId: string, req: Request) => Promise<boolean>;
  redis?: RedisClient;
  logger: Logger;
  record: RecordDecision;
  rules?: readonly InflightRule[];
  /** Default 30 s. */
  lockTtlMs?: number;
}

export interface RateLimits {
  readonly policy: RateLimitPolicy;
  /** Mount before the SCIM routes (`/api/scim/v2.0`). */
  readonly scim: RequestHandler;
  /** Mount after API-key authentication, before the management routes. */
  readonly management: RequestHandler;
}

/**
 * The directory of the request's canonical identity as the bucket key when the request carries the directory's
 * credential, else `unauthenticated:<id>`; an oversized id is hashed so it cannot bloat a Redis key. A store
 * fault while checking counts as unauthenticated (the SCIM handler answers the request itself).
 */
function directoryKey(authenticated: RateLimitsOptions['scimAuthenticated']): KeyOf {
  return async (req, res) => {
    const id = res.locals.identity.directoryId;
    if (id === undefined) return undefined;
    if (id.length > 64) return { project: `unauthenticated:${shortHash(id)}`, trusted: false };
    const trusted = await authenticated(id, req).catch(() => false);
    return { project: trusted ? id : `unauthenticated:${id}`, trusted };
  };
}

/** Mounted after API-key authentication: every request here carries a valid key. */
const apiKeyOf: KeyOf = (req) => {
  const m = /^Api-Key\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
  return m ? { project: `key-${shortHash(m[1]!)}`, trusted: true } : undefined;
};

export function createRateLimits(o: RateLimitsOptions): RateLimits {
  const logger = o.logger.child({ unit: 'ratelimit' });
  const onLocalFallback = fallbackLogger(logger);
  const limiter = new BucketLimiter({ limits: o.policy.buckets, ...(o.redis && { redis: o.redis }), onLocalFallback });
  const locks: InflightLocks = o.redis
    ? new InsuredInflightLocks(new RedisInflightLocks(o.redis), onLocalFallback)
    : new MemoryInflightLocks();
  const common = {
    limiter,
    locks,
    rules: o.rules ?? DEFAULT_INFLIGHT_RULES,
    lockTtlMs: o.lockTtlMs ?? 30_000,
    record: o.record,
    logger,
  };
  return {
    policy: o.policy,
    scim: bucketMiddleware({ ...common, bucket: 'scim', keyOf: directoryKey(o.scimAuthenticated), refuse: refuseScim }),
    management: bucketMiddleware({ ...common, bucket: 'default', keyOf: apiKeyOf, refuse: refuseManagement }),
  };
}
