/**
 * The one error base of the product (undici-style coded errors): callers branch on `code`, never on `message`.
 * `status` is the HTTP status a protocol mapper answers with (500 for faults of our own); `id` is this
 * occurrence's instance id, logged with the error and sent in 5xx bodies so an operator can find the log line.
 * Every module declares its errors in its own `errors.ts` on this base, with a code of error-codes.ts: the table
 * that describes each code (docs/reference/errors.md) and gives its status, unless the error says otherwise.
 */
import { randomUUID } from 'node:crypto';
import { ERROR_CODES, type ErrorCode } from './error-codes.js';

export class DsyncError extends Error {
  override name = 'DsyncError';
  /** Seconds a client should wait before retrying (sent as `Retry-After`), for errors that pass by themselves. */
  readonly retryAfter?: number;
  readonly id: string = randomUUID();
  readonly status: number;
  constructor(
    message: string,
    readonly code: ErrorCode,
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, options);
    this.status = options?.status ?? ERROR_CODES[code].status ?? 500;
  }
}

export class ValidationError extends DsyncError {
  override name = 'ValidationError';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message, 'DSYNC_INVALID_INPUT');
  }
}

export class NotFoundError extends DsyncError {
  override name = 'NotFoundError';
  constructor(message: string) {
    super(message, 'DSYNC_NOT_FOUND');
  }
}

export class ConflictError extends DsyncError {
  override name = 'ConflictError';
  constructor(message: string) {
    super(message, 'DSYNC_CONFLICT');
  }
}

export class ForbiddenError extends DsyncError {
  override name = 'ForbiddenError';
  constructor(message: string) {
    super(message, 'DSYNC_FORBIDDEN');
  }
}

/** A write lost an optimistic-concurrency race too many times in a row (clients may retry). */
export class ContentionError extends DsyncError {
  override name = 'ContentionError';
  override readonly retryAfter = 1;
  constructor(message = 'Too much concurrent modification of the same resource, retry') {
    super(message, 'DSYNC_CONTENTION');
  }
}

/**
 * The store did not answer in time or cannot be reached (Redis stalled, restarting, failing over). Raised by the
 * store adapter instead of a raw client error, so every HTTP layer answers 503 with `Retry-After` at once.
 * A write that failed this way either committed whole, with its events, or not at all (one Lua script).
 */
export class StoreUnavailableError extends DsyncError {
  static readonly code = 'STORE_UNAVAILABLE';
  override name = 'StoreUnavailableError';
  override readonly retryAfter = 1;
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`The data store is unavailable (${reason}); retry shortly`, StoreUnavailableError.code, options);
  }
}

/**
 * A store write ran but fewer replicas than asked (DSYNC_REDIS_WAIT_REPLICAS) confirmed it in time: it may or may
 * not survive a failover of its master, so it is not acknowledged. Retrying is safe, as after any lost answer:
 * an update or delete re-applies, a create that did survive meets its own uniqueness index (409).
 */
export class StoreNotDurableError extends DsyncError {
  static readonly code = 'STORE_NOT_DURABLE';
  override name = 'StoreNotDurableError';
  override readonly retryAfter = 1;
  constructor(reason: string, options?: { cause?: unknown }) {
    super(
      `The write was not confirmed by the store's replicas (${reason}); it may or may not survive a failover, and is safe to retry`,
      StoreNotDurableError.code,
      options,
    );
  }
}
