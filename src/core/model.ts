/** Domain model shared by every layer. Plain data: no behaviour, no I/O. */
import type { z } from 'zod';
import type {
  EVENT_TYPES,
  directorySyncEventSchema,
  EventDataSchemas,
  groupEventDataSchema,
  membershipEventDataSchema,
  userAttributesSchema,
  userEventDataSchema,
} from './event-schema.js';

export const DIRECTORY_TYPES = [
  'azure-scim-v2',
  'okta-scim-v2',
  'onelogin-scim-v2',
  'jumpcloud-scim-v2',
  'ping-scim-v2',
  'rippling-scim-v2',
  'generic-scim-v2',
  'google',
  'microsoft-entra',
  'bamboohr',
  'hibob',
  'personio',
] as const;
export type DirectoryType = (typeof DIRECTORY_TYPES)[number];

export const INACTIVE_USERS = ['keep', 'delete'] as const;
export type InactiveUsers = (typeof INACTIVE_USERS)[number];

/**
 * A directory's custom attributes: each name the application reads, and its source path (core/custom-attributes.ts).
 */
export type AttributeMapping = Record<string, string>;
/** A user's custom attributes: each mapped name with its value, of the source's JSON type. */
export type CustomAttributes = Record<string, unknown>;

/** How far the evaluation of every user after a mapping change got (core/reevaluations.ts). */
export interface Reevaluation {
  state: 'running' | 'done';
  started_at: string;
  finished_at?: string;
  users_evaluated: number;
  /** Users whose roles or custom attributes changed: one `user.updated` each. */
  users_updated: number;
}

/** A directory's roles by group (core/roles.ts); its rules as the input schema (directory-input.ts) checked them. */
export interface RoleMapping {
  default_role?: string;
  rules: Array<{ group: string; role: string; priority: number }>;
}

export interface Directory {
  id: string;
  name: string;
  tenant: string;
  product: string;
  type: DirectoryType;
  log_webhook_events: boolean;
  deactivated: boolean;
  scim: { path: string; secret: string; endpoint: string };
  webhook: { endpoint: string; secret: string };
  google_domain?: string;
  google_access_token?: string;
  google_refresh_token?: string;
  /** Pull sync: members of nested groups count as members of the outer group (Google's derived membership). */
  google_nested_groups?: boolean;
  /**
   * Microsoft Entra ID: the tenant (GUID) the admin consented from; set at create to accept only that tenant's consent.
   */
  microsoft_tenant_id?: string;
  /** Pull sync: members of nested groups count as members of the outer group (as Google's derived membership). */
  microsoft_nested_groups?: boolean;
  /** Set when the receiver answered 410 Gone: delivery stops (events are kept) until the webhook is set again. */
  webhook_disabled_at?: string;
  /**
   * Set when a controller (the Kubernetes operator) owns this directory; the management API then refuses to mutate it.
   */
  managed_by?: string;
  /** What becomes of a user who turns inactive: kept (`keep`, also when never set) or deleted (`delete`). */
  inactive_users?: InactiveUsers;
  /** The roles its users hold by group; none set: every user holds no role. */
  role_mapping?: RoleMapping;
  /** Its users' custom attributes by source path (core/custom-attributes.ts); none set: none. */
  attribute_mapping?: AttributeMapping;
  /** The evaluation of every user after the last mapping change; absent before the first. */
  reevaluation?: Reevaluation;
  created_at: string;
  updated_at: string;
}

/** A directory as the directory use cases show it: `inactive_users` always said. */
export type ShownDirectory = Directory & { inactive_users: InactiveUsers };

export type ResourceType = 'users' | 'groups';

/** A SCIM resource as stored: the normalised representation without `id`, `meta` and (for groups) `members`. */
export type ScimBody = Record<string, unknown>;

export interface StoredResource {
  id: string;
  body: ScimBody;
  /** Epoch milliseconds. */
  created: number;
  lastModified: number;
  /** Incremented on every change (including membership changes of a group); the ETag is `W/"<version>"`. */
  version: number;
  /** Users: the email of the user's manager (`attributes.manager_email`) as resolved by its last write. */
  managerEmail?: string;
  /** Users: the roles its groups gave it (core/roles.ts) as last evaluated; absent: none. */
  roles?: string[];
  /** Users: its custom attributes (core/custom-attributes.ts) as last evaluated; absent: none. */
  customAttributes?: CustomAttributes;
}

/** A stored resource with its body as the store keeps it, JSON text: for a reader that passes it on unparsed. */
export interface StoredJson extends Omit<StoredResource, 'body'> {
  bodyJson: string;
}

/**
 * What the store indexes for a user: `userName` (unique, case-insensitive), `externalId`, emails (case-insensitive),
 * the manager's id (so a manager's write finds their reports); and keeps beside the body, unindexed: the manager's
 * email as the writer resolved it (`StoredResource.managerEmail`).
 */
export interface UserKeys {
  userName: string;
  externalId?: string;
  emails: string[];
  managerId?: string;
  managerEmail?: string;
  /** The user's roles as evaluated (core/roles.ts), kept beside the body, unindexed. */
  roles?: string[];
  /** The user's custom attributes as evaluated (core/custom-attributes.ts), kept beside the body, unindexed. */
  customAttributes?: CustomAttributes;
}

/** What the store indexes for a group: `displayName` (unique, case-insensitive), `externalId`. */
export interface GroupKeys {
  displayName: string;
  externalId?: string;
}

// The event types come from their zod schemas (the OpenAPI document's webhooks are generated from the same).
export { EVENT_TYPES } from './event-schema.js';
export type EventType = (typeof EVENT_TYPES)[number];
export type UserEventData = z.output<typeof userEventDataSchema>;
export type UserAttributes = z.output<typeof userAttributesSchema>;
export type GroupEventData = z.output<typeof groupEventDataSchema>;
export type MembershipEventData = z.output<typeof membershipEventDataSchema>;
export type DirectorySyncEvent = z.output<typeof directorySyncEventSchema>;
/** The event of one type, with the data that type carries. */
export type DirectorySyncEventOf<T extends EventType> = Extract<DirectorySyncEvent, { event: T }>;
/** The data an event of type `T` carries. */
export type EventDataOf<T extends EventType> = z.output<EventDataSchemas[T]>;

/** An event ready to be committed with the write that caused it: the exact JSON bytes that will be delivered. */
export interface PendingEvent {
  id: string;
  json: string;
}
/**
 * A user's first name, last name and email as JSON ('' when absent), `true`/`false`, its attributes, its roles
 * and its custom attributes as JSON (core/events.ts userDataFields).
 */
export type UserDataFields = [
  first: string,
  last: string,
  email: string,
  active: string,
  attributes: string,
  roles: string,
  custom: string,
];
/**
 * A user's body serialised once for its write (core/events.ts userJson): the text a store keeps, and the
 * `UserDataFields` it may keep beside it (undefined: a body its event data cannot be spliced around).
 */
export interface UserJson {
  body: string;
  fields: UserDataFields | undefined;
}
/**
 * A membership event of one change, as a store that builds them itself is given it: the event is
 * `{"id":"<id>"<middle><the user's event data without its closing brace>,"group":<groupJson>}}`, the user's data
 * from the record the store holds when it commits (`userDataSplice`), byte for byte what `MembershipEvents.of`
 * builds from that record.
 */
export interface MembershipTemplate {
  middle: string;
  groupJson: string;
}
/** A membership event the store builds (its JSON exists only there). */
export interface StoreBuiltEvent {
  id: string;
  template: MembershipTemplate;
}
