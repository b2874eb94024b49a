/** Coded errors of the delivery module, on the one base (core/errors.ts). */
import { DsyncError } from '../core/errors.js';

/** A re-delivery named a dead letter this directory does not have (or no longer has). */
export class DeadLetterNotFound extends DsyncError {
  static readonly code = 'DSYNC_DEAD_LETTER_NOT_FOUND';
  override name = 'DeadLetterNotFound';
  constructor(id: string) {
    super(`Dead letter ${id} not found`, DeadLetterNotFound.code);
  }
}

/** A webhook URL resolves to an address the SSRF guard refuses (ssrf.ts); the sender reports it by code. */
export class BlockedAddressError extends DsyncError {
  static readonly code = 'DSYNC_SSRF_BLOCKED';
  override name = 'BlockedAddressError';
  constructor(host: string, address: string) {
    super(
      `webhook host ${host} resolves to ${address}, a private/loopback/link-local/reserved address (set DSYNC_WEBHOOK_ALLOW_PRIVATE=true to allow)`,
      BlockedAddressError.code,
    );
  }
}

/** A bad delivery option given to `createDsync` or the engine; the message names the option. */
export class InvalidDeliveryOptionError extends DsyncError {
  static readonly code = 'DSYNC_DELIVERY_INVALID_OPTION';
  override name = 'InvalidDeliveryOptionError';
  constructor(message: string) {
    super(message, InvalidDeliveryOptionError.code);
  }
}

/**
 * A directory's delivery lease was gone when its state was saved or renewed mid-run: the store lost it (Redis
 * restarted empty, a failover) or it lapsed and another process took the directory over. What was sent is
 * delivered again from the saved cursor; a cron pass reports it as a run that could not do its work.
 */
export class DeliveryLeaseLostError extends DsyncError {
  static readonly code = 'DSYNC_DELIVERY_LEASE_LOST';
  override name = 'DeliveryLeaseLostError';
  override readonly retryAfter = 1;
  constructor(directoryId: string) {
    super(
      `The delivery lease of directory ${directoryId} was lost during the run (the store lost it, or it lapsed and another process took over); its events are delivered again from the saved cursor`,
      DeliveryLeaseLostError.code,
    );
  }
}
