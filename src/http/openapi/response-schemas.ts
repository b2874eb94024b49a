/**
 * What the management routes answer inside `data`, as zod schemas: the OpenAPI document's response schemas
 * (schemathesis checks every answer against them). `satisfies` ties each to the type the code returns, so a
 * field added to the model without its schema fails to compile.
 */
import { z } from 'zod';
import type { DeadLetter, DeliveryLogRecord } from '../../core/store-port.js';
import { DIRECTORY_TYPES, INACTIVE_USERS, type Directory } from '../../core/model.js';
import type { PassStats } from '../../delivery/directory-pass.js';
import type { EventPage } from '../../delivery/reads.js';
import { attributeMapping } from '../../core/custom-attributes.js';
import { roleMapping } from '../../core/directory-input.js';
import { directorySyncEventSchema, eventSchemas, groupEventDataSchema } from '../../core/event-schema.js';
import type { GroupWithMembers } from '../../core/queries.js';

const timestamp = z.iso.datetime();

const DIRECTORY_ID = '2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f';
const AT = '2026-11-21T08:49:27.648Z';
export const DIRECTORY_EXAMPLE = {
  id: DIRECTORY_ID,
  name: 'Acme (Okta)',
  tenant: 'acme',
  product: 'app',
  type: 'okta-scim-v2' as const,
  log_webhook_events: false,
  deactivated: false,
  scim: {
    path: `/api/scim/v2.0/${DIRECTORY_ID}`,
    secret: 'hD4sQk0V3m9w2bJx7YpLqR8tZc1nF6uE',
    endpoint: `https://dsync.example.com/api/scim/v2.0/${DIRECTORY_ID}`,
  },
  webhook: { endpoint: 'https://app.example.com/webhooks/dsync', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
  inactive_users: 'keep' as const,
  created_at: AT,
  updated_at: AT,
};

export const directorySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    tenant: z.string(),
    product: z.string(),
    type: z.enum(DIRECTORY_TYPES),
    log_webhook_events: z.boolean(),
    deactivated: z.boolean(),
    scim: z.object({
      path: z.string(),
      secret: z.string().describe('Bearer token the IdP sends (Authorization: Bearer <secret>)'),
      endpoint: z.string().describe('SCIM base URL to give the IdP'),
    }),
    webhook: z.object({
      endpoint: z.string().describe('Empty when no webhook is set'),
      secret: z.string().describe('Standard Webhooks signing secret (whsec_…)'),
    }),
    google_domain: z.string().optional(),
    google_access_token: z.string().optional(),
    google_refresh_token: z.string().optional(),
    google_nested_groups: z.boolean().optional().describe('Google directories: expand nested groups into members'),
    microsoft_tenant_id: z
      .string()
      .optional()
      .describe('Microsoft Entra ID directories: the tenant the admin consented from'),
    microsoft_nested_groups: z
      .boolean()
      .optional()
      .describe('Microsoft Entra ID directories: expand nested groups into members'),
    webhook_disabled_at: timestamp
      .optional()
      .describe('Set when the receiver answered 410 Gone: delivery stops until the webhook is set again'),
    managed_by: z.string().optional().describe('Set when a controller (the Kubernetes operator) owns the directory'),
    inactive_users: z
      .enum(INACTIVE_USERS)
      .describe('keep (the default): a user who turns inactive stays, active false; delete: they are deleted'),
    role_mapping: roleMapping
      .optional()
      .describe('The roles its users hold by group; absent: every user holds no role'),
    attribute_mapping: attributeMapping
      .optional()
      .describe("Its users' custom attributes by source path; absent: none"),
    reevaluation: z
      .object({
        state: z.enum(['running', 'done']),
        started_at: z.string().describe('When the mapping change that asked for it was written'),
        finished_at: z.string().optional(),
        users_evaluated: z
          .number()
          .int()
          .describe('Users evaluated so far (written about once a second while running)'),
        users_updated: z
          .number()
          .int()
          .describe('Users whose roles or custom attributes changed: one user.updated each'),
      })
      .optional()
      .describe(
        'The evaluation of every user after the last change of role_mapping or attribute_mapping (in the background past 5 s); absent before the first',
      ),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({
    id: 'Directory',
    description: 'A directory connection',
    examples: [DIRECTORY_EXAMPLE],
  }) satisfies z.ZodType<Directory>;

export const deletedSchema = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'Deleted', examples: [{ id: DIRECTORY_ID, deleted: true }] });

