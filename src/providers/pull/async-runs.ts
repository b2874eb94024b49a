/**
 * A pull-sync run started in the background (`Prefer: respond-async` on the cron routes): the caller gets its
 * id at once and reads its state later. A request while a run of the same scope is going joins it instead of
 * starting another. Kept in this process, a few hundred at most: the minimum until runs are shared by replicas
 * through the store (a GET that lands on another replica answers 404).
 */
import { randomUUID } from 'node:crypto';
import type { SyncReport } from './runner.js';

export interface AsyncRun {
  id: string;
  state: 'running' | 'succeeded' | 'failed';
  started_at: string;
  finished_at: string | null;
  /** The run's report once it finished (what the synchronous form answers). */
  report: SyncReport | null;
  error: { code: string; message: string } | null;
}

const KEEP = 200;

export class AsyncRuns {
  private readonly runs = new Map<string, AsyncRun>();
  private readonly going = new Map<string, string>();

  /** Starts `work` under `scope`, or joins the run of that scope still going; `joined` says which. */
  start(scope: string, work: () => Promise<SyncReport>): { run: AsyncRun; joined: boolean } {
    const current = this.going.get(scope);
    if (current) return { run: this.runs.get(current)!, joined: true };
    const run: AsyncRun = { id: randomUUID(), state: 'running', started_at: new Date().toISOString(), finished_at: null, report: null, error: null };
    this.runs.set(run.id, run);
    this.going.set(scope, run.id);
    for (const id of [...this.runs.keys()].slice(0, Math.max(0, this.runs.size - KEEP))) this.runs.delete(id);
    work()
      .then((report) => Object.assign(run, { state: 'succeeded', report }))
      .catch((err: Error & { code?: string }) => Object.assign(run, { state: 'failed', error: { code: err.code ?? 'DSYNC_INTERNAL', message: err.message } }))
      .finally(() => {
        run.finished_at = new Date().toISOString();
        this.going.delete(scope);
      });
    return { run, joined: false };
  }

  get(id: string): AsyncRun | undefined {
    return this.runs.get(id);
  }
}
