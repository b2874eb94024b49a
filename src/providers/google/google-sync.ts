/**
 * The pull sync over every active Google directory (or one): each under its own lease, so concurrent runs (CronJob
 * pods, replicas, the in-process interval) never sync one directory twice at once; each failing on its own, so
 * one customer's revoked token or outage never stops the others. The run itself fails (throws) only when it
 * cannot work at all: the store is unreachable.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { ConflictError, DsyncError, NotFoundError, StoreUnavailableError } from '../../core/errors.js';
import type { Directory } from '../../core/model.js';
import type { DirectoryStore, PullSyncStore } from '../../core/store-port.js';
import type { Logger } from '../../logger.js';
import type { DirectoryOutcome, RunListener, RunReport, SyncFilter } from '../sync-runs.js';
import { CredentialSource } from './credentials.js';
import { DirectoryApi } from './directory-api.js';
import { DirectorySync, type SyncReadStore } from './directory-sync.js';
import {
  GoogleCredentialsError,
  LeaseLostError,
  MassDeletionError,
  NotAuthorizedError,
  NotGoogleDirectoryError,
  SyncBusyError,
} from './errors.js';
import { DEFAULT_RETRY, type RetryOptions } from './google-retry.js';
import type { GoogleOptions } from './options.js';
import { Pacer } from './pacer.js';
import { ServiceAccounts } from './service-account.js';
import { SyncStatuses, zeroCounts, type SyncCounts, type SyncState, type SyncStatus } from './sync-status.js';
import type { SyncWriters } from './writers.js';

export type SyncStore = SyncReadStore & Pick<DirectoryStore, 'getDirectory' | 'listDirectoryIds' | 'updateDirectory' | 'saveGoogleTokens'> & PullSyncStore;

/** Told about runs and requests (metrics.ts); never about tenants. */
export interface SyncObserver {
  directoryRun(state: SyncState, seconds: number, counts: SyncCounts): void;
  request(): void;
  retry(reason: string): void;
}

export interface DirectoryReport extends DirectoryOutcome {
  /** `skipped`: another run holds the directory right now (it does the work). */
  state: SyncState | 'skipped';
  counts: SyncCounts;
}

