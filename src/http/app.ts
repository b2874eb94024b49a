/** The express application: management API, cron routes, SCIM endpoint, health checks. */
import express, { type Express } from 'express';
import { MAX_BODY_BYTES } from '../core/limits.js';
import type { Logger } from '../logger.js';
import type { RateLimits } from '../ratelimit/rate-limits.js';
import type { Dsync } from '../service.js';
import { apiKeyAuth } from './auth.js';
import { envelopeErrors, fail } from './envelope.js';
import { API_ROUTES, openApiDocument } from './api-routes.js';
import { googleCallbackRoute } from './google-routes.js';
import { jsonBody } from './json-body.js';
import { readiness } from './readiness.js';
import { requestIds } from './request-id.js';
import { methodNotAllowed, mountRoutes } from './route-table.js';
import { scimRoutes } from './scim-routes.js';

export interface AppOptions {
  dsync: Dsync;
  apiKeys: string[];
  logger: Logger;
  /** Project and inflight limits (SPEC §8); unset = off. */
  rateLimits?: RateLimits;
}

const SCIM_TYPES = new Set(['users', 'groups', 'serviceproviderconfig', 'resourcetypes', 'schemas', '.search', 'bulk']);

/** A bounded route label: the route template, never the raw path (ids would explode the series count). */
function routeLabel(req: express.Request): string {
  if (req.baseUrl === '/api/scim/v2.0') {
    const [, , type, id] = req.path.split('/');
    const kind = SCIM_TYPES.has((type ?? '').toLowerCase()) ? type!.toLowerCase() : 'other';
    return `scim/${kind}${id ? '/:id' : ''}`;
  }
  return req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
}

export function createApp({ dsync, apiKeys, logger, rateLimits }: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestIds(logger));
  app.use((req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      try {
        dsync.metrics.httpDuration.observe(
          { route: routeLabel(req), method: req.method, status_code: String(res.statusCode) },
          (performance.now() - started) / 1000,
        );
      } catch (err) {
        // A metrics failure must never take the process down with it.
        res.locals.log.warn({ err }, 'could not record request metrics');
      }
    });
    next();
  });

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', readiness(dsync.health, logger));

  const limit = (pick: (r: RateLimits) => express.RequestHandler) => (rateLimits ? [pick(rateLimits)] : []);
  app.use('/api/scim/v2.0', ...limit((r) => r.scim), scimRoutes(dsync, logger));

  // Public, like most API specs: it holds no data, and a client generator or a fuzzer fetches it without a key.
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  // The admin's browser comes back here from Google's consent page: no Api-Key, the signed state vouches for it.
  app.use('/api/v1', googleCallbackRoute(dsync.google, logger));
  app.all(['/healthz', '/readyz', '/api/v1/openapi.json', '/api/v1/dsync/google/callback'], methodNotAllowed(['GET', 'HEAD']));
  app.use('/api/v1', apiKeyAuth(apiKeys), ...limit((r) => r.management), jsonBody({ limit: MAX_BODY_BYTES, strict: true }), mountRoutes(API_ROUTES, dsync));
  app.use('/api/v1', (_req, res) => fail(res, 404, 'Unknown API route'));
  app.use('/api/v1', envelopeErrors());

  app.use((_req, res) => {
    res.status(404).json({ data: null, error: { message: 'Not found', code: 404 } });
  });
  return app;
}
