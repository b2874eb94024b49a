/** zod schemas for directory input (management API, library, operator): the one place its rules live. */
import { z } from 'zod';
import { DIRECTORY_TYPES } from './model.js';

const noColon = (field: string) =>
  z
    .string({ error: `${field} is required and must be a string` })
    .trim()
    .min(1, `${field} must not be empty`)
    .max(256, `${field} must be at most 256 characters`)
    // A pattern rather than a refinement, so the generated CRD carries the same rule.
    .regex(/^[^:]*$/, `${field} cannot contain the character :`);

/** Accepts real booleans and the strings "true"/"false" (clients built on the peer send strings). */
const flag = z.preprocess(
  (v) => (v === 'true' ? true : v === 'false' ? false : v),
  z.boolean({ error: 'must be a boolean' }),
);

export const webhookUrl = z
  .url({ protocol: /^https?$/, error: 'webhook_url must be an http(s) URL' })
  .max(2048, 'webhook_url must be at most 2048 characters');
const webhookSecret = z
  .string()
  .min(1, 'webhook_secret must not be empty')
  .max(512)
  .refine(
    (v) => !v.startsWith('whsec_') || /^[A-Za-z0-9+/]+={0,2}$/.test(v.slice(6)),
    'webhook_secret: a whsec_ secret must be base64 after the prefix (Standard Webhooks)',
  );
const googleField = z.string().max(4096);

export const createDirectoryInput = z.strictObject(
  {
    name: z.string({ error: 'name is required and must be a string' }).trim().min(1, 'name must not be empty').max(256),
    tenant: noColon('tenant'),
    product: noColon('product'),
    type: z.enum(DIRECTORY_TYPES, { error: `type must be one of ${DIRECTORY_TYPES.join(', ')}` }),
    webhook_url: webhookUrl.optional(),
    webhook_secret: webhookSecret.optional(),
    log_webhook_events: flag.optional(),
    deactivated: flag.optional(),
    google_domain: googleField.optional(),
    google_access_token: googleField.optional(),
    google_refresh_token: googleField.optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}` : undefined) },
);
export type CreateDirectoryInput = z.infer<typeof createDirectoryInput>;

export const updateDirectoryInput = z.strictObject(
  {
    name: z.string().trim().min(1, 'name must not be empty').max(256).optional(),
    webhook_url: z.union([webhookUrl, z.literal('')]).optional(),
    webhook_secret: webhookSecret.optional(),
    webhook: z.strictObject({ endpoint: z.union([webhookUrl, z.literal('')]).optional(), secret: webhookSecret.optional() }).optional(),
    log_webhook_events: flag.optional(),
    deactivated: flag.optional(),
    google_domain: googleField.optional(),
    google_access_token: googleField.optional(),
    google_refresh_token: googleField.optional(),
    // Immutable: accepted only when unchanged, so a client can send back the object it read.
    tenant: z.string().optional(),
    product: z.string().optional(),
    type: z.string().optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}` : undefined) },
);
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
