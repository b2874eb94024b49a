/**
 * One `resource`-ordered delivery pass over one directory, run by the engine while it holds the directory's
 * lease: it reads the log ahead of the first event not done, sends every event no earlier undone event blocks
 * (see resource-queue.ts), up to `postsPerDirectory` POSTs at once, and acts on each verdict for that delivery
 * alone. A receiver's pause (429/503 with Retry-After) and a 410 stop the whole directory, as in `directory`
 * order. What is done is saved as it is acknowledged (state-saver.ts), so a crash re-sends only deliveries not yet
 * acknowledged or not yet saved.
 */
import { yieldToLoop } from '../core/chunks.js';
import type { Directory } from '../core/model.js';
import type { DeliveryState, FailingDelivery, LoggedEvent } from '../core/store-port.js';
import { LoopWait } from './loop-wait.js';
import {
  CONTINUE_MS,
  SAVE_MS,
  deadLetter,
  disableWebhook,
  logRetry,
  observeAttempt,
  replayFrom,
  type PassContext,
} from './pass-context.js';
import { ResourceQueue, type Unit } from './resource-queue.js';
import { StateSaver } from './state-saver.js';

const READ_CHUNK = 100;
/**
 * Events read and not yet done, at most: bounds a pass's memory, and how far past events held back by a
 * failing delivery it goes on (beyond that, the directory waits for the retry).
 */
export const READ_AHEAD = 4_096;
const YIELD_EVERY = 200;

export class ResourcePass {
  private queue!: ResourceQueue;
  private readFrom: string | null = null;
  /** Saved runs of done events, skipped as the reader reaches them. */
  private runs: Array<[string, string]> = [];
  private runIndex = 0;
  /** Saved failed deliveries, by the seqs of their events, and those whose events were not read yet. */
  private failingBySeq = new Map<string, Unit>();
  private unreadFailing: Array<{ unit: Unit; saved: FailingDelivery }> = [];
  private atEnd = false;
  private inFlight = 0;
  /** Slots the process's budget handed this pass while it waited: the next dispatch uses or returns them. */
  private handed = 0;
  /** Leaves the line for the process's next free POST, while this pass is in it. */
  private leaveLine: (() => void) | undefined;
  private pausedUntil = 0;
  /** A 410 disabled the webhook: the pass stops, failed deliveries start over when it is set again. */
  private disabled = false;
  private leaseLost = false;
  /** The lease `run` holds the directory under (the engine clears `held` when it is lost). */
  private lease = { held: true };
  private failure: unknown;
  private readonly wait = new LoopWait(SAVE_MS);
  private readonly saver = new StateSaver(
    () => this.saveState(),
    (err) => (this.failure ??= err),
  );
  private replayCheckedAt = Date.now();
  private turns = 0;
  private readonly batch: boolean;
  private readonly size: number;
  /** Failed deliveries due by then are retried by this pass (a batch-mode run: those due at its start). */
  private readonly retriesUntil: number;

  constructor(
    private readonly c: PassContext,
    private readonly directory: Directory,
    state: DeliveryState,
  ) {
    this.batch = c.batchSize !== undefined;
    this.size = c.batchSize ?? 1;
    this.retriesUntil = c.realtime ? Infinity : Date.now();
    this.load(state);
  }

