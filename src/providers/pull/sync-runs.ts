/**
 * Background runs of a pull provider's sync, for `POST /api/v1/dsync/cron/sync-<provider>` with
 * `Prefer: respond-async` (RFC 7240): a sync over many directories outlives any proxy's timeout, so the route
 * answers 202 with the run's address at once and the run goes on in this process, its record (state, each
 * directory's progress and counts, errors) saved in the store as it goes, so every replica can answer for it.
 * One run at a time per scope (provider + filter), across processes: a second request joins the run going.
 *
 * Provider-neutral: a provider gives its name and a `SyncRunner` (which directories a filter means, and the sync
 * of those directories, telling a listener as each starts and finishes): the shared runner, runner.ts.
 */
import { randomUUID } from 'node:crypto';
import { DsyncError, NotFoundError } from '../../core/errors.js';
import type { SyncRunStore } from '../../core/store-port.js';
import type { Logger } from '../../logger.js';

export interface RunDirectory {
  id: string;
  name: string;
  tenant: string;
  product: string;
}

type RunError = { code: string; message: string };

/** One directory's result in a run (a provider's own states and counts). */
export interface DirectoryOutcome extends RunDirectory {
  state: string;
  counts: Record<string, number>;
  error: RunError | null;
}

/** What a whole run did: the synchronous route's answer, and the totals of a run record. */
export interface RunReport<D extends DirectoryOutcome = DirectoryOutcome> {
  directories: D[];
  created: number;
  updated: number;
  deleted: number;
  failed: number;
}

export interface RunListener {
  started(directoryId: string): void;
  finished(outcome: DirectoryOutcome): void;
}

export interface SyncFilter {
  directoryId?: string;
}

/** A provider's sync, in the two steps a background run needs (D: the provider's view of a directory). */
export interface SyncRunner<D extends RunDirectory = RunDirectory> {
  /** The directories `filter` means; throws as the synchronous route would (an unknown or wrong directory). */
  directories(filter: SyncFilter): Promise<D[]>;
  /** Syncs them in order, telling `listener`; throws only when the run cannot work at all (the store is down). */
  sync(directories: D[], listener: RunListener): Promise<RunReport>;
}

/** A run's record: GET /api/v1/dsync/cron/sync-<provider>/<id>. */
export interface SyncRun extends Omit<RunReport, 'directories'> {
  id: string;
  provider: string;
  /** `running`, `succeeded` (every directory was tried; each reports its own outcome) or `failed` (the run stopped). */
  state: 'running' | 'succeeded' | 'failed';
  /** The `directoryId` filter, or null for every directory. */
  directory_id: string | null;
  started_at: string;
  finished_at: string | null;
  progress: { directories: number; done: number };
  /** Each directory of the run: `pending`, `running`, then its outcome's state. */
  directories: Array<RunDirectory & { state: string; counts: Record<string, number> | null; error: RunError | null }>;
  /** Why the run stopped (state `failed`). */
  error: RunError | null;
}

export interface SyncRunsOptions<D extends RunDirectory> {
  store: SyncRunStore;
  /** `google`, `microsoft`: names the route and the runs' scope. */
  provider: string;
  runner: SyncRunner<D>;
  logger: Logger;
  /** How long a run's claim lasts without renewal (renewed while it runs); default 60 s. */
  claimMs?: number;
  /** How long a run's record is kept after its last change; default 24 h. */
  retentionMs?: number;
}

const ABANDONED: RunError = {
  code: 'DSYNC_SYNC_RUN_ABANDONED',
  message: 'The process running this sync stopped before it finished; start another run',
};

const describe = (err: unknown): RunError =>
  err instanceof DsyncError
    ? { code: err.code, message: err.message }
    : { code: 'DSYNC_SYNC_RUN_FAILED', message: (err as Error)?.message ?? String(err) };

export class SyncRuns<D extends RunDirectory = RunDirectory> {
  private readonly claimMs: number;
  private readonly retentionMs: number;

