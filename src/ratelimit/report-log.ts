import type { Logger } from '../logger.js';

/**
 * Report-only violations are counted every time (the metric) but logged at most once per rule and project a
 * window: IdPs create users 10-30 at a time during an import, and a warning per request would flood the log
 * (and cost the request path its I/O). The line carries how many were not logged since the last one.
 */
export class ReportThrottle {
  private readonly last = new Map<string, { at: number; suppressed: number }>();

  constructor(
    private readonly windowMs = 10_000,
    private readonly maxKeys = 10_000,
  ) {}

  /** The number of violations suppressed before this one when it should be logged now; undefined = don't log. */
  take(key: string, now = Date.now()): number | undefined {
    const seen = this.last.get(key);
    if (seen && now - seen.at < this.windowMs) {
      seen.suppressed++;
      return undefined;
    }
    if (!seen && this.last.size >= this.maxKeys) this.last.clear(); // bounded: forgetting only means one more line
    this.last.set(key, { at: now, suppressed: 0 });
    return seen?.suppressed ?? 0;
  }
}

/** Logs the first fallback of an outage, then at most once a minute while it lasts. */
export function fallbackLogger(logger: Logger): (err?: unknown) => void {
  let last = 0;
  return (err) => {
    const now = Date.now();
    if (now - last < 60_000) return;
    last = now;
    logger.warn({ err }, 'rate-limit store (Redis) unreachable: limiting in this process only until it is back');
  };
}
