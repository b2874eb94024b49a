/**
 * The webhook events (DESIGN.md §4) as zod schemas: the one source of the exported TypeScript event types and
 * of the OpenAPI document's `webhooks`. Nothing parses events with them at run time; they describe what
 * src/core/events.ts builds.
 */
import { z } from 'zod';

export const EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deleted',
  'group.created',
  'group.updated',
  'group.deleted',
  'group.user_added',
  'group.user_removed',
] as const;

/** A SCIM resource as stored and as `raw` in events: its attributes, as the IdP sent them (normalised). */
export const scimBodySchema = z.record(z.string(), z.unknown()).meta({ id: 'ScimResource' });

export const userEventDataSchema = z
  .object({
    id: z.string(),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    email: z.string().optional(),
    active: z.boolean(),
    raw: scimBodySchema,
  })
  .meta({ id: 'User', description: 'A user: SCIM name and primary email mapped, every attribute in raw.' });

export const groupEventDataSchema = z
  .object({ id: z.string(), name: z.string(), raw: scimBodySchema })
  .meta({ id: 'Group', description: 'A group, without its members (membership travels as group.user_added/removed).' });

export const membershipEventDataSchema = userEventDataSchema
  .extend({ group: groupEventDataSchema })
  .meta({ id: 'Membership', description: 'The user added to or removed from a group, with the group.' });

/** The data each event type carries. */
const DATA_OF = {
  'user.created': userEventDataSchema,
  'user.updated': userEventDataSchema,
  'user.deleted': userEventDataSchema,
  'group.created': groupEventDataSchema,
  'group.updated': groupEventDataSchema,
  'group.deleted': groupEventDataSchema,
  'group.user_added': membershipEventDataSchema,
  'group.user_removed': membershipEventDataSchema,
} as const satisfies Record<(typeof EVENT_TYPES)[number], z.ZodType>;
export type EventDataSchemas = typeof DATA_OF;

const envelopeOf = <T extends z.ZodType, D extends z.ZodType>(event: T, data: D) =>
  z.object({
    id: z.string().describe('Unique per event; a receiver de-duplicates on it (delivery is at least once).'),
    event,
    created_at: z.iso.datetime(),
    directory_id: z.string(),
    tenant: z.string(),
    product: z.string(),
    data,
    previous_attributes: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('On updates: the changed top-level data fields with their old values; raw holds the changed raw attributes (null = absent before).'),
  });

/** `group.user_added` → `GroupUserAddedEvent`. */
export function eventSchemaId(type: string): string {
  return `${type.replace(/(^|[._])([a-z])/g, (_m, _sep, c: string) => c.toUpperCase())}Event`;
}

type EventTypeName = (typeof EVENT_TYPES)[number];

/** One schema per event type (the OpenAPI `webhooks`): the event name fixed, the data of that type. */
export const eventSchemas = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, envelopeOf(z.literal(type), DATA_OF[type]).meta({ id: eventSchemaId(type) })]),
) as unknown as Record<EventTypeName, z.ZodType>;

/** Any event: what a receiver gets before it looks at `event`. */
export const directorySyncEventSchema = envelopeOf(
  z.enum(EVENT_TYPES),
  z.union([membershipEventDataSchema, userEventDataSchema, groupEventDataSchema]),
).meta({ id: 'DirectorySyncEvent' });
