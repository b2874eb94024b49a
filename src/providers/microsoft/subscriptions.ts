/**
 * Graph change-notification subscriptions of each Entra directory: one on `users`, one on `groups`, to
 * $DSYNC_EXTERNAL_URL/api/v1/dsync/microsoft/notifications (also the lifecycle URL). As Graph takes them
 * (https://learn.microsoft.com/en-us/graph/api/resources/subscription): `changeType: "updated,deleted"`, the
 * only ones users and groups support (`updated` tells creations, updates, soft deletions and restores;
 * `deleted`, permanent deletions), https URLs, a clientState of at most 128 characters, an expiration within
 * 41,760 minutes. Graph validates the URL when a subscription is created (the route echoes `validationToken`).
 * Each is renewed by a sync run once it is within `renewWithinMinutes` of expiring, and created again when Graph
 * no longer has it. A refusal is kept with Graph's message and tried again after a backoff (1 minute, doubling
 * to 1 hour: `subscriptionRetryMs`, `subscriptionRetryMaxMs`) by what comes after it (a run, or the retry timer
 * of subscription-retries.ts); the run itself never fails for it. The clientState is
 * `<directory id>:<secret>`: the secret is random per directory, kept in the store's own record (never in a
 * status, event or log), and checked on every notification.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Directory } from '../../core/model.js';
import type { PullSyncStore } from '../../core/store-port.js';
import type { Logger } from '../../logger.js';
import { SyncRecord } from '../pull/sync-record.js';
import { GraphApiError, MicrosoftCredentialsError } from './errors.js';
import type { GraphApi } from './graph-api.js';
import { MAX_SUBSCRIPTION_MINUTES, type MicrosoftOptions } from './options.js';
import type { NotificationsStatus } from './sync-status.js';

export type Resource = 'users' | 'groups';
const RESOURCES: readonly Resource[] = ['users', 'groups'];
/** What users and groups support: `created` is refused (a creation is told as `updated`). */
const CHANGE_TYPE = 'updated,deleted';
const MAX_CLIENT_STATE = 128;

/** How a subscription request ended (the metrics' outcome): refused = Graph said no (4xx); failed = could not ask. */
export type SubscriptionOutcome = 'created' | 'renewed' | 'refused' | 'failed';

interface SubscriptionRecord {
  secret: string;
  subscriptions: Array<{ id: string; resource: Resource; expiresAt: string }>;
  /** The last attempts failed: how many in a row, why, and when to try again. */
  failure?: { count: number; error: string; retryAt: string };
}

/** What a notification's clientState stands for (Subscriptions.verifier). */
export type Verdict = { directoryId: string; resource?: Resource } | 'unknown' | 'forged';

const created = z.looseObject({ id: z.string().min(1), expirationDateTime: z.string() });

export class Subscriptions {
  private readonly records: SyncRecord<SubscriptionRecord>;

  constructor(
    private readonly deps: {
      store: Pick<PullSyncStore, 'getSyncRecord' | 'putSyncRecord'>;
      options: MicrosoftOptions;
      logger: Logger;
      onRequest?: (outcome: SubscriptionOutcome) => void;
    },
  ) {
    this.records = new SyncRecord(deps.store, 'microsoft-subscriptions');
  }

