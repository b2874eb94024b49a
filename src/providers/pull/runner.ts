/**
 * A pull sync over every active directory of one type (or one directory): each under its own lease, so
 * concurrent runs (CronJob pods, replicas, the in-process interval, a notification) never sync one directory
 * twice at once; each failing on its own, so one customer's revoked credentials or outage never stops the
 * others. A run fails (throws) only when it cannot work at all: the store is unreachable. The provider supplies
 * the work on one directory; this records its status, its metrics and the report.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { ConflictError, DsyncError, NotFoundError, StoreUnavailableError } from '../../core/errors.js';
import type { Directory, DirectoryType } from '../../core/model.js';
import type { DirectoryStore, PullSyncStore } from '../../core/store-port.js';
import type { Logger } from '../../logger.js';
import type { DirectoryOutcome, RunListener, RunReport, SyncFilter, SyncRunner } from './sync-runs.js';
import type { ErrorCode } from '../../core/error-codes.js';
import type { RunCodePrefix } from '../../core/error-codes-providers.js';
import { LeaseLostError, SyncBusyError, type ProviderLabel } from './errors.js';
import {
  zeroCounts,
  type BaseSyncStatus,
  type PullSyncStatuses,
  type SyncCounts,
  type SyncState,
} from './sync-status.js';

/** Told about each directory's run (metrics.ts); never about tenants. */
export interface RunObserver {
  directoryRun(state: SyncState, seconds: number, counts: SyncCounts, directory: Directory): void;
}

export interface DirectoryReport extends DirectoryOutcome {
  /** `skipped`: another run holds the directory right now (it does the work). */
  state: SyncState | 'skipped';
  counts: SyncCounts;
}

/**
 * Users and groups created, updated and deleted over all directories; `failed`: directories that failed or were
 * guarded.
 */
export type SyncReport = RunReport<DirectoryReport>;

/** What the provider's work on one directory gets: the status it fills, and the lease check. */
export interface RunContext<S extends BaseSyncStatus> {
  /** The status being written: `counts` and the provider's own fields are the work's to fill. */
  status: S;
  /** Throws when the run must stop (its lease was lost). */
  checkpoint(): void;
}

export interface PullRunnerDeps<S extends BaseSyncStatus> {
  /** The directory type synced, or the types (one runner for the HRIS providers). */
  type: DirectoryType | readonly DirectoryType[];
  label: ProviderLabel<RunCodePrefix>;
  store: Pick<DirectoryStore, 'getDirectory' | 'listDirectoryIds'> & PullSyncStore;
  statuses: PullSyncStatuses<S>;
  logger: Logger;
  observer?: RunObserver;
  /** How long a run's lease on a directory lasts without renewal (it is renewed while the run works). */
  leaseMs: number;
  /** The error for a directory of another type (a ConflictError unless given). */
  wrongType?: (id: string) => Error;
  /** The state a failure puts the directory in (`failed` when none says otherwise). */
  stateOf(err: unknown): SyncState | undefined;
  /** Resets the provider's own status fields at the start of a run. */
  fresh(status: S): S;
  work(directory: Directory, run: RunContext<S>): Promise<void>;
}

export class PullRunner<S extends BaseSyncStatus> implements SyncRunner<Directory> {
  private readonly processId = `${hostname()}/${process.pid}`;

  constructor(private readonly deps: PullRunnerDeps<S>) {}

  /** Syncs every active directory of the type, or only `directoryId` (which must be of the type). */
  async run(filter: SyncFilter = {}): Promise<SyncReport> {
    return this.sync(await this.directories(filter));
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

  /** How many active directories of the type are in each state (the metrics gauge). */
  async directoryStates(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const d of await this.directories()) {
      const { state } = await this.deps.statuses.get(d.id);
      counts[state] = (counts[state] ?? 0) + 1;
    }
    return counts;
  }

  /** The directory, checked to be an active one of this type. */
  async directory(id: string): Promise<Directory> {
    const directory = await this.deps.store.getDirectory(id);
    if (!directory) throw new NotFoundError(`Directory ${id} not found`);
    if (!this.synced(directory))
      throw this.deps.wrongType?.(id) ?? new ConflictError(`Directory ${id} is not of type ${this.types.join(', ')}`);
    if (directory.deactivated) throw new ConflictError(`Directory ${id} is deactivated: it is not synced`);
    return directory;
  }

