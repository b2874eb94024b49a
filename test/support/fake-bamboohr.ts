/**
 * A fake BambooHR for tests and the benchmark, over real HTTP, in the shapes of BambooHR's public API reference:
 * every path under `/api/gateway.php/<subdomain>/v1`; HTTP Basic with the API key as user name (any password);
 * XML unless `Accept: application/json` asks for JSON; 401 with `X-BambooHR-Error-Message` for a bad key, 403 for
 * a key without access, 404 for an unknown company or employee; `GET /employees/<id>?fields=` (0 = the key's
 * owner), `POST /reports/custom?format=JSON` (a custom report: `{title, fields, employees}`, strings or null),
 * `GET /employees/changed?since=` (`{latest, employees: {<id>: {id, action, lastChanged}}}`, every employee changed
 * at or after `since`, deletions as `Deleted`); throttling as 429 (or 503) with `Retry-After`. It signs webhook
 * calls as BambooHR does (hex HMAC-SHA256 of the body then the timestamp, with the webhook's private key).
 */
import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeServer } from './fake-http.js';

export interface BEmployee {
  id: string;
  firstName: string;
  lastName: string;
  preferredName: string | null;
  workEmail: string | null;
  status: 'Active' | 'Inactive';
  employeeNumber: string | null;
  jobTitle: string | null;
  department: string | null;
  division: string | null;
  /** The supervisor's employee id. */
  supervisorEId: string | null;
  hireDate: string;
  /** A list field: the office's name. */
  location: string | null;
  /** The current employment status (`Full-Time`, `Part-Time`, `Contractor`: the account's own list). */
  employmentHistoryStatus: string | null;
  workPhone: string | null;
  /** The country of the employee's address, by name. */
  country: string | null;
}

export type BRoute = 'employee' | 'report' | 'changed' | 'directory';

const FIELD_NAMES: Record<string, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  preferredName: 'Preferred Name',
  workEmail: 'Work Email',
  status: 'Status',
  employeeNumber: 'Employee #',
  jobTitle: 'Job Title',
  department: 'Department',
  division: 'Division',
  supervisorEId: 'Supervisor EID',
  hireDate: 'Hire Date',
  location: 'Location',
  employmentHistoryStatus: 'Employment Status',
  workPhone: 'Work Phone',
  country: 'Country',
};

function xml(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'text/xml; charset=utf-8' }).end(`<?xml version="1.0"?>\n${body}`);
}

export class FakeBambooHR extends FakeServer<BRoute> {
  readonly subdomain = 'acme';
  readonly employees = new Map<string, BEmployee>();
  /** When each employee last changed (epoch ms), and tombstones of deleted ones. */
  private readonly changedAt = new Map<string, { at: number; deleted: boolean }>();
  readonly keys = new Set<string>(['bamboo-key-1']);
  /** Keys that exist but may read nothing (403). */
  readonly forbidden = new Set<string>();
  readonly calls: Record<BRoute, number> = { employee: 0, report: 0, changed: 0, directory: 0 };
  /** Off: the account has no custom reports (404), as some plans do. */
  customReports = true;
  /** The `since` of each changed-feed call. */
  readonly sinces: string[] = [];
  private seq = 0;

  /** A new employee (changes are stamped now). */
  hire(over: Partial<BEmployee> = {}): BEmployee {
    const n = ++this.seq;
    const e: BEmployee = {
      id: String(n + 100),
      firstName: `First${n}`,
      lastName: `Last${n}`,
      preferredName: null,
      workEmail: `person${n}@acme.example`,
      status: 'Active',
      employeeNumber: `E${1000 + n}`,
      jobTitle: 'Engineer',
      department: 'Engineering',
      division: 'North America',
      supervisorEId: null,
      hireDate: '2024-02-01',
      location: 'HQ',
      employmentHistoryStatus: 'Full-Time',
      workPhone: null,
      country: 'United States',
      ...over,
    };
    this.employees.set(e.id, e);
    this.touch(e.id);
    return e;
  }

  /** Changes an employee as an HR admin would (the change is stamped now). */
  change(id: string, fields: Partial<BEmployee>): void {
    Object.assign(this.employees.get(id)!, fields);
    this.touch(id);
  }

  /** Deletes an employee record (BambooHR reports it as `Deleted`). */
  remove(id: string): void {
    this.employees.delete(id);
    this.changedAt.set(id, { at: Date.now(), deleted: true });
  }

  /** Every change so far as made `ms` earlier (a directory edited long before it is first synced). */
  age(ms = 60_000): void {
    for (const c of this.changedAt.values()) c.at -= ms;
  }

  private touch(id: string): void {
    this.changedAt.set(id, { at: Date.now(), deleted: false });
  }

  /** A webhook call as BambooHR signs it: ids only, in its payload shape. */
  signedWebhook(
    secret: string,
    ids: string[],
    timestamp = Math.floor(Date.now() / 1000),
  ): { body: string; headers: Record<string, string> } {
    const body = JSON.stringify({
      employees: ids.map((id) => ({
        id,
        action: 'Updated',
        timestamp: new Date().toISOString(),
        changedFields: ['Department'],
      })),
    });
    const signature = createHmac('sha256', secret)
      .update(body + String(timestamp))
      .digest('hex');
    return {
      body,
      headers: {
        'Content-Type': 'application/json',
        'X-BambooHR-Signature': signature,
        'X-BambooHR-Timestamp': String(timestamp),
      },
    };
  }

