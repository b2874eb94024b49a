/**
 * What one DirectoryConnection reconcile carries from step to step (`ReconcileState`), why its steps stopped
 * (`Halt`), and how that ends for the controller (`outcome`).
 */
import type { Logger } from '../logger.js';
import type { SyncStatus } from '../providers/google/sync-status.js';
import type { MicrosoftSyncStatus } from '../providers/microsoft/sync-status.js';
import type { HrisSyncStatus } from '../providers/hris/sync-status.js';
import { REASONS, type Reason } from './conditions.js';
import type { ReconcileOutcome } from './controller/controller.js';
import type { DirectoryConnection, DirectoryConnectionSpec } from './crd-schema.js';
import { KubeApiError, OperatorError, TerminalError } from './errors.js';
import type { Secret } from './kube.js';

/** What the steps found out; the status is computed from it at the end. */
export interface ReconcileState {
  cr: DirectoryConnection;
  log: Logger;
  spec?: DirectoryConnectionSpec;
  webhookSecret?: string;
  token?: string;
  secretName?: string;
  /** The SCIM Secret as last read or written. */
  scimSecret?: Secret;
  scimEndpoint?: string;
  /** The reenable-webhook value handled by this reconcile's store write, to record on the Secret. */
  reenabled?: string;
  /** The stored directory's webhook_disabled_at once the directory step ran (null: delivery is on). */
  webhookDisabledAt?: string | null;
  /** Type google: the last pull sync's status (the GoogleSync condition). */
  googleSync?: SyncStatus;
  /** Type microsoft-entra: the last pull sync's status (the MicrosoftSync condition). */
  microsoftSync?: MicrosoftSyncStatus;
  /** Type bamboohr, hibob or personio: the last pull sync's status (the HrisSync condition). */
  hrisSync?: HrisSyncStatus;
}

/** Why the steps stopped, and how to try again: when a watched object changes, after a delay, or with backoff. */
export interface Halt {
  reason: Reason;
  message: string;
  retry: 'on-change' | 'after-delay' | 'backoff';
  cause?: unknown;
}

/**
 * A Kubernetes request the API server refused, as a Halt carrying its message. Rethrown: a 409 Conflict or a
 * 404 on an update (the cache was stale: retried at once, with backoff) and anything that is not the API
 * server's answer (transport errors, a write fenced off after losing leadership).
 */
export function refused(err: unknown, reason: Reason, what: string, create = false): Halt {
  if (!(err instanceof KubeApiError) || err.status === 409 || (err.status === 404 && !create)) throw err;
  return { reason, message: `${what}: ${err.serverMessage}`.slice(0, 1024), retry: 'backoff', cause: err };
}

export const invalidSpec = (message: string): Halt => ({ reason: REASONS.InvalidSpec, message, retry: 'on-change' });

/** How a reconcile ends for the controller: done, look again later, wait for a change, or retry with backoff. */
export function outcome(halt: Halt | undefined, requeueAfterMs: number): ReconcileOutcome {
  if (!halt) return {};
  if (halt.retry === 'after-delay') return { requeueAfterMs };
  if (halt.retry === 'on-change') throw new TerminalError(`${halt.reason}: ${halt.message}`);
  throw new OperatorError(`${halt.reason}: ${halt.message}`, 'DSYNC_OPERATOR_RETRY', { cause: halt.cause });
}
