/**
 * Employees as the SCIM resources dsync stores, so an HRIS directory's events look exactly like a SCIM
 * directory's: the work email is `userName` and the primary email, the names, `active` from the employment
 * status; job title, employee number, department, division, cost center and manager in the places SCIM's
 * enterprise extension keeps them (from which every writer's predefined attributes are read); the start date in
 * dsync's HRIS extension; the provider's own fields (PROVIDER_FIELDS) in its extension. A department is a group
 * named after it; our ids are the provider's.
 */
import { createHash } from 'node:crypto';
import { ENTERPRISE_USER, HRIS_USER } from '../../core/attributes.js';
import { providerExtension } from '../../core/custom-attributes.js';
import type { ScimBody } from '../../core/model.js';
import type { Employee, HrisType } from './connector.js';

export { ENTERPRISE_USER, HRIS_USER } from '../../core/attributes.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;

/** The user an employee is, or undefined when it is none (no work email). */
export function userBody(type: HrisType, e: Employee): ScimBody | undefined {
  if (!e.email) return undefined;
  const formatted = [e.firstName, e.lastName].filter(Boolean).join(' ') || undefined;
  const enterprise = defined({
    employeeNumber: e.employeeNumber,
    department: e.department?.name,
    division: e.division,
    costCenter: e.costCenter,
    ...(e.managerId !== undefined && { manager: { value: e.managerId } }),
  });
  const hris = defined({ startDate: e.startDate });
  const own = defined(e.fields ?? {});
  const ownUrn = providerExtension(type);
  const has = (o: object) => Object.keys(o).length > 0;
  return {
    schemas: [
      USER_SCHEMA,
      ...(has(enterprise) ? [ENTERPRISE_USER] : []),
      ...(has(hris) ? [HRIS_USER] : []),
      ...(has(own) ? [ownUrn] : []),
    ],
    userName: e.email,
    externalId: e.id,
    name: defined({ givenName: e.firstName, familyName: e.lastName, formatted }),
    displayName: e.displayName || formatted || e.email,
    emails: [{ value: e.email, primary: true, type: 'work' }],
    active: e.active,
    ...(e.jobTitle && { title: e.jobTitle }),
    ...(has(enterprise) && { [ENTERPRISE_USER]: enterprise }),
    ...(has(hris) && { [HRIS_USER]: hris }),
    ...(has(own) && { [ownUrn]: own }),
  };
}

/**
 * A department's group id: stable for the department's key, whatever characters the provider uses, and never
 * equal across providers' key spaces (a BambooHR department is known only by its name).
 */
export function departmentGroupId(type: HrisType, key: string): string {
  const h = createHash('sha256').update(`${type}\0${key}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export function departmentBody(type: HrisType, department: { id: string; name: string }): ScimBody {
  return { schemas: [GROUP_SCHEMA], displayName: department.name, externalId: `${type}:${department.id}` };
}
