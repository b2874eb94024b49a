/**
 * The activity record: the recent SCIM requests of each directory (time, method, path, status, the error detail
 * answered), for the setup page and `GET …/activity`. Cheap on the write path: a request only appends to a
 * buffer in this process; a timer writes each directory's buffer in one store call, never awaited by a
 * request. Bounded: the newest KEEP entries of a directory, gone TTL after its last request. A write that
 * fails is dropped (the record is a diagnostic, not a log of record). Only authenticated requests move the
 * directory's last request (which turns its setup page to "Receiving"); a wrong token is recorded without.
 */
import { isoTime } from './iso-time.js';
import type { ActivityEntry, AccessStore } from './store-port.js';

export const ACTIVITY_KEEP = 1000;
export const ACTIVITY_TTL_MS = 7 * 86_400_000;
/** Detail of an error as kept: enough to name the attribute and the reason. */
export const MAX_ERROR_LENGTH = 500;
const MAX_PATH_LENGTH = 200;

export interface ActivityOptions {
  store: Pick<AccessStore, 'appendActivity' | 'readActivity'>;
  /** How long a request waits in the buffer at most before it is written; default 1 s (the page polls every 2 s). */
  flushIntervalMs?: number;
  onError?: (err: unknown) => void;
}

export interface ActivityView {
  last_request_at: string | null;
  /** Newest first. */
  recent: ActivityEntry[];
}

/** A directory's entries not yet written, and the newest authenticated one's time. */
interface Buffered {
  entries: ActivityEntry[];
  last: string | null;
}

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

export class ActivityRecorder {
  private readonly store: ActivityOptions['store'];
  private readonly flushIntervalMs: number;
  private readonly onError: (err: unknown) => void;
  private buffer = new Map<string, Buffered>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(options: ActivityOptions) {
    this.store = options.store;
    this.flushIntervalMs = options.flushIntervalMs ?? 1000;
    this.onError = options.onError ?? (() => undefined);
  }

  /**
   * Notes one request (`authenticated: false`: a wrong token, which does not move the last request); returns at once.
   */
  record(
    directoryId: string,
    entry: { method: string; path: string; status: number; error?: string | null; authenticated?: boolean },
  ): void {
    let buffered = this.buffer.get(directoryId);
    if (!buffered) this.buffer.set(directoryId, (buffered = { entries: [], last: null }));
    const { entries } = buffered;
    // A burst beyond what is kept anyway drops its oldest entries here rather than in the store.
    if (entries.length >= ACTIVITY_KEEP) entries.shift();
    const at = isoTime(Date.now());
    if (entry.authenticated !== false) buffered.last = at;
    entries.push({
      at,
      method: entry.method.toUpperCase().slice(0, 10),
      path: clip(entry.path, MAX_PATH_LENGTH),
      status: entry.status,
      error: entry.error ? clip(entry.error, MAX_ERROR_LENGTH) : null,
    });
    this.timer ??= setTimeout(() => void this.flush(), this.flushIntervalMs).unref();
  }

  /** Writes what is buffered (each directory in one call); resolves when written or dropped. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = new Map();
    // Flushes are chained: a directory's entries reach the store in the order they were recorded.
    this.flushing = this.flushing.then(() =>
      Promise.all(
        [...batch].map(([directoryId, { entries, last }]) =>
          this.store.appendActivity(directoryId, entries, ACTIVITY_KEEP, ACTIVITY_TTL_MS, last).catch(this.onError),
        ),
      ).then(() => undefined),
    );
    return this.flushing;
  }

  /** The directory's record, this process's unwritten entries included. */
  async read(directoryId: string, limit = 100): Promise<ActivityView> {
    if (this.buffer.has(directoryId)) await this.flush();
    else await this.flushing;
    const view = await this.store.readActivity(directoryId, Math.min(limit, ACTIVITY_KEEP));
    const since = new Date(Date.now() - ACTIVITY_TTL_MS).toISOString();
    return { last_request_at: view.last_request_at, recent: view.recent.filter((e) => e.at >= since) };
  }

  close(): Promise<void> {
    return this.flush();
  }
}
