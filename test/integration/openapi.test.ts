/**
 * The OpenAPI document against the running app: committed file = generated one, served without a key, every
 * express route documented (walking the router stack), and every documented error status is provoked on every
 * route that documents it: 400, 401, 403, 404, 413, 415, 429 (under rate limits), 503 (Redis down), and 405 on
 * every path for the methods it does not document.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { Express } from 'express';
import { API_ROUTES } from '../../src/http/api-routes.js';
import { createApp } from '../../src/http/app.js';
import { CLIENT_TYPES_FILE, OPENAPI_FILE, clientTypesText, openApiText } from '../../scripts/generate/openapi.js';
import { openApiPath } from '../../src/http/openapi/document.js';
import { API_PREFIX, allowedMethods, errorStatuses, type ApiRoute } from '../../src/http/openapi/route-table.js';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { createDsync } from '../../src/service.js';
import { API_KEY, startService, type Reply, type Service } from '../support/harness.js';
import { startLimited, type LimitedService } from '../support/rate-limits.js';
import { pino } from 'pino';
import { freePort } from '../support/ports.js';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown[] }>> };
const doc = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Doc;

/** `[method, path]` of every route of the express app, with mount paths; SCIM (RFC 7644) has its own schemas. */
function expressRoutes(app: Express): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  const walk = (stack: any[], prefix: string) => {
    for (const layer of stack) {
      // A route answering only 405 (methodNotAllowed) is the other methods of a known path, not a route of its own.
      const only405 = layer.route?.stack.every((l: any) => l.name === 'methodNotAllowed');
      if (layer.route && !only405)
        for (const m of Object.keys(layer.route.methods)) found.push([m, `${prefix}${layer.route.path}`]);
      // Not the API: the SCIM endpoint (another protocol) and the setup page (HTML for the IT admin's browser).
      else if (layer.handle?.stack && !['/api/scim/v2.0', '/setup'].includes(`${prefix}${layer.rawPath ?? ''}`))
        walk(layer.handle.stack, `${prefix}${layer.rawPath ?? ''}`);
    }
  };
  walk((app as any).router.stack, '');
  return found;
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** A request to `r` with every path parameter set to `id` and its required query filled. */
function urlOf(r: ApiRoute, id: string, query: Record<string, string> = {}): string {
  const path = r.path.replace(/:(\w+)/g, () => encodeURIComponent(id));
  const q = new URLSearchParams(query).toString();
  return `${API_PREFIX}${path}${q ? `?${q}` : ''}`;
}

/** Query values that pass validation (and name an unknown directory where a directory is named). */
function validQuery(r: ApiRoute): Record<string, string> {
  const shape = (r.query as any)?.shape ?? {};
  return Object.fromEntries(
    ['tenant', 'product', 'directoryId']
      .filter((k) => k in shape)
      .map((k) => [k, k === 'directoryId' ? UNKNOWN : 'nobody']),
  );
}

/** A body the route accepts (create, update, replay): what is left to answer is the store's or the id's. */
function validBody(r: ApiRoute): unknown {
  if (!r.body) return undefined;
  if (r.method === 'patch') return { name: 'Renamed' };
  const bodies: Record<string, unknown> = {
    '/directory-sync': { name: 'Acme', tenant: 'acme', product: 'app', type: 'okta-scim-v2' },
    'post /directory-sync/:id/google/token': { code: 'an-authorization-code' },
    'put /directory-sync/:id/google/token': { access_token: 'ya29.a', refresh_token: '1//r' },
    'post /directory-sync/:id/setup-links': { expires_in: 3600 },
    'put /directory-sync/:id/hris/credentials': { subdomain: 'acme', api_key: 'a-bamboohr-key' },
    '/directory-sync/:id/google/service-account': {
      key: {
        type: 'service_account',
        client_email: 'sync@acme.iam.gserviceaccount.com',
        private_key: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n',
      },
      admin_email: 'admin@acme.io',
    },
  };
  return bodies[`${r.method} ${r.path}`] ?? bodies[r.path] ?? { since: 0 };
}

