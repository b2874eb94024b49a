/** The express application: management API, cron routes, SCIM endpoint, health checks. */
import express, { type Express } from 'express';
import { MAX_BODY_BYTES } from '../core/input-limits.js';
import type { Logger } from '../logger.js';
import { API_REALM, AuthFailures, scimRealm, type AuthFailuresOptions } from '../ratelimit/auth-failures.js';
import type { RateLimits } from '../ratelimit/rate-limits.js';
import { refuseManagement, refuseScim } from '../ratelimit/refusals.js';
import type { Dsync } from '../service.js';
import { toApiKey, type ApiKey } from './middleware/api-keys.js';
import { apiKeyAuth } from './middleware/auth.js';
import { envelopeErrors, fail } from './middleware/envelope.js';
import { API_ROUTES, openApiDocument } from './api-routes.js';
import { jsonBody } from './middleware/json-body.js';
import { MICROSOFT_NOTIFICATIONS, microsoftNotificationRoute } from './routes/microsoft-notifications.js';
import { HRIS_WEBHOOKS, hrisWebhookRoute } from './routes/hris-webhooks.js';
import { CALLBACKS, oauthRoutes, START_ROUTE } from './routes/oauth-flows.js';
import { readiness } from './routes/readiness.js';
import { requestIds } from './middleware/request-id.js';
import { requestMetrics } from './middleware/request-metrics.js';
import { RequestIdentities, requestIdentity, type RouteTemplate } from './middleware/request-identity.js';
import { allowedMethods, API_PREFIX, methodNotAllowed, mountRoutes } from './openapi/route-table.js';
import { dispatchAhead, scimDispatch } from './middleware/scim-dispatch.js';
import { SCIM_PREFIX, SCIM_TEMPLATES, scimEndpoint } from './routes/scim.js';
import { setupRoutes, setupTemplates } from './setup/routes.js';
import type { PageLimits } from '../ratelimit/page-limits.js';

export interface AppOptions {
  dsync: Dsync;
  /** The management API keys; a bare string has full access (middleware/api-keys.ts: scopes). */
  apiKeys: ReadonlyArray<string | ApiKey>;
  logger: Logger;
  /** Project and inflight limits (docs/operating/rate-limits.md); unset = off. */
  rateLimits?: RateLimits;
  /** Where failed authentications are counted and their limits; default: the default limits, in this process. */
  authFailures?: Pick<AuthFailuresOptions, 'limits' | 'redis'>;
  /** Express's `trust proxy` (DSYNC_TRUST_PROXY): which proxies' X-Forwarded-For names the client. Default none. */
  trustProxy?: boolean | number | string[];
  /** The setup page's limits (always on); default: counted in this process. */
  pageLimits?: PageLimits;
  /** Whether the process is stopping: /readyz answers 503 `draining` then (server/drain.ts). */
  draining?: () => boolean;
}

/** Where the app mounts the setup page. */
const SETUP_MOUNT = '/setup';

/** The paths outside the route table that answer GET (and HEAD) only, and which of them need no credential. */
const PAGES = [
  { path: '/healthz', open: true },
  { path: '/readyz', open: true },
  { path: `${API_PREFIX}/openapi.json`, open: true },
  // A single-use start link, or a flow's state and the browser's cookie, vouch for these.
  { path: `${API_PREFIX}${START_ROUTE}`, open: false },
  ...CALLBACKS.map((c) => ({ path: `${API_PREFIX}${c.path}`, open: false })),
];

/** Every path the app serves, in the order express tries them: the request identities (and route labels) are these. */
export function appTemplates(): RouteTemplate[] {
  return [
    ...PAGES.map((page) => ({ ...page, methods: ['GET', 'HEAD'] })),
    // Without Api-Key too (each notification's clientState vouches for it): its own label, whatever the spelling.
    { path: `${API_PREFIX}${MICROSOFT_NOTIFICATIONS}`, methods: ['POST'] },
    { path: `${API_PREFIX}${HRIS_WEBHOOKS}`, methods: ['POST'] },
    ...SCIM_TEMPLATES,
    ...[...allowedMethods(API_ROUTES)].map(([path, methods]) => ({ path: `${API_PREFIX}${path}`, methods })),
    // The setup link is a secret: its label is the template (`/setup/:link`), never the link.
    ...setupTemplates(SETUP_MOUNT),
  ];
}

export function createApp({
  dsync,
  apiKeys,
  logger,
  rateLimits,
  trustProxy,
  pageLimits,
  draining,
  ...o
}: AppOptions): Express {
  const authFailures = new AuthFailures({
    ...o.authFailures,
    logger,
    observe: (api, outcome) => dsync.metrics.authFailures.inc({ api, outcome }),
  });
  const app = express();
  app.disable('x-powered-by');
  if (trustProxy !== undefined) app.set('trust proxy', trustProxy);
  app.set('etag', false);
  app.set('query parser', 'simple');
  const edge: express.RequestHandler[] = [
    requestIds(logger),
    requestIdentity(new RequestIdentities(appTemplates())),
    requestMetrics(dsync.metrics),
  ];
  const limit = (pick: (r: RateLimits) => express.RequestHandler) => (rateLimits ? [pick(rateLimits)] : []);
  // The auth-failure gates come first: a blocked client is refused before anything compares its credential.
  const scimGate = authFailures.gate((_req, res) => scimRealm(res.locals.identity.directoryId), refuseScim);
  // The SCIM endpoint, first and off express's router (its hot path): the edge, gate and limits run there too.
  const scim = scimEndpoint(dsync, logger, authFailures);
  dispatchAhead(
    app,
    scimDispatch({ prefix: SCIM_PREFIX, before: [...edge, scimGate, ...limit((r) => r.scim)], ...scim }),
  );
  app.use(...edge);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', readiness(dsync.health, logger, draining));

  // Public, like most API specs: it holds no data, and a client generator or a fuzzer fetches it without a key.
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  // The admin's browser (Google's consent, Entra's admin consent): no Api-Key; a single-use link, the flow's
  // state and the browser's cookie vouch for it.
  app.use(API_PREFIX, oauthRoutes(dsync.oauth, logger));
  // Graph posts change notifications here: no Api-Key (each notification's clientState vouches for it).
  app.use(API_PREFIX, microsoftNotificationRoute(dsync.microsoft, logger, authFailures));
  // HR systems post webhooks here: no Api-Key (a hint only; BambooHR's signature is checked).
  app.use(API_PREFIX, hrisWebhookRoute(dsync.hris, logger, authFailures));
  app.all(['/healthz', '/readyz', `${API_PREFIX}/openapi.json`], methodNotAllowed(['GET', 'HEAD']));
  const apiGate = authFailures.gate(() => API_REALM, refuseManagement);
  const api = [apiGate, apiKeyAuth(apiKeys.map(toApiKey), authFailures), ...limit((r) => r.management)];
  app.use(API_PREFIX, ...api, jsonBody({ limit: MAX_BODY_BYTES, strict: true }), mountRoutes(API_ROUTES, dsync));
  app.use('/api/v1', (_req, res) => fail(res, 404, 'Unknown API route'));
  app.use('/api/v1', envelopeErrors());
  // The IT admin's browser: the setup link is the credential (no Api-Key), HTML with its own security headers.
  app.use(SETUP_MOUNT, setupRoutes(dsync, { logger, authFailures, ...(pageLimits && { limits: pageLimits }) }));

  app.use((_req, res) => {
    res.status(404).json({ data: null, error: { message: 'Not found', code: 404 } });
  });
  return app;
}
