/**
 * The Google pull sync over every active Google directory (or one), on the shared runner (leases, statuses,
 * report: pull/runner.ts); this supplies the work on one directory: credentials, the Directory API, the diff.
 */
import type { DirectoryStore, PullSyncStore } from '../../core/store-port.js';
import type { Logger } from '../../logger.js';
import { MassDeletionError } from '../pull/errors.js';
import { PullRunner, type RunContext, type RunObserver, type SyncReport } from '../pull/runner.js';
import type { SyncWriters } from '../pull/writers.js';
import type { SyncFilter } from '../pull/sync-runs.js';
import { CredentialSource } from './credentials.js';
import { DirectoryApi } from './directory-api.js';
import { DirectorySync, type SyncReadStore } from './directory-sync.js';
import { GOOGLE, GoogleCredentialsError, NotAuthorizedError, NotGoogleDirectoryError } from './errors.js';
import { DEFAULT_RETRY, type RetryOptions } from './google-retry.js';
import type { GoogleOptions } from './options.js';
import { Pacer } from './pacer.js';
import { ServiceAccounts } from './service-account.js';
import { SyncStatuses, type SyncState, type SyncStatus } from './sync-status.js';
import type { Directory } from '../../core/model.js';

export type { DirectoryReport, SyncReport } from '../pull/runner.js';

export type SyncStore = SyncReadStore &
  Pick<DirectoryStore, 'getDirectory' | 'listDirectoryIds' | 'updateDirectory' | 'saveGoogleTokens'> &
  PullSyncStore;

/** Told about runs and requests (metrics.ts); never about tenants. */
export interface SyncObserver extends RunObserver {
  request(): void;
  retry(reason: string): void;
}

export interface GoogleSyncDeps {
  store: SyncStore;
  writers: SyncWriters;
  options: GoogleOptions;
  logger: Logger;
  observer?: SyncObserver;
  retry?: RetryOptions;
  /** How long a run's lease on a directory lasts without renewal (it is renewed while the run works). */
  leaseMs?: number;
}

const STATE_OF: Array<[new (...args: never[]) => Error, SyncState]> = [
  [GoogleCredentialsError, 'invalid_credentials'],
  [NotAuthorizedError, 'not_authorized'],
  [MassDeletionError, 'guarded'],
];

export class GoogleSync {
  readonly statuses: SyncStatuses;
  private readonly credentials: CredentialSource;
  private readonly pacer: Pacer;
  /** The shared runner: also what a background run drives (pull/sync-runs.ts). */
  readonly runner: PullRunner<SyncStatus>;

  constructor(private readonly deps: GoogleSyncDeps) {
    this.statuses = new SyncStatuses(deps.store);
    this.credentials = new CredentialSource({
      options: deps.options,
      store: deps.store,
      serviceAccounts: new ServiceAccounts(deps.store),
    });
    this.pacer = new Pacer(deps.options.queriesPerMinute);
    this.runner = new PullRunner({
      type: 'google',
      label: GOOGLE,
      store: deps.store,
      statuses: this.statuses,
      logger: deps.logger,
      ...(deps.observer && { observer: deps.observer }),
      leaseMs: deps.leaseMs ?? 60_000,
      wrongType: (id) => new NotGoogleDirectoryError(id),
      stateOf: (err) => STATE_OF.find(([type]) => err instanceof type)?.[1],
      fresh: (status) => ({ ...status, listed: { users: 0, groups: 0 }, google_requests: 0 }),
      work: (directory, run) => this.syncOne(directory, run),
    });
  }

  /** Syncs every active Google directory, or only `directoryId` (which must be a Google directory). */
  async run(filter: SyncFilter = {}): Promise<SyncReport> {
    return this.runner.run(filter);
  }

  /** How many active Google directories are in each state (the metrics gauge). */
  directoryStates(): Promise<Record<string, number>> {
    return this.runner.directoryStates();
  }

  private async syncOne(directory: Directory, { status, checkpoint }: RunContext<SyncStatus>): Promise<void> {
    let saved = async () => {};
    try {
      const credentials = await this.credentials.clientFor(directory);
      saved = credentials.saved;
      const api = new DirectoryApi({
        auth: credentials.client,
        rootUrl: this.deps.options.apiUrl,
        pacer: this.pacer,
        retry: this.deps.retry ?? DEFAULT_RETRY,
        onRequest: () => {
          status.google_requests++;
          this.deps.observer?.request();
        },
        // A 403's reason says which limit; other statuses are their code.
        onRetry: (f) =>
          this.deps.observer?.retry(f.status === 403 ? (f.reason ?? '403') : f.status ? String(f.status) : 'network'),
      });
      const run = new DirectorySync(
        directory,
        {
          store: this.deps.store,
          writers: this.deps.writers,
          api,
          maxDeleteShare: this.deps.options.maxDeleteShare,
          checkpoint,
        },
        status.counts,
      );
      status.listed = run.listed;
      await run.run();
    } finally {
      await saved().catch((err) =>
        this.deps.logger.warn({ err, directoryId: directory.id }, 'could not save a refreshed Google token'),
      );
    }
  }
}