  async run(lease: { held: boolean }): Promise<void> {
    this.lease = lease;
    this.c.stats.directories++;
    const started = Date.now();
    // Wakes the loop at least every SAVE_MS (replay requests, the lease, a stop) without a timer per wait for a
    // POST's answer, which would be set and cleared once per event against a fast receiver.
    const tick = setInterval(() => this.wait.wake(), SAVE_MS);
    try {
      while (this.running()) {
        if (++this.turns % YIELD_EVERY === 0) await yieldToLoop();
        if (Date.now() - this.replayCheckedAt >= SAVE_MS) await this.pickUpReplay();
        if (this.atEnd && Date.now() - started < CONTINUE_MS && this.c.notified(this.directory.id)) this.atEnd = false;
        if (this.wantsEvents()) await this.readChunk();
        this.dispatch();
        if (this.c.slots.free === 0 && this.wantsPost()) this.joinLine();
        if (this.inFlight > 0) {
          // An answer wakes the loop; so does a retry's time coming while a POST could go.
          await this.wait.park(
            this.inFlight >= this.c.postsPerDirectory || !this.c.realtime ? Infinity : this.untilNextRetry(Infinity),
          );
          continue;
        }
        if (this.wantsEvents()) continue;
        if (this.leaveLine) {
          // The process's POSTs are all taken by other directories: wait in line for one (and then read for it).
          await this.wait.park(Infinity);
          continue;
        }
        // Nothing in flight and nothing to send: a retry due soon, or the end of this pass.
        const retryIn = this.untilNextRetry(Infinity);
        if (!this.c.realtime || retryIn > CONTINUE_MS || Date.now() - started >= CONTINUE_MS) break;
        await this.wait.idle(retryIn);
      }
    } finally {
      this.leaveLine?.();
      this.leaveLine = undefined;
      this.returnHanded();
      while (this.inFlight > 0) await this.wait.idle(Infinity);
      clearInterval(tick);
      await this.saver.flush();
      if (this.leaseLost) lease.held = false;
    }
    if (this.failure !== undefined) throw this.failure;
    await this.finish();
  }

  /** Events are left to read within the read-ahead bound. */
  private canRead(): boolean {
    return !this.atEnd && this.queue.open < READ_AHEAD;
  }

  /**
   * Reads on while fewer events may go than the POSTs it could send now would carry. With none free in the process
   * it reads nothing and waits for one: events read while all are taken would wait in memory (a hundred busy
   * directories sharing 64 POSTs held 23,000 at once, and the garbage collector copied them over and over).
   */
  private wantsEvents(): boolean {
    const posts = Math.min(this.c.postsPerDirectory - this.inFlight, this.c.slots.free + this.handed);
    return this.canRead() && this.queue.readyCount < posts * this.size;
  }

  /** Would send another POST now, or read events for one, if the process had one free. */
  private wantsPost(): boolean {
    const now = Date.now();
    if (this.inFlight + this.handed >= this.c.postsPerDirectory || this.pausedUntil > now) return false;
    if (this.queue.readyCount > 0 || this.canRead()) return true;
    const retry = this.queue.nextRetryAt();
    return retry !== undefined && retry <= Math.min(now, this.retriesUntil);
  }

  /**
   * In line, the next POST an answer frees in the process comes to this pass in its turn. A parked pass with a
   * delivery ready sends it at once; else the slot wakes the loop, which reads for it.
   */
  private joinLine(): void {
    this.leaveLine ??= this.c.slots.join(() => {
      this.leaveLine = undefined;
      this.handed++;
      if (this.mayDispatchNow()) this.dispatchHanded();
      else this.wait.wake();
    });
  }

  /**
   * The loop is parked and a whole delivery may go: sending it from the hand-over spares a turn of the loop per
   * POST, which with many busy directories sharing the process's POSTs was most of a pass's own cost.
   */
  private mayDispatchNow(): boolean {
    return this.wait.parked && this.queue.readyCount >= this.size && this.running();
  }

  /** The pass goes on: not stopped, the lease held, the webhook enabled, no store failure. */
  private running(): boolean {
    return !this.c.stopped() && this.lease.held && !this.disabled && !this.leaseLost && this.failure === undefined;
  }

  /** What a turn of the loop would do with a handed slot and enough ready, without the turn. */
  private dispatchHanded(): void {
    this.dispatch();
    if (this.c.slots.free === 0 && this.wantsPost()) this.joinLine();
    // Nothing went (a pause): the loop decides what comes next.
    if (this.inFlight === 0) this.wait.wake();
  }

