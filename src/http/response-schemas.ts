/**
 * What the management routes answer inside `data`, as zod schemas: the OpenAPI document's response schemas
 * (schemathesis checks every answer against them). `satisfies` ties each to the type the code returns, so a
 * field added to the model without its schema fails to compile.
 */
import { z } from 'zod';
import type { DeadLetter, DeliveryLogRecord } from '../core/store-port.js';
import { DIRECTORY_TYPES, type Directory } from '../core/model.js';
import type { PassStats } from '../delivery/directory-pass.js';
import type { EventPage } from '../delivery/reads.js';
import { directorySyncEventSchema, groupEventDataSchema } from '../core/event-schema.js';
import type { GroupWithMembers } from '../core/queries.js';

const timestamp = z.iso.datetime();

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
    microsoft_tenant_id: z.string().optional().describe('Microsoft Entra ID directories: the tenant the admin consented from'),
    microsoft_nested_groups: z.boolean().optional().describe('Microsoft Entra ID directories: expand nested groups into members'),
    webhook_disabled_at: timestamp.optional().describe('Set when the receiver answered 410 Gone: delivery stops until the webhook is set again'),
    managed_by: z.string().optional().describe('Set when a controller (the Kubernetes operator) owns the directory'),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Directory' }) satisfies z.ZodType<Directory>;

export const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });

export const memberSchema = z.object({ user_id: z.string() });

/** GET /directory-sync/groups/:id: the group with every member (the members route pages them). */
export const groupWithMembersSchema = groupEventDataSchema
  .extend({ members: z.array(z.object({ group_id: z.string(), user_id: z.string() })) })
  .meta({ id: 'GroupWithMembers' }) satisfies z.ZodType<GroupWithMembers>;

export const eventPageSchema = z
  .object({
    events: z.array(directorySyncEventSchema).describe('The events as committed (the webhook payloads), oldest first'),
    next_cursor: z.string().nullable().describe('Pass as `after` to read on; the same cursor when nothing new was committed'),
  })
  .meta({ id: 'EventPage' }) satisfies z.ZodType<EventPage>;

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
  .meta({ id: 'DeadLetter' }) satisfies z.ZodType<DeadLetter>;

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
  .meta({ id: 'DeliveryLog' }) satisfies z.ZodType<DeliveryLogRecord>;

export const replayAcceptedSchema = z.object({ directory_id: z.string(), since: timestamp });

export const redeliverySchema = z.object({
  delivered: z.boolean(),
  status: z.int().optional().describe("The receiver's HTTP status"),
  error: z.string().optional(),
});

export const passStatsSchema = z
  .object({ directories: z.int(), delivered: z.int(), failed: z.int() })
  .meta({ id: 'DeliveryRun' }) satisfies z.ZodType<PassStats>;

/** Every error answer of the management API (src/http/envelope.ts). */
export const errorEnvelopeSchema = z
  .object({
    data: z.null(),
    error: z.object({ message: z.string(), code: z.int().describe('The HTTP status') }),
  })
  .meta({ id: 'Error' });