  /** The directories a run with `filter` syncs: every active one of the type, or the one named (checked). */
  async directories(filter: SyncFilter = {}): Promise<Directory[]> {
    // An empty id names no directory (404), as everywhere else: only an absent one means all of them.
    if (filter.directoryId !== undefined) return [await this.directory(filter.directoryId)];
    const out: Directory[] = [];
    for (const id of await this.deps.store.listDirectoryIds()) {
      const d = await this.deps.store.getDirectory(id);
      if (d && this.synced(d) && !d.deactivated) out.push(d);
    }
    return out;
  }

  private get types(): readonly DirectoryType[] {
    const { type } = this.deps;
    return typeof type === 'string' ? [type] : type;
  }

  private synced(directory: Directory): boolean {
    return this.types.includes(directory.type);
  }

  private async syncDirectory(directory: Directory): Promise<DirectoryReport> {
    const base = { id: directory.id, name: directory.name, tenant: directory.tenant, product: directory.product };
    const { store, leaseMs, label } = this.deps;
    // One owner per run, not per process: two runs in one process must not share (re-enter) the lease.
    const owner = `${this.processId}/${randomUUID()}`;
    if (!(await store.acquireSyncLease(directory.id, owner, leaseMs))) {
      const busy = new SyncBusyError(label, directory.id);
      return { ...base, state: 'skipped', counts: zeroCounts(), error: { code: busy.code, message: busy.message } };
    }
    let lost = false;
    const renew = setInterval(() => {
      store.renewSyncLease(directory.id, owner, leaseMs).then(
        (held) => (lost ||= !held),
        () => (lost = true),
      );
    }, leaseMs / 3);
    try {
      const status = await this.syncUnderLease(directory, () => {
        if (lost) throw new LeaseLostError(label, directory.id);
      });
      return { ...base, state: status.state, counts: status.counts, error: status.error };
    } finally {
      clearInterval(renew);
      await store.releaseSyncLease(directory.id, owner).catch(() => undefined);
    }
  }

  private async syncUnderLease(directory: Directory, checkpoint: () => void): Promise<S> {
    const { statuses, logger, label } = this.deps;
    const previous = await statuses.get(directory.id);
    const started = Date.now();
    const running: S = { ...previous, state: 'running', started_at: new Date(started).toISOString(), error: null };
    await statuses.put(running);
    const status: S = this.deps.fresh({ ...running, counts: zeroCounts() });
    let failure: unknown;
    try {
      await this.deps.work(directory, { status, checkpoint });
    } catch (err) {
      failure = err;
    }
    if (failure instanceof StoreUnavailableError) throw failure; // the run itself cannot work
    const finished = Date.now();
    const state: SyncState = failure === undefined ? 'succeeded' : (this.deps.stateOf(failure) ?? 'failed');
    const final: S = {
      ...status,
      state,
      finished_at: new Date(finished).toISOString(),
      duration_ms: finished - started,
      error: failure === undefined ? null : describe(failure, label),
      last_success_at: failure === undefined ? new Date(finished).toISOString() : previous.last_success_at,
    };
    await statuses.put(final);
    this.deps.observer?.directoryRun(state, (finished - started) / 1000, final.counts, directory);
    if (failure !== undefined) {
      logger.warn(
        { err: failure, directoryId: directory.id, state },
        `${label.name} sync of a directory did not succeed`,
      );
    } else {
      logger.info(
        { directoryId: directory.id, counts: final.counts, durationMs: final.duration_ms },
        `${label.name} sync of a directory succeeded`,
      );
    }
    return final;
  }
}

function describe(err: unknown, label: ProviderLabel<RunCodePrefix>): { code: ErrorCode; message: string } {
  if (err instanceof DsyncError) return { code: err.code, message: err.message };
  return { code: `${label.codePrefix}_SYNC_FAILED`, message: `Sync failed: ${(err as Error)?.message ?? String(err)}` };
}
