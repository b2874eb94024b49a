/** Real HTTP for tests: the dsync app on an ephemeral port, and a webhook receiver that verifies signatures. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import { createApp, type AppOptions } from '../../src/http/app.js';
import { answerClientErrors } from '../../src/http/server/client-errors.js';
import { expressTypes } from '../../src/http/server/express-types.js';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import type { RedisStoreOptions } from '../../src/store/redis/connection.js';
import type { Store } from '../../src/core/store-port.js';
import type { RateLimits } from '../../src/ratelimit/rate-limits.js';
import { createDsync, type Dsync, type DsyncOptions } from '../../src/service.js';
import { freshRedisStore, freshReplicatedStore } from './services.js';

export const API_KEY = 'test-api-key';

export type StoreKind = 'memory' | 'redis' | 'redis-cluster' | 'redis-sentinel';
export const STORE_KINDS: StoreKind[] = ['memory', 'redis'];
/** The suites that prove the store on a sharded, replicated Redis run on the shared cluster too. */
export const CLUSTER_STORE_KINDS: StoreKind[] = [...STORE_KINDS, 'redis-cluster'];

/**
 * A fresh store: `db` picks the logical database of the single server (a cluster has only db 0: all flushed);
 * `options` go to a Redis store (e.g. a longer `commandTimeout`).
 */
export async function openStore(kind: StoreKind, db = 2, options: RedisStoreOptions = {}): Promise<Store> {
  if (kind === 'memory') return new MemoryStore();
  if (kind === 'redis') return freshRedisStore(db, options);
  return freshReplicatedStore(kind === 'redis-cluster' ? 'cluster' : 'sentinel', options);
}

/** A logger whose lines (JSON objects) land in `lines`. */
export function capturedLogger(level = 'info'): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * How long a spawned dsync process may take to answer its health or readiness probe. Idle, a start takes 2–4 s
 * (loading the modules is CPU work); CI runs three test processes on two cores, and a start there took over 20 s.
 */
export const READY_WITHIN_MS = 60_000;

/** Polls `check` until it holds; the message says what was awaited (a function is evaluated on timeout). */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string | (() => string),
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await sleep(10);
  }
}

async function listen(server: Server, scheme = 'http'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

async function call(url: string, init: RequestInit): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, headers: res.headers, body };
}

