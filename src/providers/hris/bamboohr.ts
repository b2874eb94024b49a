/**
 * BambooHR: HTTP Basic with the API key as user name, under `<base>/api/gateway.php/<subdomain>/v1`. The full
 * listing is one custom report (every employee, inactive ones too; JSON), or the employee directory where custom
 * reports are not available; changes come from
 * `/employees/changed?since=`, then each changed employee is read again. Webhooks carry ids only and are signed:
 * `X-BambooHR-Signature` is the hex HMAC-SHA256 of the body followed by `X-BambooHR-Timestamp`, keyed with the
 * webhook's private key.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ownFields, type Changes, type Employee, type HrisConnection, type HrisConnector } from './connector.js';
import { secretField } from './credential-fields.js';
import { HrisApiError } from './errors.js';
import type { HrisHttp } from './http.js';

export const bamboohrCredentials = z.strictObject({
  subdomain: z
    .string({ error: 'subdomain is required' })
    .regex(
      /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i,
      'subdomain must be the company part of <subdomain>.bamboohr.com (letters, digits, hyphens)',
    ),
  api_key: secretField('api_key'),
  webhook_secret: secretField('webhook_secret').optional(),
});
export type BambooHrCredentials = z.infer<typeof bamboohrCredentials>;

/** The fields read for each employee (a custom report's columns, and a single employee's read). */
const FIELDS = [
  'firstName',
  'lastName',
  'preferredName',
  'workEmail',
  'status',
  'employeeNumber',
  'jobTitle',
  'department',
  'division',
  'supervisorEId',
  'hireDate',
  // The provider fields (`bamboohr:<field>`): employmentHistoryStatus is the current employment status.
  'location',
  'employmentHistoryStatus',
  'workPhone',
  'country',
];

const text = z.string().nullish();
const row = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  firstName: text,
  lastName: text,
  preferredName: text,
  workEmail: text,
  status: text,
  employeeNumber: text,
  jobTitle: text,
  department: text,
  division: text,
  supervisorEId: z.union([z.string(), z.number()]).nullish(),
  hireDate: text,
  location: text,
  employmentHistoryStatus: text,
  workPhone: text,
  country: text,
});
const report = z.looseObject({ employees: z.array(row) });
const changed = z.looseObject({
  employees: z.union([
    z.record(
      z.string(),
      z.looseObject({ id: z.union([z.string(), z.number()]).transform(String), action: z.string() }),
    ),
    z.array(z.unknown()).max(0),
  ]),
});

const some = (v: string | null | undefined): string | undefined =>
  v === null || v === undefined || v.trim() === '' ? undefined : v.trim();

export function bamboohrEmployee(r: z.infer<typeof row>): Employee {
  const department = some(r.department);
  const hire = some(r.hireDate);
  const fields = ownFields({
    location: some(r.location),
    employmentStatus: some(r.employmentHistoryStatus),
    workPhone: some(r.workPhone),
    country: some(r.country),
  });
  return {
    id: r.id,
    ...(some(r.workEmail) && { email: some(r.workEmail)! }),
    ...(some(r.firstName) && { firstName: some(r.firstName)! }),
    ...(some(r.lastName) && { lastName: some(r.lastName)! }),
    ...(some(r.preferredName) && some(r.lastName) && { displayName: `${some(r.preferredName)} ${some(r.lastName)}` }),
    active: r.status === 'Active',
    ...(some(r.employeeNumber) && { employeeNumber: some(r.employeeNumber)! }),
    ...(some(r.jobTitle) && { jobTitle: some(r.jobTitle)! }),
    ...(department && { department: { id: department, name: department } }),
    ...(some(r.division) && { division: some(r.division)! }),
    ...(r.supervisorEId !== null &&
      r.supervisorEId !== undefined &&
      String(r.supervisorEId) !== '' && { managerId: String(r.supervisorEId) }),
    // BambooHR writes an unknown date as 0000-00-00.
    ...(hire && hire !== '0000-00-00' && { startDate: hire }),
    ...(fields && { fields }),
  };
}

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const r = schema.safeParse(body);
  if (!r.success) throw new HrisApiError('BambooHR', `${what} had an unexpected shape`);
  return r.data;
}

