/**
 * The delivery engine. Each directory's event log is its outbox: events are committed with the write that
 * caused them, and delivered from here, off the request path, at least once, in order per user and group
 * (`resource` ordering, many POSTs in flight per directory: resource-pass.ts) or per directory (`directory`).
 *
 * - A lease (atomic, expiring) makes one deliverer per directory across all replicas; a failing directory
 *   only holds its own lease, so it never delays another directory.
 * - The cursor moves only after the receiver's 2xx. A failed delivery keeps its events, so its retries resend
 *   them under the same `webhook-id`, on the retry policy's schedule; after the last retry it is dead-lettered.
 * - A global "due" set wakes deliverers; a periodic sweep re-marks directories whose log is ahead of their
 *   cursor, which repairs a wake-up lost to a crash between commit and mark.
 */
import { randomUUID } from 'node:crypto';
import { mapLimit } from '../core/chunks.js';
import type { Store } from '../core/store-port.js';
import type { Logger } from '../logger.js';
import { recordAttempt } from './attempt-log.js';
import { deliverPending, type AttemptRecord, type PassContext, type PassStats } from './directory-pass.js';
import { PostSlots } from './pass-context.js';
import { DeadLetterNotFound, DeliveryLeaseLostError } from './errors.js';
import { resolveEngineTuning, type EngineTuning, type ResolvedEngineTuning } from './options.js';
import type { RetryPolicy } from './retry-policy.js';
import { eventIdOf, type Sink } from './sinks.js';

export type { AttemptRecord, PassStats } from './directory-pass.js';

export interface EngineOptions extends EngineTuning {
  store: Store;
  sink: Sink;
  policy: RetryPolicy;
  logger: Logger;
  /** Set = batch mode: up to N events per POST, as a JSON array; unset = real time, one event per POST. */
  batchSize?: number;
  /** Real time: deliver as soon as events are committed. Batch mode: only when `processDue` runs. */
  realtime: boolean;
  /** Observes every attempt (delivery logs, metrics). */
  onAttempt?: (attempt: AttemptRecord) => void;
}

const MAX_POLL_BACKOFF_MS = 5_000;

export class DeliveryEngine {
  readonly owner = `dsync-${randomUUID()}`;
  private readonly o: Pick<EngineOptions, 'store' | 'sink' | 'policy' | 'logger' | 'realtime'> & ResolvedEngineTuning;
  /** Each directory's drain; it resolves with the error that cut it short, if any (the store failed). */
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly again = new Set<string>();
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private pumping = false;
  private sweeping: Promise<void> | undefined;
  private pollBackoff = { failures: 0, resumeAt: 0 };
  private readonly stats: PassStats = { directories: 0, delivered: 0, failed: 0 };
  private readonly pass: PassContext;

