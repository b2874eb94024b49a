/**
 * Failed authentications are limited per client address and in total per realm (the management API; one SCIM
 * directory; Graph's change notifications, whose clientState is their credential; the setup page, whose link is
 * its credential), whether or not project limits are on. A client over its own limit is answered 429 before its
 * credential is compared at all, so it learns nothing from its next guesses. A realm over its total only slows the
 * clients that fail in it: each is then refused after its first failure, until the window ends, while a client
 * that has not failed is never refused for others' failures (a realm-wide block let anyone who knows a directory
 * id lock its IdP out from a few addresses; tokens are 256-bit, so the lock-out was the risk, not the guessing).
 * Only failures are counted (on the store's Redis, shared by replicas): a valid request costs two map lookups, no
 * round trip. Each replica blocks locally from the moment a failure it counts goes over, so across N replicas an
 * attacker gets at most N more guesses a window per address. A blocked client with a valid credential is refused
 * too, until the window ends: that is the price of never comparing while blocked.
 */
import type { Request, RequestHandler, Response } from 'express';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from '../logger.js';
import { windowLimiter, type RedisClient } from './bucket-limiter.js';
import { clientKey, shortHash } from './counter-keys.js';
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
  /**
   * Blocked until (epoch ms): `address:<client>` (over its own limit), `realm:<realm>|<client>` (failed while the
   * realm was over its total), and `over:<realm>`, the realm's own mark (for its one warning; it blocks no one).
   */
  private readonly blocked = new Map<string, number>();
  private readonly logger: Logger;

  constructor(private readonly o: AuthFailuresOptions) {
    const limits = o.limits ?? DEFAULT_AUTH_FAILURE_LIMITS;
    this.logger = o.logger.child({ unit: 'auth-failures' });
    const onLocalFallback = fallbackLogger(this.logger);
    this.byAddress = windowLimiter(
      { keyPrefix: 'dsync:authfail:address', points: limits.perAddress, duration: WINDOW_S },
      o.redis,
      onLocalFallback,
    );
    this.inTotal = windowLimiter(
      { keyPrefix: 'dsync:authfail:total', points: limits.total, duration: WINDOW_S },
      o.redis,
      onLocalFallback,
    );
  }

  /** Milliseconds until `a` may try again, or undefined when it is not blocked. Never touches the store. */
  blockedFor(a: Attempt, now = Date.now()): number | undefined {
    const until = Math.max(
      this.blocked.get(`address:${a.client}`) ?? 0,
      this.blocked.get(`realm:${a.realm}|${a.client}`) ?? 0,
    );
    return until > now ? until - now : undefined;
  }

  /**
   * Counts a failed authentication. The count that reaches the client's limit blocks it (in this process) until
   * its window ends; a failure counted while the realm is over its total blocks that client in that realm.
   */
  async failed(a: Attempt): Promise<void> {
    this.o.observe?.(familyOf(a.realm), 'failed');
    const [own, realm] = await Promise.all([this.over(this.byAddress, a.client), this.over(this.inTotal, a.realm)]);
    const now = Date.now();
    if (own !== undefined && this.block(`address:${a.client}`, now + own)) {
      // The presented credential is never logged: only who, for which realm, and for how long.
      this.logger.warn(
        { client: a.client, realm: a.realm, scope: 'address', retryAfterS: Math.ceil(own / 1000) },
        'authentication failures over the limit: refusing before comparing credentials',
      );
    }
    if (realm === undefined) return;
    this.block(`realm:${a.realm}|${a.client}`, now + realm);
    if (this.block(`over:${a.realm}`, now + realm)) {
      this.logger.warn(
        { client: a.client, realm: a.realm, scope: 'total', retryAfterS: Math.ceil(realm / 1000) },
        "authentication failures over the realm's total: refusing each client that fails, before comparing credentials",
      );
    }
  }

  /**
   * 429 (with Retry-After, in the route's own format) while the request's client is blocked, on its own or in the
   * realm.
   */
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

  /** Counts one failure on `limiter`; the milliseconds left in its window once over the limit, else undefined. */
  private async over(limiter: RateLimiterAbstract, key: string): Promise<number | undefined> {
    let res: RateLimiterRes;
    try {
      res = await limiter.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      res = rejection;
    }
    return res.remainingPoints > 0 ? undefined : res.msBeforeNext;
  }

  /** Blocks `key` until `until`; true when it was not blocked before (a fresh block). */
  private block(key: string, until: number): boolean {
    const now = Date.now();
    const fresh = !((this.blocked.get(key) ?? 0) > now);
    if (this.blocked.size >= MAX_BLOCKED) {
      for (const [k, t] of this.blocked) if (t <= now) this.blocked.delete(k);
      if (this.blocked.size >= MAX_BLOCKED) this.blocked.clear(); // a flood of addresses: forget rather than grow
    }
    this.blocked.set(key, until);
    return fresh;
  }
}

/** The metric's `api` label of a realm: a fixed set. */
export type AuthFamily = 'management' | 'scim' | 'notifications' | 'setup';
const familyOf = (realm: string): AuthFamily =>
  realm.startsWith('scim:')
    ? 'scim'
    : realm === NOTIFICATIONS_REALM
      ? 'notifications'
      : realm === SETUP_REALM
        ? 'setup'
        : 'management';

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
