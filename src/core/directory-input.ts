/** zod schemas for directory input (management API, library, operator): the one place its rules live. */
import { z } from 'zod';
import { MAX_NAME_LENGTH, MAX_WEBHOOK_URL_LENGTH } from './input-limits.js';
import { attributeMapping } from './custom-attributes.js';
import { DIRECTORY_TYPES, INACTIVE_USERS } from './model.js';
import { dependentRequired } from './cross-field.js';
import { hasCredentials } from './urls.js';

/** "x is required" for a missing field, "x must be a string" for a wrong type: never both in one message. */
const stringError = (field: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${field} is required` : `${field} must be a string`;

/**
 * A management identifier or name: trimmed, 1..256 characters, no control characters (and, for tenant and
 * product, no `:`). One pattern rather than refinements, so the generated CRD carries the same rule (RE2 reads
 * the \x escapes too, and a CRD may not stack patterns in allOf with types).
 */
export const nameField = (field: string, options: { noColon?: boolean } = {}) =>
  z
    .string({ error: stringError(field) })
    .trim()
    .min(1, `${field} must not be empty`)
    .max(MAX_NAME_LENGTH, `${field} must be at most ${MAX_NAME_LENGTH} characters`)
    .regex(new RegExp(`^[^${options.noColon ? ':' : ''}\\x00-\\x1f\\x7f]*$`), {
      error: (issue) =>
        options.noColon && typeof issue.input === 'string' && issue.input.includes(':')
          ? `${field} cannot contain the character :`
          : `${field} must not contain control characters`,
    });

const noColon = (field: string) => nameField(field, { noColon: true });

/** Accepts real booleans and the strings "true"/"false" (clients built on the peer send strings). */
const flag = z.preprocess(
  (v) => (v === 'true' ? true : v === 'false' ? false : v),
  z.boolean({ error: 'must be a boolean' }),
);

export const webhookUrl = z
  .url({ protocol: /^https?$/, error: 'webhook_url must be an http(s) URL' })
  .max(MAX_WEBHOOK_URL_LENGTH, `webhook_url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`)
  .refine(
    (v) => !hasCredentials(v),
    'webhook_url must not contain credentials (user:password@); authenticate with the signature',
  );
const webhookSecret = z
  .string()
  .min(1, 'webhook_secret must not be empty')
  .max(512, 'webhook_secret must be at most 512 characters')
  .refine(
    (v) => !v.startsWith('whsec_') || /^[A-Za-z0-9+/]+={0,2}$/.test(v.slice(6)),
    'webhook_secret: a whsec_ secret must be base64 after the prefix (Standard Webhooks)',
  );
const googleField = z.string().max(4096, 'must be at most 4096 characters');
const inactiveUsers = z
  .enum(INACTIVE_USERS, { error: `inactive_users must be one of ${INACTIVE_USERS.join(', ')}` })
  .describe(
    'keep (the default): a user who turns inactive stays, active false; delete: they are deleted (group.user_removed per group, then user.deleted)',
  );
/**
 * A role mapping's text (group, role): "is required", "must be a string", "must not be empty", at most 1024 characters.
 */
const roleText = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .min(1, 'must not be empty')
  .max(1024, 'must be at most 1024 characters');
export const MAX_ROLE_RULES = 1000;
/**
 * The roles a directory gives its users by group (core/roles.ts): each rule names a group by id or current name
 * and the role its members hold, a higher priority first; a user no rule matches holds `default_role` (if any).
 */
export const roleMapping = z
  .strictObject(
    {
      default_role: roleText.optional().describe('The role of a user no rule matches (none: no role)'),
      rules: z
        .array(
          z.strictObject(
            {
              group: roleText.describe("The group's id or its current displayName"),
              role: roleText.describe("The role of the group's members"),
              priority: z.number({ error: 'must be a number' }).describe("Orders a user's roles: higher first"),
            },
            {
              error: (issue) =>
                issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}` : 'must be an object',
            },
          ),
          { error: (issue) => (issue.input === undefined ? 'is required' : 'must be an array') },
        )
        .max(MAX_ROLE_RULES, `must hold at most ${MAX_ROLE_RULES} rules`)
        .describe(
          'A user holds the role of every group a rule matches (by id or current name), higher priority first, each role once',
        ),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown field ${issue.keys.join(', ')}`
          : issue.input === undefined
            ? 'is required'
            : 'must be an object',
    },
  )
  .meta({
    id: 'RoleMapping',
    examples: [{ default_role: 'member', rules: [{ group: 'Admins', role: 'admin', priority: 10 }] }],
  });

/** An Entra tenant id: the GUID the admin-consent callback names (a domain name could not be checked against it). */
export const microsoftTenantId = z
  .string()
  .max(36, 'microsoft_tenant_id must be the tenant id (a GUID)')
  .regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    'microsoft_tenant_id must be the tenant id (a GUID)',
  )
  .transform((v) => v.toLowerCase());

/**
 * An OAuth token as it travels in an HTTP header or form: visible ASCII (RFC 6749 VSCHAR without space). A
 * character past Latin-1 cannot be put in a header at all, so such a token would fail every sync.
 */
export const OAUTH_TOKEN_PATTERN = /^[\x21-\x7e]*$/;
export const oauthToken = (field: string) =>
  z
    .string({ error: stringError(field) })
    .max(4096, `${field} must be at most 4096 characters`)
    .regex(OAUTH_TOKEN_PATTERN, `${field} must be visible ASCII characters (no spaces)`);

export const createDirectoryInput = dependentRequired(
  z.strictObject(
    {
      name: nameField('name'),
      tenant: noColon('tenant'),
      product: noColon('product'),
      type: z.enum(DIRECTORY_TYPES, { error: `type must be one of ${DIRECTORY_TYPES.join(', ')}` }),
      webhook_url: webhookUrl.optional(),
      webhook_secret: webhookSecret.optional(),
      log_webhook_events: flag.optional(),
      deactivated: flag.optional(),
      google_domain: googleField.optional(),
      google_access_token: oauthToken('google_access_token').optional(),
      google_refresh_token: oauthToken('google_refresh_token').optional(),
      google_nested_groups: flag.optional(),
      microsoft_tenant_id: microsoftTenantId.optional(),
      microsoft_nested_groups: flag.optional(),
      inactive_users: inactiveUsers.optional(),
      role_mapping: roleMapping.optional(),
      attribute_mapping: attributeMapping.optional(),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}` : undefined) },
  ),
  'webhook_secret',
  'webhook_url',
  'webhook_url is required when webhook_secret is given',
).meta({
  id: 'CreateDirectoryInput',
  examples: [
    {
      name: 'Acme (Okta)',
      tenant: 'acme',
      product: 'app',
      type: 'okta-scim-v2',
      webhook_url: 'https://app.example.com/webhooks/dsync',
    },
  ],
});
export type CreateDirectoryInput = z.infer<typeof createDirectoryInput>;

