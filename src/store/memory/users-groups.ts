/**
 * In-memory store: the embedded default of `dsync serve` without REDIS_URL. Single-threaded JS makes each
 * method atomic as long as it does not await in the middle. The one exception is a membership write bigger
 * than one time slice (core/chunks.ts): from its first check on, the group is marked busy, its members' user
 * versions are checked and its changes applied in slices with event-loop turns in between, and everything that
 * reads or depends on those memberships (member reads, a user's groups, writes to the group or to users) waits
 * until it is done, so no reader sees half of it. Records are kept as JSON so readers always get fresh objects, exactly
 * as from Redis.
 */
import { forEachChunked } from '../../core/chunks.js';
import type {
  Directory,
  GroupKeys,
  PendingEvent,
  StoredJson,
  StoredResource,
  UserJson,
  UserKeys,
} from '../../core/model.js';
import type {
  DirectoryAccess,
  GroupIndex,
  GroupUpdate,
  MemberChange,
  Page,
  ResourceRef,
  ShardReplication,
  Store,
  UserIndex,
  WriteResult,
} from '../../core/store-port.js';
import { MemoryAccessStore } from './access.js';
import {
  DirectoryData,
  newRow,
  ok,
  page,
  pageRows,
  read,
  readJson,
  unique,
  type GroupRow,
  type Row,
  type UserRow,
} from './directory.js';

export class MemoryStore extends MemoryAccessStore implements Store {
  readonly kind = 'memory' as const;
  private readonly directories = new Map<string, string>();

  async ping(): Promise<void> {}

  async replication(): Promise<ShardReplication[]> {
    return [];
  }
  async close(): Promise<void> {}

  private records(directoryId: string, kind: 'users' | 'groups', ids: string[]): Array<StoredResource | null> {
    const rows = this.data.get(directoryId)?.[kind];
    return ids.map((id) => read(rows, id));
  }

  /** The directory's data, or undefined once the directory is deleted (writes then answer `missing`). */
  private dir(id: string): DirectoryData | undefined {
    if (!this.directories.has(id)) return undefined;
    let d = this.data.get(id);
    if (!d) this.data.set(id, (d = new DirectoryData()));
    return d;
  }

  // Directories -----------------------------------------------------------------------------------------

  async createDirectory(directory: Directory): Promise<void> {
    this.directories.set(directory.id, JSON.stringify(directory));
    this.data.set(directory.id, new DirectoryData());
  }
  async getDirectory(id: string): Promise<Directory | null> {
    const json = this.directories.get(id);
    return json ? (JSON.parse(json) as Directory) : null;
  }
  async getDirectoryAccess(id: string, resource?: ResourceRef): Promise<DirectoryAccess | null> {
    const directory = await this.getDirectory(id);
    if (!directory) return null;
    const named =
      resource && (resource.kind === 'user' ? this.getUser(id, resource.id) : this.getGroup(id, resource.id));
    return { directory, ...this.tokensOf(id), ...(named && { resource: await named }) };
  }
  async listDirectories(filter: { tenant: string; product: string }): Promise<Directory[]> {
    return [...this.directories.values()]
      .map((json) => JSON.parse(json) as Directory)
      .filter((d) => d.tenant === filter.tenant && d.product === filter.product);
  }
  async listDirectoryIds(): Promise<string[]> {
    return [...this.directories.keys()];
  }
  /** Nothing to do: an in-process change is applied by the write that made it, which cannot time out. */
  async finishPendingWrites(): Promise<void> {}
  async updateDirectory(directory: Directory): Promise<void> {
    if (this.directories.has(directory.id)) this.directories.set(directory.id, JSON.stringify(directory));
  }
  async disableWebhook(id: string, endpoint: string, at: string): Promise<boolean> {
    const directory = await this.getDirectory(id);
    if (!directory || directory.webhook.endpoint !== endpoint) return false;
    this.directories.set(id, JSON.stringify({ ...directory, webhook_disabled_at: at }));
    return true;
  }
  async saveGoogleTokens(
    id: string,
    expectedRefreshToken: string | undefined,
    tokens: { accessToken: string; refreshToken?: string },
    at: string,
  ): Promise<boolean> {
    const directory = await this.getDirectory(id);
    if (!directory || directory.google_refresh_token !== expectedRefreshToken) return false;
    const refreshed = {
      google_access_token: tokens.accessToken,
      ...(tokens.refreshToken && { google_refresh_token: tokens.refreshToken }),
    };
    this.directories.set(id, JSON.stringify({ ...directory, ...refreshed, updated_at: at }));
    return true;
  }
  async deleteDirectory(id: string): Promise<boolean> {
    this.dropSetupLinks(id);
    this.data.delete(id);
    this.due.delete(id);
    return this.directories.delete(id);
  }