export const memberSchema = z
  .object({ user_id: z.string() })
  .meta({ id: 'Member', examples: [{ user_id: '7c0e8b1a-3f2d-4c5e-9a6b-1d2e3f4a5b6c' }] });

/** GET /directory-sync/groups/:id: the group with every member (the members route pages them). */
export const groupWithMembersSchema = groupEventDataSchema
  .extend({ members: z.array(z.object({ group_id: z.string(), user_id: z.string() })) })
  .meta({
    id: 'GroupWithMembers',
    examples: [
      {
        ...(groupEventDataSchema.meta()!.examples as object[])[0],
        members: [
          { group_id: '4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a0f', user_id: '7c0e8b1a-3f2d-4c5e-9a6b-1d2e3f4a5b6c' },
        ],
      },
    ],
  }) satisfies z.ZodType<GroupWithMembers>;

export const eventPageSchema = z
  .object({
    events: z.array(directorySyncEventSchema).describe('The events as committed (the webhook payloads), oldest first'),
    next_cursor: z
      .string()
      .nullable()
      .describe('Pass as `after` to read on; the same cursor when nothing new was committed'),
  })
  .meta({
    id: 'EventPage',
    examples: [
      { events: [(eventSchemas['user.created'].meta()!.examples as object[])[0]], next_cursor: '1795251600000-0' },
    ],
  }) satisfies z.ZodType<EventPage>;

export const deadLetterSchema = z
  .object({
    id: z.string(),
    directory_id: z.string(),
    webhook_id: z.string(),
    events: z.array(z.string()).describe('The events as they were to be delivered (JSON strings, in order)'),
    batch: z.boolean().describe('Delivered as a JSON array (batch mode) or a single event'),
    status_code: z.int().nullable(),
    error: z.string().nullable(),
    attempts: z.int(),
    created_at: timestamp,
  })
  .meta({
    id: 'DeadLetter',
    examples: [
      {
        id: `${DIRECTORY_ID}_1795251600000-0`,
        directory_id: DIRECTORY_ID,
        webhook_id: 'evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N',
        events: ['{"id":"evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N","event":"user.created","…":"…"}'],
        batch: false,
        status_code: 500,
        error: null,
        attempts: 13,
        created_at: AT,
      },
    ],
  }) satisfies z.ZodType<DeadLetter>;

export const deliveryLogSchema = z
  .object({
    id: z.string(),
    directory_id: z.string(),
    webhook_id: z.string(),
    event_ids: z.array(z.string()),
    endpoint: z.string(),
    status_code: z.int().nullable(),
    error: z.string().nullable(),
    latency_ms: z.number(),
    attempt: z.int(),
    outcome: z.enum(['delivered', 'retry', 'dead', 'disabled']),
    delivered: z.boolean(),
    created_at: timestamp,
  })
  .meta({
    id: 'DeliveryLog',
    examples: [
      {
        id: `${DIRECTORY_ID}_1795251600000-0`,
        directory_id: DIRECTORY_ID,
        webhook_id: 'evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N',
        event_ids: ['evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N'],
        endpoint: 'https://app.example.com/webhooks/dsync',
        status_code: 200,
        error: null,
        latency_ms: 42.5,
        attempt: 1,
        outcome: 'delivered',
        delivered: true,
        created_at: AT,
      },
    ],
  }) satisfies z.ZodType<DeliveryLogRecord>;

export const replayAcceptedSchema = z
  .object({
    directory_id: z.string(),
    // A Date's range reaches years before 0 and after 9999 (+275760-09-13T00:00:00.000Z), written with a sign.
    since: z.string().describe('The time replayed from, as ISO 8601 (six-digit signed years beyond 0000-9999)'),
  })
  .meta({ id: 'ReplayAccepted', examples: [{ directory_id: DIRECTORY_ID, since: '2026-11-21T08:00:00.000Z' }] });

export const redeliverySchema = z
  .object({
    delivered: z.boolean(),
    status: z.int().optional().describe("The receiver's HTTP status"),
    error: z.string().optional(),
  })
  .meta({ id: 'Redelivery', examples: [{ delivered: true, status: 200 }] });

export const passStatsSchema = z.object({ directories: z.int(), delivered: z.int(), failed: z.int() }).meta({
  id: 'DeliveryRun',
  examples: [{ directories: 3, delivered: 120, failed: 0 }],
}) satisfies z.ZodType<PassStats>;
