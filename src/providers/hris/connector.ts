/**
 * What an HRIS provider supplies to the one HRIS sync (hris-sync.ts): its credentials' shape, an authenticated
 * connection that reads employees in a common form, and how it detects changes — the only thing the three differ
 * in, stated once here rather than built three times:
 * - `changed-since`: a feed of the employees changed since a time (BambooHR's `/employees/changed`): after a first
 *   full listing, a run reads the feed and refetches only those employees;
 * - `snapshot`: everyone at once (HiBob's search, Personio's pages), diffed against the store.
 * Webhooks are hints in both modes: they only start a sync of the directory (the payload is never trusted); a
 * provider that signs them checks the signature (`verifyWebhook`).
 */
import type { z } from 'zod';
import type { HrisHttp } from './http.js';

export const HRIS_TYPES = ['bamboohr', 'hibob', 'personio'] as const;
export type HrisType = (typeof HRIS_TYPES)[number];
export const isHrisType = (type: string): type is HrisType => (HRIS_TYPES as readonly string[]).includes(type);

/** An employee as every provider's reader gives it; absent fields are unknown. */
export interface Employee {
  id: string;
  /** The work email: an employee without one is no user. */
  email?: string;
  firstName?: string;
  lastName?: string;
  displayName?: string;
  /** From the employment status: a terminated employee is inactive. */
  active: boolean;
  employeeNumber?: string;
  jobTitle?: string;
  /** `id`: the provider's department key (BambooHR has only names: the name). */
  department?: { id: string; name: string };
  division?: string;
  costCenter?: string;
  /** The manager's employee id. */
  managerId?: string;
  /** `YYYY-MM-DD`. */
  startDate?: string;
  /** The provider's own fields a mapping may read as `<provider>:<field>` (PROVIDER_FIELDS): those with a value. */
  fields?: Record<string, string>;
}

/** An employee's `fields`: the entries with a value; undefined when none has one. */
export function ownFields(o: Record<string, string | undefined>): Record<string, string> | undefined {
  const out = Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => e[1] !== undefined));
  return Object.keys(out).length > 0 ? out : undefined;
}

/** What a changed-since feed names since a time, and where the next read resumes (the provider's clock). */
export interface Changes {
  changed: string[];
  deleted: string[];
}

/** One directory's authenticated reader. */
export interface HrisConnection {
  /** The cheapest read that proves the credentials (throws HrisCredentialsError on 401/403). */
  verify(): Promise<void>;
  /** Every employee, in pages (inactive ones included). */
  employees(): AsyncIterable<Employee[]>;
  /** `changed-since` mode: the employees changed since `since` (ISO 8601). */
  changes?(since: string): Promise<Changes>;
  /** `changed-since` mode: one employee read again (null: gone). */
  employee?(id: string): Promise<Employee | null>;
}

/** A provider webhook call as the route got it. */
export interface WebhookCall {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface HrisConnector<C extends object = object> {
  type: HrisType;
  /** `BambooHR`: in messages, metrics and logs. */
  name: string;
  detection: 'changed-since' | 'snapshot';
  /** The credentials the IT admin enters (zod: the PUT body). */
  credentials: z.ZodType<C>;
  /** The credentials' fields that are not secret (shown back, in the status). */
  visible(credentials: C): Record<string, string>;
  /** The company whose rate budget its requests spend. */
  company(credentials: C): string;
  /** Requests per minute the provider allows a company (0: not paced, only `Retry-After` obeyed). */
  perMinute: number;
  connect(credentials: C, http: HrisHttp, baseUrl: string): HrisConnection;
  /**
   * Whether a webhook call is the provider's: undefined when it checks out, else why not. A provider that does
   * not sign its webhooks accepts any call (a hint costs one debounced sync).
   */
  verifyWebhook(credentials: C, call: WebhookCall, nowMs: number): string | undefined;
}
