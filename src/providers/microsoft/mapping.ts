/**
 * Graph users and groups as the SCIM resources dsync stores, so an Entra directory's events look exactly like a
 * SCIM directory's (and like what Entra's own SCIM provisioning would send). Our ids are Graph's object ids: a
 * changed userPrincipalName is an update of the same user. Graph's delta sends an updated object as its id and
 * the changed properties only, so a stored body is turned back into the Graph properties it came from
 * (`userProps`), the change laid over them, and the body built again: the mapping is one-to-one on purpose.
 * jobTitle, employeeId, department, employeeOrgData and the manager go where Entra's SCIM provisioning puts them
 * (title and the enterprise extension), from which the predefined attributes are read.
 */
import { ENTERPRISE_USER } from '../../core/attributes.js';
import type { ScimBody } from '../../core/model.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/**
 * The user properties asked for with $select (accountEnabled is not among Graph's defaults). `manager` is a
 * relationship: the delta answers it as `manager@delta` (managerOf).
 */
export const USER_SELECT = [
  'displayName',
  'givenName',
  'surname',
  'userPrincipalName',
  'mail',
  'accountEnabled',
  'jobTitle',
  'employeeId',
  'department',
  'employeeOrgData',
  'manager',
] as const;
/** What a single object's $select may name (a relationship is not a property there). */
export const USER_OBJECT_SELECT = USER_SELECT.filter((p) => p !== 'manager');
export const GROUP_SELECT = ['displayName', 'members'] as const;

export interface UserProps {
  displayName: string | null;
  givenName: string | null;
  surname: string | null;
  userPrincipalName: string;
  mail: string | null;
  accountEnabled: boolean | null;
  jobTitle: string | null;
  employeeId: string | null;
  department: string | null;
  employeeOrgData: { division?: string | null; costCenter?: string | null } | null;
  /** The manager's object id. */
  manager: string | null;
}

const present = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v != null && v !== '')) as Partial<T>;

export function userBody(id: string, u: UserProps): ScimBody {
  const enterprise = present({
    employeeNumber: u.employeeId,
    department: u.department,
    division: u.employeeOrgData?.division,
    costCenter: u.employeeOrgData?.costCenter,
    manager: u.manager ? { value: u.manager } : null,
  });
  const extended = Object.keys(enterprise).length > 0;
  return {
    schemas: extended ? [USER_SCHEMA, ENTERPRISE_USER] : [USER_SCHEMA],
    userName: u.userPrincipalName,
    externalId: id,
    name: {
      ...(u.givenName != null && { givenName: u.givenName }),
      ...(u.surname != null && { familyName: u.surname }),
    },
    displayName: u.displayName ?? u.userPrincipalName,
    emails: u.mail ? [{ value: u.mail, primary: true, type: 'work' }] : [],
    // A disabled account stays, with its memberships, inactive (null: never set, which Entra treats as enabled).
    active: u.accountEnabled !== false,
    ...(u.jobTitle && { title: u.jobTitle }),
    ...(extended && { [ENTERPRISE_USER]: enterprise }),
  };
}

/** The Graph properties a stored body was built from. */
export function userProps(body: ScimBody): UserProps {
  const name = (body.name ?? {}) as { givenName?: string; familyName?: string };
  const emails = (body.emails ?? []) as Array<{ value?: string }>;
  const e = (body[ENTERPRISE_USER] ?? {}) as { employeeNumber?: string; department?: string; division?: string; costCenter?: string; manager?: { value?: string } };
  return {
    jobTitle: typeof body.title === 'string' ? body.title : null,
    employeeId: e.employeeNumber ?? null,
    department: e.department ?? null,
    employeeOrgData: e.division !== undefined || e.costCenter !== undefined ? { division: e.division ?? null, costCenter: e.costCenter ?? null } : null,
    manager: e.manager?.value ?? null,
    displayName: typeof body.displayName === 'string' ? body.displayName : null,
    givenName: name.givenName ?? null,
    surname: name.familyName ?? null,
    userPrincipalName: String(body.userName),
    mail: emails[0]?.value ?? null,
    accountEnabled: body.active !== false,
  };
}

/** The properties a delta item carries (absent = unchanged). */
export function changedProps<K extends string>(item: Record<string, unknown>, keys: readonly K[]): Partial<Record<K, unknown>> {
  return Object.fromEntries(keys.filter((k) => k in item).map((k) => [k, item[k]])) as Partial<Record<K, unknown>>;
}

/** The user properties a delta item carries, its `manager@delta` as `manager` (absent = unchanged). */
export function changedUserProps(item: Record<string, unknown>): Partial<Record<keyof UserProps, unknown>> {
  const props: Partial<Record<keyof UserProps, unknown>> = changedProps(item, USER_OBJECT_SELECT);
  if (MANAGER_DELTA in item) props.manager = managerOf(item[MANAGER_DELTA]);
  return props;
}

const MANAGER_DELTA = 'manager@delta';

/** The manager a `manager@delta` names: its entry not `@removed` (a change of manager may list the old one removed), else none. */
export function managerOf(refs: unknown): string | null {
  if (!Array.isArray(refs)) return null;
  const current = refs.filter((r): r is { id: string } => typeof r === 'object' && r !== null && typeof r.id === 'string' && !('@removed' in r));
  return current.at(-1)?.id ?? null;
}

export function groupBody(id: string, displayName: string): ScimBody {
  return { schemas: [GROUP_SCHEMA], displayName, externalId: id };
}
