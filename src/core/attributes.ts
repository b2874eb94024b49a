/**
 * A user's predefined attributes (docs/concepts/attributes-and-roles.md): read from the places SCIM's enterprise
 * extension keeps them, whoever wrote the body (an IdP over SCIM, or a pull provider that maps its fields there),
 * so every writer fills them alike; the start date, which SCIM has no place for, from an HRIS's extension or Entra's
 * hire date. `manager_email` alone is not in the body: it is the email of the directory's
 * user whose id is `manager_id`, resolved by the writer and kept with the record.
 */
import { providerExtension } from './custom-attributes.js';
import type { UserAttributes } from './model.js';

export const ENTERPRISE_USER = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
/** What an HRIS says that SCIM has no place for (the start date). */
export const HRIS_USER = 'urn:dsync:params:scim:schemas:extension:hris:2.0:User';
/** What Google says that SCIM has no place for: its manager relation names the manager by email, not by id. */
export const GOOGLE_USER = providerExtension('google');
/** Entra's properties that SCIM has no place for, as Graph sends them (its hire date among them). */
const ENTRA_USER = providerExtension('entra');

type Json = Record<string, unknown>;

/** A non-empty string, else undefined (a key without a value is left out, never null). */
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const objectAt = (body: Json, key: string): Json | undefined => {
  const v = body[key];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
};
/** The `YYYY-MM-DD` an ISO 8601 date or date-time starts with (the form an HRIS start date has). */
const dateOf = (v: unknown): string | undefined =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}(?:$|T)/.test(v) ? v.slice(0, 10) : undefined;

/** The manager's id: `manager.value`, or the plain string Entra sends. */
export function managerIdOf(body: Json): string | undefined {
  const manager = objectAt(body, ENTERPRISE_USER)?.manager;
  if (typeof manager === 'string') return text(manager);
  return typeof manager === 'object' && manager !== null ? text((manager as Json).value) : undefined;
}

/**
 * The predefined attributes of a user with this body, `managerEmail` the resolved email of its manager. Keys in
 * the documented order, absent when unknown. Assigned one by one: it runs on every user write and event.
 */
export function attributesOf(body: Json, managerEmail?: string): UserAttributes {
  const out: UserAttributes = {};
  const enterprise = objectAt(body, ENTERPRISE_USER);
  const put = (key: keyof UserAttributes, value: string | undefined) => {
    if (value !== undefined) out[key] = value;
  };
  put('employee_number', text(enterprise?.employeeNumber));
  put('job_title', text(body.title));
  put('department', text(enterprise?.department));
  put('division', text(enterprise?.division));
  put('cost_center', text(enterprise?.costCenter));
  put('manager_id', managerIdOf(body));
  put('manager_email', managerEmail ?? text(objectAt(body, GOOGLE_USER)?.managerEmail));
  put('start_date', text(objectAt(body, HRIS_USER)?.startDate) ?? dateOf(objectAt(body, ENTRA_USER)?.employeeHireDate));
  return out;
}