class BambooHrConnection implements HrisConnection {
  private readonly base: string;
  private readonly auth: string;

  constructor(
    c: BambooHrCredentials,
    private readonly http: HrisHttp,
    baseUrl: string,
  ) {
    this.base = `${baseUrl.replace(/\/+$/, '')}/api/gateway.php/${encodeURIComponent(c.subdomain)}/v1`;
    this.auth = `Basic ${Buffer.from(`${c.api_key}:x`).toString('base64')}`;
  }

  private get(path: string, missing = false): Promise<unknown> {
    return this.http.json(`${this.base}${path}`, { headers: { Authorization: this.auth }, missing });
  }

  async verify(): Promise<void> {
    // Employee 0 is the owner of the API key: one small read any valid key may make (else the directory).
    if ((await this.get('/employees/0?fields=firstName', true)) === null) await this.get('/employees/directory');
  }

  async *employees(): AsyncIterable<Employee[]> {
    const body = await this.http.json(`${this.base}/reports/custom?format=JSON&onlyCurrent=true`, {
      method: 'POST',
      headers: { Authorization: this.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'dsync directory', fields: FIELDS }),
      missing: true,
    });
    if (body !== null) {
      yield parse(report, body, 'the custom report').employees.map(bamboohrEmployee);
      return;
    }
    // Without custom reports (an account that has them off): the employee directory, which lists the active
    // employees only, without their supervisor's id or employee number.
    const directory = parse(report, await this.get('/employees/directory'), 'the employee directory');
    yield directory.employees.map((r) =>
      bamboohrEmployee({ ...r, status: 'Active', supervisorEId: null, hireDate: null }),
    );
  }

  async changes(since: string): Promise<Changes> {
    const body = parse(
      changed,
      await this.get(`/employees/changed?since=${encodeURIComponent(since)}`),
      'the changed-employees feed',
    );
    const out: Changes = { changed: [], deleted: [] };
    for (const e of Array.isArray(body.employees) ? [] : Object.values(body.employees))
      (e.action === 'Deleted' ? out.deleted : out.changed).push(e.id);
    return out;
  }

  async employee(id: string): Promise<Employee | null> {
    const body = await this.http.json(`${this.base}/employees/${encodeURIComponent(id)}?fields=${FIELDS.join(',')}`, {
      headers: { Authorization: this.auth },
      missing: true,
    });
    return body === null ? null : bamboohrEmployee(parse(row, body, 'an employee'));
  }
}

/** How old a signed webhook may be (its timestamp), against replays. */
const WEBHOOK_MAX_AGE_S = 300;

export const bamboohr: HrisConnector<BambooHrCredentials> = {
  type: 'bamboohr',
  name: 'BambooHR',
  detection: 'changed-since',
  credentials: bamboohrCredentials,
  visible: (c) => ({ subdomain: c.subdomain, webhook_signing: c.webhook_secret ? 'on' : 'off' }),
  company: (c) => `bamboohr:${c.subdomain.toLowerCase()}`,
  perMinute: 0,
  connect: (c, http, baseUrl) => new BambooHrConnection(c, http, baseUrl),
  verifyWebhook(c, call, nowMs) {
    if (!c.webhook_secret) return "no webhook private key is set for this directory (credentials' webhook_secret)";
    const signature = call.headers['x-bamboohr-signature'];
    const timestamp = call.headers['x-bamboohr-timestamp'];
    if (typeof signature !== 'string' || typeof timestamp !== 'string')
      return 'X-BambooHR-Signature and X-BambooHR-Timestamp are required';
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > WEBHOOK_MAX_AGE_S)
      return 'X-BambooHR-Timestamp is not a current time';
    const expected = createHmac('sha256', c.webhook_secret)
      .update(Buffer.concat([call.body, Buffer.from(timestamp)]))
      .digest();
    // Hex, as BambooHR's own example computes it; base64 read too.
    const given = /^[0-9a-f]{64}$/i.test(signature.trim())
      ? Buffer.from(signature.trim(), 'hex')
      : Buffer.from(signature.trim(), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected)
      ? undefined
      : 'X-BambooHR-Signature does not match';
  },
};
