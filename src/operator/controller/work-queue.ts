/**
 * A keyed work queue with client-go's semantics: a key is queued at most once however often it is added; a
 * key being processed is never handed to a second worker (an add during processing re-queues it on `done`);
 * failed keys come back after a per-key exponential backoff, forgotten on success.
 */
import { InvalidOptionError } from '../errors.js';

export interface WorkQueueHooks {
  /** Queue length after every change. */
  depth?(depth: number): void;
  /** A key was added (also counted when deduplicated, like client-go's adds_total). */
  added?(): void;
  /** A key was re-added with backoff after a failure. */
  retried?(): void;
}

export interface WorkQueueOptions {
  /** First retry delay; doubles per consecutive failure of the same key. Default 5 ms (controller-runtime). */
  baseDelayMs?: number;
  /** Retry delay cap. Default 5 minutes. */
  maxDelayMs?: number;
  hooks?: WorkQueueHooks;
}

export class WorkQueue {
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly hooks: WorkQueueHooks;
  private items: string[] = [];
  private head = 0;
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly waiters: Array<(key: string | undefined) => void> = [];
  private idleWaiters: Array<() => void> = [];
  private shuttingDown = false;

  constructor(options: WorkQueueOptions = {}) {
    this.baseDelayMs = options.baseDelayMs ?? 5;
    this.maxDelayMs = options.maxDelayMs ?? 300_000;
    if (!(this.baseDelayMs > 0)) throw new InvalidOptionError('baseDelayMs', 'must be > 0');
    if (!(this.maxDelayMs >= this.baseDelayMs)) throw new InvalidOptionError('maxDelayMs', 'must be >= baseDelayMs');
    this.hooks = options.hooks ?? {};
  }

  get length(): number {
    return this.items.length - this.head;
  }

  add(key: string): void {
    if (this.shuttingDown) return;
    this.hooks.added?.();
    if (this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing.has(key)) return; // handed out again by done()
    this.push(key);
  }

  /** Adds the key after `delayMs`; an earlier pending delay for the same key wins. */
  addAfter(key: string, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) return this.add(key);
    const at = Date.now() + delayMs;
    const pending = this.timers.get(key);
    if (pending && pending.at <= at) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, delayMs);
    timer.unref();
    this.timers.set(key, { at, timer });
  }

  /** Re-adds a failed key after its backoff: base * 2^(failures so far), capped. */
  addRateLimited(key: string): void {
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    this.hooks.retried?.();
    this.addAfter(key, Math.min(this.baseDelayMs * 2 ** failures, this.maxDelayMs));
  }

  /** Ends the key's backoff (after a success). */
  forget(key: string): void {
    this.failures.delete(key);
  }

  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** The next key to process, or undefined once the queue shuts down. Call `done(key)` when finished. */
  get(): Promise<string | undefined> {
    if (this.shuttingDown) return Promise.resolve(undefined);
    if (this.length > 0) {
      const key = this.items[this.head++]!;
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      this.dirty.delete(key);
      this.processing.add(key);
      this.hooks.depth?.(this.length);
      return Promise.resolve(key);
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.has(key) && !this.shuttingDown) this.push(key);
    this.notifyIdle();
  }

  /** Resolves when nothing is queued or being processed (delayed retries do not count). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops handing out keys; pending delays are dropped. Keys being processed still need `done`. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.items = [];
    this.head = 0;
    this.dirty.clear();
    this.hooks.depth?.(0);
    for (const waiter of this.waiters.splice(0)) waiter(undefined);
    this.notifyIdle();
  }

  /** Hands a dirty key to a waiting worker, or queues it. */
  private push(key: string): void {
    const waiter = this.waiters.shift();
    if (waiter) {
      this.dirty.delete(key);
      this.processing.add(key);
      waiter(key);
      return;
    }
    this.items.push(key);
    this.hooks.depth?.(this.length);
  }

  private isIdle(): boolean {
    return this.length === 0 && this.processing.size === 0;
  }

  private notifyIdle(): void {
    if (!this.isIdle()) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