  private load(state: DeliveryState): void {
    this.queue = new ResourceQueue(state.cursor);
    this.readFrom = state.cursor;
    // What lies at or before the cursor is done: a `directory`-ordered pass (an older replica while a release
    // rolls) may have moved it past saved runs and failures it does not know.
    const after = (seq: string) => state.cursor === null || this.c.store.compareSeq(seq, state.cursor) > 0;
    this.runs = (state.done ?? []).filter(([, last]) => after(last));
    this.runIndex = 0;
    this.failingBySeq = new Map();
    this.unreadFailing = [];
    for (const saved of (state.failing ?? []).filter((f) => f.seqs.some(after))) {
      const unit: Unit = { entries: [], attempts: saved.attempts, retryAt: saved.retryAt };
      for (const seq of saved.seqs) this.failingBySeq.set(seq, unit);
      this.unreadFailing.push({ unit, saved });
    }
    this.pausedUntil = state.retryAt ?? 0;
    this.atEnd = false;
  }

  /** The state to save: the queue's, plus saved runs and failures the reader has not reached. */
  private snapshot(): DeliveryState {
    const failing = this.disabled ? [] : this.queue.failingDeliveries();
    if (!this.disabled) for (const f of this.unreadFailing) if (f.unit.entries.length === 0) failing.push(f.saved);
    return {
      cursor: this.queue.watermark,
      attempts: 0,
      pinned: null,
      ...(this.pausedUntil > Date.now() && { retryAt: this.pausedUntil }),
      done: this.queue.doneRuns().concat(this.runs.slice(this.runIndex)),
      failing,
    };
  }

  /** Reads the next events; those inside a saved run of done events are skipped (the run counts as done). */
  private async readChunk(): Promise<void> {
    const events = await this.c.store.readEvents(this.directory.id, this.readFrom, READ_CHUNK);
    if (events.length === 0) this.atEnd = true;
    const cmp = (a: string, b: string) => this.c.store.compareSeq(a, b);
    let entered = false;
    for (const e of events) {
      let run = this.runs[this.runIndex];
      if (run && entered && cmp(e.seq, run[1]) > 0) {
        entered = false;
        run = this.runs[++this.runIndex];
      }
      while (run && !entered && cmp(run[1], e.seq) < 0) run = this.runs[++this.runIndex];
      this.readFrom = e.seq;
      if (run && cmp(run[0], e.seq) <= 0) {
        if (!entered) this.queue.addDone(run[0], run[1]);
        entered = true;
        continue;
      }
      this.queue.add(e, this.failingBySeq.size > 0 ? this.failingBySeq.get(e.seq) : undefined);
    }
    // A run going on past this chunk: the next read starts after it.
    if (entered) this.readFrom = this.runs[this.runIndex++]![1];
  }

  private dispatch(): void {
    // Batch mode fills a batch while more can be read, keeping a slot handed to it for that batch.
    if (this.batch && this.queue.readyCount < this.size && this.wantsEvents()) return;
    this.sendWhatMayGo();
    this.returnHanded();
  }

  private sendWhatMayGo(): void {
    const now = Date.now();
    if (this.pausedUntil > now) return;
    const limit = this.c.postsPerDirectory;
    while (this.inFlight < limit && this.takeSlot()) {
      const unit = this.queue.dueRetries(Math.min(now, this.retriesUntil), 1)[0] ?? this.queue.take(this.size);
      if (!unit) {
        this.c.slots.release();
        break;
      }
      void this.send(unit);
    }
  }

  private takeSlot(): boolean {
    if (this.handed === 0) return this.c.slots.tryTake();
    this.handed--;
    return true;
  }

  /** A slot handed to this pass and not used goes on to the next waiting pass. */
  private returnHanded(): void {
    for (; this.handed > 0; this.handed--) this.c.slots.release();
  }

