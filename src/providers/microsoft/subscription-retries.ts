/**
 * A refused subscription tried again when its backoff ends, in a process that stays up (`dsync serve`): one timer
 * per directory, unref'd (a CronJob's process exits without waiting; the next run there tries again). The attempt
 * itself honours the backoff kept in the store, so replicas that all scheduled one ask Graph once.
 */
import type { Logger } from '../../logger.js';
import type { NotificationsStatus } from './sync-status.js';

export class SubscriptionRetries {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly logger: Logger) {}

  /** After an attempt: a timer for the retry a failure asks for (replacing the directory's earlier one). */
  after(directoryId: string, status: NotificationsStatus, retry: () => Promise<void>): void {
    clearTimeout(this.timers.get(directoryId));
    this.timers.delete(directoryId);
    if (this.closed || status.state !== 'failed' || !status.retry_at) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(directoryId);
        retry().catch((err) =>
          this.logger.warn({ err, directoryId }, 'could not retry the Graph change-notification subscriptions'),
        );
      },
      Math.max(0, Date.parse(status.retry_at) - Date.now()),
    );
    timer.unref();
    this.timers.set(directoryId, timer);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
