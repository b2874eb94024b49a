/**
 * Outbound webhook POSTs over undici: connect/header/body timeouts, no redirects (a 3xx is a failure, per
 * Standard Webhooks), a cap on how much of the receiver's answer is read, and the SSRF guard at connect time.
 */
import { Agent, type Dispatcher } from 'undici';
import { type Answer, AnswerReader } from './answer-reader.js';
import { sign } from './signer.js';
import { BlockedAddressError } from './errors.js';
import { assertUrlAllowed, guardedLookup } from './ssrf.js';

const BLOCKED = BlockedAddressError.code;
/** Endpoints remembered parsed: one per directory's webhook, forgotten all at once past this many. */
const MAX_TARGETS = 10_000;

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
  private readonly targets = new Map<string, { origin: string; path: string }>();

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
      // Property by property, no spread first: Node 20's V8 builds such a literal on a slow path.
      const { origin, path } = this.target(endpoint);
      const options: Dispatcher.DispatchOptions = {
        origin,
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'dsync-webhooks/1',
          ...sign(secret, id, body),
        },
        body,
      };
      const answer = await new Promise<Answer>((resolve, reject) => {
        this.dispatcher.dispatch(
          options,
          new AnswerReader(this.maxResponseBytes, (err, a) => (err ? reject(err) : resolve(a!))),
        );
      });
      const sent: SendResult = { status: answer.status, latencyMs: latency() };
      if (answer.retryAfter !== undefined) sent.retryAfter = answer.retryAfter;
      return sent;
    } catch (err) {
      const e = err as Error & { code?: string; cause?: Error & { code?: string } };
      const code = e.code ?? e.cause?.code;
      const blocked = code === BLOCKED || e.cause?.code === BLOCKED;
      const message = blocked && e.cause ? e.cause.message : e.message;
      return {
        error: code ? `${code}: ${message}` : message,
        ...(blocked && { permanent: true }),
        latencyMs: latency(),
      };
    }
  }

  /**
   * The endpoint as the dispatcher takes it, parsed and checked once per endpoint rather than per POST, as undici's
   * `request(url)` would (docs/design/performance.md, "Delivery's cost per event"). A refused or malformed endpoint
   * is not remembered, so it throws on every POST; the address is still checked at connect time.
   */
  private target(endpoint: string): { origin: string; path: string } {
    let target = this.targets.get(endpoint);
    if (!target) {
      const url = new URL(endpoint);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new TypeError(`Invalid URL protocol: ${url.protocol}`);
      if (!this.allowPrivate) assertUrlAllowed(url);
      target = { origin: url.origin, path: `${url.pathname}${url.search}` };
      if (this.targets.size >= MAX_TARGETS) this.targets.clear();
      this.targets.set(endpoint, target);
    }
    return target;
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
