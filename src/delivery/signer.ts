/**
 * Standard Webhooks signing (webhook-id, webhook-timestamp, webhook-signature: `v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>`). A `whsec_` secret is base64 after the prefix (the standard form); any other secret is
 * used as raw bytes, which receivers verify with `new Webhook(secret, { format: 'raw' })`.
 *
 * Signed with node:crypto rather than the `standardwebhooks` package, whose pure-JS SHA-256 costs several times
 * more per event (docs/design/performance.md, "The signature"); a unit test pins the output to the package's own
 * `sign`, and every delivery test verifies with the package.
 */
import { createHmac } from 'node:crypto';

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

const keys = new Map<string, Buffer>();

function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    // `format: 'raw'` in the package takes each char code as a byte: latin1.
    key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'latin1');
    if (keys.size > 10_000) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

/** Signs the exact bytes that will be sent; a fresh timestamp on every attempt. */
export function sign(secret: string, id: string, body: string, now = new Date()): SignedHeaders {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${mac}` };
}
