/** Domain model shared by every layer. Plain data: no behaviour, no I/O. */

export const DIRECTORY_TYPES = [
  'azure-scim-v2',
  'okta-scim-v2',
  'onelogin-scim-v2',
  'jumpcloud-scim-v2',
  'ping-scim-v2',
  'rippling-scim-v2',
  'generic-scim-v2',
  'google',
] as const;
export type DirectoryType = (typeof DIRECTORY_TYPES)[number];

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
  /** Set when the receiver answered 410 Gone: delivery stops (events are kept) until the webhook is set again. */
  webhook_disabled_at?: string;
  /** Set when a controller (the Kubernetes operator) owns this directory; the management API then refuses to mutate it. */
  managed_by?: string;
  created_at: string;
  updated_at: string;
}

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
}

/** What the store indexes for a user: `userName` (unique, case-insensitive), `externalId`, emails (case-insensitive). */
export interface UserKeys {
  userName: string;
  externalId?: string;
  emails: string[];
}

/** What the store indexes for a group: `displayName` (unique, case-insensitive), `externalId`. */
export interface GroupKeys {
  displayName: string;
  externalId?: string;
}

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
export type EventType = (typeof EVENT_TYPES)[number];

export interface UserEventData {
  id: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  active: boolean;
  raw: ScimBody;
}

export interface GroupEventData {
  id: string;
  name: string;
  raw: ScimBody;
}

export type MembershipEventData = UserEventData & { group: GroupEventData };

export interface DirectorySyncEvent {
  id: string;
  event: EventType;
  created_at: string;
  directory_id: string;
  tenant: string;
  product: string;
  data: UserEventData | GroupEventData | MembershipEventData;
  previous_attributes?: Record<string, unknown>;
}

/** An event ready to be committed with the write that caused it: the exact JSON bytes that will be delivered. */
export interface PendingEvent {
  id: string;
  json: string;
}
