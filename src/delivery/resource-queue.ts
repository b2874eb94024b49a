/**
 * The order of `resource` delivery for one directory, in memory (pure; the pass feeds it and persists what it
 * reports). Each resource (a user or a group) has a FIFO of the events that name it; an event may go when it is
 * at the head of every FIFO it is in, that is, when every earlier event sharing a user or group with it has been
 * delivered or dead-lettered. A failed delivery stays at the head of its FIFOs until it succeeds or is
 * dead-lettered, so it holds back only the events that share a resource with it (and, through them, theirs).
 *
 * It also keeps what must survive a crash: the low watermark (the last event before the first one not done),
 * runs of done events after it, and the failed deliveries with their attempts.
 */
import type { FailingDelivery, LoggedEvent } from '../core/store-port.js';
import { resourcesOf } from './event-resources.js';

type EntryState = 'waiting' | 'ready' | 'flying' | 'failed' | 'done';

export interface Entry extends LoggedEvent {
  /** Read order: 0, 1, 2… within this queue. */
  readonly n: number;
  readonly fifos: Fifo[];
  /** The entry's absolute index in each of its FIFOs. */
  readonly ords: number[];
  state: EntryState;
  unit?: Unit;
}

/** One delivery: an event, or a batch of events (in log order). */
export interface Unit {
  entries: Entry[];
  attempts: number;
  retryAt: number;
}

class Fifo {
  items: Entry[] = [];
  /** Absolute index of items[0]. */
  offset = 0;
  head = 0;

  constructor(readonly key: string) {}

  at(position: number): Entry | undefined {
    return this.items[this.head + position];
  }
  positionOf(entry: Entry, i: number): number {
    return entry.ords[i]! - this.offset - this.head;
  }
  push(entry: Entry): number {
    this.items.push(entry);
    return this.offset + this.items.length - 1;
  }
  pop(): void {
    this.head++;
    // Drop the delivered part now and then: a group's FIFO can see a hundred thousand membership events.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.offset += this.head;
      this.head = 0;
    }
  }
  get empty(): boolean {
    return this.head >= this.items.length;
  }
}

/** A run of the log in read order: one event not yet done, or consecutive done events. */
interface Slot {
  first: string;
  last: string;
  entry?: Entry;
}

export class ResourceQueue {
  private readonly fifos = new Map<string, Fifo>();
  private ready: Entry[] = [];
  private readyHead = 0;
  private slots: Slot[] = [];
  private readonly failed = new Set<Unit>();
  private read = 0;
  /** Events read and not yet done (the read-ahead bound counts these). */
  open = 0;
  /** Events that may go now (the reader reads on while there are too few). */
  readyCount = 0;

  constructor(
    /** The last event before the first one not done. */
    public watermark: string | null,
  ) {}

  /** Adds the next event of the log; `failing` = it belongs to a failed delivery read back from the state. */
  add(event: LoggedEvent, failing?: Unit): void {
    const keys = resourcesOf(event.json);
    const fifos = keys.map((k) => this.fifo(k));
    const entry: Entry = { seq: event.seq, json: event.json, n: this.read++, fifos, ords: [], state: 'waiting' };
    for (const f of fifos) entry.ords.push(f.push(entry));
    this.slots.push({ first: event.seq, last: event.seq, entry });
    this.open++;
    if (failing) {
      entry.state = 'failed';
      entry.unit = failing;
      failing.entries.push(entry);
      this.failed.add(failing);
    } else if (this.isHead(entry)) this.makeReady(entry);
  }

  /** Records events skipped on read because a saved run says they are done. */
  addDone(first: string, last: string): void {
    this.slots.push({ first, last });
  }

  /**
   * The next delivery to send: the oldest ready event, and in batch mode (`max` > 1) more events that may go
   * with it: other ready events, and events whose every earlier event sharing a resource is in the batch
   * (kept in log order in the POST, so a receiver applies them in order).
   */
  take(max: number): Unit | undefined {
    const first = this.nextReady();
    if (!first) return undefined;
    const entries = [first];
    first.state = 'flying';
    if (max > 1) this.extend(entries, max);
    entries.sort((a, b) => a.n - b.n);
    const unit: Unit = { entries, attempts: 0, retryAt: 0 };
    for (const e of entries) e.unit = unit;
    return unit;
  }

  /** Up to `max` failed deliveries whose retry time has come, oldest first. */
  dueRetries(now: number, max: number): Unit[] {
    if (max <= 0 || this.failed.size === 0) return [];
    const due = [...this.failed]
      .filter((u) => u.retryAt <= now)
      .sort((a, b) => a.entries[0]!.n - b.entries[0]!.n)
      .slice(0, max);
    for (const u of due) {
      this.failed.delete(u);
      for (const e of u.entries) e.state = 'flying';
    }
    return due;
  }

