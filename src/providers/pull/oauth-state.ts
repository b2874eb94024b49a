/**
 * The OAuth `state` of a pull provider's browser flow (Google's consent, Entra's admin consent): signed
 * (HMAC-SHA256), expiring and bound to one directory, so the unauthenticated callback cannot be used to attach
 * someone's grant to another directory (the peer's state was plain JSON). The key is derived from the app's own
 * credential and the provider's purpose: every replica shares it, and nothing else has to be configured. The
 * nonce lets a provider make the state single-use.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** Long enough for an admin to sign in and consent; short enough that a leaked URL soon stops working. */
export const STATE_TTL_MS = 15 * 60_000;

const payload = z.strictObject({
  d: z.string().min(1).max(200),
  e: z.number().int(),
  n: z.string().max(64),
  r: z.url({ protocol: /^https?$/ }).max(2048).optional(),
});
export type StatePayload = { directoryId: string; expiresAt: number; nonce: string; redirectUrl?: string };

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

export class StateSigner {
  private readonly key: Buffer;
  /** `purpose` keeps one provider's states from being accepted by another's callback. */
  constructor(
    secret: string,
    purpose: string,
    private readonly invalid: (reason: string) => Error,
  ) {
    this.key = createHmac('sha256', secret).update(purpose).digest();
  }

  sign(directoryId: string, redirectUrl?: string, now = Date.now(), nonce = randomBytes(12).toString('base64url')): string {
    const body = b64(JSON.stringify({ d: directoryId, e: now + STATE_TTL_MS, n: nonce, ...(redirectUrl && { r: redirectUrl }) }));
    return `${body}.${this.mac(body)}`;
  }

  /** The payload of a state this server signed and that has not expired; InvalidStateError otherwise. */
  verify(state: unknown, now = Date.now()): StatePayload {
    if (typeof state !== 'string' || state.length > 4096) throw this.invalid('missing or malformed');
    const [body, mac, extra] = state.split('.');
    if (!body || !mac || extra !== undefined) throw this.invalid('malformed');
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw this.invalid('bad signature');
    let parsed: z.infer<typeof payload>;
    try {
      parsed = payload.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
    } catch {
      throw this.invalid('malformed');
    }
    if (parsed.e <= now) throw this.invalid('expired');
    return { directoryId: parsed.d, expiresAt: parsed.e, nonce: parsed.n, ...(parsed.r !== undefined && { redirectUrl: parsed.r }) };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
