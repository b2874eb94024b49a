/**
 * The one HTTP client of the HRIS providers: JSON asked for explicitly (BambooHR answers XML otherwise), each
 * request paced per company, retried with backoff on 429/503 (never sooner than `Retry-After`), 5xx and network
 * failures; a 401/403 is the credentials' fault and is never retried. It remembers the provider's clock (the first
 * answer's `Date`), which is where a changed-since feed resumes.
 */
import { HrisApiError, HrisCredentialsError } from './errors.js';
import { withRetries, type Failure, type RetryOptions } from '../pull/retry.js';

export interface HttpObserver {
  request(): void;
  retry(reason: string): void;
  throttled(): void;
}

export interface HrisHttpDeps {
  /** `BambooHR`: names the provider in errors. */
  provider: string;
  /** Resolves when the next request may go (the company's budget). */
  pace(): Promise<void>;
  /** The provider said to wait `ms` before any further request of the company. */
  hold(ms: number): void;
  retry: RetryOptions;
  observer: HttpObserver;
  timeoutMs?: number;
}

/** A provider answer that was not a success. */
export class HttpFailure extends Error {
  constructor(
    readonly status: number,
    /** What the provider said (its message, briefly). */
    readonly reason: string,
    readonly retryAfterMs: number | undefined,
  ) {
    super(`HTTP ${status}`);
  }
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds. */
export function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** The provider's own words about a refusal, briefly (a JSON `message`/`error`/`detail`, else the text). */
export function providerMessage(body: string): string {
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    const errors = Array.isArray(j.errors) ? (j.errors[0] as Record<string, unknown> | undefined) : undefined;
    const found = [j.message, j.error_description, j.error, j.detail, errors?.detail, errors?.title].find(
      (v) => typeof v === 'string',
    );
    if (typeof found === 'string') return found.slice(0, 200);
  } catch {
    /* not JSON */
  }
  return body
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}

const RETRIED = new Set([429, 500, 502, 503, 504]);

export interface RequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** A 404 answers null (a record that is gone) instead of failing. */
  missing?: boolean;
}

export class HrisHttp {
  /** The provider's clock at its first answer (epoch ms), from its `Date` header. */
  firstAnswerAt: number | undefined;

  constructor(private readonly deps: HrisHttpDeps) {}

  /** The JSON body of a successful answer; throws HrisCredentialsError on 401/403, HrisApiError otherwise. */
  async json(url: string, init: RequestInit = {}): Promise<unknown> {
    const { deps } = this;
    return withRetries(() => this.once(url, init), {
      options: deps.retry,
      before: () => deps.pace(),
      passThrough: (err) => err instanceof HrisCredentialsError,
      classify: (err): Failure => {
        if (!(err instanceof HttpFailure)) return { retry: !(err instanceof HrisApiError) };
        if (err.status === 429 || (err.status === 503 && err.retryAfterMs !== undefined)) {
          deps.observer.throttled();
          if (err.retryAfterMs !== undefined) deps.hold(err.retryAfterMs);
        }
        return {
          retry: RETRIED.has(err.status),
          status: err.status,
          ...(err.retryAfterMs !== undefined && { retryAfterMs: err.retryAfterMs }),
        };
      },
      final: (err) => {
        if (err instanceof HrisApiError) return err;
        if (err instanceof HttpFailure)
          return new HrisApiError(deps.provider, `HTTP ${err.status}${err.reason ? `: ${err.reason}` : ''}`);
        return new HrisApiError(deps.provider, (err as Error)?.message ?? String(err));
      },
      onRetry: (f) => deps.observer.retry(f.status ? String(f.status) : 'network'),
    });
  }

  private async once(url: string, init: RequestInit): Promise<unknown> {
    this.deps.observer.request();
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: { Accept: 'application/json', ...init.headers },
      ...(init.body !== undefined && { body: init.body }),
      redirect: 'error',
      signal: AbortSignal.timeout(this.deps.timeoutMs ?? 30_000),
    });
    const text = await res.text();
    if (this.firstAnswerAt === undefined) {
      const date = Date.parse(res.headers.get('date') ?? '');
      this.firstAnswerAt = Number.isNaN(date) ? Date.now() : date;
    }
    if (res.status === 404 && init.missing) return null;
    if (!res.ok) {
      // BambooHR says why in a header, with an empty body.
      const reason = res.headers.get('x-bamboohr-error-message') ?? providerMessage(text);
      if (res.status === 401 || res.status === 403)
        throw new HrisCredentialsError(this.deps.provider, res.status, reason);
      throw new HttpFailure(res.status, reason, retryAfter(res.headers.get('retry-after')));
    }
    try {
      return text === '' ? null : JSON.parse(text);
    } catch {
      throw new HrisApiError(
        this.deps.provider,
        `answered ${res.headers.get('content-type') ?? 'no content type'}, not JSON`,
      );
    }
  }
}
