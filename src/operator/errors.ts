/**
 * Coded operator errors, on the one base (core/errors.ts): callers branch on `code` or the class, never on `message`.
 */
import type { ErrorCode } from '../core/error-codes.js';
import { DsyncError } from '../core/errors.js';

export class OperatorError extends DsyncError {
  override name = 'OperatorError';
  constructor(message: string, code: ErrorCode, options?: { cause?: unknown }) {
    super(message, code, options);
  }
}

/** A bad option passed to the operator or one of its parts; the message names the option. */
export class InvalidOptionError extends OperatorError {
  override name = 'InvalidOptionError';
  constructor(
    readonly option: string,
    problem: string,
  ) {
    super(`${option} ${problem}`, 'DSYNC_OPERATOR_INVALID_OPTION');
  }
}

/**
 * The API server answered with an error Status; `reason` is its machine-readable reason (Conflict, NotFound...),
 * `serverMessage` its human-readable message (what kubectl would print), without the request line.
 */
export class KubeApiError extends OperatorError {
  override name = 'KubeApiError';
  constructor(
    message: string,
    /** The API server's HTTP status (409, 404...). */
    override readonly status: number,
    readonly reason: string,
    readonly serverMessage: string = message,
  ) {
    super(message, 'DSYNC_KUBE_API');
  }

  static fromResponse(method: string, path: string, status: number, body: string): KubeApiError {
    let parsed: { message?: string; reason?: string } = {};
    try {
      parsed = JSON.parse(body) as typeof parsed;
    } catch {
      // not a Status object (e.g. a proxy's HTML page)
    }
    const message = parsed.message ?? (body.slice(0, 200) || `HTTP ${status}`);
    return new KubeApiError(`${method} ${path}: ${status} ${message}`, status, parsed.reason ?? '', message);
  }
}

export const isNotFound = (err: unknown): boolean => err instanceof KubeApiError && err.status === 404;
export const isConflict = (err: unknown): boolean => err instanceof KubeApiError && err.status === 409;

/**
 * A reconcile outcome that retrying cannot fix (an invalid spec, a Secret owned by someone else): the
 * controller logs and counts it but does not requeue; a change to the watched objects triggers the next try.
 */
export class TerminalError extends OperatorError {
  override name = 'TerminalError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'DSYNC_OPERATOR_TERMINAL', options);
  }
}

/** A write refused before it was sent because this replica no longer leads (see `KubeClientOptions.beforeWrite`). */
export class NotLeaderError extends OperatorError {
  override name = 'NotLeaderError';
  constructor() {
    super('not the leader (any more): write refused', 'DSYNC_NOT_LEADER');
  }
}

/** The API server ended a watch with 410 Gone: the resourceVersion is too old, list again. */
export class WatchExpiredError extends OperatorError {
  override name = 'WatchExpiredError';
  constructor(message: string) {
    super(message, 'DSYNC_WATCH_EXPIRED');
  }
}

/** A call did not answer within its deadline (a stalled directory store); the reconcile reports it and retries. */
export class DeadlineExceededError extends OperatorError {
  override name = 'DeadlineExceededError';
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`, 'DSYNC_DEADLINE_EXCEEDED');
  }
}
