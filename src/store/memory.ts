/**
 * In-memory store: the embedded default of `dsync serve` without REDIS_URL. Single-threaded JS makes each
 * method atomic as long as it does not await in the middle. The one exception is a membership write larger
 * than a chunk: its checks, record and first chunk commit in one synchronous step, the remaining chunks are
 * applied with event-loop turns in between, and everything that reads or depends on those memberships (member
 * reads, a user's groups, writes to the group or to users) waits until they are all applied, so no reader sees
 * half of it. Records are kept as JSON so readers always get fresh objects, exactly as from Redis.
 */
import { forEachChunked } from '../core/chunks.js';
import { EventLog } from './memory-event-log.js';
import type { Directory, GroupKeys, PendingEvent, StoredResource, UserKeys } from '../core/model.js';
import type {
  DeadLetter,
  DeliveryLogRecord,
  DeliveryState,
  GroupIndex,
  GroupUpdate,
  LoggedEvent,
  MemberChange,
  Page,
  Store,
  SyncRecordName,
  UserIndex,
  WriteResult,
} from '../core/store-port.js';

interface Row {
  body: string;
  created: number;
  lastModified: number;
  version: number;
}
interface UserRow extends Row {
  keys: UserKeys;
}
interface GroupRow extends Row {
  keys: GroupKeys;
}

/** A non-unique index: value → ids. */
class MultiIndex {
  private readonly map = new Map<string, Set<string>>();
  add(value: string | undefined, id: string): void {
    if (value === undefined) return;
    let ids = this.map.get(value);
    if (!ids) this.map.set(value, (ids = new Set()));
    ids.add(id);
  }
  delete(value: string | undefined, id: string): void {
    if (value === undefined) return;
    const ids = this.map.get(value);
    if (!ids) return;
    ids.delete(id);
    if (ids.size === 0) this.map.delete(value);
  }
  get(value: string): string[] {
    return [...(this.map.get(value) ?? [])];
  }
}

interface Lease {
  owner: string;
  expires: number;
}
type LeaseSlot = 'lease' | 'syncLease';

class DirectoryData {
  readonly users = new Map<string, UserRow>();
  readonly userNames = new Map<string, string>();
  readonly userExternalIds = new MultiIndex();
  readonly emails = new MultiIndex();
  readonly groups = new Map<string, GroupRow>();
  readonly displayNames = new Map<string, string>();
  readonly groupExternalIds = new MultiIndex();
  readonly members = new Map<string, Set<string>>();
  readonly displays = new Map<string, Map<string, string>>();
  readonly userGroups = new Map<string, Set<string>>();
  readonly events = new EventLog();
  delivery: DeliveryState = { cursor: null, attempts: 0, pinned: null };
  replayFrom: number | undefined;
  readonly deliveryLogs: Array<DeliveryLogRecord & { at: number }> = [];
  readonly deadLetters: DeadLetter[] = [];
  private nextRecord = 1;
  recordId(): string {
    return String(this.nextRecord++).padStart(16, '0');
  }
  lease: Lease | undefined;
  /** The pull sync's lease and records (PullSyncStore). */
  syncLease: Lease | undefined;
  readonly syncRecords = new Map<SyncRecordName, string>();
  /** Membership changes of a group still being applied chunk by chunk. */
  private readonly applying = new Map<string, Promise<unknown>>();

  append(events: PendingEvent[]): void {
    for (const e of events) this.appendOne(e);
  }
  appendOne(event: PendingEvent): void {
    this.events.append(event.json, Date.now());
  }

  /** Marks `groupId`'s memberships as being changed until `work` settles. */
  track(groupId: string, work: Promise<unknown>): void {
    const done: Promise<void> = work.then(
      () => this.untrack(groupId, done),
      () => this.untrack(groupId, done),
    );
    this.applying.set(groupId, done);
  }

  private untrack(groupId: string, done: Promise<void>): void {
    if (this.applying.get(groupId) === done) this.applying.delete(groupId);
  }

