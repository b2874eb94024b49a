/**
 * A fake Personio (API v2) for tests and the benchmark, over real HTTP, in the shapes of Personio's public API
 * reference: `POST /v2/auth/token` (client credentials, form-encoded; 401 `invalid_client`), bearer tokens;
 * `GET /v2/persons` in cursor pages (`limit` at most 50, else 400; `_data`, `_meta.links.next.href`),
 * `GET /v2/persons/<id>/employments` (most recent first: status, position, supervisor, org units, start date,
 * office by id, type),
 * `GET /v2/org-units?type=DEPARTMENT` (paged the same way); errors as `{errors: [{title, detail}]}`; 429 with
 * `Retry-After` when injected.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeServer, sendJson } from './fake-http.js';

export interface PPerson {
  id: string;
  email: string | null;
  first_name: string;
  last_name: string;
  preferred_name: string | null;
  status: 'ACTIVE' | 'INACTIVE' | 'ONBOARDING' | 'LEAVE';
  title: string;
  department: string | null;
  supervisor: string | null;
  start_date: string;
  /** The office's id (Personio's v2 names it by id only). */
  office: string | null;
  /** The employment's type. */
  type: 'INTERNAL' | 'EXTERNAL';
}

type Route = 'token' | 'persons' | 'employments' | 'orgUnits';
const MAX_LIMIT = 50;

const error = (res: ServerResponse, status: number, title: string, detail: string) =>
  sendJson(res, status, {
    personio_trace_id: randomUUID(),
    timestamp: new Date().toISOString(),
    errors: [{ title, detail }],
  });

export class FakePersonio extends FakeServer<Route> {
  readonly calls: Record<Route, number> = { token: 0, persons: 0, employments: 0, orgUnits: 0 };
  readonly persons = new Map<string, PPerson>();
  readonly clients = new Map<string, string>([['papi-client-1', 'papi-secret-1']]);
  readonly tokens = new Set<string>();
  /** Off: org units are read one at a time by id only (the list answers 404). */
  orgUnitList = true;
  private readonly units = new Map<string, string>(); // department name → id
  private seq = 0;

  hire(over: Partial<PPerson> = {}): PPerson {
    const n = ++this.seq;
    const p: PPerson = {
      id: String(5000 + n),
      email: `pers${n}@acme.example`,
      first_name: `First${n}`,
      last_name: `Last${n}`,
      preferred_name: null,
      status: 'ACTIVE',
      title: 'Engineer',
      department: 'Engineering',
      supervisor: null,
      start_date: '2022-09-01',
      office: '41',
      type: 'INTERNAL',
      ...over,
    };
    this.persons.set(p.id, p);
    return p;
  }

  /** Every token issued so far stops working (an expiry), the credentials still do. */
  expireTokens(): void {
    this.tokens.clear();
  }

  private unitId(name: string): string {
    if (!this.units.has(name)) this.units.set(name, String(700 + this.units.size));
    return this.units.get(name)!;
  }

  private paged<T>(res: ServerResponse, url: URL, items: T[]): void {
    const limit = Number(url.searchParams.get('limit') ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      return error(res, 400, 'Invalid parameter', `limit must be between 1 and ${MAX_LIMIT}`);
    const cursor = url.searchParams.get('cursor');
    const offset = cursor ? Number(Buffer.from(cursor, 'base64url').toString()) : 0;
    if (!Number.isInteger(offset) || offset < 0) return error(res, 400, 'Invalid parameter', 'cursor is invalid');
    const next = offset + limit < items.length ? new URL(url) : undefined;
    next?.searchParams.set('cursor', Buffer.from(String(offset + limit)).toString('base64url'));
    sendJson(res, 200, {
      _data: items.slice(offset, offset + limit),
      _meta: { links: { self: { href: url.toString() }, ...(next && { next: { href: next.toString() } }) } },
    });
  }

  protected handle(req: IncomingMessage, res: ServerResponse, url: URL, body: string): void {
    if (req.method === 'POST' && url.pathname === '/v2/auth/token') {
      if (this.faulted('token', res)) return;
      const form = new URLSearchParams(body);
      const id = form.get('client_id') ?? '';
      if (form.get('grant_type') !== 'client_credentials')
        return sendJson(res, 400, { error: 'unsupported_grant_type' });
      if (!this.clients.has(id) || this.clients.get(id) !== form.get('client_secret')) {
        return sendJson(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
      }
      const token = `papi-${randomUUID()}`;
      this.tokens.add(token);
      return sendJson(res, 200, {
        access_token: token,
        token_type: 'Bearer',
        expires_in: 86_400,
        scope: 'personio:persons:read personio:employments:read',
      });
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (req.method !== 'GET') return error(res, 405, 'Method not allowed', '');
    const m = /^\/v2\/persons\/([^/]+)\/employments$/.exec(url.pathname);
    const unit = /^\/v2\/org-units\/([^/]+)$/.exec(url.pathname);
    const route: Route | undefined =
      url.pathname === '/v2/persons'
        ? 'persons'
        : m
          ? 'employments'
          : url.pathname === '/v2/org-units' || unit
            ? 'orgUnits'
            : undefined;
    if (!route) return error(res, 404, 'Not found', 'No such resource');
    if (!bearer || !this.tokens.has(bearer))
      return error(res, 401, 'Unauthorized', 'The access token is invalid or expired');
    if (this.faulted(route, res)) return;
    if (route === 'orgUnits' && unit) {
      const name = [...this.units].find(([, id]) => id === decodeURIComponent(unit[1]!))?.[0];
      return name
        ? sendJson(res, 200, { id: unit[1], type: 'DEPARTMENT', name, abbreviation: null })
        : error(res, 404, 'Not found', 'No such org unit');
    }
    if (route === 'orgUnits' && !this.orgUnitList) return error(res, 404, 'Not found', 'No such resource');
    if (route === 'orgUnits') {
      if (url.searchParams.get('type') !== 'DEPARTMENT' && url.searchParams.get('type') !== 'TEAM')
        return error(res, 400, 'Invalid parameter', 'type is required');
      for (const p of this.persons.values()) if (p.department) this.unitId(p.department);
      const units =
        url.searchParams.get('type') === 'DEPARTMENT'
          ? [...this.units].map(([name, id]) => ({ id, type: 'DEPARTMENT', name, abbreviation: null, parent: null }))
          : [];
      return this.paged(res, url, units);
    }
    if (route === 'persons') {
      const persons = [...this.persons.values()].map((p) => ({
        id: p.id,
        email: p.email,
        first_name: p.first_name,
        last_name: p.last_name,
        preferred_name: p.preferred_name,
        created_at: '2022-08-01T09:00:00Z',
        updated_at: '2022-08-01T09:00:00Z',
        employments: [{ id: `emp-${p.id}` }],
      }));
      return this.paged(res, url, persons);
    }
    const p = this.persons.get(decodeURIComponent(m![1]!));
    if (!p) return error(res, 404, 'Not found', 'Person not found');
    this.paged(res, url, [
      {
        id: `emp-${p.id}`,
        person: { id: p.id },
        status: p.status,
        position: { title: p.title },
        supervisor: p.supervisor ? { id: p.supervisor } : null,
        org_units: [
          ...(p.department ? [{ id: this.unitId(p.department), type: 'DEPARTMENT' }] : []),
          { id: '900', type: 'TEAM' },
        ],
        start_date: `${p.start_date}T00:00:00Z`,
        weekly_working_hours: 40,
        office: p.office ? { id: p.office } : null,
        type: p.type,
      },
    ]);
  }
}
