/**
 * A provider's request budget per company shared by every replica (HiBob counts 50 calls a minute across all of
 * a company's calls, whichever process makes them): a fixed-window counter per company on the store's Redis
 * (rate-limiter-flexible); a request over the budget waits for the next window. In front of it, each process
 * still spaces its own requests (keyed-pacer.ts), so a window is not spent in one burst. Should Redis fail, the
 * process's own spacing is what remains: a sync is never stopped by its budget's bookkeeping.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface CompanyBudget {
  /** Resolves when one more request of `key` fits its budget of `perMinute` across replicas. */
  take(key: string, perMinute: number): Promise<void>;
}

export class RedisBudget implements CompanyBudget {
  private readonly limiters = new Map<number, RateLimiterRedis>();

  /** `windowSeconds`: the counter's window (a minute; tests shorten it, the budget scaled to it). */
  constructor(
    private readonly redis: object,
    private readonly windowSeconds = 60,
  ) {}

  async take(key: string, perMinute: number): Promise<void> {
    if (perMinute <= 0) return;
    const limiter = this.limiterFor(perMinute);
    for (;;) {
      try {
        await limiter.consume(key);
        return;
      } catch (res) {
        if (!(res instanceof RateLimiterRes)) return; // Redis failed: the local spacing stands alone
        await sleep(Math.max(res.msBeforeNext, 1));
      }
    }
  }

  private limiterFor(perMinute: number): RateLimiterRedis {
    let limiter = this.limiters.get(perMinute);
    if (!limiter) {
      const points = Math.max(1, Math.floor((perMinute * this.windowSeconds) / 60));
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `dsync:hris-budget:${perMinute}`,
        points,
        duration: this.windowSeconds,
        rejectIfRedisNotReady: true,
      });
      this.limiters.set(perMinute, limiter);
    }
    return limiter;
  }
}
