/** Coded errors of the browser OAuth flows (any provider), on the one base `DsyncError`. */
import { DsyncError } from '../../core/errors.js';

/** The callback's `state` is missing, unknown, expired, already used, or for another provider. */
export class InvalidFlowStateError extends DsyncError {
  override name = 'InvalidFlowStateError';
  constructor(reason: string) {
    super(`Invalid OAuth state (${reason}): start the authorization again`, 'DSYNC_OAUTH_INVALID_STATE');
  }
}

/** The callback came to a browser other than the one that started the flow (or its cookie was not sent). */
export class FlowBrowserMismatchError extends DsyncError {
  override name = 'FlowBrowserMismatchError';
  constructor() {
    super(
      'This authorization was started in another browser (or the browser did not send its cookie back): start it again, and finish it in the same browser',
      'DSYNC_OAUTH_BROWSER_MISMATCH',
    );
  }
}

/** A start link is unknown, expired or was already opened (by this browser or another one). */
export class FlowLinkUsedError extends DsyncError {
  override name = 'FlowLinkUsedError';
  constructor() {
    super('This authorization link has expired or was already opened: ask for a new one', 'DSYNC_OAUTH_LINK_USED');
  }
}
