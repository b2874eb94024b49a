/**
 * Syncs of one directory asked for by hints (a provider's webhook or change notification, a fresh connection):
 * the first hint opens a short window and later ones join it, so a burst is one sync; a hint arriving while that
 * directory syncs asks for one more run after it; a run that found the directory busy (another replica syncing,
 * which may have read before the change) tries again, a bounded number of times.
 */
import type { Logger } from '../../logger.js';
import type { SyncReport } from './runner.js';

export interface SyncSoonDeps {
  sync(directoryId: string): Promise<SyncReport>;
  delayMs: number;
  /**
   * At least this long between two hint-triggered runs of a directory (hints nobody signs must not drive a sync loop);
   * default 0.
   */
  minIntervalMs?: number;
  logger: Logger;
  /** `Entra`, `HRIS`: names the sync in the log. */
  what: string;
}

/** Consecutive runs found busy before a directory's pending sync is given up. */
const MAX_BUSY_RETRIES = 10;

export class SyncSoon {
  private readonly pending = new Map<
    string,
    { timer?: NodeJS.Timeout; running: boolean; again: boolean; busy: number }
  >();
  /** When each directory's last hint-triggered run started (only kept while within the minimum interval). */
  private readonly started = new Map<string, number>();
  private closed = false;

  constructor(private readonly deps: SyncSoonDeps) {}

  /** A sync of the directory soon, joined by every hint until it starts. */
  schedule(directoryId: string): void {
    if (this.closed) return;
    const p = this.pending.get(directoryId) ?? { running: false, again: false, busy: 0 };
    this.pending.set(directoryId, p);
    if (p.timer) return;
    if (p.running) {
      p.again = true;
      return;
    }
    const last = this.started.get(directoryId);
    const wait = last === undefined ? 0 : last + (this.deps.minIntervalMs ?? 0) - Date.now();
    if (wait <= 0) this.started.delete(directoryId);
    p.timer = setTimeout(() => void this.run(directoryId), Math.max(this.deps.delayMs, wait));
  }

  private async run(directoryId: string): Promise<void> {
    const p = this.pending.get(directoryId)!;
    p.timer = undefined;
    p.running = true;
    if (this.deps.minIntervalMs) this.started.set(directoryId, Date.now());
    try {
      const report = await this.deps.sync(directoryId);
      const skipped = report.directories.some((d) => d.state === 'skipped');
      p.busy = skipped ? p.busy + 1 : 0;
      if (skipped && p.busy <= MAX_BUSY_RETRIES) p.again = true;
    } catch (err) {
      this.deps.logger.warn({ err, directoryId }, `a hint-triggered ${this.deps.what} sync could not run`);
    } finally {
      p.running = false;
    }
    if (p.again) {
      p.again = false;
      this.schedule(directoryId);
    } else {
      this.pending.delete(directoryId);
    }
  }

  /** Whether any hint-triggered sync is scheduled or running (tests, shutdown). */
  get idle(): boolean {
    return this.pending.size === 0;
  }

  close(): void {
    this.closed = true;
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
    this.started.clear();
  }
}
