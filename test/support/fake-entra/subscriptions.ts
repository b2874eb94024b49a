/**
 * Graph's change-notification subscriptions in the fake: created with the validation handshake (Graph POSTs
 * `?validationToken=` to the notification URL, and to the lifecycle URL, and wants the token back as text/plain
 * within 10 s), renewed by PATCH, deleted, expiring. Changes to users and groups are notified in batches
 * (`{value: [changeNotification...]}` with the subscription's clientState), lifecycle events likewise
 * (`lifecycleEvent: subscriptionRemoved | missed | reauthorizationRequired`). A request Graph would refuse is
 * refused here, with the rule's page cited beside it, so that what Graph refuses cannot pass our tests.
 */
import { randomUUID } from 'node:crypto';
import type { Reply } from './authority.js';
import type { Kind } from './tenant.js';

export interface Subscription {
  id: string;
  tenantId: string;
  resource: Kind;
  changeType: string;
  notificationUrl: string;
  lifecycleNotificationUrl: string | null;
  clientState: string | null;
  expirationDateTime: string;
  applicationId: string;
}

/**
 * The subscription resource's rules (https://learn.microsoft.com/en-us/graph/api/resources/subscription):
 * "User and group change notifications support `updated` and `deleted` changeType"; the longest expiration of
 * "user, group, other directory resources" is 41,760 minutes; "clientState … The maximum length is 128
 * characters"; notificationUrl and lifecycleNotificationUrl "must make use of the HTTPS protocol".
 */
const CHANGE_TYPES: Record<Kind, readonly string[]> = { users: ['updated', 'deleted'], groups: ['updated', 'deleted'] };
export const MAX_MINUTES = 41_760;
const MAX_CLIENT_STATE = 128;
/**
 * The notification URL's validation
 * (https://learn.microsoft.com/en-us/graph/change-notifications-delivery-webhooks#notificationurl-validation):
 * the endpoint must answer 200, text/plain, the decoded token, "within 10 seconds"; the lifecycle URL likewise.
 */
export const VALIDATION_TIMEOUT_MS = 10_000;

export const graphError = (status: number, code: string, message: string): Reply => ({
  status,
  body: {
    error: {
      code,
      message,
      innerError: {
        date: new Date().toISOString().slice(0, 19),
        'request-id': randomUUID(),
        'client-request-id': randomUUID(),
      },
    },
  },
});

