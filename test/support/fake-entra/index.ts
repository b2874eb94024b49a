/**
 * A fake Microsoft Entra ID for tests and the benchmark: the identity platform (authority.ts) and Microsoft Graph
 * v1.0 on one HTTPS server with its own CA (test/support/test-ca.sh; trusted through NODE_EXTRA_CA_CERTS, since
 * msal-node refuses an http authority). Graph serves `/users/delta` and `/groups/delta` (paged by
 * `@odata.nextLink`, ended by `@odata.deltaLink`; `Prefer: odata.maxpagesize` honoured), single users and groups,
 * and `/subscriptions` (subscriptions.ts), with Graph's error bodies: 401 InvalidAuthenticationToken, 403
 * Authorization_RequestDenied (consent's app roles removed), 410 syncStateNotFound (delta tokens expired),
 * 429/503 with Retry-After (injected, per tenant). The product reaches it through the real @azure/msal-node and
 * @microsoft/microsoft-graph-client, pointed here by DSYNC_MICROSOFT_AUTHORITY_URL / _GRAPH_URL.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { bodyOf } from '../fake-http.js';
import { FAKE_APP, FakeAuthority, type Reply } from './authority.js';
import { DeltaRounds, relationPage } from './paging.js';
import { FakeSubscriptions, graphError } from './subscriptions.js';
import { Tenant, type Kind } from './tenant.js';

export { FAKE_APP } from './authority.js';
export type { EGroup, EUser } from './tenant.js';
export { Tenant, MEMBERS_PER_INSTANCE } from './tenant.js';

export type Route = 'token' | 'users' | 'groups' | 'object' | 'subscriptions';
export interface Fault {
  route: Route;
  status: number;
  /** Seconds, sent as Retry-After. */
  retryAfter?: number;
  /** Only requests of this tenant. */
  tenantId?: string;
  skip?: number;
  times?: number;
}