  constructor(private readonly o: SyncRunsOptions<D>) {
    this.claimMs = o.claimMs ?? 60_000;
    this.retentionMs = o.retentionMs ?? 24 * 3_600_000;
  }

  /**
   * Starts a run in the background, or joins the one going for the same filter; resolves with its record at once.
   * An unknown or unsuitable `directoryId` throws here, before anything starts.
   */
  async start(filter: SyncFilter): Promise<SyncRun> {
    const directories = await this.o.runner.directories(filter);
    const scope = `${this.o.provider}:${filter.directoryId ?? '*'}`;
    const run: SyncRun = {
      id: randomUUID(),
      provider: this.o.provider,
      state: 'running',
      directory_id: filter.directoryId ?? null,
      started_at: new Date().toISOString(),
      finished_at: null,
      progress: { directories: directories.length, done: 0 },
      directories: directories.map((d) => ({
        id: d.id,
        name: d.name,
        tenant: d.tenant,
        product: d.product,
        state: 'pending',
        counts: null,
        error: null,
      })),
      created: 0,
      updated: 0,
      deleted: 0,
      failed: 0,
      error: null,
    };
    // Saved before it is claimed, so whoever joins a claimed run finds its record (a record that loses the claim
    // is never named to anyone, and expires).
    await this.save(run);
    const holder = await this.o.store.claimSyncRun(scope, run.id, this.claimMs);
    if (holder !== run.id) return this.get(holder);
    void this.execute(run, scope, directories);
    return run;
  }

  /** A run's record; a run whose process stopped before finishing reads as `failed` (abandoned). */
  async get(runId: string): Promise<SyncRun> {
    const run = await this.find(runId);
    if (!run)
      throw new NotFoundError(
        `Sync run ${runId} not found (runs are kept ${Math.round(this.retentionMs / 3_600_000)} h)`,
      );
    return run;
  }

  private async find(runId: string): Promise<SyncRun | null> {
    const json = await this.o.store.getSyncRun(runId);
    if (!json) return null;
    const run = JSON.parse(json) as SyncRun;
    if (run.state !== 'running') return run;
    const scope = `${run.provider}:${run.directory_id ?? '*'}`;
    if ((await this.o.store.currentSyncRun(scope)) === run.id) return run;
    return { ...run, state: 'failed', error: ABANDONED };
  }

  private async execute(run: SyncRun, scope: string, directories: D[]): Promise<void> {
    const { store, logger } = this.o;
    const renew = setInterval(
      () => void store.renewSyncRun(scope, run.id, this.claimMs).catch(() => undefined),
      this.claimMs / 3,
    );
    renew.unref();
    // Saves go out one after another, so an older snapshot never overwrites a newer one.
    let saving = Promise.resolve();
    const saveSoon = () => {
      const snapshot = structuredClone(run);
      saving = saving
        .then(() => this.save(snapshot))
        .catch((err) => logger.warn({ err, runId: run.id }, 'could not save a sync run'));
    };
    const update = (id: string, change: Partial<SyncRun['directories'][number]>) => {
      const entry = run.directories.find((d) => d.id === id);
      if (entry) Object.assign(entry, change);
      saveSoon();
    };
    try {
      const report = await this.o.runner.sync(directories, {
        started: (id) => update(id, { state: 'running' }),
        finished: ({ id, state, counts, error }) => {
          run.progress.done++;
          update(id, { state, counts, error });
        },
      });
      Object.assign(run, {
        state: 'succeeded',
        created: report.created,
        updated: report.updated,
        deleted: report.deleted,
        failed: report.failed,
      });
    } catch (err) {
      logger.error({ err, runId: run.id }, `${this.o.provider} sync run could not finish`);
      Object.assign(run, { state: 'failed', error: describe(err) });
    } finally {
      clearInterval(renew);
      run.finished_at = new Date().toISOString();
      saveSoon();
      await saving;
      await store.releaseSyncRun(scope, run.id).catch(() => undefined);
    }
  }

  private save(run: SyncRun): Promise<void> {
    return this.o.store.putSyncRun(run.id, JSON.stringify(run), this.retentionMs);
  }
}
