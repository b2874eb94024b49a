/**
 * Standard Webhooks signing (webhook-id, webhook-timestamp, webhook-signature). A `whsec_` secret is base64
 * after the prefix (the standard form); any other secret is used as raw bytes, which receivers verify with
 * `new Webhook(secret, { format: 'raw' })`.
 */
import { Webhook } from 'standardwebhooks';

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

const cache = new Map<string, Webhook>();

function webhookFor(secret: string): Webhook {
  let wh = cache.get(secret);
  if (!wh) {
    wh = secret.startsWith('whsec_') ? new Webhook(secret) : new Webhook(secret, { format: 'raw' });
    if (cache.size > 10_000) cache.clear();
    cache.set(secret, wh);
  }
  return wh;
}

/** Signs the exact bytes that will be sent; a fresh timestamp on every attempt. */
export function sign(secret: string, id: string, body: string, now = new Date()): SignedHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': webhookFor(secret).sign(id, now, body),
  };
}