describe('OpenAPI document', function () {
  this.timeout(60_000);
  let svc: Service;
  /** Scoped keys (src/http/middleware/api-keys.ts): every route documents 403 for a key beyond its scope. */
  const READ_ONLY = 'read-only-key';
  const OTHER_TENANT = 'beta-tenant-key';
  before(async () => {
    svc = await startService(
      new MemoryStore(),
      {},
      {
        apiKeys: [
          API_KEY,
          { key: READ_ONLY, scope: { readOnly: true } },
          { key: OTHER_TENANT, scope: { readOnly: false, tenant: 'beta' } },
        ],
      },
    );
  });
  after(() => svc.close());

  const raw = (method: string, url: string, init: { headers?: Record<string, string>; body?: string } = {}) =>
    fetch(`${svc.url}${url}`, {
      method,
      headers: { authorization: `Api-Key ${API_KEY}`, ...init.headers },
      ...(init.body !== undefined && { body: init.body }),
    });

  it('docs/openapi.json is the generated document (run `npm run openapi` after changing a route or schema)', () => {
    expect(
      readFileSync(OPENAPI_FILE, 'utf8') === openApiText(),
      'docs/openapi.json is stale: run npm run openapi',
    ).to.equal(true);
  });

  it('src/client/api-types.ts is generated from the document (run `npm run openapi`)', async () => {
    expect(
      readFileSync(CLIENT_TYPES_FILE, 'utf8') === (await clientTypesText()),
      'src/client/api-types.ts is stale: run npm run openapi',
    ).to.equal(true);
  });

  it('is served at GET /api/v1/openapi.json without an API key', async () => {
    const res = await fetch(`${svc.url}/api/v1/openapi.json`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal(JSON.parse(openApiText()));
  });

  it('documents every route of the express app, and nothing the app does not route', () => {
    const dsync = createDsync({ store: new MemoryStore(), externalUrl: 'http://localhost' });
    const routes = expressRoutes(createApp({ dsync, apiKeys: [API_KEY], logger: pino({ level: 'silent' }) }));
    const inApp = routes.map(([m, p]) => `${m} ${p.replace(/:(\w+)/g, '{$1}')}`).sort();
    const inDoc = Object.entries(doc.paths)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`))
      .sort();
    expect(inApp).to.deep.equal(inDoc);
    expect(inApp.length).to.be.at.least(API_ROUTES.length + 3);
  });

  it('every route answers 401 without the key, as documented', async () => {
    for (const r of API_ROUTES) {
      expect(doc.paths[openApiPath(r.path)]![r.method]!.responses).to.have.property('401');
      const res = await fetch(`${svc.url}${urlOf(r, UNKNOWN, validQuery(r))}`, { method: r.method.toUpperCase() });
      expect(res.status, `${r.method} ${r.path}`).to.equal(401);
    }
  });

  it('every route with input answers 400 on a bad parameter or body, as documented', async () => {
    for (const r of API_ROUTES.filter((x) => errorStatuses(x).includes(400))) {
      // A control character in a path id, a repeated query parameter, an unknown body field: each a 400.
      const url = r.params
        ? urlOf(r, 'bad\u0001id', validQuery(r))
        : r.query
          ? `${urlOf(r, UNKNOWN)}?${Object.keys((r.query as any).shape)[0]}=1&${Object.keys((r.query as any).shape)[0]}=2`
          : urlOf(r, UNKNOWN);
      const body = r.body && !r.params ? JSON.stringify({ no_such_field: 1 }) : undefined;
      const res = await raw(r.method.toUpperCase(), url, {
        headers: { 'content-type': 'application/json' },
        ...(body && { body }),
      });
      expect(res.status, `${r.method} ${r.path}`).to.equal(400);
      expect(((await res.json()) as any).error.code).to.equal(400);
    }
  });

  it('every route with a path parameter answers 400 for an id that is not percent-decodable, as documented', async () => {
    const routes = API_ROUTES.filter((r) => r.params);
    expect(routes.length).to.be.at.least(10);
    for (const r of routes) {
      expect(errorStatuses(r), `${r.method} ${r.path}`).to.include(400);
      // %A7 alone is no UTF-8 character: express cannot decode the parameter.
      const body = r.body ? JSON.stringify(validBody(r)) : undefined;
      const res = await raw(r.method.toUpperCase(), `${API_PREFIX}${r.path.replace(/:(\w+)/g, '%A7%F2')}`, {
        headers: { 'content-type': 'application/json' },
        ...(body && { body }),
      });
      expect(res.status, `${r.method} ${r.path}`).to.equal(400);
      expect(((await res.json()) as any).error.code).to.equal(400);
    }
  });

  it('every operation documents the 431 the HTTP parser answers to a request line over 16 KiB, and every route answers it in the envelope', async () => {
    // Before, no operation listed it: the fuzzer's over-long redirect_url (past its maxLength) met a bare, undocumented
    // 431.
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [m, op] of Object.entries(ops)) expect(op.responses, `${m} ${path}`).to.have.property('431');
    for (const r of API_ROUTES) {
      const res = await raw(
        r.method.toUpperCase(),
        `${urlOf(r, UNKNOWN)}?redirect_url=${'%F0%9F%8F%BB'.repeat(1_500)}`,
      );
      expect(res.status, `${r.method} ${r.path}`).to.equal(431);
      expect(res.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
      expect(await res.json()).to.deep.equal({
        data: null,
        error: {
          code: 431,
          message: "The request line and headers exceed 16 KiB (Node's limit): shorten the URL or the headers",
        },
      });
    }
  });

  it('every route with an id or a directoryId answers 404 for an unknown one, as documented', async () => {
    const routes = API_ROUTES.filter((r) => errorStatuses(r).includes(404));
    expect(routes.length).to.be.at.least(10);
    for (const r of routes) {
      const body = r.body ? JSON.stringify(validBody(r)) : undefined;
      const res = await raw(r.method.toUpperCase(), urlOf(r, UNKNOWN, { ...validQuery(r), directoryId: UNKNOWN }), {
        headers: { 'content-type': 'application/json' },
        ...(body && { body }),
      });
      expect(res.status, `${r.method} ${r.path}`).to.equal(404);
    }
  });

  it('every route with a body answers 413 on an oversized body and 415 on a non-JSON one, as documented', async () => {
    const d = await svc.createDirectory();
    for (const r of API_ROUTES.filter((x) => x.body)) {
      expect(errorStatuses(r)).to.include.members([413, 415]);
      const url = urlOf(r, d.id);
      const big = await raw(r.method.toUpperCase(), url, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
      });
      expect(big.status, `${r.method} ${r.path}`).to.equal(413);
      const text = await raw(r.method.toUpperCase(), url, { headers: { 'content-type': 'text/plain' }, body: 'hello' });
      expect(text.status, `${r.method} ${r.path}`).to.equal(415);
    }
  });

  it("every route behind the key answers 403 beyond a scoped key's reach; three refuse a directory the operator manages", async () => {
    const acme = await svc.createDirectory({ type: 'google', tenant: 'acme' });
    const routes = API_ROUTES.filter((r) => errorStatuses(r).includes(403));
    expect(routes).to.have.length(API_ROUTES.filter((r) => r.auth !== false).length);
    for (const r of routes) {
      // A write with the read-only key; a read with a key of tenant beta on acme's directory (or tenant).
      const key = r.method === 'get' ? OTHER_TENANT : READ_ONLY;
      const query = Object.fromEntries(
        Object.entries(validQuery(r)).map(([k, v]) => [k, k === 'directoryId' ? acme.id : k === 'tenant' ? 'acme' : v]),
      );
      const body = validBody(r);
      const res = await raw(r.method.toUpperCase(), urlOf(r, acme.id, query), {
        headers: { authorization: `Api-Key ${key}`, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      expect(res.status, `${r.method} ${r.path} with ${key}`).to.equal(403);
    }
    const managed = await svc.dsync.directories.create(
      { name: 'M', tenant: 'acme', product: 'app', type: 'okta-scim-v2' },
      { managedBy: 'operator' },
    );
    const managedGoogle = await svc.dsync.directories.create(
      { name: 'G', tenant: 'acme', product: 'app', type: 'google' },
      { managedBy: 'operator' },
    );
    const managedHris = await svc.dsync.directories.create(
      { name: 'H', tenant: 'acme', product: 'app', type: 'bamboohr' },
      { managedBy: 'operator' },
    );
    const controlled = API_ROUTES.filter((r) => r.errors?.includes(403));
    expect(controlled.map((r) => `${r.method} ${r.path}`).sort()).to.deep.equal([
      'delete /directory-sync/:id',
      'delete /directory-sync/:id/scim-tokens/:tokenId',
      'patch /directory-sync/:id',
      'put /directory-sync/:id/google/service-account',
      'put /directory-sync/:id/hris/credentials',
    ]);
    for (const r of controlled) {
      const target = r.path.includes('/google/') ? managedGoogle : r.path.includes('/hris/') ? managedHris : managed;
      // The token its DirectoryConnection's Secret holds is the one the operator manages.
      const url = r.path.endsWith(':tokenId')
        ? `${API_PREFIX}/directory-sync/${target.id}/scim-tokens/scim-secret`
        : urlOf(r, target.id);
      const res: Reply = await svc.api(r.method.toUpperCase(), url, validBody(r));
      expect(res.status, `${r.method} ${r.path}`).to.equal(403);
    }
  });

  it('a documented path asked with an undocumented method answers 405 with Allow listing the documented ones', async () => {
    for (const [path, methods] of allowedMethods(API_ROUTES)) {
      const documented = Object.keys(doc.paths[openApiPath(path)]!).map((m) => m.toUpperCase());
      expect(methods.filter((m) => m !== 'HEAD')).to.have.members(documented);
      const other = ['PUT', 'POST', 'PATCH', 'DELETE', 'GET'].find((m) => !methods.includes(m))!;
      const res = await raw(other, urlOf({ path } as ApiRoute, UNKNOWN));
      expect(res.status, `${other} ${path}`).to.equal(405);
      expect(res.headers.get('allow')).to.equal(methods.join(', '));
      expect(((await res.json()) as any).error.code).to.equal(405);
    }
    for (const path of ['/healthz', '/readyz', '/api/v1/openapi.json', '/api/v1/dsync/google/callback']) {
      const res = await fetch(`${svc.url}${path}`, { method: 'DELETE' });
      expect(res.status, path).to.equal(405);
      expect(res.headers.get('allow')).to.equal('GET, HEAD');
    }
  });

  it('OPTIONS, documented nowhere, is a 405 on every documented path (the callback answered 200 text/plain)', async () => {
    for (const path of Object.keys(doc.paths)) {
      const res = await raw('OPTIONS', path.replace(/\{\w+\}/g, UNKNOWN));
      expect(res.status, path).to.equal(405);
      expect(res.headers.get('allow'), path).to.be.a('string');
    }
  });

  describe('with the store down', () => {
    let down: Service;
    let store: RedisStore;
    before(async () => {
      // A Redis store on a port nothing listens on: every command fails fast (refused, no offline queue).
      store = new RedisStore(`redis://127.0.0.1:${await freePort()}/0`);
      store.redis.on('error', () => {}); // the refused connects are the point; ioredis would print each one
      down = await startService(store, { delivery: { pollIntervalMs: 60_000 } });
    });
    // Closing a client that never connected fails too (QUIT cannot be sent): that is not what this tests. The
    // client is then torn down by hand, or it would go on reconnecting and keep the test process alive.
    after(async () => {
      await down.close().catch(() => undefined);
      store.redis.disconnect();
    });

    it('every route documenting 503 answers it, with Retry-After', async () => {
      for (const r of API_ROUTES.filter((x) => errorStatuses(x).includes(503))) {
        // `<directory>_<stream entry>` is the shape of a Redis delivery log id: only such an id reaches the store.
        const res = await down.api(r.method.toUpperCase(), urlOf(r, `${UNKNOWN}_1-0`, validQuery(r)), validBody(r));
        expect(res.status, `${r.method} ${r.path}: ${JSON.stringify(res.body)}`).to.equal(503);
        expect(res.headers.get('retry-after'), `${r.method} ${r.path}`).to.equal('1');
      }
    });
  });

  describe('under rate limits', () => {
    let limited: LimitedService;
    before(async () => {
      limited = await startLimited(new MemoryStore(), { plan: 'developer' });
    });
    after(() => limited.close());

    it('every route behind the key answers 429 with the documented headers once its bucket is spent', async () => {
      for (const r of API_ROUTES) {
        const statuses: number[] = [];
        for (let round = 0; round < 5 && !statuses.includes(429); round++) {
          const replies = await Promise.all(
            Array.from({ length: 8 }, () =>
              limited.api(r.method.toUpperCase(), urlOf(r, UNKNOWN, validQuery(r)), validBody(r)),
            ),
          );
          statuses.push(...replies.map((x) => x.status));
          const refused = replies.find((x) => x.status === 429);
          if (refused)
            for (const h of ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
              expect(refused.headers.get(h), h).to.be.a('string');
        }
        expect(statuses, `${r.method} ${r.path}`).to.include(429);
      }
    });
  });
});