  constructor(options: EngineOptions) {
    const { store, sink, policy, logger, batchSize, realtime, onAttempt, ...tuning } = options;
    this.o = { store, sink, policy, logger, realtime, ...resolveEngineTuning(tuning) };
    this.pass = {
      ...this.o,
      batchSize,
      onAttempt,
      owner: this.owner,
      stats: this.stats,
      slots: new PostSlots(Math.max(this.o.postsPerProcess, this.o.postsPerDirectory)),
      stopped: () => this.stopped,
      notified: (directoryId) => this.again.delete(directoryId),
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
    // Delivering it here already: the drain goes round again and reads this commit's events (a due mark would
    // only be cleared by it). Under load that is nearly every commit, so this saves a round trip per write.
    if (this.o.realtime && !this.stopped && this.inFlight.has(directoryId)) {
      this.again.add(directoryId);
      return;
    }
    void this.o.store
      .markDue(directoryId, Date.now())
      .then(() => (this.o.realtime && !this.stopped ? this.drain(directoryId) : undefined))
      .catch((err) => this.o.logger.error({ err, directoryId }, 'delivery wake-up failed'));
  }

  /**
   * One pass over every due directory (batch mode's cron, or a manual run); resolves when they are drained. A
   * drain cut short by the store (Redis gone mid-run) rejects the pass with that error once the batch in flight
   * settles: the run could not do its work, even if the store is back by then (empty, or with the same work due).
   */
  async processDue(): Promise<PassStats> {
    // A drain clears the due mark as it starts, so a process killed mid-drain leaves its directory unmarked until
    // a sweep: the pass sweeps first (or joins the start-up sweep), or it would skip that directory's events.
    await this.sweep();
    const before = { ...this.stats };
    const seen = new Set<string>();
    for (;;) {
      const due = (await this.o.store.dueDirectories(Date.now(), this.o.concurrency * 4)).filter((id) => !seen.has(id));
      if (due.length === 0) break;
      for (const id of due) seen.add(id);
      const failures: unknown[] = [];
      await mapLimit(due, this.o.concurrency, async (id) => {
        const failure = await this.drain(id);
        if (failure !== undefined) failures.push(failure);
      });
      if (failures.length > 0) throw failures[0];
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
  sweep(): Promise<void> {
    // One at a time: a pass that starts while the start-up sweep runs waits for it rather than doubling it.
    this.sweeping ??= this.sweepAll().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepAll(): Promise<void> {
    try {
      await mapLimit(await this.o.store.listDirectoryIds(), this.o.concurrency, async (id) => {
        await this.o.store.finishPendingWrites(id);
        const [last, state] = await Promise.all([this.o.store.lastEventSeq(id), this.o.store.deliveryState(id)]);
        if (last === null || last === state.cursor) return;
        // A retrying directory is due at its retry time (a crash mid-retry must not strand it).
        await this.o.store.markDue(id, state.attempts === 0 ? Date.now() : (state.retryAt ?? Date.now()));
      });
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
      if (this.pollBackoff.failures > 0)
        this.o.logger.info({ failures: this.pollBackoff.failures }, 'delivery poll works again');
      this.pollBackoff = { failures: 0, resumeAt: 0 };
      for (const id of due) void this.drain(id);
    } catch (err) {
      // A store outage must not flood the log at the poll rate: back off (up to 5 s), log the first failure
      // and then every tenth.
      const failures = this.pollBackoff.failures + 1;
      this.pollBackoff = {
        failures,
        resumeAt: Date.now() + Math.min(this.o.pollIntervalMs * 2 ** failures, MAX_POLL_BACKOFF_MS),
      };
      if (failures % 10 === 1) this.o.logger.error({ err, failures }, 'delivery poll failed; backing off');
    } finally {
      this.pumping = false;
    }
  }

  /**
   * Delivers everything pending for one directory while holding its lease. Re-runs if notified meanwhile.
   * Never rejects: resolves with the error that cut it short (logged, and the directory marked due again), or a
   * DeliveryLeaseLostError when its lease was gone mid-run.
   */
  private drain(directoryId: string): Promise<unknown> {
    const running = this.inFlight.get(directoryId);
    if (running) {
      this.again.add(directoryId);
      return running;
    }
    const run = (async () => {
      try {
        do {
          const notified = this.again.delete(directoryId);
          if (!(await this.o.store.acquireLease(directoryId, this.owner, this.o.leaseMs))) {
            // Another replica holds the lease and may have read the log before a commit notified here without
            // a due mark (above): mark it now, as that commit would have.
            if (notified) await this.o.store.markDue(directoryId, Date.now());
            return;
          }
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
            await deliverPending(this.pass, directoryId, lease);
          } finally {
            clearInterval(beat);
            await this.o.store.releaseLease(directoryId, this.owner);
          }
          if (!lease.held) {
            this.o.logger.warn(
              { directoryId },
              'delivery lease lost during the run; its events are delivered again from the saved cursor',
            );
            return new DeliveryLeaseLostError(directoryId);
          }
        } while (this.again.has(directoryId) && !this.stopped);
      } catch (err) {
        this.o.logger.error({ err, directoryId }, 'delivery failed unexpectedly');
        await this.o.store.markDue(directoryId, Date.now() + 5_000).catch(() => undefined);
        return err;
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
  async redeliver(
    directoryId: string,
    letterId: string,
  ): Promise<{ delivered: boolean; status?: number; error?: string }> {
    const { store, sink } = this.o;
    const [directory, letters] = await Promise.all([
      store.getDirectory(directoryId),
      store.listDeadLetters(directoryId),
    ]);
    const letter = letters.find((l) => l.id === letterId);
    if (!directory || !letter) throw new DeadLetterNotFound(letterId);
    const events = letter.events.map((json, i) => ({ seq: String(i), json }));
    const result = await sink.deliver({ directory, events, batch: letter.batch });
    const delivered = result.status !== undefined && result.status >= 200 && result.status < 300;
    const eventIds = letter.events.map(eventIdOf);
    await recordAttempt(store, this.o.logRetentionMs, {
      directory,
      result,
      outcome: delivered ? 'delivered' : 'dead',
      attempt: letter.attempts + 1,
      eventIds,
    });
    if (delivered) await store.removeDeadLetter(directoryId, letterId);
    return {
      delivered,
      ...(result.status !== undefined && { status: result.status }),
      ...(result.error && { error: result.error }),
    };
  }
}
