/**
 * The retry loop of every pull provider: exponential backoff with full jitter, never shorter than the
 * provider's `Retry-After`. The provider says which failures are worth retrying (`classify`) and what a final
 * failure becomes (`final`: its own coded error).
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface RetryOptions {
  /** Attempts in all (the first one included). */
  attempts: number;
  baseMs: number;
  maxMs: number;
}

export interface Failure {
  retry: boolean;
  status?: number;
  reason?: string;
  retryAfterMs?: number;
}

export interface RetryPolicy {
  options: RetryOptions;
  classify(err: unknown): Failure;
  /** The error a failure that is not retried (or out of attempts) is thrown as. */
  final(err: unknown): Error;
  /** Errors thrown as they are, never retried. */
  passThrough?(err: unknown): boolean;
  /** Paces each attempt (a quota, a throttled tenant). */
  before?(): Promise<void>;
  onRetry?(failure: Failure): void;
}

export function backoffMs(attempt: number, options: RetryOptions, retryAfterMs?: number): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** attempt);
  return Math.max(retryAfterMs ?? 0, Math.random() * ceiling);
}

/** `Retry-After` in seconds (the only form Google and Graph send), as milliseconds. */
export function retryAfterMs(header: string | null | undefined): number | undefined {
  return header && /^\d+$/.test(header.trim()) ? Number(header) * 1000 : undefined;
}

/** Runs `call` until it succeeds, fails for good, or runs out of attempts. */
export async function withRetries<T>(call: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    await policy.before?.();
    try {
      return await call();
    } catch (err) {
      if (policy.passThrough?.(err)) throw err;
      const failure = policy.classify(err);
      if (!failure.retry || attempt + 1 >= policy.options.attempts) throw policy.final(err);
      policy.onRetry?.(failure);
      await sleep(backoffMs(attempt, policy.options, failure.retryAfterMs));
    }
  }
}
