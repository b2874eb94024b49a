/**
 * The webhook events (docs/reference/events.md) as zod schemas: the one source of the exported TypeScript event types
 * and
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

const USER_EXAMPLE = {
  id: '7c0e8b1a-3f2d-4c5e-9a6b-1d2e3f4a5b6c',
  first_name: 'Ann',
  last_name: 'Lee',
  email: 'ann@acme.io',
  active: true,
  attributes: {
    employee_number: '1042',
    job_title: 'Staff Engineer',
    department: 'Engineering',
    manager_id: '0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a',
    manager_email: 'grace@acme.io',
  },
  custom_attributes: { badge: 1042, country: 'US' },
  roles: ['admin', 'member'],
  raw: {
    schemas: [
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
    ],
    userName: 'ann@acme.io',
    name: { givenName: 'Ann', familyName: 'Lee' },
    emails: [{ value: 'ann@acme.io', primary: true }],
    title: 'Staff Engineer',
    active: true,
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': {
      employeeNumber: '1042',
      department: 'Engineering',
      manager: { value: '0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a' },
    },
  },
};
const GROUP_EXAMPLE = {
  id: '4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a0f',
  name: 'Engineering',
  raw: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Engineering' },
};

const attribute = (description: string) => z.string().optional().describe(description);

/** The predefined attributes, filled alike by every writer (SCIM, Google, Entra, HRIS); absent when unknown. */
export const userAttributesSchema = z
  .object({
    employee_number: attribute(
      "SCIM enterprise employeeNumber; Google's organization external id; Entra's employeeId; the HRIS employee number.",
    ),
    job_title: attribute("SCIM title; Google's primary organization title; Entra's jobTitle; the HRIS job title."),
    department: attribute(
      "SCIM enterprise department; Google's primary organization department; Entra's department; the HRIS department.",
    ),
    division: attribute("SCIM enterprise division; Entra's employeeOrgData.division; the HRIS division."),
    cost_center: attribute(
      "SCIM enterprise costCenter; Google's primary organization costCenter; Entra's employeeOrgData.costCenter; the HRIS cost center.",
    ),
    manager_id: attribute(
      "The manager's id: SCIM enterprise manager.value (or the plain string Entra sends); Entra's manager; the HRIS manager's employee id.",
    ),
    manager_email: attribute(
      "The email of the directory's user whose id is manager_id (filled when that user arrives); Google's manager relation.",
    ),
    start_date: attribute('The HRIS start date (as the HR system gives it, e.g. 2024-03-01).'),
  })
  .meta({
    id: 'UserAttributes',
    description: 'The predefined attributes: a key without a value is left out, never null.',
  });

export const userEventDataSchema = z
  .object({
    id: z.string().describe("The user's id in dsync (its SCIM id), stable for the user's life."),
    first_name: z.string().optional().describe('From the SCIM name.givenName.'),
    last_name: z.string().optional().describe('From the SCIM name.familyName.'),
    email: z.string().optional().describe('The primary email (else the first; else userName when it is an address).'),
    active: z.boolean().describe('False for a deactivated (suspended) user, who keeps their groups.'),
    attributes: userAttributesSchema.describe('The predefined attributes ({} when none is known).'),
    custom_attributes: z
      .record(z.string(), z.unknown())
      .describe(
        "From the directory's attribute_mapping: each mapped name with the value its source path holds, of the source's JSON type ({} when none has a value).",
      ),
    roles: z
      .array(z.string())
      .describe(
        "From the directory's role_mapping: the roles of every group of the user a rule matches, higher priority first, each once; else [default_role], or [].",
      ),
    raw: scimBodySchema.describe('Every SCIM attribute as the IdP sent it (normalised), with id.'),
  })
  .meta({
    id: 'User',
    description: 'A user: SCIM name and primary email mapped, every attribute in raw.',
    examples: [USER_EXAMPLE],
  });

