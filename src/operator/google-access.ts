/**
 * What the operator does for a DirectoryConnection of type google: hands the service account named by
 * `spec.google.serviceAccount` to the stored directory (the key stays in the store's own record, never in the
 * status, events or logs), and reports the last pull sync as the `GoogleSync` condition, so a revoked grant or a
 * tripped mass-deletion guard shows up in `kubectl get` and GitOps tools.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Store } from '../core/store-port.js';
import { parseServiceAccount, ServiceAccounts, type ServiceAccount } from '../providers/google/service-account.js';
import { SyncStatuses, type SyncStatus } from '../providers/google/sync-status.js';
import type { DirectoryConnectionSpec } from './crd-schema.js';
import type { Halt, ReconcileState } from './reconcile-state.js';
import { secretToStore, type SecretStepDeps } from './secret-step.js';
import { pullSyncCondition, type ConditionBody } from './sync-condition.js';

export const GOOGLE_SYNC = 'GoogleSync';

/** The GoogleSync condition for a directory's last sync status. */
export function googleSyncCondition(status: SyncStatus): ConditionBody {
  return pullSyncCondition(
    GOOGLE_SYNC,
    status,
    `Last sync ${status.finished_at}: ${status.listed.users} users and ${status.listed.groups} groups listed`,
    'Waiting for the first sync (the sync-google CronJob or DSYNC_GOOGLE_SYNC_INTERVAL)',
  );
}

export class GoogleAccess {
  private readonly accounts: ServiceAccounts;
  private readonly statuses: SyncStatuses;

  constructor(store: Pick<Store, 'getSyncRecord' | 'putSyncRecord'>) {
    this.accounts = new ServiceAccounts(store);
    this.statuses = new SyncStatuses(store);
  }

  /** The service account a spec asks for, from the Secret's value; ValidationError when the key is not one. */
  static serviceAccountOf(spec: DirectoryConnectionSpec, secretValue: string | undefined): ServiceAccount | null {
    const ref = spec.google?.serviceAccount;
    if (!ref || secretValue === undefined) return null;
    return parseServiceAccount({ key: secretValue, admin_email: ref.adminEmail });
  }

  /** Stores the service account (null: removes it) when it differs from the stored one; true when it wrote. */
  async apply(directoryId: string, account: ServiceAccount | null): Promise<boolean> {
    if (isDeepStrictEqual(await this.accounts.get(directoryId), account)) return false;
    await this.accounts.put(directoryId, account);
    if (account) await this.statuses.reauthorized(directoryId);
    return true;
  }

  status(directoryId: string): Promise<SyncStatus> {
    return this.statuses.get(directoryId);
  }
}

/** The reconcile step of a google connection: the service account of spec.google to the store, the sync status back. */
export async function ensureGoogle(
  state: ReconcileState,
  deps: SecretStepDeps & { google: GoogleAccess },
): Promise<Halt | undefined> {
  const spec = state.spec!;
  if (!spec.google) return undefined;
  const done = await secretToStore(state, deps, {
    call: 'google',
    ref: spec.google.serviceAccount?.secretRef,
    field: 'spec.google.serviceAccount.secretRef',
    parse: (value) => GoogleAccess.serviceAccountOf(spec, value),
    apply: (id, account) => deps.google.apply(id, account),
    status: (id) => deps.google.status(id),
    changed: "updated the directory's Google service account",
  });
  if (!('status' in done)) return done;
  state.googleSync = done.status;
  return undefined;
}
