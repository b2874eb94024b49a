/**
 * Microsoft Graph for one tenant, through @microsoft/microsoft-graph-client: an app-only token from msal
 * (tokens.ts) on each request, retries with backoff that never undercut `Retry-After`, and the tenant's
 * throttling gate (throttle.ts). The client's own retry and redirect handlers are left out of its middleware
 * chain, so that every retry is ours: counted, gated per tenant, and bounded.
 */
import { AuthenticationHandler, Client, GraphError, HTTPMessageHandler } from '@microsoft/microsoft-graph-client';
import { withRetries, retryAfterMs, type Failure, type RetryOptions } from '../pull/retry.js';
import { DsyncError } from '../../core/errors.js';
import { DeltaExpiredError, GraphApiError, MicrosoftCredentialsError } from './errors.js';
import type { TenantGate } from './throttle.js';
import type { GraphTokens } from './tokens.js';

export const DEFAULT_GRAPH_RETRY: RetryOptions = { attempts: 7, baseMs: 1_000, maxMs: 32_000 };

/** Graph error codes of a delta token it no longer knows. */
const EXPIRED_CODES = new Set(['syncStateNotFound', 'syncStateInvalid', 'resyncRequired']);
/** Graph's answer when the app lacks the permissions (consent revoked or changed). */
const DENIED_CODES = new Set(['Authorization_RequestDenied', 'Forbidden', 'AccessDenied']);

export interface GraphApiOptions {
  tenantId: string;
  graphUrl: string;
  tokens: GraphTokens;
  gate: TenantGate;
  retry: RetryOptions;
  /** Every HTTP request to Graph (retries included); every retry, with why; every throttling answer. */
  onRequest?: () => void;
  onRetry?: (failure: Failure) => void;
  onThrottled?: () => void;
}

export function classify(err: unknown): Failure {
  // Our own refusals (no app configured, credentials refused) are final; a token endpoint's passing failure is not.
  if (err instanceof DsyncError) return { retry: err instanceof GraphApiError };
  if (!(err instanceof GraphError)) return { retry: true };
  const status = err.statusCode > 0 ? err.statusCode : undefined;
  if (status === undefined) return { retry: true }; // network failure, a body that is not JSON
  const after = retryAfterMs(err.headers?.get('retry-after'));
  const retry = status === 429 || status === 408 || status >= 500;
  return { retry, status, ...(err.code && { reason: err.code }), ...(after !== undefined && { retryAfterMs: after }) };
}

export class GraphApi {
  private readonly client: Client;

  constructor(private readonly o: GraphApiOptions) {
    const tokenFor = { getAccessToken: () => o.tokens.token(o.tenantId) };
    const host = new URL(o.graphUrl).hostname;
    this.client = Client.initWithMiddleware({
      middleware: [new AuthenticationHandler(tokenFor), new HTTPMessageHandler()],
      baseUrl: new URL(o.graphUrl).origin,
      defaultVersion: 'v1.0',
      customHosts: new Set([host]),
    });
  }

  get tenantId(): string {
    return this.o.tenantId;
  }

  get<T = unknown>(path: string, what: string, headers: Record<string, string> = {}): Promise<T> {
    return this.request(what, () => this.client.api(path).headers(headers).get() as Promise<T>);
  }

  post<T = unknown>(path: string, body: unknown, what: string): Promise<T> {
    return this.request(what, () => this.client.api(path).post(body) as Promise<T>);
  }

  patch<T = unknown>(path: string, body: unknown, what: string): Promise<T> {
    return this.request(what, () => this.client.api(path).patch(body) as Promise<T>);
  }

  delete(path: string, what: string): Promise<void> {
    return this.request(what, () => this.client.api(path).delete() as Promise<void>);
  }

  /**
   * One Graph call, retried. The token is taken before the client runs (so Entra's refusal surfaces as ours, not
   * wrapped by the client); a 401 takes a fresh token once.
   */
  private request<T>(what: string, call: () => Promise<T>): Promise<T> {
    const { tenantId, gate } = this.o;
    let refreshed = false;
    return withRetries(
      async () => {
        await this.o.tokens.token(tenantId);
        this.o.onRequest?.();
        try {
          return await call();
        } catch (err) {
          if (err instanceof GraphError && err.statusCode === 401 && !refreshed) {
            refreshed = true;
            await this.o.tokens.token(tenantId, true);
            this.o.onRequest?.();
            return call();
          }
          throw err;
        }
      },
      {
        options: this.o.retry,
        classify,
        final: (err) => this.toError(err, what),
        passThrough: (err) => err instanceof DsyncError && !(err instanceof GraphApiError),
        before: () => gate.pass(tenantId),
        onRetry: (failure) => {
          if ((failure.status === 429 || failure.status === 503) && failure.retryAfterMs !== undefined) {
            gate.block(tenantId, failure.retryAfterMs);
            this.o.onThrottled?.();
          }
          this.o.onRetry?.(failure);
        },
      },
    );
  }

  /** A final failure as the provider's coded error; the client's error (with its request) is not kept. */
  private toError(err: unknown, what: string): Error {
    if (err instanceof DsyncError) return err;
    const f = classify(err);
    const code = f.reason;
    const message = String((err as Error)?.message ?? err).slice(0, 300);
    if (f.status === 410 || (code && EXPIRED_CODES.has(code))) return new DeltaExpiredError(what);
    if (f.status === 401 || (f.status === 403 && code && DENIED_CODES.has(code))) {
      return new MicrosoftCredentialsError(
        `Graph refused the app's access to tenant ${this.o.tenantId} while ${what} (${f.status} ${code ?? ''}: ${message}): the consent or its permissions were revoked; an admin must grant consent again`,
      );
    }
    // Graph's own message says what it refused (a subscription's changeType, a URL it could not validate…).
    const detail =
      f.status === undefined
        ? message
        : `HTTP ${f.status}${code ? ` ${code}` : ''}${message && message !== code ? `: ${message}` : ''}`;
    return new GraphApiError(`Microsoft Graph failed while ${what}: ${detail}`, f.status, code, {
      cause: { status: f.status, code, message },
    });
  }
}
