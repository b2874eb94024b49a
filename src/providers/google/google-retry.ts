/**
 * Which Directory API failures are worth retrying, and how long to wait. gaxios retries 429 and 5xx by itself
 * but never Google's 403 rate-limit reasons, so the sync turns gaxios' retries off and does all of them here,
 * with exponential backoff and full jitter (Google's advice), honouring `Retry-After` when one is sent.
 */
import { retryAfterMs, withRetries as retrying, type Failure, type RetryOptions } from '../pull/retry.js';
import { GoogleApiError, GoogleCredentialsError } from './errors.js';

export { backoffMs, type Failure, type RetryOptions } from '../pull/retry.js';
export const DEFAULT_RETRY: RetryOptions = { attempts: 7, baseMs: 1_000, maxMs: 32_000 };

const RATE_REASONS = new Set(['userRateLimitExceeded', 'rateLimitExceeded', 'quotaExceeded']);
/** OAuth token-endpoint errors that no retry can fix: the admin has to authorize again. */
const CREDENTIAL_ERRORS = new Set(['invalid_grant', 'unauthorized_client', 'invalid_client', 'access_denied']);

interface GaxiosLike {
  status?: number;
  code?: string | number;
  response?: { status?: number; data?: unknown; headers?: { get?(name: string): string | null } };
}

function reasonOf(data: unknown): string | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const error = (data as { error?: unknown }).error;
  // OAuth endpoints answer {error: "invalid_grant"}; API endpoints {error: {errors: [{reason}]}}.
  if (typeof error === 'string') return error;
  const errors = (error as { errors?: Array<{ reason?: unknown }> } | undefined)?.errors;
  const reason = errors?.[0]?.reason;
  return typeof reason === 'string' ? reason : undefined;
}

export function classify(err: unknown): Failure {
  const e = err as GaxiosLike;
  const status = e.response?.status ?? (typeof e.status === 'number' ? e.status : undefined);
  const reason = reasonOf(e.response?.data);
  if (status === undefined) return { retry: true }; // network failure, timeout, a malformed page
  const after = retryAfterMs(e.response?.headers?.get?.('retry-after'));
  const retry = status === 429 || status >= 500 || status === 408 || (status === 403 && RATE_REASONS.has(reason ?? ''));
  return {
    retry,
    status,
    ...(reason !== undefined && { reason }),
    ...(after !== undefined && { retryAfterMs: after }),
  };
}

/**
 * Turns a final failure into the provider's coded error. The client's error is not kept as the cause: it holds
 * the request (an Authorization header, a token request's refresh token and client secret), and errors get logged.
 */
export function toGoogleError(err: unknown, what: string): Error {
  const f = classify(err);
  const cause = { status: f.status, reason: f.reason, message: String((err as Error)?.message ?? err).slice(0, 300) };
  if ((f.reason && CREDENTIAL_ERRORS.has(f.reason)) || f.status === 401) {
    return new GoogleCredentialsError(
      `Google refused the directory's credentials (${f.reason ?? f.status}) while ${what}: authorize again`,
      { cause },
    );
  }
  const detail = f.status === undefined ? cause.message : `HTTP ${f.status}${f.reason ? ` ${f.reason}` : ''}`;
  return new GoogleApiError(`Google Directory API failed while ${what}: ${detail}`, f.status, f.reason, { cause });
}

/** Runs `call` until it succeeds, fails for good, or runs out of attempts; `before` paces each attempt. */
export function withRetries<T>(
  call: () => Promise<T>,
  what: string,
  options: RetryOptions,
  before: () => Promise<void>,
  onRetry?: (failure: Failure) => void,
): Promise<T> {
  return retrying(call, {
    options,
    classify,
    final: (err) => toGoogleError(err, what),
    passThrough: (err) => err instanceof GoogleCredentialsError,
    before,
    ...(onRetry && { onRetry }),
  });
}
