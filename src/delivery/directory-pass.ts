/**
 * One delivery pass over one directory, run by the engine while it holds the directory's lease: pick up a
 * replay request, read the next events, send them, and act on the retry policy's verdict (advance, retry later,
 * dead-letter, or disable on 410), saving the cursor as it goes.
 */
import { yieldToLoop } from '../core/chunks.js';
import type { Directory } from '../core/model.js';
import type { DeliveryState, LoggedEvent } from '../core/store-port.js';
import {
  CONTINUE_MS,
  SAVE_EVERY,
  SAVE_MS,
  applyReplay,
  deadLetter,
  disableWebhook,
  logRetry,
  observeAttempt,
  type PassContext,
} from './pass-context.js';
import { ResourcePass } from './resource-pass.js';
import type { SinkResult } from './sinks.js';

export type { AttemptRecord, PassContext, PassStats } from './pass-context.js';

const READ_CHUNK = 100;
const YIELD_EVERY = 200;

/** `continue` the loop; `drained` the log (trim it); `halt` (a retry is scheduled, or the lease is lost). */
type Step = 'continue' | 'drained' | 'halt';

function pinnedSlice(events: LoggedEvent[], pinned: string | null, size: number): LoggedEvent[] {
  if (pinned) {
    const end = events.findIndex((e) => e.seq === pinned);
    if (end >= 0) return events.slice(0, end + 1);
  }
  return events.slice(0, size);
}

/** Delivers what is pending for one directory while `lease.held`; a disabled webhook keeps its events. */
export async function deliverPending(c: PassContext, directoryId: string, lease: { held: boolean }): Promise<void> {
  const directory = await c.store.getDirectory(directoryId);
  // A 410 disabled the webhook: keep the events (cursor unmoved) until the webhook is set again.
  if (!directory || directory.webhook_disabled_at) return;
  const loaded = await c.store.deliveryState(directoryId);
  const state = await applyReplay(c, directoryId, loaded);
  const resource = c.ordering === 'resource';
  // A pinned batch waits for its retry time (`directory`); a pause the receiver asked for holds the directory.
  if ((resource || state.attempts > 0) && state.retryAt !== undefined && state.retryAt > Date.now()) {
    await c.store.markDue(directoryId, state.retryAt);
    return;
  }
  if (resource) return new ResourcePass(c, directory, state).run(lease);
  // Switched from `resource`: its runs and failures are dropped (events after the cursor are sent again).
  const { done: _done, failing: _failing, ...plain } = state;
  await new DirectoryPass(c, directory, plain, state !== loaded).run(lease);
}

class DirectoryPass {
  private readonly batch: boolean;
  private readonly size: number;
  private buffer: LoggedEvent[] = [];
  // The cursor is saved every SAVE_EVERY deliveries or SAVE_MS, not after each one: a crash re-sends at most
  // that many events (same webhook-ids: at-least-once), and the steady state costs one POST per delivery.
  private unsaved: number;
  private savedAt = Date.now();
  /** A save found the lease gone: the run ends and the engine reports it (a cron pass fails). */
  private leaseLost = false;
  private replayCheckedAt = Date.now();
  private turns = 0;

  constructor(
    private readonly c: PassContext,
    private readonly directory: Directory,
    private state: DeliveryState,
    replayed: boolean,
  ) {
    this.batch = c.batchSize !== undefined;
    this.size = c.batchSize ?? 1;
    this.unsaved = replayed ? 1 : 0;
  }

  async run(lease: { held: boolean }): Promise<void> {
    this.c.stats.directories++;
    const started = Date.now();
    let step: Step = 'continue';
    try {
      for (;;) {
        while (step === 'continue' && !this.c.stopped() && lease.held) step = await this.step();
        if (step !== 'drained' || this.c.stopped() || !lease.held || Date.now() - started >= CONTINUE_MS) break;
        if (!this.c.notified(this.directory.id)) break;
        step = 'continue';
      }
    } finally {
      if (this.unsaved > 0) await this.save();
      if (this.leaseLost) lease.held = false;
    }
    if (step !== 'halt' && this.state.cursor) {
      await this.c.store.trimEvents(this.directory.id, this.state.cursor, Date.now() - this.c.retentionMs);
    }
  }

