/**
 * The embeddable SCIM request handler (docs/guides/embedding.md): `{method, body, directoryId, resourceType,
 * resourceId,
 * apiSecret, query}` in, `{data, status}` out. The HTTP routes are a thin shell around it.
 */
import { challenge } from '../core/auth-challenge.js';
import { Slicer, yieldToLoop } from '../core/chunks.js';
import type { Directory, DirectorySyncEvent, PendingEvent } from '../core/model.js';
import type { ScimTokens } from '../core/scim-tokens.js';
import type { ResourceRef } from '../core/store-port.js';
import { checkRequestBounds } from './bound-checks.js';
import { SCIM_JSON, type ScimContext, type ScimDeps, type ScimQuery, type ScimResult } from './context.js';
import { resourceTypes, schemasDocs, serviceProviderConfig } from './discovery.js';
import { scimErrorResult } from './error-mapper.js';
import { ScimError } from './errors.js';
import * as groups from './groups.js';
import { listResponse, paging } from './render.js';
import { parseSearchRequest } from './search-request.js';
import * as users from './users.js';
import { assertSafeJson } from './values.js';

export interface ScimRequest {
  method: string;
  body?: unknown;
  directoryId: string;
  /** `users`, `groups` (any case), or a discovery endpoint: `ServiceProviderConfig`, `ResourceTypes`, `Schemas`. */
  resourceType: string;
  resourceId?: string;
  /** The directory's SCIM secret, as presented by the IdP (`Authorization: Bearer <secret>` over HTTP). */
  apiSecret: string;
  query?: ScimQuery;
  /** Conditional request headers, when the transport has them. */
  headers?: { 'if-match'?: string; 'if-none-match'?: string };
  /** The transport's request id, named in 5xx bodies and logs. */
  requestId?: string;
  /**
   * The body's size as it arrived, when the transport knows it (a Content-Length, not compressed): a body this
   * small was parsed in well under a slice and is checked at once, without first giving the loop a turn.
   */
  bodyBytes?: number;
}

/** A body up to this size was parsed in a fraction of a slice (SLICE_MS): its checks need no turn before them. */
export const SMALL_BODY_BYTES = 64 * 1024;

export type EventCallback = (event: DirectorySyncEvent) => unknown;

/**
 * How a request stood with its directory: no such directory, no token, a token that is not one of its tokens, or
 * authenticated. The activity record and the HTTP metrics go by it.
 */
export type Admission = 'no-directory' | 'no-token' | 'wrong-token' | 'authenticated';

/** A request's answer, with how it stood with its directory. */
export interface ServedRequest {
  result: ScimResult;
  admission: Admission;
}

export interface ScimHandlerOptions extends ScimDeps {
  /** Finds the directory and tells which of its tokens (if any) the request presented. */
  tokens: Pick<ScimTokens, 'authenticate'>;
  /** Logs failures: 5xx answers (with the error id their body names) and throwing per-request callbacks. */
  onError?: (err: unknown, req: ScimRequest, errorId?: string) => void;
  /** Told every answer to a request for an existing directory (the activity record); must not throw. */
  onAnswered?: (req: ScimRequest, result: ScimResult, admission: Exclude<Admission, 'no-directory'>) => void;
}

/**
 * RFC 6750 §3: a 401 names the scheme and realm; `invalid_token` only when a token was presented. The detail
 * says which credential is expected, since IdP admins paste the wrong one (the API key) more often than not.
 */
function unauthorized(presented: string): ScimResult {
  const missing = presented === '';
  const err = new ScimError(
    401,
    missing
      ? "Missing bearer token: send Authorization: Bearer <token> (the directory's scim.secret or a SCIM token created for it)"
      : "Invalid bearer token for this directory (revoked, or not one of its tokens): use the directory's scim.secret or a SCIM token created for it",
  );
  const result = scimErrorResult(err);
  return { ...result, headers: { ...result.headers, 'WWW-Authenticate': challenge('Bearer', !missing) } };
}

/**
 * The user or group a request's path names (GET, PUT, PATCH, DELETE of `/Users/<id>` or `/Groups/<id>`): read with
 * the directory's access, in the same round trip as the authentication, instead of after it.
 */