export interface Service {
  url: string;
  dsync: Dsync;
  /** Management API call with the API key. */
  api(method: string, path: string, body?: unknown): Promise<Reply>;
  /** SCIM call against a directory, with its bearer token. */
  scim(
    directory: { id: string; scim: { secret: string } },
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Reply>;
  createDirectory(input?: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

/**
 * `rateLimits` builds the app's limits once the service (its metrics) exists; `tls` serves HTTPS (a certificate
 * the test processes trust: test/support/test-ca.sh); the rest goes to createApp.
 */
export async function startService(
  store: Store,
  options: Partial<DsyncOptions> = {},
  app: { rateLimits?: (dsync: Dsync) => RateLimits; tls?: { key: Buffer; cert: Buffer } } & Partial<
    Pick<AppOptions, 'authFailures' | 'trustProxy' | 'logger' | 'apiKeys' | 'pageLimits'>
  > = {},
): Promise<Service> {
  // As dsync serve does: the request and response classes express's prototypes, answers to client errors.
  const types = expressTypes();
  const server: Server = app.tls ? createTlsServer({ ...app.tls, ...types.options }) : createServer(types.options);
  answerClientErrors(server);
  const url = await listen(server, app.tls ? 'https' : 'http');
  const dsync = createDsync({
    store,
    externalUrl: url,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    ...options,
    delivery: { pollIntervalMs: 20, ...options.delivery },
  });
  const { rateLimits: makeLimits, tls: _tls, ...appOptions } = app;
  const rateLimits = makeLimits?.(dsync);
  const expressApp = createApp({
    dsync,
    apiKeys: [API_KEY],
    logger: pino({ level: 'silent' }),
    ...appOptions,
    ...(rateLimits && { rateLimits }),
  });
  types.adopt(expressApp);
  server.on('request', expressApp);
  dsync.start();
  const api = (method: string, path: string, body?: unknown) =>
    call(`${url}${path}`, {
      method,
      headers: { authorization: `Api-Key ${API_KEY}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  return {
    url,
    dsync,
    api,
    scim: (directory, method, path, body, headers = {}) =>
      call(`${url}/api/scim/v2.0/${directory.id}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${directory.scim.secret}`,
          'content-type': 'application/scim+json',
          ...headers,
        },
        ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
    async createDirectory(input = {}) {
      const res = await api('POST', '/api/v1/directory-sync', {
        name: 'Acme',
        tenant: 'acme',
        product: 'app',
        type: 'generic-scim-v2',
        ...input,
      });
      if (res.status !== 201) throw new Error(`create directory failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await dsync.close();
    },
  };
}

export interface ReceivedDelivery {
  id: string;
  body: any;
  headers: IncomingMessage['headers'];
}

export interface Receiver {
  url: string;
  secret: string;
  deliveries: ReceivedDelivery[];
  /** Every event received, flattened (batch arrays unrolled), in arrival order. */
  events(): any[];
  /** Status to answer with (default 200), optionally after a delay; a function can vary it per delivery. */
  respond: (d: ReceivedDelivery) => number | { status: number; headers?: Record<string, string>; delayMs?: number };
  waitForEvents(n: number, timeoutMs?: number): Promise<any[]>;
  /**
   * The same, in the log's order (by `sequence`): delivery keeps each user's and group's order, not the
   * directory's, so events of different resources may arrive in either order.
   */
  waitForLogOrder(n: number, timeoutMs?: number): Promise<any[]>;
  close(): Promise<void>;
}

/**
 * Reads a webhook delivery and verifies its signature over the exact bytes received; a mismatch or a stale
 * timestamp is answered 401 here (`onRejected` is told), a verified body goes to `onBody`.
 */
export function receiveSigned(
  wh: Webhook,
  req: IncomingMessage,
  res: ServerResponse,
  onBody: (body: unknown) => void,
  onRejected: () => void = () => undefined,
): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let body: unknown;
    try {
      body = wh.verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>);
    } catch (err) {
      onRejected();
      res.writeHead(401).end(`bad signature: ${(err as Error).message}`);
      return;
    }
    onBody(body);
  });
}

export async function startReceiver(secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'): Promise<Receiver> {
  const wh = new Webhook(secret);
  const deliveries: ReceivedDelivery[] = [];
  const server = createServer((req, res) =>
    receiveSigned(wh, req, res, (body) => {
      const d = { id: String(req.headers['webhook-id']), body, headers: req.headers };
      const answer = receiver.respond(d);
      const { status, headers = {}, delayMs = 0 } = typeof answer === 'number' ? { status: answer } : answer;
      setTimeout(() => {
        if (status >= 200 && status < 300) deliveries.push(d);
        res.writeHead(status, headers).end();
      }, delayMs);
    }),
  );
  const url = await listen(server);
  const events = () => deliveries.flatMap((d) => (Array.isArray(d.body) ? d.body : [d.body]));
  const receiver: Receiver = {
    url: `${url}/hooks`,
    secret,
    deliveries,
    events,
    respond: () => 200,
    async waitForEvents(n, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (events().length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} events, got ${events().length}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return events();
    },
    async waitForLogOrder(n, timeoutMs) {
      return (await receiver.waitForEvents(n, timeoutMs)).sort((a, b) => a.sequence - b.sequence);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  return receiver;
}

/** Reads the events committed to each directory since the last read of that directory, parsed. */
export function eventReader(store: Store): (directoryId: string) => Promise<any[]> {
  const cursors = new Map<string, string | null>();
  return async (directoryId) => {
    const out: any[] = [];
    let after = cursors.get(directoryId) ?? null;
    for (;;) {
      const page = await store.readEvents(directoryId, after, 1000);
      if (page.length === 0) break;
      out.push(...page.map((e) => JSON.parse(e.json)));
      after = page.at(-1)!.seq;
    }
    cursors.set(directoryId, after);
    return out;
  };
}
