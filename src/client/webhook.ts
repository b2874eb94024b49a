/**
 * Verifies a webhook delivery the Standard Webhooks way (the `standardwebhooks` package) and returns its events,
 * typed: one in real-time mode, up to the batch size in batch mode, always as an array. Each event is checked
 * against the event schemas (fields a later dsync adds are dropped, not refused).
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { z } from 'zod';
import { directorySyncEventSchema } from '../core/event-schema.js';
import type { components } from './api-types.js';

type DirectorySyncEvent = components['schemas']['DirectorySyncEvent'];

export { WebhookVerificationError };

const NAMES = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/** Request headers as node:http (`req.headers`), express, or the fetch API (`Headers`) give them. */
export type WebhookHeaders =
  | Headers
  | { readonly [name: string]: string | string[] | undefined }
  | Partial<Readonly<Record<(typeof NAMES)[number], string>>>;

function signedHeaders(headers: WebhookHeaders): Record<(typeof NAMES)[number], string> {
  const get = (name: (typeof NAMES)[number]): string => {
    const value = headers instanceof Headers ? headers.get(name) : (headers as Record<string, unknown>)[name];
    if (typeof value !== 'string') throw new WebhookVerificationError(`Missing or repeated ${name} header`);
    return value;
  };
  return { 'webhook-id': get(NAMES[0]), 'webhook-timestamp': get(NAMES[1]), 'webhook-signature': get(NAMES[2]) };
}

const deliverySchema = z.union([z.array(directorySyncEventSchema), directorySyncEventSchema]);

/**
 * The events of a delivery, once its signature (over the raw body, exactly as received) and timestamp (within
 * five minutes) check out with the directory's `webhook.secret`: a `whsec_` secret, or any other string (used
 * as raw bytes, as dsync signs with it). Throws `WebhookVerificationError` on a bad signature or stale
 * timestamp, and a ZodError when the body is not a dsync event.
 */
export function verifyWebhook(secret: string, rawBody: string | Buffer, headers: WebhookHeaders): DirectorySyncEvent[] {
  const webhook = secret.startsWith('whsec_') ? new Webhook(secret) : new Webhook(secret, { format: 'raw' });
  const payload = deliverySchema.parse(webhook.verify(rawBody, signedHeaders(headers)));
  return (Array.isArray(payload) ? payload : [payload]) as DirectorySyncEvent[];
}

/**
 * Events put back in their directory's order: each directory's by `sequence`, the directories in the order they
 * first appear (events of equal sequence keep their order). Delivery keeps each user's and each group's events in
 * order but sends unrelated ones side by side, so events gathered from several deliveries (a queue, a buffer of
 * POSTs, pages of the Events API) read in log order after this.
 */
export function sortBySequence<E extends Pick<DirectorySyncEvent, 'directory_id' | 'sequence'>>(
  events: readonly E[],
): E[] {
  const rank = new Map<string, number>();
  for (const e of events) if (!rank.has(e.directory_id)) rank.set(e.directory_id, rank.size);
  return [...events].sort((a, b) => rank.get(a.directory_id)! - rank.get(b.directory_id)! || a.sequence - b.sequence);
}
