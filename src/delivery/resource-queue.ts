/**
 * The order of `resource` delivery for one directory, in memory (pure; the pass feeds it and persists what it
 * reports). The events not done that name one resource (a user or a group) form a chain in log order; an event
 * may go when it is first in each of its chains, that is, when every earlier event sharing a user or group with
 * it has been delivered or dead-lettered. A failed delivery stays in its chains until it succeeds or is
 * dead-lettered, so it holds back only the events that share a resource with it (and, through them, theirs).
 *
 * Each event is one object linked into at most two chains (its user's, its group's): reading an event, sending it
 * and completing it cost a few pointer updates and a map lookup per resource, with no allocation but the event's.
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
  state: EntryState;
  unit?: Unit;
}

/** One delivery: an event, or a batch of events (in log order). */
export interface Unit {
  entries: Entry[];
  attempts: number;
  retryAt: number;
}

/** The two chains an event can be in: its user's and its group's (a membership is in both). */
const USER = 0;
const GROUP = 1;
type Chain = typeof USER | typeof GROUP;

class Node implements Entry {
  state: EntryState = 'waiting';
  unit: Unit | undefined = undefined;
  /** The id of its user and of its group, when it names one. */
  user: string | undefined = undefined;
  group: string | undefined = undefined;
  /** Its neighbours not done in its user's chain and in its group's. */
  prevUser: Node | undefined = undefined;
  nextUser: Node | undefined = undefined;
  prevGroup: Node | undefined = undefined;
  nextGroup: Node | undefined = undefined;
  /**
   * The batch being built that holds it, and the completion that walked past it in each chain (`ResourceQueue.marks`).
   */
  batch = 0;
  walkedUser = 0;
  walkedGroup = 0;

  constructor(
    readonly seq: string,
    readonly json: string,
    readonly n: number,
  ) {}

  /** First in each of its chains: no earlier event not done names its user or its group. */
  get unblocked(): boolean {
    return this.prevUser === undefined && this.prevGroup === undefined;
  }
  id(c: Chain): string | undefined {
    return c === USER ? this.user : this.group;
  }
  prev(c: Chain): Node | undefined {
    return c === USER ? this.prevUser : this.prevGroup;
  }
  next(c: Chain): Node | undefined {
    return c === USER ? this.nextUser : this.nextGroup;
  }
  setPrev(c: Chain, n: Node | undefined): void {
    if (c === USER) this.prevUser = n;
    else this.prevGroup = n;
  }
  setNext(c: Chain, n: Node | undefined): void {
    if (c === USER) this.nextUser = n;
    else this.nextGroup = n;
  }
  walked(c: Chain): number {
    return c === USER ? this.walkedUser : this.walkedGroup;
  }
  setWalked(c: Chain, mark: number): void {
    if (c === USER) this.walkedUser = mark;
    else this.walkedGroup = mark;
  }
}

/** Consecutive done events of the log, read as done or merged from done entries. */
class Run {
  constructor(
    readonly first: string,
    public last: string,
  ) {}
}

/** The log in read order: an entry, or a run of done events. */
type Slot = Node | Run;

/**
 * A first-in first-out list on an array that lets go of what it hands out at once: a done event holds its text (a
 * kilobyte and more), which should not wait for the array's next compaction to be collected.
 */
class Line<T> {
  private items: Array<T | undefined> = [];
  private head = 0;

