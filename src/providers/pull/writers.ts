/**
 * The write side the sync needs: the core use cases every writer shares (core/users.ts, core/groups.ts), so a
 * pulled change commits, and emits its events, exactly as the same change pushed over SCIM. Structural types,
 * so the sync takes the writers, never the store's write methods.
 */
import type { Directory, ScimBody, StoredResource } from '../../core/model.js';

export interface MemberRef {
  value: string;
  display?: string;
}

export interface UserWrites {
  create(dir: Directory, body: ScimBody, opts?: { id?: string }): Promise<StoredResource>;
  update(
    dir: Directory,
    id: string,
    change: (current: StoredResource) => ScimBody | undefined,
  ): Promise<StoredResource>;
  delete(dir: Directory, id: string): Promise<void>;
}

export interface GroupWrites {
  create(
    dir: Directory,
    body: ScimBody,
    members: readonly MemberRef[],
    opts?: { id?: string },
  ): Promise<StoredResource>;
  update(
    dir: Directory,
    id: string,
    change: (current: StoredResource) => { body?: ScimBody } | undefined,
  ): Promise<StoredResource>;
  addMembers(dir: Directory, id: string, refs: MemberRef[]): Promise<StoredResource>;
  removeMembers(dir: Directory, id: string, userIds: string[]): Promise<StoredResource>;
  delete(dir: Directory, id: string): Promise<void>;
}

export interface SyncWriters {
  users: UserWrites;
  groups: GroupWrites;
}