export const groupEventDataSchema = z
  .object({
    id: z.string().describe("The group's id in dsync (its SCIM id)."),
    name: z.string().describe('From the SCIM displayName.'),
    raw: scimBodySchema.describe('Every SCIM attribute as the IdP sent it (normalised), members aside.'),
  })
  .meta({
    id: 'Group',
    description: 'A group, without its members (membership travels as group.user_added/removed).',
    examples: [GROUP_EXAMPLE],
  });

export const membershipEventDataSchema = userEventDataSchema
  .extend({ group: groupEventDataSchema.describe('The group, as it is when the change commits.') })
  .meta({
    id: 'Membership',
    description: 'The user added to or removed from a group, with the group.',
    examples: [{ ...USER_EXAMPLE, group: GROUP_EXAMPLE }],
  });

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
type EventTypeName = (typeof EVENT_TYPES)[number];

/** `group.user_added` → `GroupUserAddedEvent`. */
export function eventSchemaId(type: string): string {
  return `${type.replace(/(^|[._])([a-z])/g, (_m, _sep, c: string) => c.toUpperCase())}Event`;
}

/** The event of one type: its name fixed, the data of that type. */
function eventSchemaOf<T extends EventTypeName>(type: T) {
  const data = DATA_OF[type];
  const example = {
    id: 'evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N',
    event: type,
    created_at: '2026-11-21T08:49:27.648Z',
    directory_id: '2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f',
    tenant: 'acme',
    product: 'app',
    data: (data.meta()!.examples as unknown[])[0],
    ...(type.endsWith('.updated') && {
      previous_attributes: type.startsWith('user')
        ? { active: false, attributes: { job_title: 'Engineer' }, raw: { active: false, title: 'Engineer' } }
        : { name: 'Eng', raw: { displayName: 'Eng' } },
    }),
    sequence: 1042,
  };
  return z
    .object({
      id: z.string().describe('Unique per event; a receiver de-duplicates on it (delivery is at least once).'),
      event: z.literal(type).describe('The event type: says what data holds.'),
      created_at: z.iso.datetime().describe('When the change was committed (UTC).'),
      directory_id: z.string().describe('The directory the change happened in.'),
      tenant: z.string().describe("The directory's tenant."),
      product: z.string().describe("The directory's product."),
      data: data as EventDataSchemas[T],
      previous_attributes: z
        .record(z.string(), z.unknown())
        .optional()
        .describe(
          'On updates: the changed top-level data fields with their old values; attributes and raw hold only their changed keys, each with its old value (null = absent before).',
        ),
      sequence: z
        .int()
        .nonnegative()
        .describe(
          "The event's place in its directory's log: a later event of the directory has a greater number, so a receiver can put what it got in order (delivery may run events of different users and groups in parallel). 0 only on an event logged by a dsync release before sequences were counted.",
        ),
    })
    .meta({ id: eventSchemaId(type), examples: [example] });
}

/** One schema per event type (the OpenAPI `webhooks`). */
export const eventSchemas = {
  'user.created': eventSchemaOf('user.created'),
  'user.updated': eventSchemaOf('user.updated'),
  'user.deleted': eventSchemaOf('user.deleted'),
  'group.created': eventSchemaOf('group.created'),
  'group.updated': eventSchemaOf('group.updated'),
  'group.deleted': eventSchemaOf('group.deleted'),
  'group.user_added': eventSchemaOf('group.user_added'),
  'group.user_removed': eventSchemaOf('group.user_removed'),
} as const satisfies Record<EventTypeName, z.ZodObject>;

/** Any event, told apart by `event`: narrowing on it types `data` (in TypeScript and in generated clients). */
export const directorySyncEventSchema = z
  .discriminatedUnion(
    'event',
    EVENT_TYPES.map((type) => eventSchemas[type]) as unknown as [
      (typeof eventSchemas)[EventTypeName],
      ...Array<(typeof eventSchemas)[EventTypeName]>,
    ],
  )
  .meta({ id: 'DirectorySyncEvent', description: 'Any event; `event` says which, and so what `data` holds.' });
