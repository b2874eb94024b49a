/** Coded errors of the Microsoft Entra ID provider, on the one base `DsyncError`. */
import { DsyncError } from '../../core/errors.js';
import type { ProviderLabel } from '../pull/errors.js';

export const MICROSOFT: ProviderLabel<'DSYNC_MICROSOFT'> = {
  name: 'Microsoft Entra ID',
  codePrefix: 'DSYNC_MICROSOFT',
  maxShareVariable: 'DSYNC_MICROSOFT_MAX_DELETE_SHARE',
};

/** The app registration (DSYNC_MICROSOFT_CLIENT_ID and a secret or certificate) is not configured. */
export class MicrosoftNotConfiguredError extends DsyncError {
  override name = 'MicrosoftNotConfiguredError';
  constructor() {
    super(
      'Microsoft Entra ID is not configured on this server (set DSYNC_MICROSOFT_CLIENT_ID and DSYNC_MICROSOFT_CLIENT_SECRET or DSYNC_MICROSOFT_CERTIFICATE_FILE)',
      'DSYNC_MICROSOFT_NOT_CONFIGURED',
    );
  }
}

export class NotMicrosoftDirectoryError extends DsyncError {
  override name = 'NotMicrosoftDirectoryError';
  constructor(id: string) {
    super(`Directory ${id} is not of type microsoft-entra`, 'DSYNC_MICROSOFT_WRONG_TYPE');
  }
}

/** No admin has consented for the directory yet (it has no tenant). */
export class NotConsentedError extends DsyncError {
  override name = 'NotConsentedError';
  constructor(id: string) {
    super(
      `Directory ${id} is not connected to an Entra tenant yet: an admin of the tenant must grant consent (admin-consent-url)`,
      'DSYNC_MICROSOFT_NOT_CONSENTED',
    );
  }
}

/**
 * Entra or Graph refused our credentials for good: consent revoked (the app's service principal removed from the
 * tenant, or its permissions taken away), a wrong secret, an unknown certificate. An admin must act.
 */
export class MicrosoftCredentialsError extends DsyncError {
  override name = 'MicrosoftCredentialsError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'DSYNC_MICROSOFT_INVALID_CREDENTIALS', options);
  }
}

/** A Graph (or token) call failed after its retries, or at once for errors that retrying cannot fix. */
export class GraphApiError extends DsyncError {
  override name = 'GraphApiError';
  constructor(
    message: string,
    readonly httpStatus: number | undefined,
    readonly graphCode: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, 'DSYNC_MICROSOFT_GRAPH', options);
  }
}

/** Graph no longer knows the delta token (410 Gone, syncStateNotFound, resync required): a full round follows. */
export class DeltaExpiredError extends DsyncError {
  override name = 'DeltaExpiredError';
  constructor(what: string) {
    super(`Graph refused the delta token of ${what}: resyncing in full`, 'DSYNC_MICROSOFT_DELTA_EXPIRED');
  }
}

/** A delta round did not end the way a complete one does (no deltaLink, a repeated nextLink, a garbled page). */
export class IncompleteRoundError extends DsyncError {
  override name = 'IncompleteRoundError';
  constructor(what: string) {
    super(`Incomplete Graph delta round (${what}): nothing was deleted`, 'DSYNC_MICROSOFT_INCOMPLETE_ROUND');
  }
}

/** The admin-consent callback names another tenant than the directory's, or the admin refused. */
export class ConsentRefusedError extends DsyncError {
  override name = 'ConsentRefusedError';
  constructor(message: string) {
    super(message, 'DSYNC_MICROSOFT_CONSENT_REFUSED');
  }
}

/**
 * The admin's sign-in did not prove a tenant: Microsoft refused the code, or its ID token fails a check (signature,
 * issuer, audience, lifetime, nonce), or the account is a guest. Nothing is saved.
 */
export class SignInNotProvedError extends DsyncError {
  override name = 'SignInNotProvedError';
  constructor(why: string) {
    super(
      `The sign-in to Microsoft could not prove the tenant: ${why}. Nothing was saved`,
      'DSYNC_MICROSOFT_SIGN_IN_NOT_PROVED',
    );
  }
}
