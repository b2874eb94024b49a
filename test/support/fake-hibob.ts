/**
 * A fake HiBob for tests and the benchmark, over real HTTP, in the shapes of Bob's public API reference: HTTP Basic
 * with a service user's id and token; `POST /v1/people/search` (`fields`, `showInactive` — active employees only
 * unless true —, `humanReadable: APPEND` adding list items' names), everyone in one answer (no paging); list
 * fields (`work.department`, `work.title`, `work.site`, `payroll.employment.type`) as item ids, and the fields
 * outside `root`, `internal` and `work`'s first ones only when asked for; `GET /v1/company/named-lists/department`, a
 * tree of items
 * (`id`, `value`, `name`, `archived`, `children`); 401 for unknown credentials; and Bob's 50 requests a minute per
 * company, past which it answers 429 with `Retry-After`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeServer, sendJson } from './fake-http.js';

export interface HEmployee {
  id: string;
  email: string | null;
  firstName: string;
  surname: string;
  status: 'Active' | 'Inactive';
  employeeIdInCompany: number;
  title: string;
  /** The department's name (its list item is made on first use). */
  department: string | null;
  reportsTo: string | null;
  startDate: string;
  /** List fields by name (`work.site`, `payroll.employment.type`): their items are made on first use. */
  site: string | null;
  employmentType: string | null;
  workPhone: string | null;
  /** `address.country`, by name. */
  country: string | null;
}

type Route = 'search' | 'lists';

export class FakeHiBob extends FakeServer<Route> {
  readonly calls: Record<Route, number> = { search: 0, lists: 0 };
  readonly employees = new Map<string, HEmployee>();
  readonly users = new Map<string, string>([['SERVICE-USER-1', 'hibob-token-1']]);
  /** Off: the service user may not read the named lists (404). */
  namedLists = true;
  /** Requests a minute per company before 429 (Bob's limit: 50); 0 = none. */
  perMinute = 50;
  private readonly recent: number[] = [];
  private readonly items = new Map<string, string>(); // department name → item id
  private readonly otherItems = new Map<string, string>(); // site or employment type name → item id
  private seq = 0;

  hire(over: Partial<HEmployee> = {}): HEmployee {
    const n = ++this.seq;
    const e: HEmployee = {
      id: String(3_000_000_000 + n),
      email: `bob${n}@acme.example`,
      firstName: `First${n}`,
      surname: `Last${n}`,
      status: 'Active',
      employeeIdInCompany: n,
      title: 'Engineer',
      department: 'Engineering',
      reportsTo: null,
      startDate: '2023-05-02',
      site: 'London',
      employmentType: 'Permanent',
      workPhone: null,
      country: 'United Kingdom',
      ...over,
    };
    this.employees.set(e.id, e);
    return e;
  }

  private otherItemId(name: string): string {
    if (!this.otherItems.has(name)) this.otherItems.set(name, String(310_000_000 + this.otherItems.size));
    return this.otherItems.get(name)!;
  }

  private itemId(name: string): string {
    if (!this.items.has(name)) this.items.set(name, String(209_000_000 + this.items.size));
    return this.items.get(name)!;
  }

  protected handle(req: IncomingMessage, res: ServerResponse, url: URL, body: string): void {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [user, token] = basic ? Buffer.from(basic, 'base64').toString().split(':') : [];
    if (!user || this.users.get(user) !== token)
      return sendJson(res, 401, { error: 'Unauthorized', message: 'Invalid service user credentials' });
    const route: Route | undefined =
      req.method === 'POST' && url.pathname === '/v1/people/search'
        ? 'search'
        : req.method === 'GET' && url.pathname === '/v1/company/named-lists/department'
          ? 'lists'
          : undefined;
    if (!route) return sendJson(res, 404, { error: 'Not found' });
    const now = Date.now();
    while (this.recent.length > 0 && this.recent[0]! < now - 60_000) this.recent.shift();
    if (this.perMinute > 0 && this.recent.length >= this.perMinute) {
      this.calls[route]++;
      return sendJson(
        res,
        429,
        { error: 'Too many requests' },
        { 'Retry-After': String(Math.ceil((this.recent[0]! + 60_000 - now) / 1000)) },
      );
    }
    this.recent.push(now);
    if (this.faulted(route, res)) return;
    if (route === 'lists' && !this.namedLists) return sendJson(res, 404, { error: 'Not found' });
    if (route === 'lists') {
      // A tree: every department under one root item, as companies often arrange them.
      for (const e of this.employees.values()) if (e.department) this.itemId(e.department);
      const children = [...this.items].map(([name, id]) => ({
        id: Number(id),
        value: name,
        name,
        archived: false,
        children: [],
      }));
      return sendJson(res, 200, {
        name: 'department',
        values: [{ id: 1, value: 'Company', name: 'Company', archived: false, children }],
      });
    }
    let request: { fields?: unknown; showInactive?: unknown; humanReadable?: unknown };
    try {
      request = JSON.parse(body);
    } catch {
      return sendJson(res, 400, { error: 'Bad request' });
    }
    if (!Array.isArray(request.fields) || request.fields.length > 400)
      return sendJson(res, 400, { error: 'fields must be an array of at most 400 field ids' });
    const append = request.humanReadable === 'APPEND';
    const asked = new Set(request.fields as unknown[]);
    const item = (name: string | null) => (name === null ? null : this.otherItemId(name));
    const employees = [...this.employees.values()]
      .filter((e) => request.showInactive === true || e.status === 'Active')
      .map((e) => {
        const dept = e.department ? this.itemId(e.department) : null;
        return {
          id: e.id,
          email: e.email,
          firstName: e.firstName,
          surname: e.surname,
          displayName: `${e.firstName} ${e.surname}`,
          internal: { status: e.status, lifecycleStatus: e.status === 'Active' ? 'employed' : 'terminated' },
          work: {
            employeeIdInCompany: e.employeeIdInCompany,
            title: `T-${e.title.length}`,
            department: dept,
            division: null,
            reportsTo: e.reportsTo ? { id: e.reportsTo } : null,
            startDate: e.startDate,
            ...(asked.has('work.site') && { site: item(e.site) }),
            ...(asked.has('work.workPhone') && { workPhone: e.workPhone }),
          },
          ...(asked.has('payroll.employment.type') && { payroll: { employment: { type: item(e.employmentType) } } }),
          ...(asked.has('address.country') && { address: { country: e.country } }),
          ...(append && {
            humanReadable: {
              work: {
                title: e.title,
                department: e.department,
                division: null,
                ...(asked.has('work.site') && { site: e.site }),
              },
              ...(asked.has('payroll.employment.type') && { payroll: { employment: { type: e.employmentType } } }),
              ...(asked.has('address.country') && { address: { country: e.country } }),
            },
          }),
        };
      });
    sendJson(res, 200, { employees });
  }
}
