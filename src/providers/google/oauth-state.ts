/**
 * The OAuth `state`: signed (HMAC-SHA256), expiring and bound to one directory, so the unauthenticated callback
 * cannot be used to attach someone's Google tokens to another directory (the peer's state was plain JSON).
 * The key is derived from the OAuth client secret: every replica shares it, and nothing else has to be configured.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { InvalidStateError } from './errors.js';

/** Long enough for an admin to sign in and consent; short enough that a leaked URL soon stops working. */
export const STATE_TTL_MS = 15 * 60_000;

const payload = z.strictObject({
  d: z.string().min(1).max(200),
  e: z.number().int(),
  n: z.string().max(64),
  r: z.url({ protocol: /^https?$/ }).max(2048).optional(),
});
export type StatePayload = { directoryId: string; expiresAt: number; redirectUrl?: string };

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

export class StateSigner {
  private readonly key: Buffer;
  constructor(clientSecret: string) {
    this.key = createHmac('sha256', clientSecret).update('dsync google oauth state v1').digest();
  }

  sign(directoryId: string, redirectUrl?: string, now = Date.now()): string {
    const body = b64(
      JSON.stringify({ d: directoryId, e: now + STATE_TTL_MS, n: randomBytes(12).toString('base64url'), ...(redirectUrl && { r: redirectUrl }) }),
    );
    return `${body}.${this.mac(body)}`;
  }

  /** The payload of a state this server signed and that has not expired; InvalidStateError otherwise. */
  verify(state: unknown, now = Date.now()): StatePayload {
    if (typeof state !== 'string' || state.length > 4096) throw new InvalidStateError('missing or malformed');
    const [body, mac, extra] = state.split('.');
    if (!body || !mac || extra !== undefined) throw new InvalidStateError('malformed');
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new InvalidStateError('bad signature');
    let parsed: z.infer<typeof payload>;
    try {
      parsed = payload.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
    } catch {
      throw new InvalidStateError('malformed');
    }
    if (parsed.e <= now) throw new InvalidStateError('expired');
    return { directoryId: parsed.d, expiresAt: parsed.e, ...(parsed.r !== undefined && { redirectUrl: parsed.r }) };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
