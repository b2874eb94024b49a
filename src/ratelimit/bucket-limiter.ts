/**
 * Project limits (docs/operating/rate-limits.md): each bucket has a burst window (1 s) and a sustained window (60 s),
 * and a
 * request must fit both. Counters are rate-limiter-flexible's: on the store's Redis (shared by every replica;
 * one key per window, so Redis-Cluster-safe) with an in-memory insurance limiter that keeps limiting locally
 * while Redis is unreachable; in memory alone for the embedded store.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Bucket, BucketLimits } from './presets.js';

export type LimitKind = 'burst' | 'sustained';
export const WINDOW_SECONDS: Record<LimitKind, number> = { burst: 1, sustained: 60 };
const KINDS: LimitKind[] = ['burst', 'sustained'];

/** The window that binds a response's RateLimit-* headers: the refusing one, or the one with the least left. */
export interface WindowState {
  kind: LimitKind;
  limit: number;
  remaining: number;
  /** Milliseconds until this window starts over. */
  resetMs: number;
}

export interface BucketDecision {
  allowed: boolean;
  /** Per window, in KINDS order (burst, sustained). */
  windows: WindowState[];
  /** The windows that refused (empty when allowed). */
  refusedBy: LimitKind[];
}

/** Whatever ioredis client (standalone or cluster) the store was opened with. */
export type RedisClient = object;

/** A RateLimiterMemory that says when it is used: it only answers for the Redis limiter while Redis fails. */
class LocalInsurance extends RateLimiterMemory {
  constructor(
    opts: ConstructorParameters<typeof RateLimiterMemory>[0],
    private readonly onUse: () => void,
  ) {
    super(opts);
  }
  override consume(...args: Parameters<RateLimiterMemory['consume']>): Promise<RateLimiterRes> {
    this.onUse();
    return super.consume(...args);
  }
}

/**
 * A fixed-window counter on the store's Redis, answered by a local insurance limiter (that calls
 * `onLocalFallback`) while Redis fails; in this process alone without Redis.
 */
export function windowLimiter(
  opts: { keyPrefix: string; points: number; duration: number },
  redis?: RedisClient,
  onLocalFallback?: () => void,
): RateLimiterAbstract {
  if (!redis) return new RateLimiterMemory(opts);
  return new RateLimiterRedis({
    ...opts,
    storeClient: redis,
    // A client that is reconnecting answers from the insurance at once instead of queueing the request.
    rejectIfRedisNotReady: true,
    insuranceLimiter: new LocalInsurance(opts, () => onLocalFallback?.()),
  });
}

export interface BucketLimiterOptions {
  limits: BucketLimits;
  /** Counters on this Redis (shared by replicas); unset = in this process only (the embedded memory store). */
  redis?: RedisClient;
  /** Called when a decision was taken locally because Redis failed. */
  onLocalFallback?: () => void;
}

export class BucketLimiter {
  private readonly limiters: Record<Bucket, Record<LimitKind, RateLimiterAbstract>>;

  constructor(private readonly options: BucketLimiterOptions) {
    const make = (bucket: Bucket, kind: LimitKind): RateLimiterAbstract =>
      windowLimiter(
        {
          keyPrefix: `dsync:rl:${bucket}:${kind}`,
          points: options.limits[bucket][kind],
          duration: WINDOW_SECONDS[kind],
        },
        options.redis,
        options.onLocalFallback,
      );
    this.limiters = {
      scim: { burst: make('scim', 'burst'), sustained: make('scim', 'sustained') },
      default: { burst: make('default', 'burst'), sustained: make('default', 'sustained') },
    };
  }

  limitsOf(bucket: Bucket) {
    return this.options.limits[bucket];
  }

  /**
   * Takes one point from both windows at once (one round trip each, in parallel). Only an allowed request spends
   * them: a request either window refuses gives both points back before it is answered, so a client retrying
   * on 429 (as IdPs do) gets every request of its budget, and one that ignores 429s is still refused each time
   * it is over. Between the take and the give-back a concurrent request sees the counter one higher: at a
   * window's edge it may be refused once too early, never let through over the limit.
   */
  async consume(bucket: Bucket, key: string): Promise<BucketDecision> {
    const results = await Promise.all(
      KINDS.map(async (kind) => {
        const limit = this.options.limits[bucket][kind];
        try {
          return { kind, limit, refused: false, res: await this.limiters[bucket][kind].consume(key) };
        } catch (rejection) {
          // With an insurance limiter a store error never reaches here; anything but a RateLimiterRes is a bug.
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          return { kind, limit, refused: true, res: rejection };
        }
      }),
    );
    const allowed = results.every((r) => !r.refused);
    if (!allowed) await Promise.all(KINDS.map((kind) => this.limiters[bucket][kind].reward(key, 1)));
    return {
      allowed,
      // A window that allowed a refused request got its point back: one more left than it answered.
      windows: results.map((r) => ({
        kind: r.kind,
        limit: r.limit,
        remaining: r.res.remainingPoints + (allowed || r.refused ? 0 : 1),
        resetMs: r.res.msBeforeNext,
      })),
      refusedBy: results.filter((r) => r.refused).map((r) => r.kind),
    };
  }
}
