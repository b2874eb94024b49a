/**
 * The delivery engine. Each directory's event log is its outbox: events are committed with the write that
 * caused them, and delivered from here, off the request path, at least once and in order per directory.
 *
 * - A lease (atomic, expiring) makes one deliverer per directory across all replicas; a failing directory
 *   only holds its own lease, so it never delays another directory.
 * - The cursor moves only after the receiver's 2xx. A failed batch is pinned, so its retries resend the same
 *   events under the same `webhook-id`, on the retry policy's schedule; after the last retry it is
 *   dead-lettered and the cursor moves past it.
 * - A global "due" set wakes deliverers; a periodic sweep re-marks directories whose log is ahead of their
 *   cursor, which repairs a wake-up lost to a crash between commit and mark.
 */
import { randomUUID } from 'node:crypto';
import { yieldToLoop } from '../core/chunks.js';
import type { Directory } from '../core/model.js';
import { redactCredentials } from '../core/urls.js';
import type { Logger } from '../logger.js';
import type { DeliveryState, LoggedEvent, Store } from '../core/store-port.js';
import { DeadLetterNotFound } from './errors.js';
import type { RetryPolicy, Verdict } from './retry-policy.js';
import { eventIdOf, type Sink, type SinkResult } from './sinks.js';

export interface EngineOptions {
  store: Store;
  sink: Sink;
  policy: RetryPolicy;
  logger: Logger;
  /** Set = batch mode: up to N events per POST, as a JSON array; unset = real time, one event per POST. */
  batchSize?: number;
  /** Real time: deliver as soon as events are committed. Batch mode: only when `processDue` runs. */
  realtime: boolean;
  leaseMs?: number;
  concurrency?: number;
  pollIntervalMs?: number;
  sweepIntervalMs?: number;
  /** Delivered events older than this are trimmed from the log (the Events API window). */
  retentionMs?: number;
  /** Delivery attempt logs (directories with log_webhook_events) older than this are dropped. */
  logRetentionMs?: number;
  /** Observes every attempt (delivery logs, metrics). */
  onAttempt?: (attempt: AttemptRecord) => void;
}

export interface AttemptRecord {
  directoryId: string;
  result: SinkResult;
  verdict: Verdict['kind'];
  eventIds: string[];
  attempt: number;
  at: number;
}

export interface PassStats {
  directories: number;
  delivered: number;
  failed: number;
}

const READ_CHUNK = 100;
const YIELD_EVERY = 200;
const SAVE_EVERY = 100;
const SAVE_MS = 250;
const MAX_POLL_BACKOFF_MS = 5_000;

function pinnedSlice(events: LoggedEvent[], pinned: string | null, size: number): LoggedEvent[] {
  if (pinned) {
    const end = events.findIndex((e) => e.seq === pinned);
    if (end >= 0) return events.slice(0, end + 1);
  }
  return events.slice(0, size);
}

export class DeliveryEngine {
  readonly owner = `dsync-${randomUUID()}`;
  private readonly o: Required<Omit<EngineOptions, 'batchSize' | 'onAttempt'>> & Pick<EngineOptions, 'batchSize' | 'onAttempt'>;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private pumping = false;
  private pollBackoff = { failures: 0, resumeAt: 0 };
  private stats: PassStats = { directories: 0, delivered: 0, failed: 0 };

  constructor(options: EngineOptions) {
    this.o = {
      leaseMs: 30_000,
      concurrency: 64,
      pollIntervalMs: 250,
      sweepIntervalMs: 30_000,
      retentionMs: 7 * 86_400_000,
      logRetentionMs: 7 * 86_400_000,
      ...options,
    };
  }

  /** Starts the poll loop (real time) and the sweep. */
  start(): void {
    if (this.o.realtime) this.every(this.o.pollIntervalMs, () => this.pump());
    this.every(this.o.sweepIntervalMs, () => this.sweep());
    void this.sweep();
  }

  /** Called after a commit: mark the directory due and, in real time, start on it here at once. */
  notify(directoryId: string): void {
    void this.o.store
      .markDue(directoryId, Date.now())
      .then(() => (this.o.realtime && !this.stopped ? this.drain(directoryId) : undefined))
      .catch((err) => this.o.logger.error({ err, directoryId }, 'delivery wake-up failed'));
  }

