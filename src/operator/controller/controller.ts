/**
 * Runs a reconciler over a work queue with N workers. Reconcilers receive only a key and return an outcome;
 * `settle` is the one place that turns an outcome into a queue action and a metric (controller-runtime's
 * reconcileHandler):
 *
 *   throws TerminalError  → counted, logged, not retried (a watched change triggers the next attempt)
 *   throws NotLeaderError → counted, not retried: a write was fenced off because this replica stepped down
 *   throws anything else  → counted, retried with per-key exponential backoff
 *   { requeueAfterMs }    → backoff forgotten, key re-added after the delay
 *   {}                    → backoff forgotten
 */
import type { Logger } from '../../logger.js';
import { NotLeaderError, TerminalError } from '../errors.js';
import type { OperatorMetrics } from '../metrics.js';
import { WorkQueue, type WorkQueueOptions } from './work-queue.js';

export interface ReconcileOutcome {
  /** Look again after this long (polling for something no watch reports). */
  requeueAfterMs?: number;
}

export interface Reconciler {
  reconcile(key: string): Promise<ReconcileOutcome>;
}

export interface ControllerOptions {
  /** Metric label and log binding. */
  name: string;
  reconciler: Reconciler;
  /** Concurrent reconciles (of different keys; one key is never reconciled twice at once). */
  workers: number;
  metrics: OperatorMetrics;
  logger: Logger;
  retry?: Pick<WorkQueueOptions, 'baseDelayMs' | 'maxDelayMs'>;
}

export class Controller {
  readonly queue: WorkQueue;
  private readonly options: ControllerOptions;
  private readonly logger: Logger;
  private workers: Array<Promise<void>> = [];
  private running = false;
  /** performance.now() when each key last finished a reconcile, for the periodic resync. */
  private readonly finishedAt = new Map<string, number>();

  constructor(options: ControllerOptions) {
    this.options = options;
    this.logger = options.logger.child({ controller: options.name });
    this.queue = new WorkQueue({ ...options.retry, hooks: options.metrics.queueHooks(options.name) });
  }

  isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    for (let i = 0; i < this.options.workers; i++) this.workers.push(this.work());
  }

  /** Queues a key; ignored unless running (a standby replica watches but does not reconcile). */
  enqueue(key: string): void {
    if (this.running) this.queue.add(key);
  }

  /**
   * The periodic resync: queues every key that has not finished a reconcile within `withinMs`. A key looked at
   * moments ago (a mass apply still converging) needs no second look yet; re-queueing all of them every
   * interval would add N reconciles to a backlog that is itself N long, a cost growing with N squared.
   */
  resync(keys: Iterable<string>, withinMs: number): void {
    const now = performance.now();
    const listed = new Set<string>();
    for (const key of keys) {
      listed.add(key);
      const at = this.finishedAt.get(key);
      if (at === undefined || now - at >= withinMs) this.enqueue(key);
    }
    for (const key of this.finishedAt.keys()) if (!listed.has(key)) this.finishedAt.delete(key); // deleted since
  }

  /** Stops taking keys and waits for the reconciles in flight. */
  async stop(): Promise<void> {
    this.running = false;
    this.queue.shutDown();
    await Promise.all(this.workers);
    this.workers = [];
  }

  private async work(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      const stopTimer = this.options.metrics.reconcileTime.startTimer({ controller: this.options.name });
      try {
        this.settle(key, await this.options.reconciler.reconcile(key));
      } catch (err) {
        this.settle(key, undefined, err);
      } finally {
        stopTimer();
        this.finishedAt.set(key, performance.now());
        this.queue.done(key);
      }
    }
  }

  private settle(key: string, outcome: ReconcileOutcome | undefined, error?: unknown): void {
    const { metrics, name: controller } = this.options;
    if (error !== undefined) {
      metrics.reconcileTotal.inc({ controller, result: 'error' });
      metrics.reconcileErrors.inc({ controller });
      if (error instanceof TerminalError) {
        metrics.terminalReconcileErrors.inc({ controller });
        this.queue.forget(key);
        this.logger.info({ key, err: error }, 'reconcile stopped until the resource or its Secrets change');
        return;
      }
      if (error instanceof NotLeaderError) {
        this.logger.info({ key }, 'reconcile cut short: this replica no longer leads, its writes are refused');
        return;
      }
      this.logger.warn(
        { key, err: error, retries: this.queue.numRequeues(key) },
        'reconcile failed; retrying with backoff',
      );
      this.queue.addRateLimited(key);
      return;
    }
    this.queue.forget(key);
    if (outcome?.requeueAfterMs !== undefined) {
      metrics.reconcileTotal.inc({ controller, result: 'requeue_after' });
      this.queue.addAfter(key, outcome.requeueAfterMs);
      return;
    }
    metrics.reconcileTotal.inc({ controller, result: 'success' });
  }
}
