/**
 * Graph users and groups as the SCIM resources dsync stores, so an Entra directory's events look exactly like a
 * SCIM directory's (and like what Entra's own SCIM provisioning would send). Our ids are Graph's object ids: a
 * changed userPrincipalName is an update of the same user. Graph's delta sends an updated object as its id and
 * the changed properties only, so a stored body is turned back into the Graph properties it came from
 * (`userProps`), the change laid over them, and the body built again: the mapping is one-to-one on purpose.
 * jobTitle, employeeId, department, employeeOrgData and the manager go where Entra's SCIM provisioning puts them
 * (title and the enterprise extension), from which the predefined attributes are read. The other properties a
 * mapping may read as `entra:<property>` (PROVIDER_FIELDS) go, as Graph sends them, into dsync's Entra extension.
 */
import { ENTERPRISE_USER } from '../../core/attributes.js';
import { PROVIDER_FIELDS, providerExtension } from '../../core/custom-attributes.js';
import type { ScimBody } from '../../core/model.js';

const ENTRA_USER = providerExtension('entra');

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
  ...PROVIDER_FIELDS.entra,
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
  officeLocation: string | null;
  companyName: string | null;
  employeeType: string | null;
  /** An ISO 8601 date-time (Graph's DateTimeOffset). */
  employeeHireDate: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  usageLocation: string | null;
  preferredLanguage: string | null;
  mobilePhone: string | null;
  /** Graph's only collection among them: empty, never null, when there is none. */
  businessPhones: string[];
  onPremisesSamAccountName: string | null;
  /** The manager's object id. */
  manager: string | null;
}

type EntraField = (typeof PROVIDER_FIELDS.entra)[number];

const present = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(
    Object.entries(o).filter(([, v]) => v != null && v !== '' && !(Array.isArray(v) && v.length === 0)),
  ) as Partial<T>;

export function userBody(id: string, u: UserProps): ScimBody {
  const enterprise = present({
    employeeNumber: u.employeeId,
    department: u.department,
    division: u.employeeOrgData?.division,
    costCenter: u.employeeOrgData?.costCenter,
    manager: u.manager ? { value: u.manager } : null,
  });
  const extended = Object.keys(enterprise).length > 0;
  const entra = present(Object.fromEntries(PROVIDER_FIELDS.entra.map((f) => [f, u[f]])) as Pick<UserProps, EntraField>);
  const hasEntra = Object.keys(entra).length > 0;
  return {
    schemas: [USER_SCHEMA, ...(extended ? [ENTERPRISE_USER] : []), ...(hasEntra ? [ENTRA_USER] : [])],
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
    ...(hasEntra && { [ENTRA_USER]: entra }),
  };
}

/** The Graph properties a stored body was built from. */
export function userProps(body: ScimBody): UserProps {
  const name = (body.name ?? {}) as { givenName?: string; familyName?: string };
  const emails = (body.emails ?? []) as Array<{ value?: string }>;
  const e = (body[ENTERPRISE_USER] ?? {}) as {
    employeeNumber?: string;
    department?: string;
    division?: string;
    costCenter?: string;
    manager?: { value?: string };
  };
  const x = (body[ENTRA_USER] ?? {}) as Partial<Pick<UserProps, EntraField>>;
  return {
    jobTitle: typeof body.title === 'string' ? body.title : null,
    employeeId: e.employeeNumber ?? null,
    department: e.department ?? null,
    employeeOrgData:
      e.division !== undefined || e.costCenter !== undefined
        ? { division: e.division ?? null, costCenter: e.costCenter ?? null }
        : null,
    manager: e.manager?.value ?? null,
    displayName: typeof body.displayName === 'string' ? body.displayName : null,
    givenName: name.givenName ?? null,
    surname: name.familyName ?? null,
    userPrincipalName: String(body.userName),
    mail: emails[0]?.value ?? null,
    accountEnabled: body.active !== false,
    officeLocation: x.officeLocation ?? null,
    companyName: x.companyName ?? null,
    employeeType: x.employeeType ?? null,
    employeeHireDate: x.employeeHireDate ?? null,
    city: x.city ?? null,
    state: x.state ?? null,
    country: x.country ?? null,
    usageLocation: x.usageLocation ?? null,
    preferredLanguage: x.preferredLanguage ?? null,
    mobilePhone: x.mobilePhone ?? null,
    businessPhones: x.businessPhones ?? [],
    onPremisesSamAccountName: x.onPremisesSamAccountName ?? null,
  };
}

/** The properties a delta item carries (absent = unchanged). */
export function changedProps<K extends string>(
  item: Record<string, unknown>,
  keys: readonly K[],
): Partial<Record<K, unknown>> {
  return Object.fromEntries(keys.filter((k) => k in item).map((k) => [k, item[k]])) as Partial<Record<K, unknown>>;
}

/** The user properties a delta item carries, its `manager@delta` as `manager` (absent = unchanged). */
export function changedUserProps(item: Record<string, unknown>): Partial<Record<keyof UserProps, unknown>> {
  const props: Partial<Record<keyof UserProps, unknown>> = changedProps(item, USER_OBJECT_SELECT);
  if (MANAGER_DELTA in item) props.manager = managerOf(item[MANAGER_DELTA]);
  return props;
}

const MANAGER_DELTA = 'manager@delta';

/**
 * The manager a `manager@delta` names: its entry not `@removed` (a change of manager may list the old one removed),
 * else none.
 */
export function managerOf(refs: unknown): string | null {
  if (!Array.isArray(refs)) return null;
  const current = refs.filter(
    (r): r is { id: string } => typeof r === 'object' && r !== null && typeof r.id === 'string' && !('@removed' in r),
  );
  return current.at(-1)?.id ?? null;
}

export function groupBody(id: string, displayName: string): ScimBody {
  return { schemas: [GROUP_SCHEMA], displayName, externalId: id };
}
