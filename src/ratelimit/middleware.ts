/**
 * The express middleware of one bucket: project limits (burst and sustained), then the inflight rule the
 * request matches. Refusals answer 429 in the route's own error format (the caller's `refuse`); every decision
 * is counted by bucket, kind and outcome (never by tenant).
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger.js';
import type { BucketLimiter } from './bucket-limiter.js';
import { setRateLimitHeaders } from './decision-headers.js';
import type { InflightLocks } from './inflight-locks.js';
import { matchInflight, type InflightRule } from './inflight-rules.js';
import { ReportThrottle } from './report-log.js';
import type { Bucket } from './presets.js';

export type DecisionKind = 'burst' | 'sustained' | 'inflight';
export type DecisionOutcome = 'allowed' | 'limited' | 'report_only';
export type RecordDecision = (bucket: Bucket, kind: DecisionKind, outcome: DecisionOutcome) => void;

/** Writes a 429 in the route's format (SCIM Error, or the management envelope). */
export type Refuse = (res: Response, message: string) => void;

/**
 * The bucket key (`project`: directory id, API key hash) from the request's canonical identity; `trusted` = the
 * request carries a valid credential. Undefined = not limited (nothing to key on).
 */
export type KeyOf = (
  req: Request,
  res: Response,
) => { project: string; trusted: boolean } | undefined | Promise<{ project: string; trusted: boolean } | undefined>;

export interface BucketMiddlewareOptions {
  bucket: Bucket;
  keyOf: KeyOf;
  limiter: BucketLimiter;
  locks: InflightLocks;
  rules: readonly InflightRule[];
  /** Expiry of an inflight lock: above any handler's run time, and how long a killed process's lock lasts. */
  lockTtlMs: number;
  refuse: Refuse;
  record: RecordDecision;
  logger: Logger;
}

/** A handler stuck this long stops renewing its lock, so one hung request cannot block a resource for good. */
const MAX_HOLD_MS = 5 * 60_000;

/**
 * Renews a lock while the response is open (so only a dead holder's lock expires) and releases it when the
 * response closes: finished, or the client gone, also when it went before this was called.
 */
function holdWhileOpen(res: Response, renew: () => Promise<void>, release: () => Promise<void>, ttlMs: number): void {
  const started = Date.now();
  // A third of the life, as lease keep-alives do: a renewal that is late (a busy event loop, a slow Redis) or lost
  // still leaves one more before the lock expires under a live holder.
  const renewal = setInterval(() => {
    if (Date.now() - started > MAX_HOLD_MS) clearInterval(renewal);
    else void renew();
  }, ttlMs / 3);
  renewal.unref();
  const done = () => {
    clearInterval(renewal);
    void release();
  };
  if (res.closed) done();
  else res.once('close', done);
}

export function bucketMiddleware(o: BucketMiddlewareOptions): RequestHandler {
  const reports = new ReportThrottle();
  return async (req, res, next) => {
    try {
      const key = await o.keyOf(req, res);
      if (key === undefined) return next();
      const { project, trusted } = key;
      const decision = await o.limiter.consume(o.bucket, project);
      for (const w of decision.windows)
        o.record(o.bucket, w.kind, decision.refusedBy.includes(w.kind) ? 'limited' : 'allowed');
      const retryAfter = setRateLimitHeaders(res, decision);
      if (retryAfter !== undefined) {
        const { burst, sustained } = o.limiter.limitsOf(o.bucket);
        return o.refuse(
          res,
          `Rate limit exceeded (${o.bucket}: ${burst} requests per second, ${sustained} per minute); retry after ${retryAfter} s`,
        );
      }
      // Locks keep writes apart: a request without a valid credential writes nothing, so it takes none (nor logs).
      const fullPath = res.locals.identity.path;
      const match =
        trusted && fullPath !== undefined ? matchInflight(o.rules, req.method, fullPath, project) : undefined;
      if (!match) return next();
      const token = await o.locks.acquire(match.key, o.lockTtlMs);
      if (token) {
        holdWhileOpen(
          res,
          () => o.locks.renew(match.key, token, o.lockTtlMs),
          () => o.locks.release(match.key, token),
          o.lockTtlMs,
        );
        if (res.closed) return; // the client left while the lock was being taken: nothing to serve
        o.record(o.bucket, 'inflight', 'allowed');
        return next();
      }
      if (match.rule.action === 'report-only') {
        o.record(o.bucket, 'inflight', 'report_only');
        const suppressed = reports.take(`${match.rule.name} ${project}`);
        if (suppressed !== undefined) {
          o.logger.warn(
            { rule: match.rule.name, bucket: o.bucket, method: req.method, path: fullPath, suppressed },
            'concurrent request to one resource (report-only inflight rule)',
          );
        }
        return next();
      }
      o.record(o.bucket, 'inflight', 'limited');
      res.setHeader('Retry-After', '1');
      return o.refuse(res, `Another ${req.method} request to this resource is in progress; retry after 1 s`);
    } catch (err) {
      // The limiter must never cost a request its answer: a fault of ours lets it through and is logged.
      o.logger.error({ err, bucket: o.bucket }, 'rate limiter failed; request let through');
      return next();
    }
  };
}