  private async send(unit: Unit): Promise<void> {
    this.inFlight++;
    /** Delivered or dead-lettered: nothing new for the loop to time (a retry, a pause, a stop). */
    let settled = false;
    try {
      const events: LoggedEvent[] = unit.entries;
      const attempt = unit.attempts + 1;
      const result = await this.c.sink.deliver({ directory: this.directory, events, batch: this.batch });
      const verdict = this.c.policy.judge(result, attempt);
      await observeAttempt(this.c, this.directory, events, result, verdict, attempt);
      if (verdict.kind === 'delivered') {
        this.c.stats.delivered += events.length;
        this.queue.complete(unit);
        settled = true;
      } else if (verdict.kind === 'dead') {
        await deadLetter(this.c, this.directory, events, result, attempt);
        this.queue.complete(unit);
        settled = true;
      } else if (verdict.kind === 'retry') {
        const now = Date.now();
        unit.attempts = attempt;
        unit.retryAt = now + verdict.delayMs;
        logRetry(this.c, this.directory, result, attempt, unit.retryAt);
        this.queue.fail(unit);
        const pause = this.c.policy.pauseMs(result);
        if (pause !== undefined) this.pausedUntil = Math.max(this.pausedUntil, now + pause);
      } else {
        this.queue.putBack(unit);
        if (!this.disabled) {
          this.disabled = true;
          await disableWebhook(this.c, this.directory, result);
        }
      }
      this.saver.changed();
    } catch (err) {
      // The store failed (an attempt log, a dead letter): the engine logs it and marks the directory due.
      this.queue.putBack(unit);
      this.failure ??= err;
    } finally {
      this.inFlight--;
      this.c.slots.release();
      if (!settled || !this.waitsInLine()) this.wait.wake();
    }
  }

  /**
   * In line for the process's next free POST with none free or handed to it, and POSTs of its own still out: a
   * delivery settling gives the loop nothing to do (the slot it frees goes to the pass first in line), and the
   * hand-over wakes it. Waking it anyway cost a turn of the loop per POST with many busy directories.
   */
  private waitsInLine(): boolean {
    return this.leaveLine !== undefined && this.handed === 0 && this.c.slots.free === 0 && this.inFlight > 0;
  }

  /** A replay asked for while this pass runs: once what is in flight settles, the pass starts over from it. */
  private async pickUpReplay(): Promise<void> {
    this.replayCheckedAt = Date.now();
    // The state is built only when a replay is pending: building it walks the queue, and the check runs every
    // SAVE_MS of every pass (docs/design/performance.md, "A batch pass's replay check").
    const since = await this.c.store.takeReplayRequest(this.directory.id);
    if (since === null) return;
    const replayed = await replayFrom(this.c, this.directory.id, since, this.snapshot());
    while (this.inFlight > 0) await this.wait.idle(Infinity);
    this.load(replayed);
    this.saver.changed();
  }

  /** Ms until the next failed delivery (or the directory's pause) may go; `cap` when none is sooner. */
  private untilNextRetry(cap: number): number {
    const now = Date.now();
    const next = this.queue.nextRetryAt();
    const at = Math.max(next ?? Infinity, this.pausedUntil > now ? this.pausedUntil : -Infinity);
    return Math.max(0, Math.min(cap, at === -Infinity ? cap : at - now));
  }

  /** Saves the state as it is now; false when the lease is gone. */
  private async saveState(): Promise<boolean> {
    const saved = await this.c.store.saveDeliveryState(
      this.directory.id,
      this.c.owner,
      this.snapshot(),
      this.c.leaseMs,
    );
    if (!saved) this.leaseLost = true;
    return saved;
  }

  /** Trims what is delivered, and wakes the directory when its next retry (or the receiver's pause) is due. */
  private async finish(): Promise<void> {
    if (this.disabled || this.leaseLost || this.c.stopped()) return;
    const next = this.queue.nextRetryAt();
    const pause = this.pausedUntil > Date.now() ? this.pausedUntil : undefined;
    const unread = this.unreadFailing.filter((f) => f.unit.entries.length === 0).map((f) => f.saved.retryAt);
    const due = [next, ...unread].filter((t): t is number => t !== undefined);
    const at = pause ?? (due.length > 0 ? Math.min(...due) : undefined);
    if (at !== undefined) await this.c.store.markDue(this.directory.id, at);
    if (this.queue.watermark) {
      await this.c.store.trimEvents(this.directory.id, this.queue.watermark, Date.now() - this.c.retentionMs);
    }
  }
}
