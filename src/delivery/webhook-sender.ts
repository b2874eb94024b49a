/**
 * Outbound webhook POSTs over undici: connect/header/body timeouts, no redirects (a 3xx is a failure, per
 * Standard Webhooks), a cap on how much of the receiver's answer is read, and the SSRF guard at connect time.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { sign } from './signer.js';
import { BlockedAddressError } from './errors.js';
import { assertUrlAllowed, guardedLookup } from './ssrf.js';

const BLOCKED = BlockedAddressError.code;

export interface SenderOptions {
  /** Allow loopback/private targets (local development, tests). */
  allowPrivate: boolean;
  timeoutMs: number;
  /** At most this much of the response body is read (the rest is discarded). */
  maxResponseBytes?: number;
  /** Injected for tests; built from the options otherwise. */
  dispatcher?: Dispatcher;
}

export interface SendResult {
  status?: number;
  retryAfter?: string;
  error?: string;
  /** Set when the target address is refused by the SSRF guard: retrying cannot help. */
  permanent?: boolean;
  latencyMs: number;
}

export class WebhookSender {
  private readonly dispatcher: Dispatcher;
  private readonly allowPrivate: boolean;
  private readonly maxResponseBytes: number;

  constructor(options: SenderOptions) {
    this.allowPrivate = options.allowPrivate;
    this.maxResponseBytes = options.maxResponseBytes ?? 64 * 1024;
    this.dispatcher =
      options.dispatcher ??
      new Agent({
        connect: { timeout: options.timeoutMs, ...(options.allowPrivate ? {} : { lookup: guardedLookup }) },
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        keepAliveTimeout: 30_000,
      });
  }

  /** POSTs `body` signed with `secret`; never throws: failures come back as `error`. */
  async post(endpoint: string, secret: string, id: string, body: string): Promise<SendResult> {
    const started = performance.now();
    const latency = () => Math.round((performance.now() - started) * 10) / 10;
    try {
      const url = new URL(endpoint);
      if (!this.allowPrivate) assertUrlAllowed(url);
      const res = await request(url, {
        method: 'POST',
        dispatcher: this.dispatcher,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'dsync-webhooks/1',
          ...sign(secret, id, body),
        },
        body,
      });
      await res.body.dump({ limit: this.maxResponseBytes }).catch(() => undefined);
      const retryAfter = res.headers['retry-after'];
      return {
        status: res.statusCode,
        ...(typeof retryAfter === 'string' && { retryAfter }),
        latencyMs: latency(),
      };
    } catch (err) {
      const e = err as Error & { code?: string; cause?: Error & { code?: string } };
      const code = e.code ?? e.cause?.code;
      const blocked = code === BLOCKED || e.cause?.code === BLOCKED;
      const message = blocked && e.cause ? e.cause.message : e.message;
      return { error: code ? `${code}: ${message}` : message, ...(blocked && { permanent: true }), latencyMs: latency() };
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