function namedResource(req: ScimRequest): ResourceRef | undefined {
  const type = req.resourceType.toLowerCase();
  const id = req.resourceId;
  if (!id || id === '.search' || (type !== 'users' && type !== 'groups')) return undefined;
  if (!['GET', 'PUT', 'PATCH', 'DELETE'].includes(req.method.toUpperCase())) return undefined;
  return { kind: type === 'users' ? 'user' : 'group', id };
}

export class ScimHandler {
  private readonly deps: ScimDeps;
  private readonly tokens: ScimHandlerOptions['tokens'];
  private readonly onError: NonNullable<ScimHandlerOptions['onError']>;
  private readonly onAnswered: NonNullable<ScimHandlerOptions['onAnswered']>;

  constructor({ onError, onAnswered, tokens, ...deps }: ScimHandlerOptions) {
    this.deps = deps;
    this.tokens = tokens;
    this.onError = onError ?? (() => {});
    this.onAnswered = onAnswered ?? (() => {});
  }

  /** Whether `apiSecret` is a SCIM token of an existing directory (the rate limiter keys on it, see ratelimit/). */
  async authenticates(directoryId: string, apiSecret: string): Promise<boolean> {
    const auth = await this.tokens.authenticate(directoryId, apiSecret);
    return auth.directory !== null && auth.tokenId !== null;
  }

  /** Never throws: every failure becomes a SCIM Error response. The callback sees this request's events, in order. */
  async handle(req: ScimRequest, callback?: EventCallback): Promise<ScimResult> {
    return (await this.serve(req, callback)).result;
  }

  /** `handle`, also telling how the request stood with its directory. */
  async serve(req: ScimRequest, callback?: EventCallback): Promise<ServedRequest> {
    let admission: Admission = 'no-directory';
    const result = await this.answer(req, callback, (a) => (admission = a));
    if (admission !== 'no-directory') this.onAnswered(req, result, admission);
    return { result, admission };
  }

  private async answer(
    req: ScimRequest,
    callback: EventCallback | undefined,
    admit: (a: Admission) => void,
  ): Promise<ScimResult> {
    let ctx: ScimContext | undefined;
    try {
      const named = namedResource(req);
      const presented = req.apiSecret ?? '';
      const auth = await this.tokens.authenticate(req.directoryId, presented, named);
      if (!auth.directory) throw ScimError.notFound(`Directory ${req.directoryId} not found`);
      const { directory } = auth;
      if (auth.tokenId === null) {
        admit(presented === '' ? 'no-token' : 'wrong-token');
        return unauthorized(presented);
      }
      admit('authenticated');
      if (directory.deactivated) {
        throw new ScimError(
          403,
          `Directory ${directory.id} is deactivated; provisioning is refused until it is reactivated`,
        );
      }
      if (req.body !== undefined) {
        // A body of 1 MB may have been parsed in this turn, and each check walks all of it: in slices, after a turn.
        // The bounds first: an object of too many names is refused at that object, before anything walks its names.
        if (!(req.bodyBytes !== undefined && req.bodyBytes <= SMALL_BODY_BYTES)) await yieldToLoop();
        await checkRequestBounds(req.body);
        await assertSafeJson(req.body);
      }
      ctx = this.context(
        directory,
        req,
        callback,
        named && auth.resource !== undefined ? { kind: named.kind, id: named.id, resource: auth.resource } : undefined,
      );
      return await this.route(ctx, req);
    } catch (err) {
      const log = (e: unknown, errorId: string) => this.onError(e, req, errorId);
      return scimErrorResult(err, { ...(req.requestId !== undefined && { requestId: req.requestId }), log });
    } finally {
      // Delivery was told by the writers at each commit; the embedded callback sees this request's events.
      if (ctx?.committed?.length && callback) {
        await deliverToCallback(ctx.committed, callback).catch((err) => this.onError(err, req));
      }
    }
  }

  /**
   * The request's context, property by property: under Node 20's V8 an object literal that starts with a spread
   * and adds to it takes a slow path, and this one is built for every request (docs/design/performance.md, "no
   * spread-first literals").
   */
  private context(
    directory: Directory,
    req: ScimRequest,
    callback: EventCallback | undefined,
    named: ScimContext['named'],
  ): ScimContext {
    const { reads, users, groups } = this.deps;
    const ctx: ScimContext = { reads, users, groups, directory, base: directory.scim.endpoint };
    if (callback) ctx.committed = [];
    if (named) ctx.named = named;
    const ifMatch = req.headers?.['if-match'];
    if (ifMatch !== undefined) ctx.ifMatch = ifMatch;
    const ifNoneMatch = req.headers?.['if-none-match'];
    if (ifNoneMatch !== undefined) ctx.ifNoneMatch = ifNoneMatch;
    return ctx;
  }

