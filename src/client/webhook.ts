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
