/** Coded errors of the HRIS providers (BambooHR, HiBob, Personio), on the one base `DsyncError`. */
import { DsyncError } from '../../core/errors.js';
import type { ProviderLabel } from '../pull/errors.js';

export const HRIS: ProviderLabel<'DSYNC_HRIS'> = {
  name: 'HRIS',
  codePrefix: 'DSYNC_HRIS',
  maxShareVariable: 'DSYNC_HRIS_MAX_DELETE_SHARE',
};

/** The provider refused the credentials (401/403): at connect, nothing is stored; in a sync, nothing is touched. */
export class HrisCredentialsError extends DsyncError {
  override name = 'HrisCredentialsError';
  constructor(
    readonly provider: string,
    readonly providerStatus: number,
    providerMessage: string,
  ) {
    super(
      `${provider} refused the credentials (HTTP ${providerStatus}${providerMessage ? `: ${providerMessage}` : ''}); ` +
        'check them and the permissions they carry, then enter them again',
      'DSYNC_HRIS_INVALID_CREDENTIALS',
    );
  }
}

/** The directory has no credentials yet. */
export class HrisNotConnectedError extends DsyncError {
  override name = 'HrisNotConnectedError';
  constructor(id: string) {
    super(
      `Directory ${id} has no HRIS credentials yet: PUT them to /api/v1/directory-sync/${id}/hris/credentials`,
      'DSYNC_HRIS_NOT_CONNECTED',
    );
  }
}

export class NotHrisDirectoryError extends DsyncError {
  override name = 'NotHrisDirectoryError';
  constructor(id: string) {
    super(`Directory ${id} is not of an HRIS type (bamboohr, hibob, personio)`, 'DSYNC_HRIS_WRONG_TYPE');
  }
}

/** The provider answered something else than the documented shape, or kept failing: nothing was deleted. */
export class HrisApiError extends DsyncError {
  override name = 'HrisApiError';
  constructor(provider: string, message: string) {
    super(`${provider}: ${message}`, 'DSYNC_HRIS_API_ERROR');
  }
}

/** A provider webhook that does not check out (no secret configured, a bad or stale signature). */
export class HrisWebhookRefusedError extends DsyncError {
  override name = 'HrisWebhookRefusedError';
  constructor(message: string) {
    super(message, 'DSYNC_HRIS_WEBHOOK_REFUSED');
  }
}
