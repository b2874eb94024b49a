/**
 * What the store indexes of a user or a group (its uniqueness and lookup keys), and the domain rule on them:
 * indexed identifiers contain no control characters (no IdP sends them; they would only make lookups and logs lie).
 */
import { managerIdOf } from './attributes.js';
import { ValidationError } from './errors.js';
import type { GroupKeys, ScimBody, UserKeys } from './model.js';

export function assertPrintable(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && /[\u0000-\u001f\u007f]/.test(value)) {
      throw new ValidationError(`${name} must not contain control characters`, name);
    }
  }
}

/** The keys of a user with this body; `managerEmail` is the writer's to resolve (core/users.ts). */
export function userKeys(body: ScimBody): UserKeys {
  const emails = Array.isArray(body.emails) ? (body.emails as Array<{ value?: unknown }>) : [];
  const managerId = managerIdOf(body);
  const keys: UserKeys = {
    userName: String(body.userName),
    ...(typeof body.externalId === 'string' && body.externalId !== '' && { externalId: body.externalId }),
    emails: [...new Set(emails.map((e) => e?.value).filter((v): v is string => typeof v === 'string' && v !== ''))],
  };
  if (managerId !== undefined) keys.managerId = managerId;
  assertPrintable({
    userName: keys.userName,
    externalId: keys.externalId,
    'emails.value': keys.emails.join(''),
    'manager.value': managerId,
  });
  return keys;
}

export function groupKeys(body: ScimBody): GroupKeys {
  const keys: GroupKeys = {
    displayName: String(body.displayName),
    ...(typeof body.externalId === 'string' && body.externalId !== '' && { externalId: body.externalId }),
  };
  assertPrintable({ displayName: keys.displayName, externalId: keys.externalId });
  return keys;
}