  /** Whether membership changes of `groupId` (of any group when absent) are being applied. */
  busy(groupId?: string): boolean {
    return groupId === undefined ? this.applying.size > 0 : this.applying.has(groupId);
  }
  /**
   * Settles when the changes `busy` saw are applied. Callers loop `while (busy) await idle()` and then act
   * without awaiting: the last check and their write are one synchronous step.
   */
  idle(groupId?: string): Promise<unknown> {
    return Promise.allSettled(groupId === undefined ? [...this.applying.values()] : [this.applying.get(groupId)]);
  }

  /**
   * Applies removals, then additions (events for real changes only), then displays; `applied[i]` for change i.
   * The first chunk runs synchronously with the caller's checks; see the file comment for the rest.
   */
  async applyMembers(
    groupId: string,
    remove: MemberChange[],
    add: MemberChange[],
    displays: Array<{ userId: string; display: string }>,
  ): Promise<boolean[]> {
    const applied: boolean[] = [];
    const apply = (m: MemberChange, changed: boolean) => {
      applied.push(changed);
      if (changed) this.appendOne(m.event);
    };
    await forEachChunked(remove, (m) => apply(m, this.removeMember(groupId, m.userId)));
    await forEachChunked(add, (m) => {
      apply(m, this.addMember(groupId, m.userId));
      this.setDisplay(groupId, m.userId, m.display);
    });
    await forEachChunked(displays, (m) => this.setDisplay(groupId, m.userId, m.display));
    return applied;
  }

  indexUser(id: string, keys: UserKeys): void {
    this.userNames.set(keys.userName.toLowerCase(), id);
    this.userExternalIds.add(keys.externalId, id);
    for (const email of keys.emails) this.emails.add(email.toLowerCase(), id);
  }
  unindexUser(id: string, keys: UserKeys): void {
    this.userNames.delete(keys.userName.toLowerCase());
    this.userExternalIds.delete(keys.externalId, id);
    for (const email of keys.emails) this.emails.delete(email.toLowerCase(), id);
  }
  indexGroup(id: string, keys: GroupKeys): void {
    this.displayNames.set(keys.displayName.toLowerCase(), id);
    this.groupExternalIds.add(keys.externalId, id);
  }
  unindexGroup(id: string, keys: GroupKeys): void {
    this.displayNames.delete(keys.displayName.toLowerCase());
    this.groupExternalIds.delete(keys.externalId, id);
  }

  /** A member change whose event was built from another version of an existing user. */
  staleMembers(changes: MemberChange[]): boolean {
    return changes.some((m) => {
      const user = this.users.get(m.userId);
      return user !== undefined && user.version !== m.userVersion;
    });
  }

  setDisplay(groupId: string, userId: string, display: string | undefined): void {
    if (display === undefined || !this.members.get(groupId)?.has(userId)) return;
    let map = this.displays.get(groupId);
    if (!map) this.displays.set(groupId, (map = new Map()));
    map.set(userId, display);
  }

  addMember(groupId: string, userId: string): boolean {
    if (!this.users.has(userId)) return false;
    let set = this.members.get(groupId);
    if (!set) this.members.set(groupId, (set = new Set()));
    if (set.has(userId)) return false;
    set.add(userId);
    let groups = this.userGroups.get(userId);
    if (!groups) this.userGroups.set(userId, (groups = new Set()));
    groups.add(groupId);
    return true;
  }
  removeMember(groupId: string, userId: string): boolean {
    const set = this.members.get(groupId);
    if (!set?.delete(userId)) return false;
    this.displays.get(groupId)?.delete(userId);
    const groups = this.userGroups.get(userId);
    groups?.delete(groupId);
    if (groups?.size === 0) this.userGroups.delete(userId);
    return true;
  }
}

const toResource = (id: string, row: Row): StoredResource => ({
  id,
  body: JSON.parse(row.body) as StoredResource['body'],
  created: row.created,
  lastModified: row.lastModified,
  version: row.version,
});

