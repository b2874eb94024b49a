/**
 * What the operator does for a DirectoryConnection of type microsoft-entra: reports the last pull sync as the
 * `MicrosoftSync` condition, so a revoked consent (InvalidCredentials), a connection still waiting for its
 * admin's consent (NotAuthorized) or a tripped mass-deletion guard shows in `kubectl get` and GitOps tools.
 * Consent itself comes from the tenant's admin through the admin-consent URL, never from the spec.
 */
import { MicrosoftSyncStatuses, type MicrosoftSyncStatus } from '../providers/microsoft/sync-status.js';
import type { Store } from '../core/store-port.js';
import { REASONS } from './conditions.js';
import { NotLeaderError } from './errors.js';
import type { Halt, ReconcileState } from './reconcile-state.js';
import { pullSyncCondition, type ConditionBody } from './sync-condition.js';

export const MICROSOFT_SYNC = 'MicrosoftSync';

export function microsoftSyncCondition(status: MicrosoftSyncStatus): ConditionBody {
  return pullSyncCondition(
    MICROSOFT_SYNC,
    status,
    `Last sync ${status.finished_at} (${status.mode}) of tenant ${status.tenant_id}; change notifications ${status.notifications.state}`,
    'Waiting for the first sync: an admin of the tenant grants consent (admin-consent-url), then the sync-microsoft CronJob or DSYNC_MICROSOFT_SYNC_INTERVAL',
  );
}

export class MicrosoftAccess {
  private readonly statuses: MicrosoftSyncStatuses;
  constructor(store: Pick<Store, 'getSyncRecord' | 'putSyncRecord'>) {
    this.statuses = new MicrosoftSyncStatuses(store);
  }
  status(directoryId: string): Promise<MicrosoftSyncStatus> {
    return this.statuses.get(directoryId);
  }
}

/** The reconcile step of a microsoft-entra connection: the sync status back, for the condition. */
export async function ensureMicrosoft(
  state: ReconcileState,
  deps: { microsoft: MicrosoftAccess; store: <T>(call: string, work: () => Promise<T>) => Promise<T> },
): Promise<Halt | undefined> {
  if (state.spec!.type !== 'microsoft-entra') return undefined;
  try {
    state.microsoftSync = await deps.store('microsoft', () => deps.microsoft.status(state.cr.metadata.uid!));
  } catch (err) {
    if (err instanceof NotLeaderError) throw err;
    return {
      reason: REASONS.StoreUnavailable,
      message: 'the directory store could not be reached',
      retry: 'backoff',
      cause: err,
    };
  }
  return undefined;
}
