/**
 * What a client reads from a decision: `RateLimit-Limit`/`-Remaining`/`-Reset` (seconds) of the window that
 * binds, `RateLimit-Policy` naming both windows (draft-ietf-httpapi-ratelimit-headers), and on a refusal
 * `Retry-After` in whole seconds (RFC 9110), at least 1: Okta and Entra wait that long before retrying.
 */
import type { Response } from 'express';
import { WINDOW_SECONDS, type BucketDecision, type WindowState } from './bucket-limiter.js';

const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** The refusing window that frees last, or (allowed) the window with the least left. */
export function bindingWindow(decision: BucketDecision): WindowState {
  const candidates = decision.allowed
    ? decision.windows
    : decision.windows.filter((w) => decision.refusedBy.includes(w.kind));
  return candidates.reduce((a, b) => {
    if (!decision.allowed) return b.resetMs > a.resetMs ? b : a;
    return b.remaining < a.remaining || (b.remaining === a.remaining && b.resetMs > a.resetMs) ? b : a;
  });
}

/** Sets the headers; returns the `Retry-After` seconds of a refusal (undefined when allowed). */
export function setRateLimitHeaders(res: Response, decision: BucketDecision): number | undefined {
  const w = bindingWindow(decision);
  res.setHeader(
    'RateLimit-Policy',
    decision.windows.map((x) => `"${x.kind}";q=${x.limit};w=${WINDOW_SECONDS[x.kind]}`).join(', '),
  );
  res.setHeader('RateLimit-Limit', String(w.limit));
  res.setHeader('RateLimit-Remaining', String(w.remaining));
  res.setHeader('RateLimit-Reset', String(seconds(w.resetMs)));
  if (decision.allowed) return undefined;
  res.setHeader('Retry-After', String(seconds(w.resetMs)));
  return seconds(w.resetMs);
}
