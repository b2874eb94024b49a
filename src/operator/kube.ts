/**
 * A small raw REST client for the API server, on the credentials of a kubeconfig (kube-config/).
 *
 * Why not client-node's generated APIs: they deserialize into models with `Date` fields (while watch events
 * are raw JSON, so cached and fetched objects would differ), need the patch content type forced per call (the
 * 1.4 "415 Unsupported Media Type" pitfall), open a new TLS connection per request, and hide the API server's
 * Status message in an "HTTP-Code: ..." blob. Here every request reuses one keep-alive agent, errors carry the
 * server's Status, and every write is counted (the "no write when nothing changed" checks read that count).
 */
import { request as httpRequest, Agent as HttpAgent, type RequestOptions } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { KubeApiError } from './errors.js';
import type { KubeConfigView } from './kube-config/kube-credentials.js';
import { TokenBucket } from './token-bucket.js';

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: unknown[];
  generateName?: string;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

export interface Secret extends KubeObject {
  type?: string;
  data?: Record<string, string>;
}

export interface KubeList<T> {
  metadata: { resourceVersion?: string; continue?: string };
  items: T[];
}

/** A REST resource: `{group: '', version: 'v1', plural: 'secrets'}` or a CRD's group/version/plural. */
export interface Resource {
  group: string;
  version: string;
  plural: string;
}

export const SECRETS: Resource = { group: '', version: 'v1', plural: 'secrets' };
export const EVENTS: Resource = { group: '', version: 'v1', plural: 'events' };
export const NAMESPACES: Resource = { group: '', version: 'v1', plural: 'namespaces' };
export const LEASES: Resource = { group: 'coordination.k8s.io', version: 'v1', plural: 'leases' };

/** `/api/v1/namespaces/ns/secrets/name/status`; without a namespace, the all-namespaces collection. */
export function resourcePath(r: Resource, namespace?: string, name?: string, subresource?: string): string {
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  const ns = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const item = name ? `/${encodeURIComponent(name)}${subresource ? `/${subresource}` : ''}` : '';
  return `${base}${ns}/${r.plural}${item}`;
}

export const objectKey = (obj: KubeObject): string =>
  obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.metadata.name;

export type WriteVerb = 'create' | 'update' | 'patch' | 'delete';

export interface KubeClientOptions {
  kubeConfig: KubeConfigView;
  /** Called once per write request that reached the server, whatever its outcome. */
  onWrite?: (resource: string, verb: WriteVerb) => void;
  /**
   * Called before every write is sent; throwing refuses the write (it is then not sent, and not counted). The
   * operator fences its writes with it: a replica that is no longer the leader writes nothing.
   */
  beforeWrite?: () => void;
  /**
   * Called once per request with its outcome: the HTTP status code, or `<error>` when none came (client-go's labels).
   */
  onResponse?: (method: string, code: string, host: string) => void;
  /**
   * Per-request timeout, from sending to the end of the response, 429 retries included (not used by watches,
   * which stream). Default 30 s.
   */
  timeoutMs?: number;
  userAgent?: string;
  /**
   * Client-side rate limit, as client-go's QPS and Burst: requests a second, and how many may go at once
   * after a quiet spell. Watches are not limited. Default: none.
   */
  rateLimit?: { qps: number; burst: number };
}

/** Per-call options. */
export interface CallOptions {
  /** This call's timeout instead of the client's. */
  timeoutMs?: number;
}

interface RequestArgs extends CallOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  /** Default `application/json`; kubectl asks for `application/json;as=Table;v=v1;g=meta.k8s.io`. */
  accept?: string;
}

const MERGE_PATCH = 'application/merge-patch+json';

/**
 * A 429 (priority and fairness, or max-inflight) is sent again after its Retry-After, at most this often, as
 * client-go does; the server has not acted on it, so a write is safe to resend.
 */
const MAX_THROTTLED_RETRIES = 10;

