/**
 * client-go's client-side rate limit (flowcontrol.NewTokenBucketRateLimiter): `qps` tokens a second, at most
 * `burst` saved up. `take()` resolves when a token is free; callers are served in order. It keeps the operator
 * inside the API server's priority-and-fairness share however many reconciles run at once.
 */
import { InvalidOptionError } from './errors.js';

export class TokenBucket {
  private tokens: number;
  private last = performance.now();
  private readonly qps: number;
  private readonly burst: number;

  constructor(qps: number, burst: number) {
    if (!(qps > 0)) throw new InvalidOptionError('qps', 'must be > 0');
    if (!(Number.isInteger(burst) && burst >= 1)) throw new InvalidOptionError('burst', 'must be an integer >= 1');
    this.qps = qps;
    this.burst = burst;
    this.tokens = burst;
  }

  /** Reserves one token; resolves when it is due (at once while the burst lasts). */
  take(): Promise<void> {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
    this.last = now;
    this.tokens -= 1; // may go negative: a debt that later callers wait behind, in order
    if (this.tokens >= 0) return Promise.resolve();
    const waitMs = (-this.tokens * 1000) / this.qps;
    return new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}