  /**
   * Creates what is missing, renews what expires soon, re-creates what Graph lost (`only`: that one anew). Within
   * the backoff of a failure it asks Graph nothing, unless `force` (an admin's consent, a lifecycle event). Never
   * throws for Graph: a failure is the returned state (the scheduled sync goes on without notifications).
   */
  async ensure(
    directory: Directory,
    graph: GraphApi,
    { only, force = false }: { only?: Resource; force?: boolean } = {},
  ): Promise<NotificationsStatus> {
    const { notificationUrl, subscriptionMinutes, renewWithinMinutes, subscriptionRetryMs, subscriptionRetryMaxMs } =
      this.deps.options;
    if (!notificationUrl) return { state: 'off', expires_at: null, error: null, retry_at: null };
    let record = await this.records.get(directory.id);
    if (record?.failure && !force && Date.parse(record.failure.retryAt) > Date.now()) {
      return { state: 'failed', expires_at: null, error: record.failure.error, retry_at: record.failure.retryAt };
    }
    if (!record) {
      // Saved before any subscription exists: a notification right after creation already finds its secret.
      record = { secret: randomBytes(32).toString('base64url'), subscriptions: [] };
      await this.records.put(directory.id, record);
    }
    const clientState = `${directory.id}:${record.secret}`;
    const lifetimeMs = Math.min(subscriptionMinutes, MAX_SUBSCRIPTION_MINUTES) * 60_000;
    try {
      if (clientState.length > MAX_CLIENT_STATE)
        throw new Error(
          `the clientState of directory ${directory.id} would be over Graph's ${MAX_CLIENT_STATE} characters: its id is too long`,
        );
      const now = Date.now();
      // A minute short of the lifetime asked: the clocks of Graph and of this host need not agree to the second.
      const expiry = () => new Date(Date.now() + lifetimeMs - 60_000).toISOString();
      for (const resource of RESOURCES) {
        const current = record.subscriptions.find((s) => s.resource === resource);
        if (current && only !== resource && Date.parse(current.expiresAt) - now > renewWithinMinutes * 60_000) continue;
        const renewed =
          current && only !== resource
            ? await this.request('renewed', () => this.renew(graph, current.id, expiry()))
            : undefined;
        const sub =
          renewed ??
          (await this.request('created', () =>
            graph.post<unknown>(
              '/subscriptions',
              {
                changeType: CHANGE_TYPE,
                notificationUrl,
                lifecycleNotificationUrl: notificationUrl,
                resource,
                expirationDateTime: expiry(),
                clientState,
              },
              `subscribing to ${resource} changes`,
            ),
          ));
        const parsed = created.parse(sub);
        record.subscriptions = [
          ...record.subscriptions.filter((s) => s.resource !== resource),
          { id: parsed.id, resource, expiresAt: parsed.expirationDateTime },
        ];
        delete record.failure;
        await this.records.put(directory.id, record);
      }
      if (record.failure) {
        delete record.failure;
        await this.records.put(directory.id, record);
      }
      const soonest = record.subscriptions.map((s) => s.expiresAt).sort()[0] ?? null;
      return { state: 'active', expires_at: soonest && new Date(soonest).toISOString(), error: null, retry_at: null };
    } catch (err) {
      const count = (record.failure?.count ?? 0) + 1;
      const retryAt = new Date(
        Date.now() + Math.min(subscriptionRetryMs * 2 ** (count - 1), subscriptionRetryMaxMs),
      ).toISOString();
      const error = (err as Error).message.slice(0, 500);
      record.failure = { count, error, retryAt };
      await this.records.put(directory.id, record);
      this.deps.logger.warn(
        { err, directoryId: directory.id, retryAt },
        'could not keep the Graph change-notification subscriptions',
      );
      return { state: 'failed', expires_at: null, error, retry_at: retryAt };
    }
  }

  /** One subscription request, told to the metrics by how it ended. */
  private async request<T>(outcome: 'created' | 'renewed', call: () => Promise<T | undefined>): Promise<T | undefined> {
    try {
      const result = await call();
      if (result !== undefined) this.deps.onRequest?.(outcome);
      return result;
    } catch (err) {
      const refused =
        err instanceof MicrosoftCredentialsError ||
        (err instanceof GraphApiError && err.httpStatus !== undefined && err.httpStatus < 500);
      this.deps.onRequest?.(refused ? 'refused' : 'failed');
      throw err;
    }
  }

  /** The renewed subscription, or undefined when Graph no longer has it (it is then created again). */
  private async renew(graph: GraphApi, id: string, expirationDateTime: string): Promise<unknown> {
    try {
      return await graph.patch(
        `/subscriptions/${encodeURIComponent(id)}`,
        { expirationDateTime },
        'renewing a subscription',
      );
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
      if (!records.has(directoryId))
        records.set(
          directoryId,
          this.records.get(directoryId).catch(() => null),
        );
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
