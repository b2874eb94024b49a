/**
 * Personio (API v2): an OAuth client-credentials token from `<base>/v2/auth/token`, then persons in cursor pages
 * of at most 50 (`_data`, `_meta.links.next`), each person's current employment (status, position, supervisor,
 * org units) and the departments' names (org units of type DEPARTMENT). No changed-since feed: every run reads
 * everyone. Its webhooks carry no data and are hints only.
 */
import { z } from 'zod';
import { ownFields, type Employee, type HrisConnection, type HrisConnector } from './connector.js';
import { secretField } from './credential-fields.js';
import { HrisApiError, HrisCredentialsError } from './errors.js';
import type { HrisHttp } from './http.js';
import { forEachLimited } from '../pull/pool.js';

export const personioCredentials = z.strictObject({
  client_id: secretField('client_id', 200),
  client_secret: secretField('client_secret'),
});
export type PersonioCredentials = z.infer<typeof personioCredentials>;

/** Personio's largest page of persons. */
const PAGE = 50;
/** Employments read at once. */
const EMPLOYMENT_CONCURRENCY = 8;

const text = z.string().nullish();
const ref = z.looseObject({ id: z.union([z.string(), z.number()]).transform(String) });
const page = <T extends z.ZodType>(item: T) =>
  z.looseObject({
    _data: z.array(item),
    _meta: z
      .looseObject({ links: z.looseObject({ next: z.looseObject({ href: z.string() }).nullish() }).nullish() })
      .nullish(),
  });
const personItem = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  email: text,
  first_name: text,
  last_name: text,
  preferred_name: text,
  status: text,
});
const employment = z.looseObject({
  status: text,
  position: z.looseObject({ title: text }).nullish(),
  supervisor: ref.nullish(),
  org_units: z.array(z.looseObject({ id: z.union([z.string(), z.number()]).transform(String), type: text })).nullish(),
  start_date: text,
  /** Personio's v2 names the office by its id only. */
  office: ref.nullish(),
  /** INTERNAL or EXTERNAL. */
  type: text,
});
const orgUnit = z.looseObject({ id: z.union([z.string(), z.number()]).transform(String), name: text });
const token = z.looseObject({ access_token: z.string().min(1), expires_in: z.number().optional() });

/** An employment that counts as working here. */
const ACTIVE = new Set(['ACTIVE', 'ONBOARDING', 'LEAVE']);
const some = (v: string | null | undefined): string | undefined =>
  v === null || v === undefined || v.trim() === '' ? undefined : v.trim();

export function personioEmployee(
  p: z.infer<typeof personItem>,
  e: z.infer<typeof employment> | undefined,
  departments: ReadonlyMap<string, string>,
): Employee {
  const dept = e?.org_units?.find((u) => u.type === 'DEPARTMENT');
  const displayName =
    some(p.preferred_name) && some(p.last_name) ? `${some(p.preferred_name)} ${some(p.last_name)}` : undefined;
  const fields = ownFields({ office: e?.office?.id, employmentType: some(e?.type) });
  return {
    id: p.id,
    ...(some(p.email) && { email: some(p.email)! }),
    ...(some(p.first_name) && { firstName: some(p.first_name)! }),
    ...(some(p.last_name) && { lastName: some(p.last_name)! }),
    ...(displayName && { displayName }),
    // The employment says; a person without one readable, their own status.
    active: ACTIVE.has(e?.status ?? p.status ?? ''),
    ...(some(e?.position?.title) && { jobTitle: some(e?.position?.title)! }),
    ...(dept && { department: { id: dept.id, name: departments.get(dept.id) ?? dept.id } }),
    ...(e?.supervisor?.id && { managerId: e.supervisor.id }),
    ...(some(e?.start_date) && { startDate: some(e?.start_date)!.slice(0, 10) }),
    ...(fields && { fields }),
  };
}

class PersonioConnection implements HrisConnection {
  private readonly base: string;
  private bearer: Promise<string> | undefined;

