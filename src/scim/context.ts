/** Per-request state of one SCIM call: never module-level (the peer's cross-tenant bug). */
import type { GroupWriter } from '../core/groups.js';
import type { Directory, PendingEvent, StoredResource } from '../core/model.js';
import type { GroupStore, ResourceRef, UserStore } from '../core/store-port.js';
import type { UserWriter } from '../core/users.js';

export const SCIM_JSON = 'application/scim+json';

/** What SCIM reads straight from the store (lookups, listings, rendering); every write goes through a writer. */
export type ScimReads = Pick<UserStore, 'getUser' | 'getUsers' | 'findUserIds' | 'listUsers' | 'userGroupIds'> &
  Pick<GroupStore, 'getGroup' | 'getGroups' | 'findGroupIds' | 'listGroups' | 'memberDisplays' | 'groupMemberIds'>;

/** The core use cases and the read role the SCIM handler works with (built once, in service.ts). */
export interface ScimDeps {
  reads: ScimReads;
  users: UserWriter;
  groups: GroupWriter;
}

export interface ScimContext extends ScimDeps {
  directory: Directory;
  /** `scim.endpoint` of the directory: base of every `Location`/`meta.location`. */
  base: string;
  /**
   * Events committed by this request, in log order, collected only for an embedded per-request callback (without
   * one, a store may build membership events that never come back to this process).
   */
  committed?: PendingEvent[];
  /** The user or group the request's path names, read with its authentication (null: none stored). */
  named?: ResourceRef & { resource: StoredResource | null };
  /** Conditional request headers (RFC 7644 §3.14). */
  ifMatch?: string;
  ifNoneMatch?: string;
}

export type ScimQuery = {
  filter?: string;
  startIndex?: number | string;
  count?: number | string;
  attributes?: string;
  excludedAttributes?: string;
};

export interface ScimResult {
  status: number;
  data: unknown;
  headers?: Record<string, string>;
}
