/** Coded errors of the Google Workspace provider, on the one base `DsyncError`. */
import { DsyncError } from '../../core/errors.js';
import type { ProviderLabel } from '../pull/errors.js';

export const GOOGLE: ProviderLabel<'DSYNC_GOOGLE'> = {
  name: 'Google',
  codePrefix: 'DSYNC_GOOGLE',
  maxShareVariable: 'DSYNC_GOOGLE_MAX_DELETE_SHARE',
};

/** The OAuth client (DSYNC_GOOGLE_CLIENT_ID / _SECRET) is not configured on this server. */
export class GoogleNotConfiguredError extends DsyncError {
  override name = 'GoogleNotConfiguredError';
  constructor() {
    super(
      'Google OAuth is not configured on this server (set DSYNC_GOOGLE_CLIENT_ID and DSYNC_GOOGLE_CLIENT_SECRET), or use a service account',
      'DSYNC_GOOGLE_NOT_CONFIGURED',
    );
  }
}

export class NotGoogleDirectoryError extends DsyncError {
  override name = 'NotGoogleDirectoryError';
  constructor(id: string) {
    super(`Directory ${id} is not of type google`, 'DSYNC_GOOGLE_WRONG_TYPE');
  }
}

/** The account that consented is not of the directory's workspace (`google_domain`): its tokens are not kept. */
export class WrongWorkspaceError extends DsyncError {
  override name = 'WrongWorkspaceError';
  constructor(expected: string, consented: string | undefined) {
    super(
      `The Google account that consented belongs to ${consented ? `the workspace of ${consented}` : 'no Google Workspace'}, ` +
        `not to ${expected} (this directory's google_domain): sign in as an administrator of ${expected}. Nothing was saved`,
      'DSYNC_GOOGLE_WRONG_WORKSPACE',
    );
  }
}

/**
 * Google refused our credentials for good: a revoked or expired refresh token (`invalid_grant`), a code already
 * used, a service account without domain-wide delegation. An admin must authorize again.
 */
export class GoogleCredentialsError extends DsyncError {
  override name = 'GoogleCredentialsError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'DSYNC_GOOGLE_INVALID_CREDENTIALS', options);
  }
}

/** The directory has no usable credentials yet (no tokens, no service account). */
export class NotAuthorizedError extends DsyncError {
  override name = 'NotAuthorizedError';
  constructor(id: string) {
    super(
      `Directory ${id} is not authorized with Google yet: run the OAuth flow or give it a service account`,
      'DSYNC_GOOGLE_NOT_AUTHORIZED',
    );
  }
}

/** A Directory API call failed after its retries (or at once, for errors that retrying cannot fix). */
export class GoogleApiError extends DsyncError {
  override name = 'GoogleApiError';
  constructor(
    message: string,
    readonly httpStatus: number | undefined,
    readonly reason: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, 'DSYNC_GOOGLE_API', options);
  }
}

/** A listing did not end the way a complete one does: nothing is deleted on its basis. */
export class IncompleteListingError extends DsyncError {
  override name = 'IncompleteListingError';
  constructor(what: string, options?: { cause?: unknown }) {
    super(`Incomplete Google listing (${what}): nothing was deleted`, 'DSYNC_GOOGLE_INCOMPLETE_LISTING', options);
  }
}