  constructor(
    private readonly c: PersonioCredentials,
    private readonly http: HrisHttp,
    baseUrl: string,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  private token(): Promise<string> {
    this.bearer ??= (async () => {
      const body = token.safeParse(
        await this.http.json(`${this.base}/v2/auth/token`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: this.c.client_id,
            client_secret: this.c.client_secret,
          }).toString(),
        }),
      );
      if (!body.success) throw new HrisApiError('Personio', 'the token answer had an unexpected shape');
      return body.data.access_token;
    })();
    this.bearer.catch(() => (this.bearer = undefined));
    return this.bearer;
  }

  /** A read with the token; an expired token (401) is replaced once. `missing`: a 404 answers null. */
  private async get<T>(url: string, schema: z.ZodType<T>, what: string, missing?: false): Promise<T>;
  private async get<T>(url: string, schema: z.ZodType<T>, what: string, missing: true): Promise<T | null>;
  private async get<T>(url: string, schema: z.ZodType<T>, what: string, missing = false): Promise<T | null> {
    for (let attempt = 0; ; attempt++) {
      const bearer = await this.token();
      try {
        const answer = await this.http.json(url, { headers: { Authorization: `Bearer ${bearer}` }, missing });
        if (answer === null && missing) return null;
        const body = schema.safeParse(answer);
        if (!body.success) throw new HrisApiError('Personio', `${what} had an unexpected shape`);
        return body.data;
      } catch (err) {
        if (!(err instanceof HrisCredentialsError) || err.providerStatus !== 401 || attempt > 0) throw err;
        this.bearer = undefined;
      }
    }
  }

  private async *pages<T>(first: string, item: z.ZodType<T>, what: string): AsyncIterable<T[]> {
    for (let url: string | undefined = first; url; ) {
      const body: { _data: T[]; _meta?: { links?: { next?: { href: string } | null } | null } | null } = await this.get(
        url,
        page(item),
        what,
      );
      yield body._data;
      url = this.follow(body._meta?.links?.next?.href);
    }
  }

  /** A next-page link, followed only to the same API. */
  private follow(next: string | undefined): string | undefined {
    return next && new URL(next, this.base).origin === new URL(this.base).origin
      ? new URL(next, this.base).toString()
      : undefined;
  }

  async verify(): Promise<void> {
    await this.token();
  }

  /** The departments' names, listed; where the list is not offered, each department read once by its id. */
  private async departments(): Promise<(ids: string[]) => Promise<Map<string, string>>> {
    const names = new Map<string, string>();
    const first = await this.get(
      `${this.base}/v2/org-units?type=DEPARTMENT&limit=${PAGE}`,
      page(orgUnit),
      'the departments',
      true,
    );
    if (first) {
      for (const u of first._data) names.set(u.id, u.name ?? u.id);
      const next = this.follow(first._meta?.links?.next?.href);
      if (next)
        for await (const units of this.pages(next, orgUnit, 'the departments'))
          for (const u of units) names.set(u.id, u.name ?? u.id);
      return async () => names;
    }
    return async (ids) => {
      for (const id of ids.filter((i) => !names.has(i))) {
        const unit = await this.get(
          `${this.base}/v2/org-units/${encodeURIComponent(id)}?type=DEPARTMENT`,
          orgUnit,
          'a department',
          true,
        );
        names.set(id, unit?.name ?? id);
      }
      return names;
    };
  }

  async *employees(): AsyncIterable<Employee[]> {
    const named = await this.departments();
    for await (const persons of this.pages(`${this.base}/v2/persons?limit=${PAGE}`, personItem, 'a page of persons')) {
      const employments: Array<z.infer<typeof employment> | undefined> = new Array(persons.length);
      await forEachLimited([...persons.keys()], EMPLOYMENT_CONCURRENCY, async (i) => {
        // The most recent employment comes first.
        const list = await this.get(
          `${this.base}/v2/persons/${encodeURIComponent(persons[i]!.id)}/employments?limit=1`,
          page(employment),
          'an employment',
          true,
        );
        employments[i] = list?._data[0];
      });
      const ids = employments.flatMap(
        (e) => e?.org_units?.filter((u) => u.type === 'DEPARTMENT').map((u) => u.id) ?? [],
      );
      const departments = await named([...new Set(ids)]);
      yield persons.map((p, i) => personioEmployee(p, employments[i], departments));
    }
  }
}

export const personio: HrisConnector<PersonioCredentials> = {
  type: 'personio',
  name: 'Personio',
  detection: 'snapshot',
  credentials: personioCredentials,
  visible: (c) => ({ client_id: c.client_id }),
  company: (c) => `personio:${c.client_id}`,
  perMinute: 0,
  connect: (c, http, baseUrl) => new PersonioConnection(c, http, baseUrl),
  verifyWebhook: () => undefined,
};
