/**
 * What the operator does for a DirectoryConnection of an HRIS type (bamboohr, hibob, personio): hands the
 * credentials named by `spec.hris.credentialsSecretRef` (a JSON object, the fields the management API takes) to
 * the stored directory, checked for their shape (the provider itself answers at the next sync: a refused key shows
 * as InvalidCredentials), never in the status, events or logs; and reports the last sync as the `HrisSync`
 * condition.
 */
import { isDeepStrictEqual } from 'node:util';
import { parseInput } from '../core/directories.js';
import { ValidationError } from '../core/errors.js';
import type { Store } from '../core/store-port.js';
import { isHrisType, type HrisType } from '../providers/hris/connector.js';
import { connectorFor } from '../providers/hris/connectors.js';
import { CredentialStore } from '../providers/hris/credentials.js';
import { Cursors, HrisSyncStatuses, type HrisSyncStatus } from '../providers/hris/sync-status.js';
import type { Halt, ReconcileState } from './reconcile-state.js';
import { secretToStore, type SecretStepDeps } from './secret-step.js';
import { pullSyncCondition, type ConditionBody } from './sync-condition.js';

export const HRIS_SYNC = 'HrisSync';

export function hrisSyncCondition(status: HrisSyncStatus): ConditionBody {
  return pullSyncCondition(
    HRIS_SYNC,
    status,
    `Last sync ${status.finished_at} (${status.mode}): ${status.employees_read} employees read`,
    'Waiting for the first sync (the sync-hris CronJob, DSYNC_HRIS_SYNC_INTERVAL or a webhook)',
  );
}

export class HrisAccess {
  private readonly credentials: CredentialStore;
  private readonly cursors: Cursors;
  private readonly statuses: HrisSyncStatuses;

  constructor(store: Pick<Store, 'getSyncRecord' | 'putSyncRecord'>) {
    this.credentials = new CredentialStore(store);
    this.cursors = new Cursors(store);
    this.statuses = new HrisSyncStatuses(store);
  }

  /** The credentials in a Secret's value, checked for the type's shape; ValidationError when they are not. */
  static credentialsOf(type: HrisType, secretValue: string): Record<string, string> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(secretValue);
    } catch {
      throw new ValidationError(
        'the value must be a JSON object of the credentials (e.g. {"subdomain": "...", "api_key": "..."})',
      );
    }
    return parseInput(connectorFor(type).credentials, parsed) as Record<string, string>;
  }

  /**
   * Stores the credentials when they differ from the stored ones (the next sync then lists everything); true when it
   * wrote.
   */
  async apply(directoryId: string, credentials: Record<string, string>): Promise<boolean> {
    if (isDeepStrictEqual((await this.credentials.get(directoryId))?.credentials, credentials)) return false;
    await this.credentials.put(directoryId, { credentials, connected_at: new Date().toISOString() });
    await this.cursors.put(directoryId, null);
    await this.statuses.reauthorized(directoryId);
    return true;
  }

  status(directoryId: string): Promise<HrisSyncStatus> {
    return this.statuses.get(directoryId);
  }
}

/** The reconcile step of an HRIS connection: the credentials of spec.hris to the store, the sync status back. */
export async function ensureHris(
  state: ReconcileState,
  deps: SecretStepDeps & { hris: HrisAccess },
): Promise<Halt | undefined> {
  const spec = state.spec!;
  if (!isHrisType(spec.type) || !spec.hris) return undefined;
  const type = spec.type;
  const done = await secretToStore(state, deps, {
    call: 'hris',
    ref: spec.hris.credentialsSecretRef,
    field: 'spec.hris.credentialsSecretRef',
    parse: (value) => HrisAccess.credentialsOf(type, value ?? ''),
    apply: (id, credentials) => deps.hris.apply(id, credentials),
    status: (id) => deps.hris.status(id),
    changed: "updated the directory's HRIS credentials",
  });
  if (!('status' in done)) return done;
  state.hrisSync = done.status;
  return undefined;
}
