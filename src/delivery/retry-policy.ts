/**
 * The retry policy in one place (undici's RetryHandler habit): the schedule, which outcomes are retried,
 * Retry-After handling and jitter. The engine asks it; it holds no retry loop itself.
 */
export interface AttemptOutcome {
  /** HTTP status, or undefined for a network error/timeout. */
  status?: number;
  /** Retry-After header value, when the receiver sent one. */
  retryAfter?: string;
  /** A failure no retry can fix (the URL resolves to a refused address): dead-letter at once. */
  permanent?: boolean;
}

export type Verdict =
  | { kind: 'delivered' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'dead' }
  /** 410 Gone: the receiver asks us to stop; the directory's webhook is disabled. */
  | { kind: 'disable' };

const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, seconds * 1000));
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - now));
}

export class RetryPolicy {
  constructor(
    /** Delay before retry n (0-based); its length is the number of retries after the first attempt. */
    readonly schedule: number[],
    private readonly random: () => number = Math.random,
  ) {}

  /**
   * A pause the receiver asked for (429 or 503 with Retry-After), in ms: it speaks for the whole endpoint, so
   * with `resource` ordering it holds the directory, not only the events of the delivery it answered.
   */
  pauseMs(outcome: AttemptOutcome): number | undefined {
    return outcome.status === 429 || outcome.status === 503 ? retryAfterMs(outcome.retryAfter) : undefined;
  }

  /** `failures` = failed attempts so far including this one. */
  judge(outcome: AttemptOutcome, failures: number): Verdict {
    const { status } = outcome;
    if (status !== undefined && status >= 200 && status < 300) return { kind: 'delivered' };
    if (status === 410) return { kind: 'disable' };
    if (outcome.permanent || failures > this.schedule.length) return { kind: 'dead' };
    const base = this.schedule[failures - 1]!;
    const jittered = base * (0.8 + 0.4 * this.random());
    const asked = this.pauseMs(outcome);
    return { kind: 'retry', delayMs: Math.round(Math.max(jittered, asked ?? 0)) };
  }
}
