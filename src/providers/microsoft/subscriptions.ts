/**
 * Graph change-notification subscriptions of each Entra directory: one on `users`, one on `groups`, to
 * $DSYNC_EXTERNAL_URL/api/v1/dsync/microsoft/notifications (also the lifecycle URL). Graph validates the URL
 * when a subscription is created (the route echoes `validationToken`). Each is renewed by a sync run once it is
 * within `renewWithinMinutes` of expiring, and created again when Graph no longer has it. The clientState is
 * `<directory id>:<secret>`: the secret is random per directory, kept in the store's own record (never in a
 * status, event or log), and checked on every notification.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Directory } from '../../core/model.js';
import type { PullSyncStore } from '../../core/store-port.js';
import type { Logger } from '../../logger.js';
import { GraphApiError } from './errors.js';
import type { GraphApi } from './graph-api.js';
import type { MicrosoftOptions } from './options.js';
import type { NotificationsStatus } from './sync-status.js';

export type Resource = 'users' | 'groups';
const RESOURCES: readonly Resource[] = ['users', 'groups'];

interface SubscriptionRecord {
  secret: string;
  subscriptions: Array<{ id: string; resource: Resource; expiresAt: string }>;
}

/** What a notification's clientState stands for (Subscriptions.verifier). */
export type Verdict = { directoryId: string; resource?: Resource } | 'unknown' | 'forged';

const created = z.looseObject({ id: z.string().min(1), expirationDateTime: z.string() });

export class Subscriptions {
  constructor(
    private readonly deps: {
      store: Pick<PullSyncStore, 'getSyncRecord' | 'putSyncRecord'>;
      options: MicrosoftOptions;
      logger: Logger;
    },
  ) {}

  private async load(directoryId: string): Promise<SubscriptionRecord | null> {
    const json = await this.deps.store.getSyncRecord(directoryId, 'microsoft-subscriptions');
    return json ? (JSON.parse(json) as SubscriptionRecord) : null;
  }

  private async save(directoryId: string, record: SubscriptionRecord): Promise<void> {
    await this.deps.store.putSyncRecord(directoryId, 'microsoft-subscriptions', JSON.stringify(record));
  }

  /**
   * Creates what is missing, renews what expires soon, re-creates what Graph lost. Never throws: a failure is
   * the returned state (the scheduled sync goes on without notifications).
   */
  async ensure(directory: Directory, graph: GraphApi, only?: Resource): Promise<NotificationsStatus> {
    const { notificationUrl, subscriptionMinutes, renewWithinMinutes } = this.deps.options;
    if (!notificationUrl) return { state: 'off', expires_at: null, error: null };
    let record = await this.load(directory.id);
    try {
      if (!record) {
        // Saved before any subscription exists: a notification right after creation already finds its secret.
        record = { secret: randomBytes(32).toString('base64url'), subscriptions: [] };
        await this.save(directory.id, record);
      }
      const now = Date.now();
      const expiry = () => new Date(Date.now() + subscriptionMinutes * 60_000).toISOString();
      for (const resource of RESOURCES) {
        const current = record.subscriptions.find((s) => s.resource === resource);
        if (current && only !== resource && Date.parse(current.expiresAt) - now > renewWithinMinutes * 60_000) continue;
        const next = current && only !== resource ? await this.renew(graph, current.id, expiry()) : undefined;
        const sub =
          next ??
          (await graph.post<unknown>(
            '/subscriptions',
            {
              changeType: 'created,updated,deleted',
              notificationUrl,
              lifecycleNotificationUrl: notificationUrl,
              resource,
              expirationDateTime: expiry(),
              clientState: `${directory.id}:${record.secret}`,
            },
            `subscribing to ${resource} changes`,
          ));
        const parsed = created.parse(sub);
        record.subscriptions = [...record.subscriptions.filter((s) => s.resource !== resource), { id: parsed.id, resource, expiresAt: parsed.expirationDateTime }];
        await this.save(directory.id, record);
      }
      const soonest = record.subscriptions.map((s) => s.expiresAt).sort()[0] ?? null;
      return { state: 'active', expires_at: soonest && new Date(soonest).toISOString(), error: null };
    } catch (err) {
      this.deps.logger.warn({ err, directoryId: directory.id }, 'could not keep the Graph change-notification subscriptions');
      return { state: 'failed', expires_at: null, error: (err as Error).message.slice(0, 500) };
    }
  }

  /** The renewed subscription, or undefined when Graph no longer has it (it is then created again). */
  private async renew(graph: GraphApi, id: string, expirationDateTime: string): Promise<unknown> {
    try {
      return await graph.patch(`/subscriptions/${encodeURIComponent(id)}`, { expirationDateTime }, 'renewing a subscription');
    } catch (err) {
      if (err instanceof GraphApiError && err.httpStatus === 404) return undefined;
      throw err;
    }
  }

  /**
   * A checker for one batch of notifications: the directory and resource each clientState and subscription id
   * stand for, `unknown` when the clientState names no directory with subscriptions (junk, or a deleted
   * directory's subscriptions until they expire), `forged` when it names one with another secret. Each
   * directory's record is read once per batch, however many notifications name it.
   */
  verifier(): (clientState: unknown, subscriptionId: unknown) => Promise<Verdict> {
    const records = new Map<string, Promise<SubscriptionRecord | null>>();
    return async (clientState, subscriptionId) => {
      if (typeof clientState !== 'string' || clientState.length > 256) return 'unknown';
      const at = clientState.lastIndexOf(':');
      if (at <= 0) return 'unknown';
      const directoryId = clientState.slice(0, at);
      if (!records.has(directoryId)) records.set(directoryId, this.load(directoryId).catch(() => null));
      const record = await records.get(directoryId)!;
      if (!record) return 'unknown';
      const given = Buffer.from(clientState.slice(at + 1));
      const expected = Buffer.from(record.secret);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
      const resource = record.subscriptions.find((s) => s.id === subscriptionId)?.resource;
      return { directoryId, ...(resource && { resource }) };
    };
  }
}