  private async step(): Promise<Step> {
    await this.pickUpReplay();
    // A sink that answers without I/O (no webhook, an embedded callback) over a memory store would drain a
    // 200,000-event backlog in one block: give the event loop a turn now and then.
    if (++this.turns % YIELD_EVERY === 0) await yieldToLoop();
    const events = await this.nextEvents();
    if (events.length === 0) return 'drained';
    const last = events.at(-1)!.seq;
    // A short batch is pinned before it is sent, so its retries resend exactly these events.
    if (this.batch && events.length < this.size && this.state.pinned !== last) {
      this.state = { ...this.state, pinned: last };
      if (!(await this.save())) return 'halt';
    }
    const attempt = this.state.attempts + 1;
    const result = await this.c.sink.deliver({ directory: this.directory, events, batch: this.batch });
    const verdict = this.c.policy.judge(result, attempt);
    await observeAttempt(this.c, this.directory, events, result, verdict, attempt);
    if (verdict.kind === 'retry') return this.retryLater(result, attempt, last, verdict.delayMs);
    if (verdict.kind === 'disable') return this.disableWebhook(result);
    if (verdict.kind === 'delivered') this.c.stats.delivered += events.length;
    else await deadLetter(this.c, this.directory, events, result, attempt);
    return this.advance(last, events.length);
  }

  /** A replay asked for while this pass runs is picked up here, not after the backlog is gone. */
  private async pickUpReplay(): Promise<void> {
    if (Date.now() - this.replayCheckedAt < SAVE_MS) return;
    this.replayCheckedAt = Date.now();
    const replayed = await applyReplay(this.c, this.directory.id, this.state);
    if (replayed === this.state) return;
    this.state = replayed;
    this.buffer = [];
    this.unsaved++;
  }

  private async nextEvents(): Promise<LoggedEvent[]> {
    if (this.buffer.length < this.size) {
      const from = this.buffer.at(-1)?.seq ?? this.state.cursor;
      this.buffer = this.buffer.concat(
        await this.c.store.readEvents(this.directory.id, from, Math.max(READ_CHUNK, this.size)),
      );
    }
    return pinnedSlice(this.buffer, this.state.pinned, this.size);
  }

  private async retryLater(result: SinkResult, attempt: number, last: string, delayMs: number): Promise<Step> {
    const retryAt = Date.now() + delayMs;
    logRetry(this.c, this.directory, result, attempt, retryAt);
    await this.c.store.markDue(this.directory.id, retryAt);
    this.state = { ...this.state, attempts: attempt, pinned: last, retryAt };
    await this.save();
    return 'halt';
  }

  private async disableWebhook(result: SinkResult): Promise<Step> {
    await disableWebhook(this.c, this.directory, result);
    this.state = { ...this.state, attempts: 0, pinned: null };
    await this.save();
    return 'halt';
  }

  /** Moves the cursor past what was just delivered or dead-lettered; saved now and then (see `unsaved`). */
  private async advance(last: string, count: number): Promise<Step> {
    this.state = { cursor: last, attempts: 0, pinned: null };
    this.buffer = this.buffer.slice(count);
    if (++this.unsaved >= SAVE_EVERY || Date.now() - this.savedAt >= SAVE_MS) {
      if (!(await this.save())) return 'halt';
    }
    return 'continue';
  }

  /** False when the lease was lost: another replica may own the directory now (the run reports it). */
  private async save(): Promise<boolean> {
    this.unsaved = 0;
    this.savedAt = Date.now();
    const saved = await this.c.store.saveDeliveryState(this.directory.id, this.c.owner, this.state, this.c.leaseMs);
    if (!saved) this.leaseLost = true;
    return saved;
  }
}