async function validate(url: string, timeoutMs: number): Promise<boolean> {
  const token = `Validation: Testing client application reachability for subscription Request-Id: ${randomUUID()}`;
  try {
    const res = await fetch(`${url}${url.includes('?') ? '&' : '?'}validationToken=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    return (
      res.status === 200 && /^text\/plain/.test(res.headers.get('content-type') ?? '') && (await res.text()) === token
    );
  } catch {
    return false;
  }
}

export class FakeSubscriptions {
  readonly all = new Map<string, Subscription>();
  /** Notification POSTs made, and what the receiver answered. */
  readonly sent: Array<{ url: string; status: number; body: unknown }> = [];
  private pending = new Map<string, Array<Record<string, unknown>>>();
  private flushTimer: NodeJS.Timeout | undefined;
  /** How long changes are gathered before one POST (Graph batches too). */
  batchMs = 50;

  constructor(private readonly applicationId: string) {}

  /** Requests Graph refused, with its answer (what a test checks dsync shows). */
  readonly refused: Array<{ body: Record<string, unknown>; reply: Reply }> = [];
  /** How long the handshake waits for the endpoint (Graph: 10 s; a test of a slow endpoint may shorten it). */
  validationTimeoutMs = VALIDATION_TIMEOUT_MS;

  async create(tenantId: string, body: Record<string, unknown>): Promise<Reply> {
    const refusal = await this.check(body);
    if (refusal) {
      this.refused.push({ body, reply: refusal });
      return refusal;
    }
    const sub: Subscription = {
      id: randomUUID(),
      tenantId,
      resource: String(body.resource).replace(/^\//, '') as Kind,
      changeType: String(body.changeType),
      notificationUrl: String(body.notificationUrl),
      lifecycleNotificationUrl: body.lifecycleNotificationUrl ? String(body.lifecycleNotificationUrl) : null,
      clientState: body.clientState === undefined ? null : String(body.clientState),
      expirationDateTime: new Date(Date.parse(String(body.expirationDateTime))).toISOString(),
      applicationId: this.applicationId,
    };
    this.all.set(sub.id, sub);
    return { status: 201, body: this.render(sub) };
  }

  /** Graph's refusal of a subscription request, or undefined when Graph would create it. */
  private async check(body: Record<string, unknown>): Promise<Reply | undefined> {
    const resource = String(body.resource ?? '').replace(/^\//, '');
    if (resource !== 'users' && resource !== 'groups')
      return graphError(400, 'InvalidRequest', `Resource '${resource}' is not supported by the fake.`);
    const changeTypes = String(body.changeType ?? '')
      .split(',')
      .map((c) => c.trim());
    const unsupported = changeTypes.filter((c) => !CHANGE_TYPES[resource].includes(c));
    if (unsupported.length > 0) {
      return graphError(
        400,
        'InvalidRequest',
        `The changeType '${unsupported.join(',')}' is not supported for resource '${resource}'. Supported changeType values: ${CHANGE_TYPES[resource].join(', ')}.`,
      );
    }
    const expires = Date.parse(String(body.expirationDateTime ?? ''));
    if (!Number.isFinite(expires) || expires <= Date.now())
      return graphError(400, 'InvalidRequest', 'Subscription expiration must be in the future.');
    if (expires > Date.now() + MAX_MINUTES * 60_000) {
      return graphError(
        400,
        'InvalidRequest',
        `Subscription expiration can only be ${MAX_MINUTES} minutes in the future.`,
      );
    }
    if (typeof body.clientState === 'string' && body.clientState.length > MAX_CLIENT_STATE) {
      return graphError(400, 'InvalidRequest', `clientState must not exceed ${MAX_CLIENT_STATE} characters.`);
    }
    const notificationUrl = String(body.notificationUrl ?? '');
    if (!/^https:\/\//.test(notificationUrl))
      return graphError(400, 'ValidationError', 'The Notification Url must be a valid HTTPS url.');
    const lifecycle = body.lifecycleNotificationUrl === undefined ? null : String(body.lifecycleNotificationUrl);
    if (lifecycle !== null && !/^https:\/\//.test(lifecycle))
      return graphError(400, 'ValidationError', 'The lifecycle Notification Url must be a valid HTTPS url.');
    if (!(await validate(notificationUrl, this.validationTimeoutMs))) {
      return graphError(
        400,
        'ValidationError',
        'Subscription validation request failed. Notification endpoint must respond with 200 OK to validation request.',
      );
    }
    if (lifecycle !== null && !(await validate(lifecycle, this.validationTimeoutMs))) {
      return graphError(
        400,
        'ValidationError',
        'Subscription validation request failed. Lifecycle notification endpoint must respond with 200 OK to validation request.',
      );
    }
    return undefined;
  }

  renew(tenantId: string, id: string, body: Record<string, unknown>): Reply {
    const sub = this.live(tenantId, id);
    if (!sub) return graphError(404, 'ResourceNotFound', `The object was not found.`);
    const expires = Date.parse(String(body.expirationDateTime ?? ''));
    if (!Number.isFinite(expires) || expires > Date.now() + MAX_MINUTES * 60_000)
      return graphError(400, 'InvalidRequest', 'Invalid expirationDateTime.');
    sub.expirationDateTime = new Date(expires).toISOString();
    return { status: 200, body: this.render(sub) };
  }

  delete(tenantId: string, id: string): Reply {
    if (!this.live(tenantId, id)) return graphError(404, 'ResourceNotFound', 'The object was not found.');
    this.all.delete(id);
    return { status: 204, body: '' };
  }

  list(tenantId: string): Reply {
    return {
      status: 200,
      body: {
        value: [...this.all.values()]
          .filter((s) => s.tenantId === tenantId && this.live(tenantId, s.id))
          .map((s) => this.render(s)),
      },
    };
  }

  private live(tenantId: string, id: string): Subscription | undefined {
    const sub = this.all.get(id);
    if (!sub || sub.tenantId !== tenantId) return undefined;
    if (Date.parse(sub.expirationDateTime) <= Date.now()) {
      this.all.delete(id);
      return undefined;
    }
    return sub;
  }

  private render(sub: Subscription) {
    return {
      '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#subscriptions/$entity',
      id: sub.id,
      resource: sub.resource,
      applicationId: sub.applicationId,
      changeType: sub.changeType,
      clientState: sub.clientState,
      notificationUrl: sub.notificationUrl,
      lifecycleNotificationUrl: sub.lifecycleNotificationUrl,
      expirationDateTime: sub.expirationDateTime,
      creatorId: randomUUID(),
      includeResourceData: false,
      latestSupportedTlsVersion: 'v1_2',
      notificationQueryOptions: null,
    };
  }

  /**
   * A change to a user or group of the tenant: queued for every live subscription on that resource. Graph tells
   * `updated` for a creation, an update, a soft deletion and a restore, and `deleted` for a permanent deletion
   * (https://learn.microsoft.com/en-us/graph/api/resources/subscription).
   */
  changed(tenantId: string, kind: Kind, id: string, changeType: 'updated' | 'deleted'): void {
    for (const sub of this.all.values()) {
      if (sub.tenantId !== tenantId || sub.resource !== kind || !this.live(tenantId, sub.id)) continue;
      if (!sub.changeType.split(',').includes(changeType)) continue;
      const type = kind === 'users' ? 'User' : 'Group';
      this.queue(sub.notificationUrl, {
        subscriptionId: sub.id,
        subscriptionExpirationDateTime: sub.expirationDateTime,
        changeType,
        resource: `${type}s/${id}`,
        resourceData: {
          '@odata.type': `#Microsoft.Graph.${type}`,
          '@odata.id': `${type}s/${id}`,
          id,
          organizationId: tenantId,
        },
        clientState: sub.clientState,
        tenantId,
      });
    }
  }

  /** Sends a lifecycle event for the subscription; `subscriptionRemoved` also removes it. */
  lifecycle(id: string, event: 'subscriptionRemoved' | 'missed' | 'reauthorizationRequired'): void {
    const sub = this.all.get(id)!;
    if (event === 'subscriptionRemoved') this.all.delete(id);
    this.queue(sub.lifecycleNotificationUrl ?? sub.notificationUrl, {
      subscriptionId: sub.id,
      subscriptionExpirationDateTime: sub.expirationDateTime,
      tenantId: sub.tenantId,
      clientState: sub.clientState,
      lifecycleEvent: event,
    });
  }

  /** Posts a notification body as Graph would, with any clientState (tests of a forged notification). */
  async post(url: string, value: Array<Record<string, unknown>>): Promise<number> {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ value }),
      });
      await res.arrayBuffer();
      this.sent.push({ url, status: res.status, body: { value } });
      return res.status;
    } catch {
      this.sent.push({ url, status: 0, body: { value } });
      return 0;
    }
  }

  private queue(url: string, item: Record<string, unknown>): void {
    this.pending.set(url, [...(this.pending.get(url) ?? []), item]);
    this.flushTimer ??= setTimeout(() => void this.flush(), this.batchMs);
  }

  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batches = this.pending;
    this.pending = new Map();
    await Promise.all([...batches].map(([url, value]) => this.post(url, value)));
  }

  close(): void {
    clearTimeout(this.flushTimer);
  }
}
