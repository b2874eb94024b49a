/**
 * Limits of the setup page's routes (always on, whatever the plan): views and status polls per link, actions
 * per link, keyed on the link's id (one key whatever the spelling of its URL). Lookups of links that do not open
 * are failed authentications (auth-failures.ts, realm `setup`), so a link cannot be guessed by trying. Counters
 * on the store's Redis when there is one (shared by replicas, with a local insurance while it is unreachable), in
 * this process otherwise.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisClient } from './bucket-limiter.js';

export type PageLimitKind = 'view' | 'action';

/** Per minute. A page polls its status every few seconds: `view` leaves room for a few open tabs. */
export const PAGE_LIMITS: Record<PageLimitKind, number> = { view: 300, action: 30 };

export interface PageLimits {
  /** Seconds to wait when `key` is over the `kind` limit, else undefined (one point taken). */
  take(kind: PageLimitKind, key: string): Promise<number | undefined>;
}

export function createPageLimits(
  options: { redis?: RedisClient; limits?: Partial<Record<PageLimitKind, number>> } = {},
): PageLimits {
  const limits = { ...PAGE_LIMITS, ...options.limits };
  const make = (kind: PageLimitKind): RateLimiterAbstract => {
    const opts = { keyPrefix: `dsync:rl:setup:${kind}`, points: limits[kind], duration: 60 };
    if (!options.redis) return new RateLimiterMemory(opts);
    return new RateLimiterRedis({
      ...opts,
      storeClient: options.redis,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(opts),
    });
  };
  const limiters: Record<PageLimitKind, RateLimiterAbstract> = { view: make('view'), action: make('action') };
  return {
    async take(kind, key) {
      try {
        await limiters[kind].consume(key);
        return undefined;
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      }
    },
  };
}
