/**
 * The HRIS pull sync over every active BambooHR, HiBob and Personio directory (or one), on the shared runner
 * (leases, statuses, report: pull/runner.ts). The work on one directory: its stored credentials, its provider's
 * connection, then the round its change detection calls for (rounds.ts): a changed-since run when the provider
 * has a feed and a cursor is saved (and the changes are few enough that reading each costs less than a listing),
 * otherwise a full listing diffed against the store. The cursor moves only after a run succeeded.
 */
import type { Directory } from '../../core/model.js';
import type { DirectoryStore, PullSyncStore } from '../../core/store-port.js';
import type { Logger } from '../../logger.js';
import type { SyncReadStore } from '../pull/apply.js';
import { MassDeletionError, type ProviderLabel } from '../pull/errors.js';
import { KeyedPacer } from '../pull/keyed-pacer.js';
import type { CompanyBudget } from '../pull/shared-budget.js';
import type { RetryOptions } from '../pull/retry.js';
import { PullRunner, type RunContext, type RunObserver } from '../pull/runner.js';
import type { SyncState } from '../pull/sync-status.js';
import type { SyncWriters } from '../pull/writers.js';
import { HRIS_TYPES, type HrisConnector, type HrisType } from './connector.js';
import { connectorFor } from './connectors.js';
import { CredentialStore } from './credentials.js';
import { HRIS, HrisCredentialsError, HrisNotConnectedError, NotHrisDirectoryError } from './errors.js';
import { HrisHttp, type HttpObserver } from './http.js';
import type { HrisOptions } from './options.js';
import { fullRound, targetedRound, type RoundContext } from './rounds.js';
import { Cursors, HrisSyncStatuses, type HrisSyncStatus } from './sync-status.js';

export type HrisSyncStore = SyncReadStore & Pick<DirectoryStore, 'getDirectory' | 'listDirectoryIds'> & PullSyncStore;

/** Told about runs and provider requests, by provider (metrics.ts); never about tenants. */
export interface HrisObserver {
  directoryRun(provider: HrisType, ...args: Parameters<RunObserver['directoryRun']>): void;
  request(provider: HrisType): void;
  retry(provider: HrisType, reason: string): void;
  throttled(provider: HrisType): void;
}

export interface HrisSyncDeps {
  store: HrisSyncStore;
  writers: SyncWriters;
  options: HrisOptions;
  logger: Logger;
  observer?: HrisObserver;
  retry?: RetryOptions;
  leaseMs?: number;
  /** The companies' budgets shared by every replica (on the store's Redis); unset: each process paces alone. */
  budget?: CompanyBudget;
}

export const DEFAULT_HRIS_RETRY: RetryOptions = { attempts: 6, baseMs: 1000, maxMs: 60_000 };
/** Trying credentials for someone waiting on a page: one retry, soon, then the answer. */
export const CONNECT_RETRY: RetryOptions = { attempts: 2, baseMs: 500, maxMs: 2_000 };

const STATE_OF: Array<[new (...args: never[]) => Error, SyncState]> = [
  [HrisCredentialsError, 'invalid_credentials'],
  [HrisNotConnectedError, 'not_authorized'],
  [MassDeletionError, 'guarded'],
];

/** A provider's shared errors name it: `DSYNC_BAMBOOHR_MASS_DELETION`. */
const labelOf = (c: HrisConnector): ProviderLabel<`DSYNC_${Uppercase<HrisType>}`> => ({
  ...HRIS,
  name: c.name,
  codePrefix: `DSYNC_${c.type.toUpperCase() as Uppercase<HrisType>}`,
});

export class HrisSync {
  readonly statuses: HrisSyncStatuses;
  readonly credentials: CredentialStore;
  readonly cursors: Cursors;
  readonly runner: PullRunner<HrisSyncStatus>;
  private readonly pacer: KeyedPacer;

  constructor(private readonly deps: HrisSyncDeps) {
    this.statuses = new HrisSyncStatuses(deps.store);
    this.credentials = new CredentialStore(deps.store);
    this.cursors = new Cursors(deps.store);
    this.pacer = new KeyedPacer((key) => this.perMinute(key.slice(0, key.indexOf(':')) as HrisType));
    this.runner = new PullRunner({
      type: HRIS_TYPES,
      label: HRIS,
      store: deps.store,
      statuses: this.statuses,
      logger: deps.logger,
      observer: {
        directoryRun: (state, seconds, counts, directory) =>
          deps.observer?.directoryRun(directory.type as HrisType, state, seconds, counts, directory),
      },
      leaseMs: deps.leaseMs ?? 60_000,
      wrongType: (id) => new NotHrisDirectoryError(id),
      stateOf: (err) => STATE_OF.find(([type]) => err instanceof type)?.[1],
      fresh: (status) => ({ ...status, mode: null, employees_read: 0, provider_requests: 0, throttled: 0 }),
      work: (directory, run) => this.syncOne(directory, run),
    });
  }

  private perMinute(type: HrisType): number {
    return this.deps.options.perMinute?.[type] ?? connectorFor(type).perMinute;
  }

  /** An authenticated connection for `credentials`, counting into `status` when given. */
  connection(type: HrisType, credentials: object, status?: HrisSyncStatus, retry?: RetryOptions) {
    const connector = connectorFor(type);
    const observer = this.deps.observer;
    const counting: HttpObserver = {
      request: () => {
        if (status) status.provider_requests++;
        observer?.request(type);
      },
      retry: (reason) => observer?.retry(type, reason),
      throttled: () => {
        if (status) status.throttled++;
        observer?.throttled(type);
      },
    };
    const key = connector.company(credentials);
    const http = new HrisHttp({
      provider: connector.name,
      pace: async () => {
        await this.pacer.take(key);
        await this.deps.budget?.take(key, this.perMinute(type));
      },
      hold: (ms) => this.pacer.block(key, ms),
      retry: retry ?? this.deps.retry ?? DEFAULT_HRIS_RETRY,
      observer: counting,
    });
    return { connector, http, conn: connector.connect(credentials, http, this.deps.options.apiUrls[type]) };
  }

  private async syncOne(directory: Directory, { status, checkpoint }: RunContext<HrisSyncStatus>): Promise<void> {
    const type = directory.type as HrisType;
    status.provider = type;
    const stored = await this.credentials.get(directory.id);
    if (!stored) throw new HrisNotConnectedError(directory.id);
    const { connector, http, conn } = this.connection(type, stored.credentials, status);
    const ctx: RoundContext = {
      dir: directory,
      type,
      deps: {
        store: this.deps.store,
        writers: this.deps.writers,
        label: labelOf(connector),
        maxDeleteShare: this.deps.options.maxDeleteShare,
        checkpoint,
      },
      counts: status.counts,
      read: (n) => (status.employees_read += n),
    };
    const feed = connector.detection === 'changed-since';
    const cursor = feed ? await this.cursors.get(directory.id) : null;
    let done = false;
    if (cursor && cursor.connected_at === stored.connected_at) {
      const changes = await conn.changes!(cursor.since);
      if (changes.changed.length + changes.deleted.length <= this.deps.options.maxTargeted) {
        status.mode = 'changed-since';
        await targetedRound(conn, changes, ctx);
        done = true;
      }
    }
    if (!done) {
      status.mode = 'full';
      await fullRound(conn, ctx);
    }
    if (!feed) return;
    checkpoint();
    // The provider's clock at this run's first answer, less a second (its `since` has a second's grain).
    const since = new Date((http.firstAnswerAt ?? Date.now()) - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await this.cursors.put(directory.id, { since, connected_at: stored.connected_at });
  }
}
