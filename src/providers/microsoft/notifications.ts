/**
 * Graph's change notifications, as a hint and never as data: a checked notification schedules a delta sync of
 * its directory (the delta query says what changed). A burst is one sync: the first notification opens a short
 * window, later ones join it (pull/sync-soon.ts). Lifecycle events: `subscriptionRemoved` creates the subscription
 * again, `reauthorizationRequired` renews it, `missed`
 * (and both others) sync, since changes may have gone unnotified.
 */
import { z } from 'zod';
import type { Logger } from '../../logger.js';
import type { SyncReport } from '../pull/runner.js';
import { SyncSoon } from '../pull/sync-soon.js';
import type { Resource, Verdict } from './subscriptions.js';

const notification = z.looseObject({
  subscriptionId: z.string().max(200).optional(),
  clientState: z.string().max(256).nullable().optional(),
  lifecycleEvent: z.string().max(100).optional(),
});
export const notificationBatch = z.looseObject({ value: z.array(notification).max(1000) });

export type Outcome = 'accepted' | 'ignored' | 'lifecycle';

/**
 * What a batch held: notifications accepted, and those ignored because their clientState named a directory with another
 * secret.
 */
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

export class NotificationHandler {
  private readonly soon: SyncSoon;

  constructor(private readonly deps: NotificationDeps) {
    this.soon = new SyncSoon({ sync: deps.sync, delayMs: deps.delayMs, logger: deps.logger, what: 'Entra' });
  }

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
    if (ignored > 0)
      this.deps.logger.warn({ ignored, forged }, 'ignored Graph notifications whose clientState does not check out');
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
    this.soon.schedule(directoryId);
  }

  /** Whether any notification-triggered sync is scheduled or running (tests, shutdown). */
  get idle(): boolean {
    return this.soon.idle;
  }

  close(): void {
    this.soon.close();
  }
}