  protected handle(req: IncomingMessage, res: ServerResponse, url: URL, body: string): void {
    const json = /application\/json/.test(req.headers.accept ?? '');
    const send = (status: number, body: unknown) => {
      if (json) res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      else xml(res, status, `<response>${JSON.stringify(body).replace(/[<>&]/g, '')}</response>`);
    };
    const m = /^\/api\/gateway\.php\/([^/]+)\/v1(\/.*)$/.exec(url.pathname);
    if (!m || m[1] !== this.subdomain)
      return void res.writeHead(404, { 'X-BambooHR-Error-Message': 'Company not found' }).end();
    const key = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const user = key ? Buffer.from(key, 'base64').toString().split(':')[0] : undefined;
    if (!user || (!this.keys.has(user) && !this.forbidden.has(user))) {
      return void res
        .writeHead(401, { 'X-BambooHR-Error-Message': 'Invalid API key', 'WWW-Authenticate': 'Basic realm="BambooHR"' })
        .end();
    }
    if (this.forbidden.has(user))
      return void res.writeHead(403, { 'X-BambooHR-Error-Message': 'You do not have access to this resource' }).end();
    const path = m[2]!;
    const route: BRoute | undefined =
      req.method === 'POST' && path === '/reports/custom'
        ? 'report'
        : path === '/employees/changed'
          ? 'changed'
          : path === '/employees/directory'
            ? 'directory'
            : /^\/employees\/[^/]+$/.test(path)
              ? 'employee'
              : undefined;
    if (!route) return void res.writeHead(404).end();
    if (this.faulted(route, res)) return;
    if (route === 'report' && !this.customReports)
      return void res.writeHead(404, { 'X-BambooHR-Error-Message': 'Custom reports are not available' }).end();
    if (route === 'report') return this.report(url, body, send);
    if (route === 'directory') return this.directory(send);
    if (route === 'changed') return this.changed(url, send);
    const id = decodeURIComponent(path.slice('/employees/'.length));
    // Employee 0 is the key's owner: here, the first employee hired.
    const e = this.employees.get(id === '0' ? ([...this.employees.keys()][0] ?? '') : id);
    if (!e) return void res.writeHead(404, { 'X-BambooHR-Error-Message': 'Employee not found' }).end();
    const fields = (url.searchParams.get('fields') ?? 'firstName,lastName').split(',');
    send(200, {
      id: e.id,
      ...Object.fromEntries(fields.filter((f) => f in FIELD_NAMES).map((f) => [f, e[f as keyof BEmployee]])),
    });
  }

  private report(url: URL, body: string, send: (status: number, body: unknown) => void): void {
    if (url.searchParams.get('format') !== 'JSON') return send(400, { error: 'format' });
    let fields: string[];
    try {
      fields = (JSON.parse(body) as { fields: string[] }).fields;
      if (!Array.isArray(fields)) throw new Error('fields');
    } catch {
      return send(400, { error: 'Invalid report request' });
    }
    const known = fields.filter((f) => f in FIELD_NAMES);
    send(200, {
      title: 'Report',
      fields: known.map((id) => ({ id, type: 'text', name: FIELD_NAMES[id] })),
      employees: [...this.employees.values()].map((e) => ({
        id: e.id,
        ...Object.fromEntries(known.map((f) => [f, e[f as keyof BEmployee]])),
      })),
    });
  }

  /** The employee directory: active employees only, the supervisor by name. */
  private directory(send: (status: number, body: unknown) => void): void {
    const active = [...this.employees.values()].filter((e) => e.status === 'Active');
    send(200, {
      fields: [
        'displayName',
        'firstName',
        'lastName',
        'preferredName',
        'jobTitle',
        'workEmail',
        'department',
        'division',
        'supervisor',
      ].map((id) => ({ id, type: 'text', name: id })),
      employees: active.map((e) => ({
        id: e.id,
        displayName: `${e.firstName} ${e.lastName}`,
        firstName: e.firstName,
        lastName: e.lastName,
        preferredName: e.preferredName,
        jobTitle: e.jobTitle,
        workPhone: e.workPhone,
        workEmail: e.workEmail,
        department: e.department,
        location: e.location,
        division: e.division,
        supervisor: e.supervisorEId
          ? `${this.employees.get(e.supervisorEId)?.lastName ?? ''}, ${this.employees.get(e.supervisorEId)?.firstName ?? ''}`
          : null,
        photoUploaded: false,
        photoUrl: 'https://resources.bamboohr.com/images/photo_person_150x150.png',
      })),
    });
  }

  private changed(url: URL, send: (status: number, body: unknown) => void): void {
    const since = url.searchParams.get('since') ?? '';
    const at = Date.parse(since);
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(since) || Number.isNaN(at))
      return send(400, { error: 'since must be ISO 8601' });
    this.sinces.push(since);
    const employees: Record<string, { id: string; action: string; lastChanged: string }> = {};
    let latest = 0;
    for (const [id, c] of this.changedAt) {
      if (c.at < at) continue;
      latest = Math.max(latest, c.at);
      const action = c.deleted ? 'Deleted' : 'Updated';
      employees[id] = { id, action, lastChanged: new Date(c.at).toISOString().replace(/\.\d{3}Z$/, '+00:00') };
    }
    send(200, { latest: latest ? new Date(latest).toISOString().replace(/\.\d{3}Z$/, '+00:00') : null, employees });
  }
}
