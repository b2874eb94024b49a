/**
 * The management API as a table: each route's method, path, zod schemas for its path parameters, query and body,
 * its success answer and the error statuses it can give. The same table registers the express handlers (which
 * validate through these schemas) and feeds the OpenAPI generator (document.ts), so the document cannot
 * drift from what the routes accept. A route group (management, events, Google) is an `ApiRoute[]`; the app
 * mounts each with `mountRoutes` and lists them in `API_ROUTES` for the document.
 */
import { Router, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { parseInput } from '../../core/directories.js';
import type { Dsync } from '../../service.js';
import { authorize, FULL_ACCESS, redactSecrets, seesSecrets, type Reach } from '../middleware/api-keys.js';
import { fail, ok } from '../middleware/envelope.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Error statuses a route documents beyond those the table derives (see `errorStatuses`). */
export type ErrorStatus = 403 | 404 | 409 | 502;

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<P, Q, B, H = undefined> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  headers: Out<H>;
}

/** A success answer other than the route's default status (replay answers 200 or 202). */
export class Answer {
  constructor(
    readonly status: number,
    readonly data: unknown,
  ) {}
}

/** A response header in the document (e.g. `Location`); every answer's own headers are added by the generator. */
export interface HeaderDoc {
  description: string;
  schema: Record<string, unknown>;
  required?: boolean;
}

/** One success answer: what it means, the schema of its `data`, and what only it carries. */
export interface ResponseDoc {
  description: string;
  data: z.ZodType;
  headers?: Record<string, HeaderDoc>;
  /** The `data` of its example; default: built from the schema's meta `examples` (json-schemas.ts). */
  example?: unknown;
}

type Responses = Record<number, ResponseDoc>;
type DataOf<A> = A extends { data: infer D extends z.ZodType } ? z.output<D> : never;

export interface ApiRoute<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends Responses = Responses,
  H extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: HttpMethod;
  /** Express path under /api/v1, e.g. `/directory-sync/:id`. */
  path: string;
  /**
   * The client method's name in generated clients (`listUsers`); default: method and path (`getDirectorySyncUsers`).
   */
  operationId?: string;
  /** One line for the operation list. */
  summary: string;
  /** What it does and answers, for a reader of the document (Markdown); a test asks every route for one. */
  description?: string;
  tag: string;
  /** False for the routes a browser or an unauthenticated client calls (no Api-Key). */
  auth?: boolean;
  /** Which directories the route reaches, for keys limited to a tenant (middleware/api-keys.ts); default `all`. */
  reach?: Reach;
  /** The answer can hold secret values (a directory, tokens): redacted for keys that may not see them. */
  secrets?: boolean;
  /**
   * A GET whose answer lets its holder change the directory (a consent link: whoever opens it connects an
   * account to it): refused to read-only keys, as a write is.
   */
  changes?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** An example body; default: built from the body schema's meta `examples`. */
  requestExample?: unknown;
  /** Request headers the route reads (a z.object of lower-case names; e.g. `prefer`). */
  headers?: H;
  /** Success answers by status, each with the schema of its `data`. */
  responses: R;
  /** The success status the handler's result is sent with (an `Answer` picks another); 200 unless given. */
  status?: number;
  /** 404/409 (502 for Google), 403 beyond a key's scope; 400, 401, 403, 413, 415, 429 and 503 are derived. */
  errors?: ErrorStatus[];
  /** Resolves with the `data` of the default status (typed by its schema), or an `Answer` for another. */
  handle(input: RouteInput<P, Q, B, H>, dsync: Dsync, res: Response): Promise<DataOf<R[keyof R]> | Answer>;
}

/** Types a route's handler from its schemas, then widens it to sit in a table. */
export function route<
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
  R extends Responses,
  H extends z.ZodType | undefined = undefined,
>(r: ApiRoute<P, Q, B, R, H>): ApiRoute {
  return r as unknown as ApiRoute;
}

export const API_PREFIX = '/api/v1';

/**
 * Every error status a route can answer: 400 when it takes input, 413/415 with a body, 401 behind the Api-Key
 * (and 403 beyond a scoped key's reach), 429 under the rate limits (when configured), 431 for a request line
 * too long, 503 when the store is unreachable.
 */
export function errorStatuses(r: ApiRoute): number[] {
  const statuses = new Set<number>(r.errors ?? []);
  if (r.params || r.query || r.body || r.headers) statuses.add(400);
  if (r.body) statuses.add(413).add(415);
  if (r.auth !== false) statuses.add(401).add(403).add(429);
  // A request line and headers over Node's 16 KiB, refused by the parser whatever the route
  // (http/server/client-errors.ts).
  statuses.add(431).add(503);
  return [...statuses].sort((a, b) => a - b);
}

/** Registers the routes on a router: path, query and body checked by their schemas (400 naming the field). */
export function mountRoutes(routes: ApiRoute[], dsync: Dsync): Router {
  const router = Router();
  for (const r of routes) {
    router[r.method](r.path, async (req, res) => {
      const input = {
        params: r.params ? parseInput(r.params, req.params) : undefined,
        query: r.query ? parseInput(r.query, req.query) : undefined,
        body: r.body ? parseInput(r.body, req.body) : undefined,
        headers: r.headers ? parseInput(r.headers, req.headers) : undefined,
      };
      const scope = res.locals.apiKey ?? FULL_ACCESS;
      await authorize(scope, r.method !== 'get' || r.changes === true, r.reach ?? 'all', input, (id) =>
        dsync.directories.get(id),
      );
      const answer = await r.handle(input, dsync, res);
      const [status, data] = answer instanceof Answer ? [answer.status, answer.data] : [r.status ?? 200, answer];
      ok(res, r.secrets && !seesSecrets(scope) ? redactSecrets(data) : data, status);
    });
  }
  // A known path asked with another method is a 405 naming the methods it has (RFC 9110 §15.5.6), as on the
  // SCIM endpoint, not an "unknown route". Registered after every route, in the table's order.
  for (const [path, methods] of allowedMethods(routes)) router.all(path, methodNotAllowed(methods));
  return router;
}

/** 405 with `Allow` for a path that exists under other methods (named: the route-walk test tells it from a route). */
export function methodNotAllowed(methods: string[]): RequestHandler {
  return function methodNotAllowed(_req, res) {
    res.setHeader('Allow', methods.join(', '));
    fail(res, 405, `Method not allowed here: use ${methods.join(', ')}`);
  };
}

/** Each path of the table with the methods it answers (GET implies HEAD). */
export function allowedMethods(routes: ApiRoute[]): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const r of routes) {
    const methods = byPath.get(r.path) ?? [];
    methods.push(...(r.method === 'get' ? ['GET', 'HEAD'] : [r.method.toUpperCase()]));
    byPath.set(r.path, methods);
  }
  return byPath;
}
