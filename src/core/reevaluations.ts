/**
 * A change of a directory's role or attribute mapping evaluates every user of the directory again
 * (docs/concepts/attributes-and-roles.md). A directory of 100,000 users takes a minute or more, past what an
 * HTTP client or a reconcile waits, so the pass runs in the background and says how far it got in the directory's
 * `reevaluation` status. The mapping change writes that status (`running`) with the mapping itself, so a pass cut
 * short by the process stopping is found and run again by the next serve process to start (`resumePending`): a
 * pass is idempotent (a user whose values are already the mapping's gets no event), so running one again, or two
 * replicas running the same, emits each change once. A newer mapping change supersedes a running pass: it stops
 * at its next page.
 */
import { mapLimit } from './chunks.js';
import { NotFoundError } from './errors.js';
import type { Directory, Reevaluation } from './model.js';
import type { DirectoryStore } from './store-port.js';

/** The pass over every user (core/users.ts reevaluateAll), reporting after each page. */
export type ReevaluateAll = (
  directory: Directory,
  progress: (evaluated: number, updated: number) => Promise<void>,
) => Promise<unknown>;

/** How often, at most, a running pass writes its progress to the directory. */
const PROGRESS_MS = 1000;
/** Directories read at once when looking for passes to resume. */
const SCAN_CONCURRENCY = 16;

/** Ends a pass early: a newer mapping change took its place, or the process is stopping. */
class Stopped extends Error {}

/** The status a mapping change starts with. */
export const runningSince = (now: Date): Reevaluation => ({
  state: 'running',
  started_at: now.toISOString(),
  users_evaluated: 0,
  users_updated: 0,
});

export class Reevaluations {
  private readonly running = new Map<string, Promise<void>>();
  private stopping = false;

  constructor(
    private readonly deps: {
      store: Pick<DirectoryStore, 'getDirectory' | 'updateDirectory' | 'listDirectoryIds'>;
      reevaluateAll: ReevaluateAll;
      /** Told of a pass that failed (the store went away): the next start of a serve process runs it again. */
      onError: (directoryId: string, err: unknown) => void;
      onDone?: (directoryId: string, status: Reevaluation) => void;
    },
  ) {}

  /**
   * Runs the pass `directory.reevaluation` asks for (one per directory and start time in this process); settles
   * when it is done, superseded or failed (never rejects: the status stays `running` for a later resume).
   */
  run(directory: Directory): Promise<void> {
    const status = directory.reevaluation;
    if (status?.state !== 'running' || this.stopping) return Promise.resolve();
    const key = `${directory.id} ${status.started_at}`;
    let pass = this.running.get(key);
    if (pass === undefined) {
      pass = this.pass(directory, status.started_at).finally(() => this.running.delete(key));
      this.running.set(key, pass);
    }
    return pass;
  }

  /** Runs again every pass a stopped process left `running`. */
  async resumePending(): Promise<void> {
    const ids = await this.deps.store.listDirectoryIds();
    await mapLimit(ids, SCAN_CONCURRENCY, async (id) => {
      const directory = await this.deps.store.getDirectory(id);
      if (directory?.reevaluation?.state === 'running') void this.run(directory);
    });
  }

  /**
   * Stops the passes running in this process at their next page, and waits for them: each stays `running` in
   * its directory's status, for the next process to start to run again.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.running.values()]);
  }

  private async pass(directory: Directory, startedAt: string): Promise<void> {
    let written = 0;
    let counts = { users_evaluated: 0, users_updated: 0 };
    try {
      await this.deps.reevaluateAll(directory, async (evaluated, updated) => {
        if (this.stopping) throw new Stopped();
        counts = { users_evaluated: evaluated, users_updated: updated };
        if (Date.now() - written < PROGRESS_MS) return;
        written = Date.now();
        if (!(await this.record(directory.id, startedAt, { state: 'running', ...counts }))) throw new Stopped();
      });
      const done = { state: 'done' as const, finished_at: new Date().toISOString(), ...counts };
      if (await this.record(directory.id, startedAt, done))
        this.deps.onDone?.(directory.id, { started_at: startedAt, ...done });
    } catch (err) {
      if (err instanceof Stopped || err instanceof NotFoundError) return;
      this.deps.onError(directory.id, err);
    }
  }

  /** Writes the pass's status over the directory's, unless a newer change took its place (false). */
  private async record(
    directoryId: string,
    startedAt: string,
    status: Omit<Reevaluation, 'started_at'>,
  ): Promise<boolean> {
    const current = await this.deps.store.getDirectory(directoryId);
    if (current?.reevaluation?.started_at !== startedAt) return false;
    await this.deps.store.updateDirectory({ ...current, reevaluation: { started_at: startedAt, ...status } });
    return true;
  }
}
