/**
 * Graph users and groups as the SCIM resources dsync stores, so an Entra directory's events look exactly like a
 * SCIM directory's (and like what Entra's own SCIM provisioning would send). Our ids are Graph's object ids: a
 * changed userPrincipalName is an update of the same user. Graph's delta sends an updated object as its id and
 * the changed properties only, so a stored body is turned back into the Graph properties it came from
 * (`userProps`), the change laid over them, and the body built again: the mapping is one-to-one on purpose.
 */
import type { ScimBody } from '../../core/model.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/** The user properties asked for with $select (accountEnabled is not among Graph's defaults). */
export const USER_SELECT = ['displayName', 'givenName', 'surname', 'userPrincipalName', 'mail', 'accountEnabled'] as const;
export const GROUP_SELECT = ['displayName', 'members'] as const;

export interface UserProps {
  displayName: string | null;
  givenName: string | null;
  surname: string | null;
  userPrincipalName: string;
  mail: string | null;
  accountEnabled: boolean | null;
}

export function userBody(id: string, u: UserProps): ScimBody {
  return {
    schemas: [USER_SCHEMA],
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
  };
}

/** The Graph properties a stored body was built from. */
export function userProps(body: ScimBody): UserProps {
  const name = (body.name ?? {}) as { givenName?: string; familyName?: string };
  const emails = (body.emails ?? []) as Array<{ value?: string }>;
  return {
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

export function groupBody(id: string, displayName: string): ScimBody {
  return { schemas: [GROUP_SCHEMA], displayName, externalId: id };
}