  /** One pass over every due directory (batch mode's cron, or a manual run); resolves when they are drained. */
  async processDue(): Promise<PassStats> {
    const before = { ...this.stats };
    const seen = new Set<string>();
    for (;;) {
      const due = (await this.o.store.dueDirectories(Date.now(), this.o.concurrency * 4)).filter((id) => !seen.has(id));
      if (due.length === 0) break;
      for (const id of due) seen.add(id);
      await mapLimit(due, this.o.concurrency, (id) => this.drain(id));
    }
    return {
      directories: seen.size,
      delivered: this.stats.delivered - before.delivered,
      failed: this.stats.failed - before.failed,
    };
  }

  /**
   * Finishes committed big membership changes a writer left half-applied, then re-marks directories whose log is
   * ahead of their cursor (without moving a scheduled retry earlier).
   */
  async sweep(): Promise<void> {
    try {
      for (const id of await this.o.store.listDirectoryIds()) {
        await this.o.store.finishPendingWrites(id);
        const [last, state] = await Promise.all([this.o.store.lastEventSeq(id), this.o.store.deliveryState(id)]);
        if (last === null || last === state.cursor) continue;
        // A retrying directory is due at its retry time (a crash mid-retry must not strand it).
        await this.o.store.markDue(id, state.attempts === 0 ? Date.now() : (state.retryAt ?? Date.now()));
      }
    } catch (err) {
      this.o.logger.error({ err }, 'delivery sweep failed');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await Promise.allSettled([...this.inFlight.values()]);
  }

  private every(ms: number, fn: () => unknown): void {
    const t = setInterval(fn, ms);
    t.unref();
    this.timers.push(t);
  }

  private async pump(): Promise<void> {
    if (this.pumping || this.stopped || Date.now() < this.pollBackoff.resumeAt) return;
    this.pumping = true;
    try {
      const free = this.o.concurrency - this.inFlight.size;
      if (free <= 0) return;
      const due = await this.o.store.dueDirectories(Date.now(), free);
      if (this.pollBackoff.failures > 0) this.o.logger.info({ failures: this.pollBackoff.failures }, 'delivery poll works again');
      this.pollBackoff = { failures: 0, resumeAt: 0 };
      for (const id of due) void this.drain(id);
    } catch (err) {
      // A store outage must not flood the log at the poll rate: back off (up to 5 s), log the first failure
      // and then every tenth.
      const failures = this.pollBackoff.failures + 1;
      this.pollBackoff = { failures, resumeAt: Date.now() + Math.min(this.o.pollIntervalMs * 2 ** failures, MAX_POLL_BACKOFF_MS) };
      if (failures % 10 === 1) this.o.logger.error({ err, failures }, 'delivery poll failed; backing off');
    } finally {
      this.pumping = false;
    }
  }

  /** Delivers everything pending for one directory while holding its lease. Re-runs if notified meanwhile. */
  private drain(directoryId: string): Promise<void> {
    const running = this.inFlight.get(directoryId);
    if (running) {
      this.again.add(directoryId);
      return running;
    }
    const run = (async () => {
      try {
        do {
          this.again.delete(directoryId);
          if (!(await this.o.store.acquireLease(directoryId, this.owner, this.o.leaseMs))) return;
          // Heartbeat: a slow POST must not outlive the lease. A lease found lost stops the drain (another
          // replica may own the directory now); it is never taken back.
          const lease = { held: true };
          const beat = setInterval(() => {
            this.o.store.renewLease(directoryId, this.owner, this.o.leaseMs).then(
              (held) => void (lease.held &&= held),
              () => undefined,
            );
          }, this.o.leaseMs / 3);
          try {
            await this.o.store.clearDue(directoryId);
            await this.deliverPending(directoryId, lease);
          } finally {
            clearInterval(beat);
            await this.o.store.releaseLease(directoryId, this.owner);
          }
        } while (this.again.has(directoryId) && !this.stopped);
      } catch (err) {
        this.o.logger.error({ err, directoryId }, 'delivery failed unexpectedly');
        await this.o.store.markDue(directoryId, Date.now() + 5_000).catch(() => undefined);
      } finally {
        this.inFlight.delete(directoryId);
      }
    })();
    this.inFlight.set(directoryId, run);
    return run;
  }

  /**
   * Re-delivers a directory's events from `since` on (those still in the log), in order. Only a request is
   * recorded here; the deliverer applies it under its own lease, and never moves the cursor forward (events
   * not yet delivered are never skipped).
   */
  async replay(directoryId: string, since: number): Promise<void> {
    await this.o.store.requestReplay(directoryId, since);
    this.notify(directoryId);
  }

  /** Sends a dead-lettered delivery again now (same webhook-id); on success it leaves the dead-letter list. */
  async redeliver(directoryId: string, letterId: string): Promise<{ delivered: boolean; status?: number; error?: string }> {
    const { store, sink } = this.o;
    const [directory, letters] = await Promise.all([store.getDirectory(directoryId), store.listDeadLetters(directoryId)]);
    const letter = letters.find((l) => l.id === letterId);
    if (!directory || !letter) throw new DeadLetterNotFound(letterId);
    const events = letter.events.map((json, i) => ({ seq: String(i), json }));
    const result = await sink.deliver({ directory, events, batch: letter.batch });
    const delivered = result.status !== undefined && result.status >= 200 && result.status < 300;
    await this.record(directory, result, delivered ? 'delivered' : 'dead', letter.attempts + 1, letter.events.map(eventIdOf));
    if (delivered) await store.removeDeadLetter(directoryId, letterId);
    return { delivered, ...(result.status !== undefined && { status: result.status }), ...(result.error && { error: result.error }) };
  }

  /** Appends a delivery log record when the directory asks for them. */
  private async record(directory: Directory, result: SinkResult, outcome: Verdict['kind'], attempt: number, eventIds: string[]) {
    if (!directory.log_webhook_events || result.skipped) return;
    const now = Date.now();
    await this.o.store.appendDeliveryLog(
      directory.id,
      {
        directory_id: directory.id,
        webhook_id: result.id,
        event_ids: eventIds,
        endpoint: redactCredentials(directory.webhook.endpoint),
        status_code: result.status ?? null,
        error: result.error ?? null,
        latency_ms: Math.round(result.latencyMs * 10) / 10,
        attempt,
        outcome: outcome === 'disable' ? 'disabled' : outcome,
        delivered: outcome === 'delivered',
        created_at: new Date(now).toISOString(),
      },
      now - this.o.logRetentionMs,
    );
  }

  /**
   * Applies a pending replay request: the cursor moves back to before `since`, never forward. A replay also
   * means "the receiver works now": a delivery waiting for its retry time is tried at once (same webhook-id).
   */
  private async applyReplay(directoryId: string, state: DeliveryState): Promise<DeliveryState> {
    const since = await this.o.store.takeReplayRequest(directoryId);
    if (since === null) return state;
    this.o.logger.info({ directoryId, since: new Date(since).toISOString() }, 'replaying events');
    const from = await this.o.store.seqBefore(directoryId, since);
    if (state.cursor === null || (from !== null && this.o.store.compareSeq(from, state.cursor) >= 0)) {
      const { retryAt: _wait, ...now } = state;
      return now;
    }
    return { cursor: from, attempts: 0, pinned: null };
  }

  private async deliverPending(directoryId: string, lease: { held: boolean }): Promise<void> {
    const { store, sink, policy } = this.o;
    const directory = await store.getDirectory(directoryId);
    // A 410 disabled the webhook: keep the events (cursor unmoved) until the webhook is set again.
    if (!directory || directory.webhook_disabled_at) return;
    const batch = this.o.batchSize !== undefined;
    const size = this.o.batchSize ?? 1;
    const loaded = await store.deliveryState(directoryId);
    let state: DeliveryState = await this.applyReplay(directoryId, loaded);
    if (state.attempts > 0 && state.retryAt !== undefined && state.retryAt > Date.now()) {
      await store.markDue(directoryId, state.retryAt);
      return;
    }
    let buffer: LoggedEvent[] = [];
    // The cursor is saved every SAVE_EVERY deliveries or SAVE_MS, not after each one: a crash re-sends at most
    // that many events (same webhook-ids: at-least-once), and the steady state costs one POST per delivery.
    let unsaved = state === loaded ? 0 : 1;
    let savedAt = Date.now();
    const save = async (next: DeliveryState): Promise<boolean> => {
      unsaved = 0;
      savedAt = Date.now();
      return store.saveDeliveryState(directoryId, this.owner, next, this.o.leaseMs);
    };
    let replayCheckedAt = Date.now();
    let turns = 0;
    this.stats.directories++;
    try {
      while (!this.stopped && lease.held) {
        // A replay asked for while this drain runs is picked up here, not after the backlog is gone.
        if (Date.now() - replayCheckedAt >= SAVE_MS) {
          replayCheckedAt = Date.now();
          const replayed = await this.applyReplay(directoryId, state);
          if (replayed !== state) {
            state = replayed;
            buffer = [];
            unsaved++;
          }
        }
        // A sink that answers without I/O (no webhook, an embedded callback) over a memory store would drain a
        // 200,000-event backlog in one block: give the event loop a turn now and then.
        if (++turns % YIELD_EVERY === 0) await yieldToLoop();
        if (buffer.length < size) {
          const from = buffer.at(-1)?.seq ?? state.cursor;
          buffer = buffer.concat(await store.readEvents(directoryId, from, Math.max(READ_CHUNK, size)));
        }
        const events = pinnedSlice(buffer, state.pinned, size);
        if (events.length === 0) break;
        const last = events.at(-1)!.seq;
        if (batch && events.length < size && state.pinned !== last) {
          state = { ...state, pinned: last };
          if (!(await save(state))) return;
        }
        const result = await sink.deliver({ directory, events, batch });
        const attempt = state.attempts + 1;
        const verdict = policy.judge(result, attempt);
        this.o.logger.debug(
          { directoryId, webhookId: result.id, events: events.length, status: result.status, errorCode: errorCode(result.error), attempt, verdict: verdict.kind },
          'delivery attempt',
        );
        this.o.onAttempt?.({ directoryId, result, verdict: verdict.kind, eventIds: events.map((e) => e.seq), attempt, at: Date.now() });
        if (directory.log_webhook_events) {
          await this.record(directory, result, verdict.kind, attempt, events.map((e) => eventIdOf(e.json)));
        }
        if (verdict.kind === 'retry') {
          this.stats.failed++;
          const retryAt = Date.now() + verdict.delayMs;
          // One line per failed attempt, for the operator of the service: never the URL (it may carry
          // credentials) nor the secret; the error's code only (its message can quote the URL).
          this.o.logger.warn(
            { directoryId, webhookId: result.id, status: result.status, errorCode: errorCode(result.error), attempt, nextRetryAt: new Date(retryAt).toISOString() },
            'webhook delivery failed; retrying',
          );
          await store.markDue(directoryId, retryAt);
          state = { ...state, attempts: attempt, pinned: last, retryAt };
          await save(state);
          return;
        }
        if (verdict.kind === 'disable') {
          this.stats.failed++;
          this.o.logger.warn({ directoryId, webhookId: result.id }, 'receiver answered 410 Gone: webhook disabled until it is set again');
          await store.disableWebhook(directoryId, directory.webhook.endpoint, new Date().toISOString());
          state = { ...state, attempts: 0, pinned: null };
          await save(state);
          return;
        }
        if (verdict.kind === 'delivered') this.stats.delivered += events.length;
        else {
          this.stats.failed++;
          this.o.logger.warn(
            { directoryId, webhookId: result.id, status: result.status, errorCode: errorCode(result.error), attempts: attempt },
            'webhook delivery dead-lettered after the last retry',
          );
          await store.addDeadLetter(directoryId, {
            directory_id: directoryId,
            webhook_id: result.id,
            events: events.map((e) => e.json),
            batch,
            status_code: result.status ?? null,
            error: result.error ?? null,
            attempts: attempt,
            created_at: new Date().toISOString(),
          });
        }
        state = { cursor: last, attempts: 0, pinned: null };
        buffer = buffer.slice(events.length);
        if (++unsaved >= SAVE_EVERY || Date.now() - savedAt >= SAVE_MS) {
          if (!(await save(state))) return;
        }
      }
    } finally {
      if (unsaved > 0) await save(state);
    }
    if (state.cursor) await store.trimEvents(directoryId, state.cursor, Date.now() - this.o.retentionMs);
  }
}

/** The code of a sender error (`ECONNREFUSED: connect ...` → `ECONNREFUSED`); `error` when it has none. */
export function errorCode(error: string | undefined): string | undefined {
  if (error === undefined) return undefined;
  return /^([A-Z][A-Z0-9_]+):/.exec(error)?.[1] ?? 'error';
}

/** Runs `fn` over `items` with at most `limit` at once. */
export async function mapLimit<T>(items: T[], limit: number, fn: (item: T, index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