const ok = (row: Row, applied: boolean[] = []): WriteResult => ({
  status: 'ok',
  version: row.version,
  lastModified: row.lastModified,
  applied,
});

const read = (rows: Map<string, Row> | undefined, id: string): StoredResource | null => {
  const row = rows?.get(id);
  return row ? toResource(id, row) : null;
};

function pageRows(rows: Map<string, Row> | undefined, offset: number, limit: number): Page<StoredResource> {
  if (!rows) return { total: 0, items: [] };
  return { total: rows.size, items: page(rows, rows.size, offset, limit).map(([id, row]) => toResource(id, row)) };
}

/** A unique, case-insensitive index answers zero or one id. */
function unique(index: Map<string, string>, value: string): string[] {
  const id = index.get(value.toLowerCase());
  return id ? [id] : [];
}

function page<T>(items: Iterable<T>, total: number, offset: number, limit: number): T[] {
  const out: T[] = [];
  if (limit <= 0 || offset >= total) return out;
  let i = 0;
  for (const item of items) {
    if (i++ < offset) continue;
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}

export class MemoryStore implements Store {
  readonly kind = 'memory' as const;
  private readonly directories = new Map<string, string>();
  private readonly data = new Map<string, DirectoryData>();
  private readonly due = new Map<string, number>();

  async ping(): Promise<void> {}
  async close(): Promise<void> {}

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
  async deleteDirectory(id: string): Promise<boolean> {
    this.data.delete(id);
    this.due.delete(id);
    return this.directories.delete(id);
  }

  // Users -----------------------------------------------------------------------------------------------

  async getUser(directoryId: string, id: string): Promise<StoredResource | null> {
    return read(this.data.get(directoryId)?.users, id);
  }
  async getUsers(directoryId: string, ids: string[]): Promise<Array<StoredResource | null>> {
    const users = this.data.get(directoryId)?.users;
    return ids.map((id) => read(users, id));
  }
  async findUserIds(directoryId: string, index: UserIndex, value: string): Promise<string[]> {
    const d = this.data.get(directoryId);
    if (!d) return [];
    if (index === 'userName') return unique(d.userNames, value);
    if (index === 'externalId') return d.userExternalIds.get(value);
    return d.emails.get(value.toLowerCase());
  }
  async listUsers(directoryId: string, offset: number, limit: number): Promise<Page<StoredResource>> {
    return pageRows(this.data.get(directoryId)?.users, offset, limit);
  }
  async countUsers(directoryId: string): Promise<number> {
    return this.data.get(directoryId)?.users.size ?? 0;
  }
  async createUser(directoryId: string, user: StoredResource, keys: UserKeys, events: PendingEvent[]): Promise<WriteResult> {
    const d = this.dir(directoryId);
    if (!d) return { status: 'missing' };
    if (d.userNames.has(keys.userName.toLowerCase())) return { status: 'conflict' };
    const row: UserRow = {
      body: JSON.stringify(user.body),
      created: user.created,
      lastModified: user.lastModified,
      version: 1,
      keys,
    };
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
    Object.assign(row, { body: JSON.stringify(body), keys, version: row.version + 1, lastModified: now });
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
    const moved = (g: { id: string; version: number }) => !current.has(g.id) || d.groups.get(g.id)?.version !== g.version;
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
    return read(this.data.get(directoryId)?.groups, id);
  }
  async getGroups(directoryId: string, ids: string[]): Promise<Array<StoredResource | null>> {
    const groups = this.data.get(directoryId)?.groups;
    return ids.map((id) => read(groups, id));
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
    if (d.staleMembers(members)) return { status: 'stale' };
    if (d.displayNames.has(keys.displayName.toLowerCase())) return { status: 'conflict' };
    const row: GroupRow = {
      body: JSON.stringify(group.body),
      created: group.created,
      lastModified: group.lastModified,
      version: 1,
      keys,
    };
    d.groups.set(group.id, row);
    d.indexGroup(group.id, keys);
    d.append(events);
    const work = d.applyMembers(group.id, [], members, []);
    d.track(group.id, work);
    return ok(row, await work);
  }
  async updateGroup(directoryId: string, id: string, update: GroupUpdate): Promise<WriteResult> {
    while (this.data.get(directoryId)?.busy(id)) await this.data.get(directoryId)!.idle(id);
    const d = this.data.get(directoryId);
    const row = d?.groups.get(id);
    if (!d || !row) return { status: 'missing' };
    if (update.expectedVersion !== undefined && row.version !== update.expectedVersion) return { status: 'stale' };
    if (update.expectedBody !== undefined && row.body !== update.expectedBody) return { status: 'stale' };
    if (d.staleMembers(update.add) || d.staleMembers(update.remove)) return { status: 'stale' };
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
    const work = d.applyMembers(id, update.remove, update.add, update.displays ?? []);
    d.track(id, work);
    const applied = await work;
    if (!changed && applied.includes(true)) this.touch(row, update.now);
    return ok(row, applied);
  }
  async deleteGroup(directoryId: string, id: string, expectedVersion: number, events: PendingEvent[]): Promise<WriteResult> {
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
    const work = forEachChunked(members, (userId) => d.removeMember(id, userId)).then(() => {
      d.members.delete(id);
      d.displays.delete(id);
    });
    d.track(id, work);
    await work;
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

  // Events ----------------------------------------------------------------------------------------------

  async readEvents(directoryId: string, afterSeq: string | null, limit: number): Promise<LoggedEvent[]> {
    return this.data.get(directoryId)?.events.read(afterSeq, limit) ?? [];
  }
  compareSeq(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  isSeq(text: string): boolean {
    return /^\d{16}$/.test(text);
  }
  async lastEventSeq(directoryId: string): Promise<string | null> {
    return this.data.get(directoryId)?.events.last() ?? null;
  }
  async trimEvents(directoryId: string, uptoSeq: string, olderThan: number): Promise<void> {
    this.data.get(directoryId)?.events.trim(uptoSeq, olderThan);
  }

  // Delivery --------------------------------------------------------------------------------------------

  async markDue(directoryId: string, at: number): Promise<void> {
    const current = this.due.get(directoryId);
    if (current === undefined || at < current) this.due.set(directoryId, at);
  }
  async dueDirectories(now: number, limit: number): Promise<string[]> {
    return [...this.due]
      .filter(([, at]) => at <= now)
      .sort((a, b) => a[1] - b[1])
      .slice(0, limit)
      .map(([id]) => id);
  }
  async clearDue(directoryId: string): Promise<void> {
    this.due.delete(directoryId);
  }
  async acquireLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.takeLease('lease', directoryId, owner, ttlMs);
  }
  async renewLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.extendLease('lease', directoryId, owner, ttlMs);
  }
  async releaseLease(directoryId: string, owner: string): Promise<void> {
    this.dropLease('lease', directoryId, owner);
  }
  private takeLease(slot: LeaseSlot, directoryId: string, owner: string, ttlMs: number): boolean {
    const d = this.data.get(directoryId);
    if (!d) return false;
    const now = Date.now();
    const lease = d[slot];
    if (lease && lease.owner !== owner && lease.expires > now) return false;
    d[slot] = { owner, expires: now + ttlMs };
    return true;
  }
  private extendLease(slot: LeaseSlot, directoryId: string, owner: string, ttlMs: number): boolean {
    const lease = this.data.get(directoryId)?.[slot];
    if (!lease || lease.owner !== owner || lease.expires <= Date.now()) return false;
    lease.expires = Date.now() + ttlMs;
    return true;
  }
  private dropLease(slot: LeaseSlot, directoryId: string, owner: string): void {
    const d = this.data.get(directoryId);
    if (d?.[slot]?.owner === owner) d[slot] = undefined;
  }
  async deliveryState(directoryId: string): Promise<DeliveryState> {
    return { ...(this.data.get(directoryId)?.delivery ?? { cursor: null, attempts: 0, pinned: null }) };
  }
  async saveDeliveryState(directoryId: string, owner: string, state: DeliveryState, ttlMs: number): Promise<boolean> {
    const d = this.data.get(directoryId);
    if (!d?.lease || d.lease.owner !== owner || d.lease.expires <= Date.now()) return false;
    d.delivery = { ...state };
    d.lease.expires = Date.now() + ttlMs;
    return true;
  }

  private touch(row: Row | undefined, now: number): void {
    if (!row) return;
    row.version += 1;
    row.lastModified = Math.max(now, row.lastModified);
  }

  // Pull sync ------------------------------------------------------------------------------------------

  async getSyncRecord(directoryId: string, name: SyncRecordName): Promise<string | null> {
    return this.dir(directoryId)?.syncRecords.get(name) ?? null;
  }
  async putSyncRecord(directoryId: string, name: SyncRecordName, json: string | null): Promise<boolean> {
    const d = this.dir(directoryId);
    if (!d) return false;
    if (json === null) d.syncRecords.delete(name);
    else d.syncRecords.set(name, json);
    return true;
  }
  async acquireSyncLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.takeLease('syncLease', directoryId, owner, ttlMs);
  }
  async renewSyncLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.extendLease('syncLease', directoryId, owner, ttlMs);
  }
  async releaseSyncLease(directoryId: string, owner: string): Promise<void> {
    this.dropLease('syncLease', directoryId, owner);
  }

  // Delivery logs and dead letters ----------------------------------------------------------------------

  async appendDeliveryLog(directoryId: string, record: Omit<DeliveryLogRecord, 'id'>, olderThan: number): Promise<string> {
    const d = this.data.get(directoryId);
    if (!d) return '';
    const id = `${directoryId}_${d.recordId()}`;
    d.deliveryLogs.push({ ...record, id, at: Date.now() });
    while (d.deliveryLogs.length > 0 && d.deliveryLogs[0]!.at < olderThan) d.deliveryLogs.shift();
    return id;
  }
  async listDeliveryLogs(directoryId: string, offset: number, limit: number): Promise<DeliveryLogRecord[]> {
    const logs = this.data.get(directoryId)?.deliveryLogs ?? [];
    return logs
      .slice()
      .reverse()
      .slice(offset, offset + limit)
      .map(({ at: _at, ...r }) => r);
  }
  async getDeliveryLog(directoryId: string, id: string): Promise<DeliveryLogRecord | null> {
    const found = this.data.get(directoryId)?.deliveryLogs.find((r) => r.id === id);
    if (!found) return null;
    const { at: _at, ...record } = found;
    return record;
  }
  async addDeadLetter(directoryId: string, letter: Omit<DeadLetter, 'id'>): Promise<string> {
    const d = this.data.get(directoryId);
    if (!d) return '';
    const id = `${directoryId}_${d.recordId()}`;
    d.deadLetters.push({ ...letter, id });
    return id;
  }
  async listDeadLetters(directoryId: string): Promise<DeadLetter[]> {
    return [...(this.data.get(directoryId)?.deadLetters ?? [])];
  }
  async removeDeadLetter(directoryId: string, id: string): Promise<boolean> {
    const list = this.data.get(directoryId)?.deadLetters;
    const i = list?.findIndex((l) => l.id === id) ?? -1;
    if (!list || i < 0) return false;
    list.splice(i, 1);
    return true;
  }
  async seqBefore(directoryId: string, time: number): Promise<string | null> {
    return this.data.get(directoryId)?.events.seqBefore(time) ?? null;
  }
  async requestReplay(directoryId: string, since: number): Promise<void> {
    const d = this.data.get(directoryId);
    if (d && (d.replayFrom === undefined || since < d.replayFrom)) d.replayFrom = since;
  }
  async takeReplayRequest(directoryId: string): Promise<number | null> {
    const d = this.data.get(directoryId);
    const since = d?.replayFrom ?? null;
    if (d) d.replayFrom = undefined;
    return since;
  }
}