export const updateDirectoryInput = z
  .strictObject(
    {
      name: nameField('name').optional(),
      webhook_url: z.union([webhookUrl, z.literal('')]).optional(),
      webhook_secret: webhookSecret.optional(),
      webhook: z
        .strictObject({ endpoint: z.union([webhookUrl, z.literal('')]).optional(), secret: webhookSecret.optional() })
        .optional(),
      log_webhook_events: flag.optional(),
      deactivated: flag.optional(),
      google_domain: googleField.optional(),
      google_access_token: oauthToken('google_access_token').optional(),
      google_refresh_token: oauthToken('google_refresh_token').optional(),
      google_nested_groups: flag.optional(),
      microsoft_tenant_id: microsoftTenantId.optional(),
      microsoft_nested_groups: flag.optional(),
      inactive_users: inactiveUsers.optional(),
      role_mapping: roleMapping
        .nullable()
        .optional()
        .describe('null removes the mapping (every user then holds no role)'),
      attribute_mapping: attributeMapping
        .nullable()
        .optional()
        .describe('The whole mapping, replaced; null (or {}) removes it (every user then has no custom attribute)'),
      // Immutable: accepted only when unchanged, so a client can send back the object it read.
      tenant: z.string().optional().describe('Immutable: accepted only unchanged'),
      product: z.string().optional().describe('Immutable: accepted only unchanged'),
      type: z
        .enum(DIRECTORY_TYPES, { error: `type must be one of ${DIRECTORY_TYPES.join(', ')}` })
        .optional()
        .describe('Immutable: accepted only unchanged'),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}` : undefined) },
  )
  .meta({
    id: 'UpdateDirectoryInput',
    examples: [{ name: 'Acme (Okta, EU)', webhook_url: 'https://app.example.com/webhooks/dsync-eu' }],
  });
export type UpdateDirectoryInput = z.infer<typeof updateDirectoryInput>;

/**
 * Turns a zod failure into one message naming the field: `tenant cannot contain the character :` as it is (it
 * names its field first), `field: message` otherwise.
 */
export function describeIssues(error: z.ZodError): { message: string; field?: string } {
  const issue = error.issues[0];
  if (!issue) return { message: 'invalid input' };
  const field = issue.path.map(String).join('.');
  if (!field) return { message: issue.message };
  return { message: issue.message.startsWith(field) ? issue.message : `${field}: ${issue.message}`, field };
}