/** Users and groups created, updated and deleted over all directories; `failed`: directories that failed or were guarded. */
export type SyncReport = RunReport<DirectoryReport>;

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
  private readonly processId = `${hostname()}/${process.pid}`;
  private readonly leaseMs: number;

  constructor(private readonly deps: GoogleSyncDeps) {
    this.statuses = new SyncStatuses(deps.store);
    this.credentials = new CredentialSource({ options: deps.options, store: deps.store, serviceAccounts: new ServiceAccounts(deps.store) });
    this.pacer = new Pacer(deps.options.queriesPerMinute);
    this.leaseMs = deps.leaseMs ?? 60_000;
  }

  /** Syncs every active Google directory, or only `directoryId` (which must be a Google directory). */
  async run(filter: SyncFilter = {}): Promise<SyncReport> {
    return this.sync(await this.directories(filter));
  }

  /** The directories a run with `filter` syncs: every active Google directory, or the one named (checked). */
  async directories(filter: SyncFilter): Promise<Directory[]> {
    return filter.directoryId ? [await this.googleDirectory(filter.directoryId)] : this.googleDirectories();
  }

  /** Syncs `directories` one after another, telling `listener` (a background run's progress) as it goes. */
  async sync(directories: Directory[], listener?: RunListener): Promise<SyncReport> {
    const report: SyncReport = { directories: [], created: 0, updated: 0, deleted: 0, failed: 0 };
    for (const directory of directories) {
      listener?.started(directory.id);
      const r = await this.syncDirectory(directory);
      listener?.finished(r);
      report.directories.push(r);
      report.created += r.counts.users_created + r.counts.groups_created;
      report.updated += r.counts.users_updated + r.counts.groups_updated;
      report.deleted += r.counts.users_deleted + r.counts.groups_deleted;
      if (r.state !== 'succeeded' && r.state !== 'skipped') report.failed++;
    }
    return report;
  }

  /** How many active Google directories are in each state (the metrics gauge). */
  async directoryStates(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const d of await this.googleDirectories()) {
      const { state } = await this.statuses.get(d.id);
      counts[state] = (counts[state] ?? 0) + 1;
    }
    return counts;
  }

  private async googleDirectory(id: string): Promise<Directory> {
    const directory = await this.deps.store.getDirectory(id);
    if (!directory) throw new NotFoundError(`Directory ${id} not found`);
    if (directory.type !== 'google') throw new NotGoogleDirectoryError(id);
    if (directory.deactivated) throw new ConflictError(`Directory ${id} is deactivated: it is not synced`);
    return directory;
  }

  private async googleDirectories(): Promise<Directory[]> {
    const out: Directory[] = [];
    for (const id of await this.deps.store.listDirectoryIds()) {
      const d = await this.deps.store.getDirectory(id);
      if (d && d.type === 'google' && !d.deactivated) out.push(d);
    }
    return out;
  }

  private async syncDirectory(directory: Directory): Promise<DirectoryReport> {
    const base = { id: directory.id, name: directory.name, tenant: directory.tenant, product: directory.product };
    const { store } = this.deps;
    // One owner per run, not per process: two runs in one process must not share (re-enter) the lease.
    const owner = `${this.processId}/${randomUUID()}`;
    if (!(await store.acquireSyncLease(directory.id, owner, this.leaseMs))) {
      const busy = new SyncBusyError(directory.id);
      return { ...base, state: 'skipped', counts: zeroCounts(), error: { code: busy.code, message: busy.message } };
    }
    let lost = false;
    const renew = setInterval(() => {
      store.renewSyncLease(directory.id, owner, this.leaseMs).then(
        (held) => (lost ||= !held),
        () => (lost = true),
      );
    }, this.leaseMs / 3);
    try {
      const status = await this.syncUnderLease(directory, () => {
        if (lost) throw new LeaseLostError(directory.id);
      });
      return { ...base, state: status.state, counts: status.counts, error: status.error };
    } finally {
      clearInterval(renew);
      await store.releaseSyncLease(directory.id, owner).catch(() => undefined);
    }
  }

  private async syncUnderLease(directory: Directory, checkpoint: () => void): Promise<SyncStatus> {
    const previous = await this.statuses.get(directory.id);
    const started = Date.now();
    const counts = zeroCounts();
    let requests = 0;
    const running: SyncStatus = { ...previous, state: 'running', started_at: new Date(started).toISOString(), error: null };
    await this.statuses.put(running);
    let run: DirectorySync | undefined;
    let failure: unknown;
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
          requests++;
          this.deps.observer?.request();
        },
        // A 403's reason says which limit; other statuses are their code.
        onRetry: (f) => this.deps.observer?.retry(f.status === 403 ? (f.reason ?? '403') : f.status ? String(f.status) : 'network'),
      });
      run = new DirectorySync(directory, { store: this.deps.store, writers: this.deps.writers, api, maxDeleteShare: this.deps.options.maxDeleteShare, checkpoint }, counts);
      await run.run();
    } catch (err) {
      failure = err;
    }
    await saved().catch((err) => this.deps.logger.warn({ err, directoryId: directory.id }, 'could not save a refreshed Google token'));
    if (failure instanceof StoreUnavailableError) throw failure; // the run itself cannot work
    const finished = Date.now();
    const state: SyncState = failure === undefined ? 'succeeded' : (STATE_OF.find(([type]) => failure instanceof type)?.[1] ?? 'failed');
    const status: SyncStatus = {
      ...running,
      state,
      finished_at: new Date(finished).toISOString(),
      duration_ms: finished - started,
      counts,
      listed: run?.listed ?? { users: 0, groups: 0 },
      google_requests: requests,
      error: failure === undefined ? null : describe(failure),
      last_success_at: failure === undefined ? new Date(finished).toISOString() : previous.last_success_at,
    };
    await this.statuses.put(status);
    this.deps.observer?.directoryRun(state, (finished - started) / 1000, counts);
    if (failure !== undefined) {
      this.deps.logger.warn({ err: failure, directoryId: directory.id, state }, 'Google sync of a directory did not succeed');
    } else {
      this.deps.logger.info({ directoryId: directory.id, counts, durationMs: status.duration_ms }, 'Google sync of a directory succeeded');
    }
    return status;
  }
}

function describe(err: unknown): { code: string; message: string } {
  if (err instanceof DsyncError) return { code: err.code, message: err.message };
  return { code: 'DSYNC_GOOGLE_SYNC_FAILED', message: `Sync failed: ${(err as Error)?.message ?? String(err)}` };
}