/** The TLS files test/support/test-ca.sh made (test/run.sh exports the directory). */
export function testTls(): { key: Buffer; cert: Buffer } {
  const dir = process.env.DSYNC_TEST_TLS_DIR;
  if (!dir || process.env.NODE_EXTRA_CA_CERTS !== join(dir, 'ca.crt')) {
    throw new Error(
      'The fake Entra serves TLS: run through test/run.sh, or `bash test/support/test-ca.sh DIR` and export DSYNC_TEST_TLS_DIR=DIR NODE_EXTRA_CA_CERTS=DIR/ca.crt',
    );
  }
  return { key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.crt')) };
}

export class FakeEntra {
  readonly tenants = new Map<string, Tenant>();
  readonly authority = new FakeAuthority(this.tenants, () => this.base);
  readonly subscriptions = new FakeSubscriptions(FAKE_APP.clientId);
  /** Graph and token requests, by route and tenant. */
  readonly calls = new Map<string, number>();
  private faults: Array<Fault & { skip: number; times: number }> = [];
  private readonly deltas = new DeltaRounds();
  private server: Server | undefined;
  base = '';
  /** Added to every Graph answer (to make two runs overlap). */
  delayMs = 0;

  get url(): string {
    return this.base;
  }
  /** The scope a client-credentials request must ask for: the Graph resource's `.default`. */
  get graphScope(): string {
    return `${this.base}/.default`;
  }

  async start(): Promise<this> {
    this.server = createServer(testTls(), (req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.subscriptions.close();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** A tenant (consented unless told otherwise), with its users and groups changes notified to subscriptions. */
  tenant(id: string, domain = `${id.slice(0, 8)}.onmicrosoft.com`, consented = true): Tenant {
    const t = new Tenant(id, domain);
    t.consented = consented;
    this.tenants.set(id, t);
    return this.watch(t);
  }

  /**
   * Wraps the tenant's mutators so that each change is also notified to matching subscriptions, as Graph tells
   * them: `updated` for a creation, an update, a soft deletion, a restore and a member change; `deleted` for a
   * permanent deletion (a security group's deletion is one).
   */
  private watch(t: Tenant): Tenant {
    const notify = (kind: Kind, changeType: 'updated' | 'deleted') => (id: string) =>
      this.subscriptions.changed(t.id, kind, id, changeType);
    const wrap =
      <A extends unknown[], R>(fn: (...a: A) => R, after: (r: R, ...a: A) => void) =>
      (...a: A) => {
        const r = fn.apply(t, a);
        after(r, ...a);
        return r;
      };
    t.addUser = wrap(t.addUser, (u) => notify('users', 'updated')(u.id));
    t.updateUser = wrap(t.updateUser, (_r, id) => notify('users', 'updated')(id));
    t.removeUser = wrap(t.removeUser, (_r, id) => notify('users', 'updated')(id));
    t.restoreUser = wrap(t.restoreUser, (_r, id) => notify('users', 'updated')(id));
    t.purgeUser = wrap(t.purgeUser, (_r, id) => notify('users', 'deleted')(id));
    t.addGroup = wrap(t.addGroup, (g) => notify('groups', 'updated')(g.id));
    t.updateGroup = wrap(t.updateGroup, (_r, id) => notify('groups', 'updated')(id));
    const removeGroup = t.removeGroup;
    t.removeGroup = (id: string) => {
      const soft = t.groups.get(id)?.groupTypes.includes('Unified') === true;
      removeGroup.call(t, id);
      notify('groups', soft ? 'updated' : 'deleted')(id);
    };
    t.restoreGroup = wrap(t.restoreGroup, (_r, id) => notify('groups', 'updated')(id));
    t.purgeGroup = wrap(t.purgeGroup, (_r, id) => notify('groups', 'deleted')(id));
    t.addMember = wrap(t.addMember, (_r, g) => notify('groups', 'updated')(g));
    t.removeMember = wrap(t.removeMember, (_r, g) => notify('groups', 'updated')(g));
    return t;
  }

  inject(fault: Fault): void {
    this.faults.push({ ...fault, skip: fault.skip ?? 0, times: fault.times ?? 1 });
  }

  clearFaults(): void {
    this.faults = [];
  }

  /** Every delta token issued so far for the tenant is refused from now on (410 syncStateNotFound). */
  expireDeltaTokens(tenantId: string): void {
    this.tenants.get(tenantId)!.tokenGeneration++;
  }

  callsOf(route: Route, tenantId?: string): number {
    if (tenantId) return this.calls.get(`${route}:${tenantId}`) ?? 0;
    return [...this.calls].filter(([k]) => k.startsWith(`${route}:`)).reduce((n, [, v]) => n + v, 0);
  }

  /** Graph requests (token requests excluded) of a tenant, or of all. */
  graphCalls(tenantId?: string): number {
    return (['users', 'groups', 'object', 'subscriptions'] as const).reduce((n, r) => n + this.callsOf(r, tenantId), 0);
  }

  private count(route: Route, tenantId: string): void {
    this.calls.set(`${route}:${tenantId}`, (this.calls.get(`${route}:${tenantId}`) ?? 0) + 1);
  }

  private fault(route: Route, tenantId: string): Reply | undefined {
    const f = this.faults.find((x) => x.route === route && x.times > 0 && (!x.tenantId || x.tenantId === tenantId));
    if (!f) return undefined;
    if (f.skip > 0) {
      f.skip--;
      return undefined;
    }
    f.times--;
    const reply =
      f.status === 429
        ? graphError(429, 'TooManyRequests', 'Too many requests.')
        : f.status === 503
          ? graphError(503, 'ServiceUnavailable', 'Service unavailable.')
          : graphError(f.status, 'InternalServerError', 'Injected failure.');
    if (route === 'token')
      reply.body = {
        error: 'temporarily_unavailable',
        error_description: 'AADSTS90033: A transient error has occurred.',
      };
    return { ...reply, headers: f.retryAfter !== undefined ? { 'Retry-After': String(f.retryAfter) } : {} };
  }

  // HTTP ---------------------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    try {
      const reply = await this.route(req, url);
      send(res, reply);
    } catch (err) {
      send(res, graphError(500, 'InternalServerError', `fake entra: ${(err as Error).message}`));
    }
  }

  private async route(req: IncomingMessage, url: URL): Promise<Reply> {
    const path = url.pathname;
    let m = /^\/([^/]+)\/v2\.0\/\.well-known\/openid-configuration$/.exec(path);
    if (m && req.method === 'GET') return this.authority.openIdConfiguration(m[1]!);
    m = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(path);
    if (m && req.method === 'POST') {
      const form = new URLSearchParams(await bodyOf(req));
      const tenantId = this.tenants.get(m[1]!)?.id ?? m[1]!;
      this.count('token', tenantId);
      return this.fault('token', tenantId) ?? this.authority.token(m[1]!, form, this.graphScope);
    }
    m = /^\/([^/]+)\/oauth2\/v2\.0\/authorize$/.exec(path);
    if (m && req.method === 'GET') return this.authority.oidc.authorize(m[1]!, url.searchParams);
    m = /^\/([^/]+)\/discovery\/v2\.0\/keys$/.exec(path);
    if (m && req.method === 'GET') return this.authority.oidc.keys();
    m = /^\/([^/]+)\/v2\.0\/adminconsent$/.exec(path);
    if (m && req.method === 'GET') return this.authority.adminConsent(m[1]!, url.searchParams, this.graphScope);
    if (!path.startsWith('/v1.0/')) return graphError(404, 'BadRequest', `Invalid version: ${path}`);
    return this.graph(req, url, path.slice('/v1.0'.length));
  }

  private async graph(req: IncomingMessage, url: URL, path: string): Promise<Reply> {
    const auth = this.authority.bearer(req.headers.authorization);
    if (auth === 'invalid' || auth === 'expired') {
      return graphError(
        401,
        'InvalidAuthenticationToken',
        auth === 'expired'
          ? 'Lifetime validation failed, the token is expired.'
          : 'Access token validation failure. Invalid audience.',
      );
    }
    const tenant = this.tenants.get(auth.tenantId)!;
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    if (path === '/subscriptions' || path.startsWith('/subscriptions/')) {
      this.count('subscriptions', tenant.id);
      const fault = this.fault('subscriptions', tenant.id);
      if (fault) return fault;
      const id = path.split('/')[2];
      if (req.method === 'POST' && !id)
        return this.subscriptions.create(tenant.id, JSON.parse((await bodyOf(req)) || '{}'));
      if (req.method === 'GET' && !id) return this.subscriptions.list(tenant.id);
      if (req.method === 'PATCH' && id)
        return this.subscriptions.renew(tenant.id, id, JSON.parse((await bodyOf(req)) || '{}'));
      if (req.method === 'DELETE' && id) return this.subscriptions.delete(tenant.id, id);
      return graphError(405, 'Request_BadRequest', 'Method not allowed.');
    }
    if (req.method !== 'GET') return graphError(405, 'Request_BadRequest', 'Method not allowed.');
    const rel = /^\/(users|groups)\/([^/]+)\/(memberOf|members)$/.exec(path);
    if (rel && (rel[3] === 'memberOf' || rel[1] === 'groups'))
      return this.relation(tenant, rel[1] as Kind, decodeURIComponent(rel[2]!), rel[3] as 'memberOf' | 'members', url);
    const m = /^\/(users|groups)(?:\/(delta|microsoft\.graph\.delta\(\)|[^/]+))?$/.exec(path);
    if (!m) return graphError(404, 'Request_ResourceNotFound', `Resource not found for the segment '${path}'.`);
    const kind = m[1] as Kind;
    const delta = m[2] === 'delta' || m[2] === 'microsoft.graph.delta()';
    const route: Route = delta ? kind : 'object';
    this.count(route, tenant.id);
    const fault = this.fault(route, tenant.id);
    if (fault) return fault;
    if (!tenant.rolesGranted || !tenant.consented) {
      return graphError(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    }
    const select = (url.searchParams.get('$select') ?? '').split(',').filter(Boolean);
    if (!delta) {
      if (!m[2]) return graphError(400, 'Request_BadRequest', 'The fake lists only through delta.');
      const id = decodeURIComponent(m[2]);
      if (!(kind === 'users' ? tenant.users : tenant.groups).has(id)) {
        return graphError(
          404,
          'Request_ResourceNotFound',
          `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`,
        );
      }
      return {
        status: 200,
        body: {
          '@odata.context': `https://graph.microsoft.com/v1.0/$metadata#${kind}/$entity`,
          ...tenant.render(kind, id, select),
        },
      };
    }
    return this.deltas.page(this.base, tenant, kind, url, select, req.headers.prefer);
  }

  /** A relation list, once counted, fault-checked and allowed (paging.ts pages it). */
  private relation(tenant: Tenant, kind: Kind, id: string, relation: 'memberOf' | 'members', url: URL): Reply {
    this.count('object', tenant.id);
    const fault = this.fault('object', tenant.id);
    if (fault) return fault;
    if (!tenant.rolesGranted || !tenant.consented)
      return graphError(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    if (!(kind === 'users' ? tenant.users : tenant.groups).has(id)) {
      return graphError(
        404,
        'Request_ResourceNotFound',
        `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`,
      );
    }
    return relationPage(this.base, tenant, id, relation, url);
  }
}

function send(res: ServerResponse, reply: Reply): void {
  const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  const type =
    typeof reply.body === 'string'
      ? 'text/html; charset=utf-8'
      : 'application/json; odata.metadata=minimal; odata.streaming=true; IEEE754Compatible=false; charset=utf-8';
  res
    .writeHead(reply.status, { 'Content-Type': type, 'request-id': crypto.randomUUID(), ...reply.headers })
    .end(reply.status === 204 ? undefined : text);
}