  private async route(ctx: ScimContext, req: ScimRequest): Promise<ScimResult> {
    const method = req.method.toUpperCase();
    const type = req.resourceType.toLowerCase();
    const id = req.resourceId || undefined;
    const query = req.query ?? {};

    if (type === 'users' || type === 'groups') {
      const api = type === 'users' ? userApi : groupApi;
      if (id === '.search') {
        if (method !== 'POST') throw notAllowed(method, req.resourceType);
        return api.list(ctx, parseSearchRequest(req.body));
      }
      if (!id) {
        if (method === 'GET') return api.list(ctx, query);
        if (method === 'POST') return api.create(ctx, req.body);
        throw notAllowed(method, req.resourceType);
      }
      switch (method) {
        case 'GET':
          return api.get(ctx, id, query);
        case 'PUT':
          return api.replace(ctx, id, req.body, query);
        case 'PATCH':
          return api.patch(ctx, id, req.body, query);
        case 'DELETE':
          return api.delete(ctx, id);
        default:
          throw notAllowed(method, `${req.resourceType}/${id}`);
      }
    }
    if (type === '.search') {
      if (method !== 'POST') throw notAllowed(method, req.resourceType);
      return searchAll(ctx, parseSearchRequest(req.body));
    }
    if (method !== 'GET' && type !== 'bulk') throw notAllowed(method, req.resourceType);
    switch (type) {
      case 'serviceproviderconfig':
        return scimJson(serviceProviderConfig(ctx.base));
      case 'resourcetypes':
        return discoveryList(resourceTypes(ctx.base), id);
      case 'schemas':
        return discoveryList(schemasDocs(ctx.base), id);
      case 'bulk':
      case 'me':
        throw new ScimError(501, `/${req.resourceType} is not supported by this service`);
      default:
        throw ScimError.notFound(`Unknown SCIM resource type ${req.resourceType}`);
    }
  }
}

const userApi = {
  list: users.listUsers,
  create: users.createUser,
  get: users.getUser,
  replace: users.replaceUser,
  patch: users.patchUser,
  delete: users.deleteUser,
};
const groupApi = {
  list: groups.listGroups,
  create: groups.createGroup,
  get: groups.getGroup,
  replace: groups.replaceGroup,
  patch: groups.patchGroup,
  delete: groups.deleteGroup,
};

const notAllowed = (method: string, path: string): ScimError =>
  new ScimError(405, `${method} is not allowed on /${path}`);

const scimJson = (data: unknown): ScimResult => ({ status: 200, data, headers: { 'Content-Type': SCIM_JSON } });

function discoveryList(docs: Array<Record<string, unknown>>, id: string | undefined): ScimResult {
  if (!id) return scimJson(listResponse(docs.length, 1, docs));
  const doc = docs.find((d) => String(d.id ?? d.name) === id);
  if (!doc) throw ScimError.notFound(`${id} not found`);
  return scimJson(doc);
}

interface ListData {
  totalResults: number;
  Resources: unknown[];
}

/** Root-level search (RFC 7644 §3.4.3): Users then Groups, paged as one list. */
async function searchAll(ctx: ScimContext, query: ScimQuery): Promise<ScimResult> {
  const { startIndex, count } = paging(query);
  const found = (await userApi.list(ctx, { ...query, startIndex, count })).data as ListData;
  const groupStart = Math.max(1, startIndex - found.totalResults);
  const groupCount = count - found.Resources.length;
  const groupsFound = (await groupApi.list(ctx, { ...query, startIndex: groupStart, count: groupCount }))
    .data as ListData;
  return scimJson(
    listResponse(found.totalResults + groupsFound.totalResults, startIndex, [
      ...found.Resources,
      ...groupsFound.Resources,
    ]),
  );
}

async function deliverToCallback(events: PendingEvent[], callback: EventCallback): Promise<void> {
  // A 200,000-member write has as many events: let the loop breathe between slices.
  const slicer = new Slicer();
  for (const event of events) {
    if (slicer.spent()) await slicer.yield();
    await callback(JSON.parse(event.json) as DirectorySyncEvent);
  }
}
