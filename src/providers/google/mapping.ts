/**
 * Google Directory objects as the SCIM resources dsync stores, so a Google directory's events look exactly like
 * a SCIM directory's. Only stable fields are mapped: volatile ones (lastLoginTime, etags, thumbnails) never
 * reach the body, so they can never cause an update. Our ids are Google's ids: a primary-email change is an
 * update of the same user, and a group is known by its id, never by its (non-unique) name. The primary
 * organization's title, department and cost center and the organization external id go where SCIM's enterprise
 * extension keeps them (the predefined attributes are read from there); the manager relation names the manager
 * by email, which SCIM has no place for. Google's own fields that a mapping may read as `google:<field>`
 * (PROVIDER_FIELDS) go, as Google sends them, into the same extension.
 */
import { ENTERPRISE_USER, GOOGLE_USER } from '../../core/attributes.js';
import type { ScimBody } from '../../core/model.js';
import type { GoogleGroup, GoogleMember, GoogleUser } from './directory-api.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/** Without absent and empty values (`false` is a value). */
const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => !empty(v))) as Partial<T>;
const empty = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && Object.keys(v).length === 0);
const ofType = (list: Array<{ type?: string; value?: string }> | undefined, type: string) =>
  list?.find((e) => e.type === type)?.value;

export function userBody(user: GoogleUser): ScimBody {
  const given = user.name?.givenName;
  const family = user.name?.familyName;
  const full = user.name?.fullName ?? ([given, family].filter(Boolean).join(' ') || undefined);
  const org = user.organizations?.find((o) => o.primary === true) ?? user.organizations?.[0];
  const enterprise = defined({
    employeeNumber: ofType(user.externalIds, 'organization'),
    department: org?.department,
    costCenter: org?.costCenter,
  });
  const google = defined({
    managerEmail: ofType(user.relations, 'manager'),
    orgUnitPath: user.orgUnitPath,
    isAdmin: user.isAdmin,
    locations: user.locations,
    phones: user.phones,
    addresses: user.addresses,
    customSchemas: user.customSchemas,
    recoveryEmail: user.recoveryEmail,
  });
  const has = (o: object) => Object.keys(o).length > 0;
  return {
    schemas: [USER_SCHEMA, ...(has(enterprise) ? [ENTERPRISE_USER] : []), ...(has(google) ? [GOOGLE_USER] : [])],
    userName: user.primaryEmail,
    externalId: user.id,
    name: {
      ...(given !== undefined && { givenName: given }),
      ...(family !== undefined && { familyName: family }),
      ...(full !== undefined && { formatted: full }),
    },
    displayName: full ?? user.primaryEmail,
    emails: [{ value: user.primaryEmail, primary: true, type: 'work' }],
    // Suspended and archived users stay (with their memberships), inactive.
    active: user.suspended !== true && user.archived !== true,
    ...(org?.title && { title: org.title }),
    ...(has(enterprise) && { [ENTERPRISE_USER]: enterprise }),
    ...(has(google) && { [GOOGLE_USER]: google }),
  };
}

export function groupBody(group: GoogleGroup): ScimBody {
  return {
    schemas: [GROUP_SCHEMA],
    displayName: group.name ?? group.email,
    externalId: group.email,
  };
}

/**
 * The member ids worth a membership: members of type USER that are users of this directory. Groups (expanded
 * by Google when the directory asks for derived membership), CUSTOMER ("everyone") and external members are
 * skipped.
 */
export function userMemberIds(members: GoogleMember[], isDirectoryUser: (id: string) => boolean): string[] {
  return members.flatMap((m) => (m.type === 'USER' && m.id !== undefined && isDirectoryUser(m.id) ? [m.id] : []));
}
