/**
 * The SCIM endpoint without express's router on its path. Express walks every app-level layer, then the mounted
 * router's layers and its route's, per request; on a SCIM write that walk is a large share of the HTTP cost. This
 * middleware, run ahead of the router (`dispatchAhead`), claims every path under the SCIM prefix and runs the same
 * steps in the same order itself: the app's edge (request id, identity, metrics), the gate and limits, then the
 * body parser and the handler. It matches with express's own Layer (case-insensitive, one trailing slash, `%`
 * decoding and its 400), and failures go where express sends them: before the SCIM router to the app's error
 * handling, after it to the SCIM error mapper (unknown paths included). Every other path continues down the app
 * unchanged. Unlike the mount, it leaves `req.url` and `req.baseUrl` whole: no step reads them (the identity is
 * computed from the whole path either way). test/unit/http/scim-dispatch.test.ts holds it to the mount's answers.
 */
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import Layer from 'router/lib/layer.js';
import { ScimError } from '../../scim/errors.js';

export interface ScimDispatchOptions {
  /** Where the app mounts the SCIM endpoint. */
  prefix: string;
  /** What runs on every request before the SCIM router today: the app's edge, the gate and the limits, in order. */
  before: RequestHandler[];
  /** What the SCIM router runs before its route (the body parser). */
  body: RequestHandler;
  /** The SCIM route's path (express syntax) under the prefix, and its handler (every method). */
  path: string;
  handle: RequestHandler;
  errors: ErrorRequestHandler;
}

const noop = () => undefined;
const unknownPath = () => ScimError.notFound('Unknown SCIM path');

/**
 * Runs `steps` as express runs a layer stack: `next(err)` or a throw or a rejected promise ends it with the error,
 * `next()` past the last step ends it without.
 */
function run(steps: RequestHandler[], req: Request, res: Response, done: (err?: unknown) => void): void {
  let i = 0;
  const next = (err?: unknown): void => {
    if (err) return done(err);
    const step = steps[i++];
    if (!step) return done();
    try {
      const ret: unknown = step(req, res, next);
      if (ret instanceof Promise) ret.catch((e: unknown) => next(e || new Error('Rejected promise')));
    } catch (e) {
      next(e);
    }
  };
  next();
}

export function scimDispatch(o: ScimDispatchOptions): RequestHandler {
  const mount = new Layer(o.prefix, { sensitive: false, strict: false, end: false }, noop);
  const route = new Layer(o.path, { sensitive: false, strict: false, end: true }, noop);
  return (req, res, next: NextFunction) => {
    const pathname = req.path;
    const mounted = mount.match(pathname);
    if (!mounted) return next();
    const rest = pathname.slice(mounted.path.length);
    const sub = rest.startsWith('/') ? rest : `/${rest}`;
    const matchRoute: RequestHandler = (rq, rs, nx) => {
      const matched = route.match(sub);
      if (!matched) return nx(unknownPath());
      rq.params = matched.params;
      return o.handle(rq, rs, nx);
    };
    run(o.before, req, res, (err) => {
      if (err) return next(err);
      run([o.body, matchRoute], req, res, (scimErr) => {
        // The handler answers; falling off the end is express's "no route": the SCIM router's 404.
        try {
          o.errors(scimErr ?? unknownPath(), req, res, next);
        } catch (e) {
          next(e);
        }
      });
    });
  };
}

type AppHandle = (req: Request, res: Response, callback?: NextFunction) => void;

/**
 * Runs `dispatcher` ahead of express's router, from the app's entry (`app.handle`, which node's server and
 * supertest both call), after doing what `app.handle` does before its router: the app's prototypes (a no-op for
 * a server born with them, server/express-types.ts), `req.res`, `res.req`, `res.locals`, X-Powered-By. A request it
 * claims never builds the router's per-request state (`finalhandler`, the layer walk's `next`, `restore` and
 * params closures). What it passes on goes through `app.handle` as before: every other path, and a failure,
 * handed to the app's first layer (added here), which passes it on so it takes express's own error path.
 * Measured on the stub endpoint (`BENCH_KINDS=dispatch+types,ahead+types npx tsx test/bench/scim-dispatch.bench.ts`)
 * and on dsync: docs/design/performance.md.
 */
export function dispatchAhead(app: Express, dispatcher: RequestHandler): void {
  const failures = new WeakMap<Request, unknown>();
  app.use((req, _res, next) => {
    if (!failures.has(req)) return next();
    const err = failures.get(req);
    failures.delete(req);
    next(err);
  });
  const viaRouter = (app as unknown as { handle: AppHandle }).handle.bind(app);
  const ahead: AppHandle = (req, res, callback) => {
    if (Object.getPrototypeOf(req) !== app.request) Object.setPrototypeOf(req, app.request);
    if (Object.getPrototypeOf(res) !== app.response) Object.setPrototypeOf(res, app.response);
    req.res = res;
    res.req = req;
    res.locals ??= Object.create(null) as Response['locals'];
    if (app.enabled('x-powered-by')) res.setHeader('X-Powered-By', 'Express');
    dispatcher(req, res, (err?: unknown) => {
      if (err) failures.set(req, err);
      viaRouter(req, res, callback);
    });
  };
  (app as unknown as { handle: AppHandle }).handle = ahead;
}
