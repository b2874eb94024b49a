/**
 * The HTTP request histogram's labels, from fixed sets whatever a client sends: `method` is one of the methods
 * the service answers, `other` for the rest of the 34 node accepts; `route` is the route template only for a
 * request its route admitted (the credential checked out, or the route needs none) with a method the route
 * serves, and `refused` for everything answered before a handler: an unknown path, a method the path does not
 * serve, a missing or wrong credential (a 404 for an unknown directory, a setup link that does not open), a 429
 * of the failure gate or the limits before it, a body the parser refused. An unauthenticated sweep of every
 * method over every route then adds a few dozen series, not thousands (a scrape over its `sample_limit` is
 * dropped whole, alerts included).
 */
import type { RequestHandler, Response } from 'express';
import type { Metrics } from '../../metrics.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** Set when the request's credential checked out (admit): its metrics take its route's label. */
      admitted?: true;
    }
  }
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The `method` label: the method, or `other`. */
export const methodLabel = (method: string): string => (METHODS.has(method) ? method : 'other');

/** The `route` label of every request answered before its route's handler. */
export const REFUSED_ROUTE = 'refused';

/** Marks the request as admitted by its route (its credential checked out). */
export function admit(res: Response): void {
  res.locals.admitted = true;
}

/** The `route` label of a finished request. */
export function routeLabel(res: Response): string {
  const { identity, admitted } = res.locals;
  return identity.path !== undefined && (identity.open || admitted) ? identity.route : REFUSED_ROUTE;
}

/** Observes each request's duration when it finishes. */
export function requestMetrics(metrics: Pick<Metrics, 'httpDuration'>): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      try {
        metrics.httpDuration.observe(
          { route: routeLabel(res), method: methodLabel(req.method), status_code: String(res.statusCode) },
          (performance.now() - started) / 1000,
        );
      } catch (err) {
        // A metrics failure must never take the process down with it.
        res.locals.log.warn({ err }, 'could not record request metrics');
      }
    });
    next();
  };
}
