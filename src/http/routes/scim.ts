/**
 * SCIM 2.0 over HTTP: `/api/scim/v2.0/<directoryId>/<ResourceType>[/<id>]`. Translates HTTP into the
 * embeddable handler's request and back; bodies follow the management API's rule (middleware/json-body.ts):
 * `application/scim+json`, `application/json` or no Content-Type are JSON, another explicit type is a 415.
 */
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { MAX_BODY_BYTES } from '../../core/input-limits.js';
import type { Logger } from '../../logger.js';
import { SCIM_JSON, type ScimQuery, type ScimResult } from '../../scim/context.js';
import { scimErrorResult } from '../../scim/error-mapper.js';
import { ScimError } from '../../scim/errors.js';
import type { ScimRequest } from '../../scim/handler.js';
import type { Dsync } from '../../service.js';
import { attempt, scimRealm, type AuthFailures } from '../../ratelimit/auth-failures.js';
import { jsonBody } from '../middleware/json-body.js';
import { admit } from '../middleware/request-metrics.js';
import type { RouteTemplate } from '../middleware/request-identity.js';
import type { ScimDispatchOptions } from '../middleware/scim-dispatch.js';

const QUERY_PARAMS = ['filter', 'startIndex', 'count', 'attributes', 'excludedAttributes'] as const;

/** The SCIM parameters given as single strings, in QUERY_PARAMS' order (assigned, not spread: it runs per request). */
function scimQuery(q: Record<string, unknown>): ScimQuery {
  const query: ScimQuery = {};
  for (const name of QUERY_PARAMS) {
    const value = q[name];
    if (typeof value === 'string') query[name] = value;
  }
  return query;
}

export const SCIM_PREFIX = '/api/scim/v2.0';

const template = (type: string, label: string): RouteTemplate => ({
  path: `${SCIM_PREFIX}/:directoryId/${type}`,
  label,
  directoryParam: 'directoryId',
});
const withIds = (type: string) => [
  template(type, `scim/${type.toLowerCase()}`),
  template(`${type}/:resourceId`, `scim/${type.toLowerCase()}/:id`),
];
/**
 * The SCIM paths as request-identity templates, labelled `scim/<type>[/:id]`. The handler reads the resource type
 * in any case, so the types are literals here (one spelling); an unknown type still names its directory.
 */
export const SCIM_TEMPLATES: RouteTemplate[] = [
  template('Users/.search', 'scim/users/.search'),
  template('Groups/.search', 'scim/groups/.search'),
  ...['Users', 'Groups', 'ResourceTypes', 'Schemas'].flatMap(withIds),
  ...['ServiceProviderConfig', '.search', 'Bulk'].map((type) => template(type, `scim/${type.toLowerCase()}`)),
  template(':resourceType', 'scim/other'),
  template(':resourceType/:resourceId', 'scim/other/:id'),
];

/** The bearer token of a SCIM request ('' when none). */
export function bearer(req: Request): string {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
  return m ? m[1]! : '';
}

/** The body's size as received: its Content-Length, unless it came compressed (the parsed text may be far larger). */
function receivedBytes(req: Request): number | undefined {
  const encoding = req.get('content-encoding');
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return undefined;
  const length = Number(req.get('content-length'));
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

function send(res: Response, result: ScimResult): void {
  res.status(result.status);
  for (const [k, v] of Object.entries(result.headers ?? {})) res.setHeader(k, v);
  if (result.data === undefined || result.status === 204 || result.status === 304) {
    res.end();
    return;
  }
  res.setHeader('Content-Type', `${SCIM_JSON}; charset=utf-8`);
  res.end(JSON.stringify(result.data));
}

/**
 * The handler's request, its optional parts assigned when present (each conditional spread in a literal is a
 * copy at run time, on Node 20 and 24 alike, and this one is built for every request).
 */
function scimRequest(req: Request, res: Response, apiSecret: string): ScimRequest {
  const params = req.params as { directoryId: string; resourceType: string; resourceId?: string };
  const headers: NonNullable<ScimRequest['headers']> = {};
  const ifMatch = req.get('if-match');
  if (ifMatch !== undefined) headers['if-match'] = ifMatch;
  const ifNoneMatch = req.get('if-none-match');
  if (ifNoneMatch !== undefined) headers['if-none-match'] = ifNoneMatch;
  const request: ScimRequest = {
    method: req.method,
    body: req.body,
    directoryId: params.directoryId,
    resourceType: params.resourceType,
    apiSecret,
    query: scimQuery(req.query as Record<string, unknown>),
    headers,
  };
  const bodyBytes = receivedBytes(req);
  if (bodyBytes !== undefined) request.bodyBytes = bodyBytes;
  if (params.resourceId !== undefined) request.resourceId = params.resourceId;
  const requestId = requestIdOf(res);
  if (requestId !== undefined) request.requestId = requestId;
  return request;
}

/** The request id of http's request-id middleware, when it ran. */
const requestIdOf = (res: Response): string | undefined =>
  typeof res.locals.requestId === 'string' ? res.locals.requestId : undefined;

/** Failures before the handler (body parsing, unknown paths): the one SCIM error mapper renders them too. */
function scimErrors(logger: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    const requestId = requestIdOf(res);
    const log = (e: unknown, errorId: string) => logger.error({ err: e, errorId, requestId }, 'SCIM request failed');
    send(res, scimErrorResult(err, { ...(requestId !== undefined && { requestId }), log }));
  };
}

/**
 * The endpoint's steps for the dispatcher (middleware/scim-dispatch.ts): the body parser, the one route and its
 * handler, the
 * error mapper. `failures` counts each 401 to a presented token (the gate in front refuses a blocked client first).
 */
export function scimEndpoint(
  dsync: Dsync,
  logger: Logger,
  failures: AuthFailures,
): Omit<ScimDispatchOptions, 'prefix' | 'before'> {
  const handle: RequestHandler = async (req, res) => {
    const q = req.query as Record<string, unknown>;
    // A repeated parameter must not be dropped: an ignored `filter` would answer with the whole directory.
    const repeated = QUERY_PARAMS.find((name) => Array.isArray(q[name]));
    if (repeated) throw ScimError.badRequest(`query parameter ${repeated} given more than once`, 'invalidValue');
    const apiSecret = bearer(req);
    const { result, admission } = await dsync.requests.serve(scimRequest(req, res, apiSecret));
    if (admission === 'authenticated') admit(res);
    else if (admission === 'wrong-token')
      await failures.failed(attempt(req, scimRealm(res.locals.identity.directoryId)));
    send(res, result);
  };
  // Express's trailing-slash rule covers `/:directoryId/:resourceType/` and `.../:resourceId/` too.
  return {
    body: jsonBody({ limit: MAX_BODY_BYTES, strict: false }),
    path: '/:directoryId/:resourceType{/:resourceId}',
    handle,
    errors: scimErrors(logger),
  };
}