  // Users -----------------------------------------------------------------------------------------------

  async getUser(directoryId: string, id: string): Promise<StoredResource | null> {
    return this.records(directoryId, 'users', [id])[0]!;
  }
  async getUsers(directoryId: string, ids: string[]): Promise<Array<StoredResource | null>> {
    return this.records(directoryId, 'users', ids);
  }
  async getUsersJson(directoryId: string, ids: string[]): Promise<Array<StoredJson | null>> {
    const rows = this.data.get(directoryId)?.users;
    return ids.map((id) => readJson(rows, id));
  }
  async findUserIds(directoryId: string, index: UserIndex, value: string): Promise<string[]> {
    const d = this.data.get(directoryId);
    if (!d) return [];
    if (index === 'userName') return unique(d.userNames, value);
    if (index === 'externalId') return d.userExternalIds.get(value);
    if (index === 'managerId') return d.reports.get(value);
    return d.emails.get(value.toLowerCase());
  }
  async listUsers(directoryId: string, offset: number, limit: number): Promise<Page<StoredResource>> {
    return pageRows(this.data.get(directoryId)?.users, offset, limit);
  }
  async countUsers(directoryId: string): Promise<number> {
    return this.data.get(directoryId)?.users.size ?? 0;
  }
  async createUser(
    directoryId: string,
    user: StoredResource,
    keys: UserKeys,
    events: PendingEvent[],
    json?: UserJson,
  ): Promise<WriteResult> {
    const d = this.dir(directoryId);
    if (!d) return { status: 'missing' };
    if (d.userNames.has(keys.userName.toLowerCase())) return { status: 'conflict' };
    const row: UserRow = newRow(user, keys, json?.body);
    d.users.set(user.id, row);
    d.indexUser(user.id, keys);
    d.append(events);
    return ok(row);
  }
  async updateUser(
    directoryId: string,
    id: string,
    expectedVersion: number,
    body: StoredResource['body'],
    keys: UserKeys,
    events: PendingEvent[],
    now: number,
    json?: UserJson,
  ): Promise<WriteResult> {
    while (this.data.get(directoryId)?.busy()) await this.data.get(directoryId)!.idle();
    const d = this.data.get(directoryId);
    const row = d?.users.get(id);
    if (!d || !row) return { status: 'missing' };
    if (row.version !== expectedVersion) return { status: 'stale' };
    const owner = d.userNames.get(keys.userName.toLowerCase());
    if (owner !== undefined && owner !== id) return { status: 'conflict' };
    d.unindexUser(id, row.keys);
    d.indexUser(id, keys);
    Object.assign(row, { body: json?.body ?? JSON.stringify(body), keys, version: row.version + 1, lastModified: now });
    d.append(events);
    return ok(row);
  }
  async deleteUser(
    directoryId: string,
    id: string,
    expectedVersion: number,
    groups: Array<{ id: string; version: number }>,
    events: PendingEvent[],
    now: number,
  ): Promise<WriteResult> {
    while (this.data.get(directoryId)?.busy()) await this.data.get(directoryId)!.idle();
    const d = this.data.get(directoryId);
    const row = d?.users.get(id);
    if (!d || !row) return { status: 'missing' };
    const current = d.userGroups.get(id) ?? new Set<string>();
    const moved = (g: { id: string; version: number }) =>
      !current.has(g.id) || d.groups.get(g.id)?.version !== g.version;
    if (row.version !== expectedVersion || current.size !== groups.length || groups.some(moved)) {
      return { status: 'stale' };
    }
    for (const { id: groupId } of groups) {
      d.removeMember(groupId, id);
      this.touch(d.groups.get(groupId), now);
    }
    d.unindexUser(id, row.keys);
    d.users.delete(id);
    d.append(events);
    return ok(row);
  }
  async userGroupIds(directoryId: string, userId: string): Promise<string[]> {
    while (this.data.get(directoryId)?.busy()) await this.data.get(directoryId)!.idle();
    return [...(this.data.get(directoryId)?.userGroups.get(userId) ?? [])];
  }

  // Groups ----------------------------------------------------------------------------------------------

