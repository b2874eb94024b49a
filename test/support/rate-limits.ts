/** Rate-limited services for the tests: the app with a plan's limits, and the helpers that drive and read them. */
import { request as httpRequest } from 'node:http';
import { createRateLimits, type RateLimitsOptions } from '../../src/ratelimit/rate-limits.js';
import { resolvePolicy } from '../../src/ratelimit/settings.js';
import type { Environment, Plan, Bucket, Limits } from '../../src/ratelimit/presets.js';
import type { Store } from '../../src/core/store-port.js';
import { bearer } from '../../src/http/routes/scim.js';
import { redisClientOf } from '../../src/store/open-store.js';
import type { Dsync } from '../../src/service.js';
import { capturedLogger, startService, type Service } from './harness.js';

export interface LimitedService extends Service {
  /** Log lines of the rate limiter (JSON objects). */
  logs: Array<Record<string, unknown>>;
  /** Current value of dsync_ratelimit_decisions_total for these labels. */
  decisions(bucket: Bucket, kind: string, outcome: string): Promise<number>;
}

export interface LimitOptions {
  plan: Plan;
  environment?: Environment;
  overrides?: Partial<Record<Bucket, Limits>>;
  /** The limiter's Redis; default the store's (none for the memory store). */
  redis?: object;
  lockTtlMs?: number;
}

export async function decisionsOf(dsync: Dsync, bucket: Bucket, kind: string, outcome: string): Promise<number> {
  const metric = await dsync.metrics.rateLimitDecisions.get();
  return (
    metric.values.find((v) => v.labels.bucket === bucket && v.labels.kind === kind && v.labels.outcome === outcome)
      ?.value ?? 0
  );
}

export async function startLimited(store: Store, o: LimitOptions): Promise<LimitedService> {
  const { logger, lines: logs } = capturedLogger();
  const redis = o.redis ?? redisClientOf(store);
  const svc = await startService(
    store,
    {},
    {
      rateLimits: (dsync) => {
        const options: RateLimitsOptions = {
          policy: resolvePolicy(o.plan, o.environment ?? 'production', o.overrides),
          scimAuthenticated: (directoryId, req) => dsync.requests.authenticates(directoryId, bearer(req)),
          ...(redis && { redis }),
          logger,
          record: (bucket, kind, outcome) => dsync.metrics.rateLimitDecisions.inc({ bucket, kind, outcome }),
          ...(o.lockTtlMs !== undefined && { lockTtlMs: o.lockTtlMs }),
        };
        return createRateLimits(options);
      },
    },
  );
  return { ...svc, logs, decisions: (bucket, kind, outcome) => decisionsOf(svc.dsync, bucket, kind, outcome) };
}

export interface SlowRequest {
  /** Sends the rest of the body and resolves with the answer. */
  finish(): Promise<{ status: number; body: any }>;
  /** Drops the connection without finishing. */
  abort(): void;
}

/**
 * A write whose body arrives slowly: the headers (and so the inflight lock) go first, the body when `finish` is
 * called, so a second request is certain to overlap it.
 */
export function slowRequest(url: string, method: string, headers: Record<string, string>, body: unknown): SlowRequest {
  const text = JSON.stringify(body);
  const req = httpRequest(url, { method, headers: { ...headers, 'transfer-encoding': 'chunked' } });
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      let data = '';
      res.on('data', (c: Buffer) => (data += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: data ? JSON.parse(data) : undefined }));
    });
    req.on('error', reject);
  });
  answer.catch(() => undefined); // a server killed mid-request is an expected end here; `finish` still rejects
  req.flushHeaders();
  req.write(text.slice(0, 1));
  return {
    finish() {
      req.end(text.slice(1));
      return answer;
    },
    abort() {
      req.destroy();
    },
  };
}

/** Sends `n` requests at once and counts the answers by status. */
export async function burstOf(n: number, send: () => Promise<{ status: number }>): Promise<Record<number, number>> {
  const replies = await Promise.all(Array.from({ length: n }, send));
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}
