/** The user and the PATCH call the PATCH-on-users tests (patch-user-*.test.ts) share. */
import { applyPatch } from '../../../src/scim/patch.js';
import { ENTERPRISE_USER_SCHEMA, PATCH_OP_SCHEMA, USER_SCHEMA } from '../../../src/scim/schemas.js';

export const ENT = ENTERPRISE_USER_SCHEMA;

export function user(): Record<string, unknown> {
  return {
    schemas: [USER_SCHEMA],
    id: '2819c223-7f76-453a-919d-413861904646',
    externalId: 'bjensen',
    userName: 'bjensen@example.com',
    name: { givenName: 'Barbara', familyName: 'Jensen' },
    displayName: 'Babs Jensen',
    active: true,
    emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
  };
}

const patchOp = (...operations: unknown[]) => ({ schemas: [PATCH_OP_SCHEMA], Operations: operations });
export const patch = (resource: Record<string, unknown>, ...operations: unknown[]) =>
  applyPatch(resource, patchOp(...operations), 'User');