  async getGroup(directoryId: string, id: string): Promise<StoredResource | null> {
    return this.records(directoryId, 'groups', [id])[0]!;
  }
  async getGroups(directoryId: string, ids: string[]): Promise<Array<StoredResource | null>> {
    return this.records(directoryId, 'groups', ids);
  }
  async findGroupIds(directoryId: string, index: GroupIndex, value: string): Promise<string[]> {
    const d = this.data.get(directoryId);
    if (!d) return [];
    if (index === 'displayName') return unique(d.displayNames, value);
    return d.groupExternalIds.get(value);
  }
  async listGroups(directoryId: string, offset: number, limit: number): Promise<Page<StoredResource>> {
    return pageRows(this.data.get(directoryId)?.groups, offset, limit);
  }
  async countGroups(directoryId: string): Promise<number> {
    return this.data.get(directoryId)?.groups.size ?? 0;
  }
  async createGroup(
    directoryId: string,
    group: StoredResource,
    keys: GroupKeys,
    members: MemberChange[],
    events: PendingEvent[],
  ): Promise<WriteResult> {
    const d = this.dir(directoryId);
    if (!d) return { status: 'missing' };
    return d.track(
      group.id,
      (async (): Promise<WriteResult> => {
        if (await d.staleMembers(members)) return { status: 'stale' };
        if (d.displayNames.has(keys.displayName.toLowerCase())) return { status: 'conflict' };
        const row: GroupRow = newRow(group, keys);
        d.groups.set(group.id, row);
        d.indexGroup(group.id, keys);
        d.append(events);
        return ok(row, await d.applyMembers(group.id, [], members, []));
      })(),
    );
  }
  async updateGroup(directoryId: string, id: string, update: GroupUpdate): Promise<WriteResult> {
    while (this.data.get(directoryId)?.busy(id)) await this.data.get(directoryId)!.idle(id);
    const d = this.data.get(directoryId);
    const row = d?.groups.get(id);
    if (!d || !row) return { status: 'missing' };
    if (update.expectedVersion !== undefined && row.version !== update.expectedVersion) return { status: 'stale' };
    if (update.expectedBody !== undefined && row.body !== update.expectedBody) return { status: 'stale' };
    // From here the group is busy (writes to it and to users, and reads of its memberships, wait): its version
    // and the users' stay as checked while the members are checked and applied in slices.
    return d.track(
      id,
      (async (): Promise<WriteResult> => {
        if ((await d.staleMembers(update.add)) || (await d.staleMembers(update.remove))) return { status: 'stale' };
        // The name check and the commit are one synchronous step (another group may take the name meanwhile).
        if (update.keys) {
          const owner = d.displayNames.get(update.keys.displayName.toLowerCase());
          if (owner !== undefined && owner !== id) return { status: 'conflict' };
        }
        let changed = false;
        if (update.body && update.keys) {
          d.unindexGroup(id, row.keys);
          d.indexGroup(id, update.keys);
          row.body = JSON.stringify(update.body);
          row.keys = update.keys;
          changed = true;
        }
        d.append(update.events);
        // The version moves with the commit (a reader of the new body sees the new version); member-only writes
        // that change nothing leave it be.
        if (changed) this.touch(row, update.now);
        const applied = await d.applyMembers(id, update.remove, update.add, update.displays ?? []);
        if (!changed && applied.includes(true)) this.touch(row, update.now);
        return ok(row, applied);
      })(),
    );
  }
  async deleteGroup(
    directoryId: string,
    id: string,
    expectedVersion: number,
    events: PendingEvent[],
  ): Promise<WriteResult> {
    while (this.data.get(directoryId)?.busy(id)) await this.data.get(directoryId)!.idle(id);
    const d = this.data.get(directoryId);
    const row = d?.groups.get(id);
    if (!d || !row) return { status: 'missing' };
    if (row.version !== expectedVersion) return { status: 'stale' };
    d.unindexGroup(id, row.keys);
    d.groups.delete(id);
    d.append(events);
    // The group is gone for every reader now; its users' group sets are cleaned in chunks (tracked).
    const members = [...(d.members.get(id) ?? [])];
    await d.track(
      id,
      forEachChunked(members, (userId) => d.removeMember(id, userId)).then(() => {
        d.members.delete(id);
        d.displays.delete(id);
      }),
    );
    return ok(row);
  }
  async memberDisplays(directoryId: string, groupId: string, userIds: string[]): Promise<Array<string | null>> {
    while (this.data.get(directoryId)?.busy(groupId)) await this.data.get(directoryId)!.idle(groupId);
    const map = this.data.get(directoryId)?.displays.get(groupId);
    return userIds.map((id) => map?.get(id) ?? null);
  }
  async groupMemberIds(directoryId: string, groupId: string, offset: number, limit: number): Promise<Page<string>> {
    while (this.data.get(directoryId)?.busy(groupId)) await this.data.get(directoryId)!.idle(groupId);
    const set = this.data.get(directoryId)?.members.get(groupId);
    if (!set) return { total: 0, items: [] };
    return { total: set.size, items: page(set, set.size, offset, limit) };
  }

  private touch(row: Row | undefined, now: number): void {
    if (!row) return;
    row.version += 1;
    row.lastModified = Math.max(now, row.lastModified);
  }
}
