/**
 * What the operator does for a DirectoryConnection of type google: hands the service account named by
 * `spec.google.serviceAccount` to the stored directory (the key stays in the store's own record, never in the
 * status, events or logs), and reports the last pull sync as the `GoogleSync` condition, so a revoked grant or a
 * tripped mass-deletion guard shows up in `kubectl get` and GitOps tools.
 */
import { isDeepStrictEqual } from 'node:util';
import { ValidationError } from '../core/errors.js';
import type { Store } from '../core/store-port.js';
import { parseServiceAccount, ServiceAccounts, type ServiceAccount } from '../providers/google/service-account.js';
import { SyncStatuses, type SyncStatus } from '../providers/google/sync-status.js';
import { REASONS } from './conditions.js';
import type { DirectoryConnectionSpec } from './crd-schema.js';
import { NotLeaderError } from './errors.js';
import { invalidSpec, type Halt, type ReconcileState } from './reconcile-state.js';
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

export interface GoogleStepDeps {
  google: GoogleAccess;
  /** The value of a Secret key, or why it could not be read. */
  secretValue: (ref: { name: string; key: string }, field: string) => Promise<string | Halt>;
  /** One bounded store call. */
  store: <T>(call: string, work: () => Promise<T>) => Promise<T>;
  fence?: () => void;
}

/** The reconcile step of a google connection: the service account of spec.google to the store, the sync status back. */
export async function ensureGoogle(state: ReconcileState, deps: GoogleStepDeps): Promise<Halt | undefined> {
  const spec = state.spec!;
  if (!spec.google) return undefined;
  const ref = spec.google.serviceAccount?.secretRef;
  const read = ref ? await deps.secretValue(ref, 'spec.google.serviceAccount.secretRef') : undefined;
  if (read !== undefined && typeof read !== 'string') return read;
  let account: ServiceAccount | null;
  try {
    account = GoogleAccess.serviceAccountOf(spec, read);
  } catch (err) {
    if (err instanceof ValidationError) return invalidSpec(`${err.message} (value of spec.google.serviceAccount.secretRef)`);
    throw err;
  }
  const id = state.cr.metadata.uid!;
  try {
    deps.fence?.();
    if (await deps.store('google', () => deps.google.apply(id, account))) state.log.info("updated the directory's Google service account");
    state.googleSync = await deps.store('google', () => deps.google.status(id));
  } catch (err) {
    if (err instanceof NotLeaderError) throw err;
    return { reason: REASONS.StoreUnavailable, message: 'the directory store could not be reached', retry: 'backoff', cause: err };
  }
  return undefined;
}