/** Retry-After in ms: delta-seconds (all the API server sends) or an HTTP date; 1 s when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number {
  if (header && /^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = header ? Date.parse(header) : NaN;
  return Number.isNaN(at) ? 1000 : Math.max(0, at - now);
}

interface Response {
  status: number;
  text: string;
  retryAfter: string | undefined;
}

export class KubeClient {
  readonly kubeConfig: KubeConfigView;
  private readonly server: URL;
  private readonly onWrite: (resource: string, verb: WriteVerb) => void;
  private readonly beforeWrite: () => void;
  private readonly onResponse: (method: string, code: string, host: string) => void;
  private readonly timeoutMs: number;
  private readonly userAgent: string;
  private readonly limiter: TokenBucket | undefined;
  /** Requests share a bounded pool; watches, which hold their connection for minutes, get their own. */
  private readonly agents = new Map<'requests' | 'watches', { agent: HttpAgent; cert: unknown }>();

  constructor(options: KubeClientOptions) {
    const cluster = options.kubeConfig.getCurrentCluster();
    if (!cluster) throw new TypeError('kubeConfig has no current cluster');
    this.kubeConfig = options.kubeConfig;
    this.server = new URL(cluster.server);
    this.onWrite = options.onWrite ?? (() => undefined);
    this.beforeWrite = options.beforeWrite ?? (() => undefined);
    this.onResponse = options.onResponse ?? (() => undefined);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.userAgent = options.userAgent ?? 'dsync-operator';
    this.limiter = options.rateLimit && new TokenBucket(options.rateLimit.qps, options.rateLimit.burst);
  }

  get<T>(r: Resource, namespace: string, name: string, options: CallOptions = {}): Promise<T> {
    return this.request('GET', resourcePath(r, namespace, name), options);
  }

  /** `accept` asks for another representation, e.g. PartialObjectMetadataList (metadata only). */
  list<T>(
    r: Resource,
    namespace: string | undefined,
    query: RequestArgs['query'],
    accept?: string,
  ): Promise<KubeList<T>> {
    return this.request('GET', resourcePath(r, namespace), { query, ...(accept && { accept }) });
  }

  create<T extends KubeObject>(r: Resource, obj: T, options: CallOptions = {}): Promise<T> {
    return this.write(r.plural, 'create', () =>
      this.request('POST', resourcePath(r, obj.metadata.namespace), { ...options, body: obj }),
    );
  }

  /** PUT: fails with 409 Conflict unless `metadata.resourceVersion` is still current. */
  replace<T extends KubeObject>(r: Resource, obj: T, subresource?: string, options: CallOptions = {}): Promise<T> {
    const path = resourcePath(r, obj.metadata.namespace, obj.metadata.name, subresource);
    return this.write(subresource ? `${r.plural}/${subresource}` : r.plural, 'update', () =>
      this.request('PUT', path, { ...options, body: obj }),
    );
  }

  /** JSON merge patch; include `metadata.resourceVersion` in the patch to make it conditional. */
  mergePatch<T>(r: Resource, namespace: string, name: string, patch: unknown, subresource?: string): Promise<T> {
    const path = resourcePath(r, namespace, name, subresource);
    return this.write(subresource ? `${r.plural}/${subresource}` : r.plural, 'patch', () =>
      this.request('PATCH', path, { body: patch, contentType: MERGE_PATCH }),
    );
  }

  delete(r: Resource, namespace: string, name: string): Promise<unknown> {
    return this.write(r.plural, 'delete', () => this.request('DELETE', resourcePath(r, namespace, name)));
  }

  /** Every write goes through here: refused by `beforeWrite` before it is sent, else counted and sent. */
  private async write<T>(resource: string, verb: WriteVerb, send: () => Promise<T>): Promise<T> {
    this.beforeWrite();
    this.onWrite(resource, verb);
    return send();
  }

  /**
   * One request: waits for the client-side rate limit, sends, and sends again after Retry-After while the
   * server answers 429, all within the timeout. Resolves with the parsed body of a 2xx.
   */
  async request<T>(method: string, path: string, args: RequestArgs = {}): Promise<T> {
    const url = new URL(path, this.server);
    for (const [k, v] of Object.entries(args.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const deadline = performance.now() + (args.timeoutMs ?? this.timeoutMs);
    for (let attempt = 0; ; attempt++) {
      await this.limiter?.take();
      const res = await this.send(method, url, args, deadline);
      this.onResponse(method, String(res.status), this.server.host);
      if (res.status >= 200 && res.status < 300) return (res.text ? JSON.parse(res.text) : undefined) as T;
      const waitMs = retryAfterMs(res.retryAfter);
      if (res.status !== 429 || attempt >= MAX_THROTTLED_RETRIES || performance.now() + waitMs >= deadline) {
        throw KubeApiError.fromResponse(method, path, res.status, res.text);
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }

  /** One HTTP exchange, bounded by `deadline` (performance.now() time) as a whole. */
  private async send(method: string, url: URL, args: RequestArgs, deadline: number): Promise<Response> {
    const label = `${method} ${url.pathname}`;
    const { headers, agent } = await this.connection('requests', args.accept);
    const payload = args.body === undefined ? undefined : JSON.stringify(args.body);
    if (payload !== undefined) {
      headers['Content-Type'] = args.contentType ?? 'application/json';
      // Node frames a DELETE's body only with a length (no chunking by default): unframed, it would be read
      // as the next request on the kept-alive connection.
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const timeoutMs = Math.floor(deadline - performance.now());
    return new Promise<Response>((resolve, reject) => {
      if (!(timeoutMs > 0)) return reject(new Error(`${label}: no time left to send it`));
      // A deadline for the whole exchange (a socket timeout would only bound the silences between packets).
      const timer = setTimeout(
        () => req.destroy(new Error(`${label} timed out after ${args.timeoutMs ?? this.timeoutMs} ms`)),
        timeoutMs,
      );
      const fail = (err: unknown): void => {
        clearTimeout(timer);
        this.onResponse(method, '<error>', this.server.host);
        reject(err);
      };
      const req = request(url, { method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', fail);
        res.on('end', () => {
          clearTimeout(timer);
          const retryAfter = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), retryAfter });
        });
      });
      req.on('error', fail);
      req.end(payload);
    });
  }

  /**
   * Headers and agent for one request. The credentials are re-applied every time (exec and token-file
   * credentials refresh themselves there); the agent is kept, and rebuilt only when the client certificate
   * changed (an exec plugin's rotated one).
   */
  private async connection(
    pool: 'requests' | 'watches',
    accept = 'application/json',
  ): Promise<{ headers: Record<string, string>; agent: HttpAgent }> {
    const opts: RequestOptions & Record<string, unknown> = {};
    await this.kubeConfig.applyToHTTPSOptions(opts);
    const headers: Record<string, string> = {
      ...(opts.headers as Record<string, string> | undefined),
      Accept: accept,
      'User-Agent': this.userAgent,
    };
    if (opts.auth) headers['Authorization'] = `Basic ${Buffer.from(String(opts.auth)).toString('base64')}`;
    // A proxied cluster (client-node's KubeConfig) keeps client-node's own agent, which knows how to tunnel.
    if (this.kubeConfig.getCurrentCluster()?.proxyUrl) return { headers, agent: opts['agent'] as HttpAgent };
    const kept = this.agents.get(pool);
    if (kept && kept.cert === opts['cert']) return { headers, agent: kept.agent };
    const tls = Object.fromEntries(
      ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'].flatMap((k) =>
        opts[k] === undefined ? [] : [[k, opts[k]]],
      ),
    );
    const sockets = { keepAlive: true, ...(pool === 'requests' && { maxSockets: 32 }) };
    const agent = this.server.protocol === 'https:' ? new HttpsAgent({ ...sockets, ...tls }) : new HttpAgent(sockets);
    this.agents.set(pool, { agent, cert: opts['cert'] });
    return { headers, agent };
  }

  /**
   * Streams a watch's events (one JSON object a line) to `onEvent` until the server ends it or it fails; `onDone`
   * is called once, with a KubeApiError for a refused watch (410 Gone included). The returned function ends it
   * without calling `onDone`.
   */
  watch(
    path: string,
    query: RequestArgs['query'],
    accept: string | undefined,
    onEvent: (type: string, object: unknown) => void,
    onDone: (err?: unknown) => void,
  ): () => void {
    const url = new URL(path, this.server);
    url.searchParams.set('watch', 'true');
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    let done = false;
    let req: ReturnType<typeof httpRequest> | undefined;
    const finish = (err?: unknown): void => {
      if (done) return;
      done = true;
      req?.destroy();
      onDone(err);
    };
    this.connection('watches', accept).then(({ headers, agent }) => {
      if (done) return;
      const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
      req = request(url, { method: 'GET', headers, agent }, (res) => {
        res.setEncoding('utf8');
        let text = '';
        if (res.statusCode !== 200) {
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => finish(KubeApiError.fromResponse('WATCH', url.pathname, res.statusCode ?? 0, text)));
          return;
        }
        res.on('data', (chunk: string) => {
          text += chunk;
          // Lines are cut from a moving start and the rest kept once per chunk, not re-sliced per line.
          let start = 0;
          let newline: number;
          while (!done && (newline = text.indexOf('\n', start)) >= 0) {
            const line = text.slice(start, newline);
            start = newline + 1;
            if (!line.trim()) continue;
            let event: { type: string; object: unknown };
            try {
              event = JSON.parse(line) as typeof event;
            } catch {
              return finish(new Error(`watch ${url.pathname}: a line that is not JSON`));
            }
            onEvent(event.type, event.object);
          }
          text = text.slice(start);
        });
        res.on('end', () => finish());
        res.on('error', finish);
      });
      // The watch is idle between events: TCP keep-alive notices a peer that vanished (client-go's 30 s).
      req.on('socket', (socket) => socket.setKeepAlive(true, 30_000));
      req.on('error', finish);
      req.on('close', () => finish());
      req.end();
    }, finish);
    return () => {
      done = true;
      req?.destroy();
    };
  }

  close(): void {
    for (const { agent } of this.agents.values()) agent.destroy();
  }
}