  push(item: T): void {
    this.items.push(item);
  }
  peek(): T | undefined {
    return this.items[this.head];
  }
  shift(): T | undefined {
    const item = this.items[this.head];
    if (item === undefined) return undefined;
    this.items[this.head++] = undefined;
    if (this.head === this.items.length) {
      this.items.length = 0;
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
  /** What it holds, in order; `replace` puts a new list in its place. */
  list(): T[] {
    return this.items.slice(this.head) as T[];
  }
  replace(items: T[]): void {
    this.items = items;
    this.head = 0;
  }
}

const isDone = (s: Slot): boolean => s instanceof Run || s.state === 'done';
const lastOf = (s: Slot): string => (s instanceof Run ? s.last : s.seq);
const CHAINS: readonly Chain[] = [USER, GROUP];

export class ResourceQueue {
  /** The last entry of each user's chain and of each group's, by id. */
  private readonly tails = [new Map<string, Node>(), new Map<string, Node>()] as const;
  private readonly ready = new Line<Node>();
  private readonly slots = new Line<Slot>();
  private readonly failed = new Set<Unit>();
  private read = 0;
  /** Numbers the batches being built and the completions (`Node.batch`, `Node.walked`). */
  private marks = 0;
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
    const entry = new Node(event.seq, event.json, this.read++);
    // The stored text: `json` is read only into the POST body, which copies its two parts as they are.
    const { user, group } = resourcesOf(event.stored ?? event.json);
    if (user !== undefined) this.link(entry, USER, user);
    if (group !== undefined) this.link(entry, GROUP, group);
    this.slots.push(entry);
    this.open++;
    if (failing) {
      entry.state = 'failed';
      entry.unit = failing;
      failing.entries.push(entry);
      this.failed.add(failing);
    } else if (entry.unblocked) this.makeReady(entry);
  }

  /** Records events skipped on read because a saved run says they are done. */
  addDone(first: string, last: string): void {
    this.slots.push(new Run(first, last));
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

  /** Delivered or dead-lettered: its events leave their chains, which may make the next ones ready. */
  complete(unit: Unit): void {
    const entries = unit.entries as Node[];
    for (const e of entries) {
      e.state = 'done';
      e.unit = undefined;
      this.open--;
      for (const c of CHAINS) this.unlink(e, c);
    }
    // Each chain the delivery left is looked at once, in the order the delivery first named it: the entry now
    // first in it may go (a chain of a batch's events is walked through to the entry after them).
    const mark = ++this.marks;
    for (const e of entries) {
      for (const c of CHAINS) {
        if (e.id(c) === undefined || e.walked(c) === mark) continue;
        let next = e.next(c);
        while (next && next.state === 'done') {
          next.setWalked(c, mark);
          next = next.next(c);
        }
        if (next && next.state === 'waiting' && next.unblocked) this.makeReady(next);
      }
    }
    for (const e of entries) {
      e.nextUser = undefined;
      e.nextGroup = undefined;
    }
    this.advance();
  }

  /** Failed, to be retried at `unit.retryAt`: it keeps its place in its chains. */
  fail(unit: Unit): void {
    for (const e of unit.entries) e.state = 'failed';
    this.failed.add(unit);
  }

  /** A delivery cut short (410, the pass stopping): its events go back to be sent again, as they were. */
  putBack(unit: Unit): void {
    for (const e of unit.entries as Node[]) {
      e.state = 'waiting';
      if (e.unblocked) this.makeReady(e);
    }
  }

  /** Runs of done events after the watermark, merged (the slots are compacted as they are listed). */
  doneRuns(): Array<[string, string]> {
    this.advance();
    const merged: Slot[] = [];
    for (const s of this.slots.list()) {
      const prev = merged.at(-1);
      if (prev instanceof Run && isDone(s)) prev.last = lastOf(s);
      else merged.push(isDone(s) ? new Run(s instanceof Run ? s.first : s.seq, lastOf(s)) : s);
    }
    this.slots.replace(merged);
    return merged.filter((s): s is Run => s instanceof Run).map((s) => [s.first, s.last]);
  }

  failingDeliveries(): FailingDelivery[] {
    return [...this.failed].map((u) => ({
      seqs: u.entries.map((e) => e.seq),
      attempts: u.attempts,
      retryAt: u.retryAt,
    }));
  }

  /** Puts a new entry at the end of a chain. */
  private link(e: Node, c: Chain, id: string): void {
    if (c === USER) e.user = id;
    else e.group = id;
    const tail = this.tails[c].get(id);
    if (tail) {
      tail.setNext(c, e);
      e.setPrev(c, tail);
    }
    this.tails[c].set(id, e);
  }

  /** Takes a done entry out of one of its chains (the entry keeps its `next`, for `complete` to walk). */
  private unlink(e: Node, c: Chain): void {
    const id = e.id(c);
    if (id === undefined) return;
    const prev = e.prev(c);
    const next = e.next(c);
    if (prev) prev.setNext(c, next);
    if (next) next.setPrev(c, prev);
    else if (prev) this.tails[c].set(id, prev);
    else this.tails[c].delete(id);
    e.setPrev(c, undefined);
  }

  private advance(): void {
    for (let s = this.slots.peek(); s && isDone(s); s = this.slots.peek()) {
      this.watermark = lastOf(s);
      this.slots.shift();
    }
  }

  private makeReady(e: Node): void {
    e.state = 'ready';
    this.readyCount++;
    this.ready.push(e);
  }

  private nextReady(): Node | undefined {
    for (let e = this.ready.shift(); e; e = this.ready.shift()) {
      if (e.state === 'ready') {
        this.readyCount--;
        return e;
      }
    }
    return undefined;
  }

  /** Adds to a batch the events that may go with it, oldest first, up to `max`. */
  private extend(entries: Node[], max: number): void {
    const batch = ++this.marks;
    const candidates: Node[] = [];
    const added = (e: Node) => {
      e.batch = batch;
      const user = e.nextUser;
      const group = e.nextGroup;
      if (user && user.state === 'waiting') candidates.push(user);
      if (group && group.state === 'waiting') candidates.push(group);
    };
    // Its earlier events sharing a resource are all in the batch: the one just before it in each chain is.
    const follows = (e: Node) =>
      (e.prevUser === undefined || e.prevUser.batch === batch) &&
      (e.prevGroup === undefined || e.prevGroup.batch === batch);
    added(entries[0]!);
    while (entries.length < max) {
      if (candidates.length > 1) candidates.sort((a, b) => a.n - b.n);
      let next: Node | undefined;
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
