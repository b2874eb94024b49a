/**
 * Graph's change notifications, as a hint and never as data: a checked notification schedules a delta sync of
 * its directory (the delta query says what changed). A burst is one sync: the first notification opens a short
 * window, later ones join it; one arriving while that directory syncs asks for one more run after it. Lifecycle
 * events: `subscriptionRemoved` creates the subscription again, `reauthorizationRequired` renews it, `missed`
 * (and both others) sync, since changes may have gone unnotified.
 */
import { z } from 'zod';
import type { Logger } from '../../logger.js';
import type { SyncReport } from '../pull/runner.js';
import type { Resource, Verdict } from './subscriptions.js';

const notification = z.looseObject({
  subscriptionId: z.string().max(200).optional(),
  clientState: z.string().max(256).nullable().optional(),
  lifecycleEvent: z.string().max(100).optional(),
});
export const notificationBatch = z.looseObject({ value: z.array(notification).max(1000) });

export type Outcome = 'accepted' | 'ignored' | 'lifecycle';

/** What a batch held: notifications accepted, and those ignored because their clientState named a directory with another secret. */
export interface Received {
  accepted: number;
  forged: number;
}

export interface NotificationDeps {
  /** A clientState checker for one batch (Subscriptions.verifier). */
  verifier(): (clientState: unknown, subscriptionId: unknown) => Promise<Verdict>;
  sync(directoryId: string): Promise<SyncReport>;
  /** Creates again (`recreate`) or renews the directory's subscriptions. */
  resubscribe(directoryId: string, recreate?: Resource): Promise<void>;
  delayMs: number;
  logger: Logger;
  onNotification?: (outcome: Outcome) => void;
}

/** Consecutive runs found busy (another replica syncing) before a directory's pending sync is given up. */
const MAX_BUSY_RETRIES = 10;

export class NotificationHandler {
  private readonly pending = new Map<string, { timer?: NodeJS.Timeout; running: boolean; again: boolean; busy: number }>();
  private closed = false;

  constructor(private readonly deps: NotificationDeps) {}

  /**
   * Checks each notification of a batch; the syncs run afterwards. Those that do not check out are ignored
   * and logged once for the batch (never their clientState): the route is unauthenticated, so one request
   * must not write a thousand lines.
   */
  async receive(batch: z.infer<typeof notificationBatch>): Promise<Received> {
    const verify = this.deps.verifier();
    let accepted = 0;
    let forged = 0;
    for (const n of batch.value) {
      const owner = await verify(n.clientState, n.subscriptionId);
      if (typeof owner === 'string') {
        if (owner === 'forged') forged++;
        this.deps.onNotification?.('ignored');
        continue;
      }
      accepted++;
      if (n.lifecycleEvent) {
        this.deps.onNotification?.('lifecycle');
        this.lifecycle(owner.directoryId, n.lifecycleEvent, owner.resource);
      } else {
        this.deps.onNotification?.('accepted');
      }
      this.schedule(owner.directoryId);
    }
    const ignored = batch.value.length - accepted;
    if (ignored > 0) this.deps.logger.warn({ ignored, forged }, 'ignored Graph notifications whose clientState does not check out');
    return { accepted, forged };
  }

  private lifecycle(directoryId: string, event: string, resource: Resource | undefined): void {
    if (event !== 'subscriptionRemoved' && event !== 'reauthorizationRequired') return;
    this.deps
      .resubscribe(directoryId, event === 'subscriptionRemoved' ? resource : undefined)
      .catch((err) => this.deps.logger.warn({ err, directoryId, event }, 'could not handle a Graph lifecycle event'));
  }

  /** A sync of the directory soon, joined by every notification until it starts. */
  schedule(directoryId: string): void {
    if (this.closed) return;
    const p = this.pending.get(directoryId) ?? { running: false, again: false, busy: 0 };
    this.pending.set(directoryId, p);
    if (p.timer) return;
    if (p.running) {
      p.again = true;
      return;
    }
    p.timer = setTimeout(() => void this.run(directoryId), this.deps.delayMs);
  }

  private async run(directoryId: string): Promise<void> {
    const p = this.pending.get(directoryId)!;
    p.timer = undefined;
    p.running = true;
    try {
      const report = await this.deps.sync(directoryId);
      const skipped = report.directories.some((d) => d.state === 'skipped');
      // Another run held the directory: it may have read before this change, so this one runs once it is free.
      p.busy = skipped ? p.busy + 1 : 0;
      if (skipped && p.busy <= MAX_BUSY_RETRIES) p.again = true;
    } catch (err) {
      this.deps.logger.warn({ err, directoryId }, 'a notification-triggered Entra sync could not run');
    } finally {
      p.running = false;
    }
    if (p.again) {
      p.again = false;
      this.schedule(directoryId);
    } else {
      this.pending.delete(directoryId);
    }
  }

  /** Whether any notification-triggered sync is scheduled or running (tests, shutdown). */
  get idle(): boolean {
    return this.pending.size === 0;
  }

  close(): void {
    this.closed = true;
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }
}