  /** When the next failed delivery may be retried; undefined when none waits. */
  nextRetryAt(): number | undefined {
    let next: number | undefined;
    for (const u of this.failed) if (next === undefined || u.retryAt < next) next = u.retryAt;
    return next;
  }

  /** Delivered or dead-lettered: its events leave their FIFOs, which may make the next ones ready. */
  complete(unit: Unit): void {
    const touched: Fifo[] = [];
    for (const e of unit.entries) {
      e.state = 'done';
      e.unit = undefined;
      this.open--;
      for (const f of e.fifos) {
        f.pop();
        touched.push(f);
      }
    }
    for (const f of touched) {
      if (f.empty) {
        this.fifos.delete(f.key);
        continue;
      }
      const next = f.at(0)!;
      if (next.state === 'waiting' && this.isHead(next)) this.makeReady(next);
    }
    this.advance();
  }

  /** Failed, to be retried at `unit.retryAt`: it keeps its place at the head of its FIFOs. */
  fail(unit: Unit): void {
    for (const e of unit.entries) e.state = 'failed';
    this.failed.add(unit);
  }

  /** A delivery cut short (410, the pass stopping): its events go back to be sent again, as they were. */
  putBack(unit: Unit): void {
    for (const e of unit.entries) {
      e.state = 'waiting';
      if (this.isHead(e)) this.makeReady(e);
    }
  }

  /** Runs of done events after the watermark, merged (the slots are compacted as they are listed). */
  doneRuns(): Array<[string, string]> {
    this.advance();
    const merged: Slot[] = [];
    for (const s of this.slots) {
      const prev = merged.at(-1);
      if (prev && !prev.entry && this.isDone(s)) prev.last = s.last;
      else merged.push(this.isDone(s) ? { first: s.first, last: s.last } : s);
    }
    this.slots = merged;
    return merged.filter((s) => !s.entry).map((s) => [s.first, s.last]);
  }

  failingDeliveries(): FailingDelivery[] {
    return [...this.failed].map((u) => ({ seqs: u.entries.map((e) => e.seq), attempts: u.attempts, retryAt: u.retryAt }));
  }

  private isDone(s: Slot): boolean {
    return !s.entry || s.entry.state === 'done';
  }

  private advance(): void {
    let i = 0;
    while (i < this.slots.length && this.isDone(this.slots[i]!)) this.watermark = this.slots[i++]!.last;
    if (i > 0) this.slots.splice(0, i);
  }

  private fifo(key: string): Fifo {
    let f = this.fifos.get(key);
    if (!f) this.fifos.set(key, (f = new Fifo(key)));
    return f;
  }

  private isHead(e: Entry): boolean {
    return e.fifos.every((f, i) => f.positionOf(e, i) === 0);
  }

  private makeReady(e: Entry): void {
    e.state = 'ready';
    this.readyCount++;
    this.ready.push(e);
  }

  private nextReady(): Entry | undefined {
    while (this.readyHead < this.ready.length) {
      const e = this.ready[this.readyHead++]!;
      if (this.readyHead >= 1024 && this.readyHead * 2 >= this.ready.length) {
        this.ready = this.ready.slice(this.readyHead);
        this.readyHead = 0;
      }
      if (e.state === 'ready') {
        this.readyCount--;
        return e;
      }
    }
    return undefined;
  }

  /** Adds to a batch the events that may go with it, oldest first, up to `max`. */
  private extend(entries: Entry[], max: number): void {
    const inBatch = new Map<Fifo, number>();
    const candidates: Entry[] = [];
    const added = (e: Entry) => {
      for (const f of e.fifos) {
        const count = (inBatch.get(f) ?? 0) + 1;
        inBatch.set(f, count);
        const next = f.at(count);
        if (next && next.state === 'waiting') candidates.push(next);
      }
    };
    // Its earlier events sharing a resource are all in the batch, just ahead of it.
    const follows = (e: Entry) => e.fifos.every((f, i) => f.positionOf(e, i) === (inBatch.get(f) ?? 0));
    added(entries[0]!);
    while (entries.length < max) {
      candidates.sort((a, b) => a.n - b.n);
      let next: Entry | undefined;
      while (candidates.length > 0 && !next) {
        const c = candidates.shift()!;
        if (c.state === 'waiting' && follows(c)) next = c;
      }
      next ??= this.nextReady();
      if (!next) break;
      next.state = 'flying';
      entries.push(next);
      added(next);
    }
  }
}
