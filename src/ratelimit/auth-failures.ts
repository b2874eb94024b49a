/**
 * Failed authentications are limited per client address and in total per realm (the management API; one SCIM
 * directory; Graph's change notifications, whose clientState is their credential; the setup page, whose link is
 * its credential), whether or not project limits are on: a client over either limit is answered 429 before its
 * credential is compared at all, so it learns nothing from its next guesses. Only failures are counted (on the
 * store's Redis, shared by replicas): a valid request costs one map lookup, no round trip. Each replica blocks
 * locally from the moment a failure it counts goes over, so across N replicas an attacker gets at most N more
 * guesses a window. A blocked client with a valid credential is refused too, until the window ends: that is the
 * price of never comparing while blocked.
 */
import type { Request, RequestHandler, Response } from 'express';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from '../logger.js';
import { windowLimiter, type RedisClient } from './bucket-limiter.js';
import { clientKey, shortHash } from './keys.js';
import type { Refuse } from './middleware.js';
import { fallbackLogger } from './report-log.js';

/** Failures per minute. */
export interface AuthFailureLimits {
  perAddress: number;
  total: number;
}

export const DEFAULT_AUTH_FAILURE_LIMITS: AuthFailureLimits = { perAddress: 10, total: 100 };

const WINDOW_S = 60;
/** Blocked keys kept in this process at most (expired ones are pruned first): a flood cannot grow it unbounded. */
const MAX_BLOCKED = 100_000;

export interface AuthFailuresOptions {
  limits?: AuthFailureLimits;
  /** Counters on this Redis (shared by replicas); unset = in this process. */
  redis?: RedisClient;
  logger: Logger;
  /** Told of each failure counted and each request refused; `api` names the realm's family. */
  observe?: (api: AuthFamily, outcome: 'failed' | 'refused') => void;
}

/** Who presented a credential: the client (clientKey) and the realm it was for (`api`, `scim:<directory>`). */
export interface Attempt {
  client: string;
  realm: string;
}

export class AuthFailures {
  private readonly byAddress: RateLimiterAbstract;
  private readonly inTotal: RateLimiterAbstract;
  /** `address:<client>` / `total:<realm>` → blocked until (epoch ms). */
  private readonly blocked = new Map<string, number>();
  private readonly logger: Logger;

  constructor(private readonly o: AuthFailuresOptions) {
    const limits = o.limits ?? DEFAULT_AUTH_FAILURE_LIMITS;
    this.logger = o.logger.child({ unit: 'auth-failures' });
    const onLocalFallback = fallbackLogger(this.logger);
    this.byAddress = windowLimiter({ keyPrefix: 'dsync:authfail:address', points: limits.perAddress, duration: WINDOW_S }, o.redis, onLocalFallback);
    this.inTotal = windowLimiter({ keyPrefix: 'dsync:authfail:total', points: limits.total, duration: WINDOW_S }, o.redis, onLocalFallback);
  }

  /** Milliseconds until `a` may try again, or undefined when it is not blocked. Never touches the store. */
  blockedFor(a: Attempt, now = Date.now()): number | undefined {
    const until = Math.max(this.blocked.get(`address:${a.client}`) ?? 0, this.blocked.get(`total:${a.realm}`) ?? 0);
    return until > now ? until - now : undefined;
  }

  /** Counts a failed authentication; the count that reaches a limit blocks (in this process) until its window ends. */
  async failed(a: Attempt): Promise<void> {
    this.o.observe?.(familyOf(a.realm), 'failed');
    await Promise.all([
      this.count(this.byAddress, a.client, `address:${a.client}`, a),
      this.count(this.inTotal, a.realm, `total:${a.realm}`, a),
    ]);
  }

  /** 429 (with Retry-After, in the route's own format) while the request's client or realm is blocked. */
  gate(realmOf: (req: Request, res: Response) => string, refuse: Refuse): RequestHandler {
    return (req, res, next) => {
      const realm = realmOf(req, res);
      const ms = this.blockedFor(attempt(req, realm));
      if (ms === undefined) return next();
      this.o.observe?.(familyOf(realm), 'refused');
      const seconds = Math.max(1, Math.ceil(ms / 1000));
      res.setHeader('Retry-After', String(seconds));
      refuse(res, `Too many failed authentication attempts; retry after ${seconds} s`);
    };
  }

  private async count(limiter: RateLimiterAbstract, key: string, blockKey: string, a: Attempt): Promise<void> {
    let res: RateLimiterRes;
    try {
      res = await limiter.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      res = rejection;
    }
    if (res.remainingPoints > 0) return;
    const now = Date.now();
    const fresh = !((this.blocked.get(blockKey) ?? 0) > now);
    this.block(blockKey, now + res.msBeforeNext);
    if (fresh) {
      // The presented credential is never logged: only who, for which realm, and for how long.
      this.logger.warn(
        { client: a.client, realm: a.realm, scope: blockKey.split(':', 1)[0], retryAfterS: Math.ceil(res.msBeforeNext / 1000) },
        'authentication failures over the limit: refusing before comparing credentials',
      );
    }
  }

  private block(key: string, until: number): void {
    if (this.blocked.size >= MAX_BLOCKED) {
      const now = Date.now();
      for (const [k, t] of this.blocked) if (t <= now) this.blocked.delete(k);
      if (this.blocked.size >= MAX_BLOCKED) this.blocked.clear(); // a flood of addresses: forget rather than grow
    }
    this.blocked.set(key, until);
  }
}

/** The metric's `api` label of a realm: a fixed set. */
export type AuthFamily = 'management' | 'scim' | 'notifications' | 'setup';
const familyOf = (realm: string): AuthFamily =>
  realm.startsWith('scim:') ? 'scim' : realm === NOTIFICATIONS_REALM ? 'notifications' : realm === SETUP_REALM ? 'setup' : 'management';

/** The attempt of a request for `realm`: its client address as express sees it (`trust proxy`). */
export const attempt = (req: Request, realm: string): Attempt => ({ client: clientKey(req.ip), realm });

/** The realm of a SCIM directory (an oversized id hashed, as the bucket key). */
export const scimRealm = (directoryId: string | undefined): string =>
  `scim:${directoryId === undefined ? '' : directoryId.length <= 64 ? directoryId : shortHash(directoryId)}`;

export const API_REALM = 'api';
/** Graph's change notifications (a clientState naming a directory with another secret is a failure). */
export const NOTIFICATIONS_REALM = 'graph-notifications';
/** The setup page: a link that does not open (unknown, expired, revoked) is a failure, so links cannot be guessed. */
export const SETUP_REALM = 'setup';
