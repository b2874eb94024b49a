/**
 * HiBob: HTTP Basic with the service user's id and token, under `<base>/v1`. Bob has no changed-since feed and no
 * paging: one `POST /people/search` returns everyone (former employees too, with `showInactive`), list fields as
 * ids with their names appended (`humanReadable: APPEND`); departments come from the `department` named list (a
 * tree, flattened). A run costs two requests, within Bob's 50 a minute per company. Its webhooks are hints only.
 */
import { z } from 'zod';
import { ownFields, type Employee, type HrisConnection, type HrisConnector } from './connector.js';
import { secretField } from './credential-fields.js';
import { HrisApiError } from './errors.js';
import type { HrisHttp } from './http.js';

export const hibobCredentials = z.strictObject({
  service_user_id: secretField('service_user_id', 200),
  token: secretField('token'),
});
export type HiBobCredentials = z.infer<typeof hibobCredentials>;

const FIELDS = [
  'root.id',
  'root.email',
  'root.firstName',
  'root.surname',
  'root.displayName',
  'internal.status',
  'work.employeeIdInCompany',
  'work.title',
  'work.department',
  'work.division',
  'work.reportsTo',
  'work.startDate',
  // The provider fields (`hibob:<field>`).
  'work.site',
  'payroll.employment.type',
  'work.workPhone',
  'address.country',
];

const text = z.union([z.string(), z.number()]).nullish();
const work = z.looseObject({
  employeeIdInCompany: text,
  title: text,
  department: text,
  division: text,
  reportsTo: z.looseObject({ id: text }).nullish(),
  startDate: text,
  site: text,
  workPhone: text,
});
const employmentType = z.looseObject({ employment: z.looseObject({ type: text }).nullish() });
const person = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  email: text,
  firstName: text,
  surname: text,
  displayName: text,
  internal: z.looseObject({ status: text }).nullish(),
  work: work.nullish(),
  payroll: employmentType.nullish(),
  address: z.looseObject({ country: text }).nullish(),
  humanReadable: z
    .looseObject({
      work: z.looseObject({ title: text, department: text, division: text, site: text }).nullish(),
      payroll: employmentType.nullish(),
      address: z.looseObject({ country: text }).nullish(),
    })
    .nullish(),
});
const search = z.looseObject({ employees: z.array(person) });
interface ListItem {
  id: string | number;
  name?: string | null;
  value?: string | null;
  children?: ListItem[];
}
const listItem: z.ZodType<ListItem> = z.lazy(() =>
  z.looseObject({
    id: z.union([z.string(), z.number()]),
    name: z.string().nullish(),
    value: z.string().nullish(),
    children: z.array(listItem).optional(),
  }),
);
const namedList = z.looseObject({ values: z.array(listItem) });

const some = (v: string | number | null | undefined): string | undefined =>
  v === null || v === undefined || String(v).trim() === '' ? undefined : String(v).trim();

/** The department list as id → name, every level of the tree. */
export function flattenList(items: readonly ListItem[], into = new Map<string, string>()): Map<string, string> {
  for (const i of items) {
    into.set(String(i.id), i.name ?? i.value ?? String(i.id));
    if (i.children) flattenList(i.children, into);
  }
  return into;
}

export function hibobEmployee(p: z.infer<typeof person>, departments: ReadonlyMap<string, string>): Employee {
  const w = p.work ?? {};
  const department = some(w.department);
  const named = p.humanReadable;
  // List fields by their names where Bob appended them.
  const fields = ownFields({
    site: some(named?.work?.site) ?? some(w.site),
    employmentType: some(named?.payroll?.employment?.type) ?? some(p.payroll?.employment?.type),
    workPhone: some(w.workPhone),
    country: some(named?.address?.country) ?? some(p.address?.country),
  });
  return {
    id: p.id,
    ...(some(p.email) && { email: some(p.email)! }),
    ...(some(p.firstName) && { firstName: some(p.firstName)! }),
    ...(some(p.surname) && { lastName: some(p.surname)! }),
    ...(some(p.displayName) && { displayName: some(p.displayName)! }),
    active: p.internal?.status === 'Active',
    ...(some(w.employeeIdInCompany) && { employeeNumber: some(w.employeeIdInCompany)! }),
    ...((some(p.humanReadable?.work?.title) ?? some(w.title)) && {
      jobTitle: (some(p.humanReadable?.work?.title) ?? some(w.title))!,
    }),
    ...(department && {
      department: {
        id: department,
        name: departments.get(department) ?? some(p.humanReadable?.work?.department) ?? department,
      },
    }),
    ...((some(p.humanReadable?.work?.division) ?? some(w.division)) && {
      division: (some(p.humanReadable?.work?.division) ?? some(w.division))!,
    }),
    ...(some(w.reportsTo?.id) && { managerId: some(w.reportsTo?.id)! }),
    ...(some(w.startDate) && { startDate: some(w.startDate)! }),
    ...(fields && { fields }),
  };
}

class HiBobConnection implements HrisConnection {
  private readonly base: string;
  private readonly auth: string;

  constructor(
    c: HiBobCredentials,
    private readonly http: HrisHttp,
    baseUrl: string,
  ) {
    this.base = `${baseUrl.replace(/\/+$/, '')}/v1`;
    this.auth = `Basic ${Buffer.from(`${c.service_user_id}:${c.token}`).toString('base64')}`;
  }

  /** The department list, id → name (empty when the account has none to show: the search's names then serve). */
  private async departments(): Promise<Map<string, string>> {
    const answer = await this.http.json(`${this.base}/company/named-lists/department`, {
      headers: { Authorization: this.auth },
      missing: true,
    });
    if (answer === null) return new Map();
    const body = namedList.safeParse(answer);
    if (!body.success) throw new HrisApiError('HiBob', 'the department list had an unexpected shape');
    return flattenList(body.data.values);
  }

  private async search(fields: string[]): Promise<z.infer<typeof search>> {
    const body = search.safeParse(
      await this.http.json(`${this.base}/people/search`, {
        method: 'POST',
        headers: { Authorization: this.auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ fields, showInactive: true, humanReadable: 'APPEND' }),
      }),
    );
    if (!body.success) throw new HrisApiError('HiBob', 'the people search had an unexpected shape');
    return body.data;
  }

  async verify(): Promise<void> {
    // The one read a sync cannot do without.
    await this.search(['root.id']);
  }

  async *employees(): AsyncIterable<Employee[]> {
    const departments = await this.departments();
    yield (await this.search(FIELDS)).employees.map((p) => hibobEmployee(p, departments));
  }
}

export const hibob: HrisConnector<HiBobCredentials> = {
  type: 'hibob',
  name: 'HiBob',
  detection: 'snapshot',
  credentials: hibobCredentials,
  visible: (c) => ({ service_user_id: c.service_user_id }),
  // Bob's limit is the company's; a service user belongs to one company.
  company: (c) => `hibob:${c.service_user_id}`,
  perMinute: 50,
  connect: (c, http, baseUrl) => new HiBobConnection(c, http, baseUrl),
  verifyWebhook: () => undefined,
};
