/**
 * Coded domain errors (undici-style): callers branch on `code`, never on `message`. The HTTP layer maps
 * `status` onto the response; anything that is not a DsyncError is a 500.
 */
export class DsyncError extends Error {
  override name = 'DsyncError';
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export class ValidationError extends DsyncError {
  override name = 'ValidationError';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message, 'DSYNC_INVALID_INPUT', 400);
  }
}

export class NotFoundError extends DsyncError {
  override name = 'NotFoundError';
  constructor(message: string) {
    super(message, 'DSYNC_NOT_FOUND', 404);
  }
}

export class ConflictError extends DsyncError {
  override name = 'ConflictError';
  constructor(message: string) {
    super(message, 'DSYNC_CONFLICT', 409);
  }
}

export class UnauthorizedError extends DsyncError {
  override name = 'UnauthorizedError';
  constructor(message = 'Unauthorized') {
    super(message, 'DSYNC_UNAUTHORIZED', 401);
  }
}

export class ForbiddenError extends DsyncError {
  override name = 'ForbiddenError';
  constructor(message: string) {
    super(message, 'DSYNC_FORBIDDEN', 403);
  }
}

/** A write lost an optimistic-concurrency race too many times in a row (clients may retry). */
export class ContentionError extends DsyncError {
  override name = 'ContentionError';
  constructor(message = 'Too much concurrent modification of the same resource, retry') {
    super(message, 'DSYNC_CONTENTION', 503);
  }
}
