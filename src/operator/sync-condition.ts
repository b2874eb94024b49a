/** The condition a pull directory's last sync status becomes (GoogleSync, MicrosoftSync): one mapping for both. */
import type { BaseSyncStatus, SyncState } from '../providers/pull/sync-status.js';
import type { Condition } from './crd-schema.js';

export type ConditionBody = Omit<Condition, 'lastTransitionTime' | 'observedGeneration'>;

const REASON_OF: Record<SyncState, [Condition['status'], string]> = {
  pending: ['Unknown', 'Pending'],
  running: ['Unknown', 'Running'],
  succeeded: ['True', 'Synced'],
  failed: ['False', 'SyncFailed'],
  guarded: ['False', 'MassDeletionGuard'],
  invalid_credentials: ['False', 'InvalidCredentials'],
  not_authorized: ['False', 'NotAuthorized'],
};

/** `synced`: the message of a successful last run; `waiting`: before the first one. */
export function pullSyncCondition(
  type: string,
  status: BaseSyncStatus,
  synced: string,
  waiting: string,
): ConditionBody {
  const [conditionStatus, reason] = REASON_OF[status.state];
  const message =
    status.error?.message ??
    (status.state === 'succeeded'
      ? synced
      : status.state === 'running'
        ? `A sync started at ${status.started_at}`
        : waiting);
  return { type, status: conditionStatus, reason, message: message.slice(0, 1024) };
}
