/** One directory's data in the memory store: records, indexes, memberships, its event log and delivery records. */
import { forEachChunked, Slicer } from '../../core/chunks.js';
import { writerBuilt } from '../../core/events.js';
import type { GroupKeys, PendingEvent, StoredJson, StoredResource, UserKeys } from '../../core/model.js';
import type {
  ActivityEntry,
  DeadLetter,
  DeliveryLogRecord,
  DeliveryState,
  MemberChange,
  Page,
  SyncRecordName,
  WriteResult,
} from '../../core/store-port.js';
import { parsed } from '../parse-stored.js';
import { EventLog } from './event-log.js';

export interface Row {
  body: string;
  created: number;
  lastModified: number;
  version: number;
}
export interface UserRow extends Row {
  keys: UserKeys;
}
export interface GroupRow extends Row {
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

export interface Lease {
  owner: string;
  expires: number;
}

export class DirectoryData {
  readonly users = new Map<string, UserRow>();
  readonly userNames = new Map<string, string>();
  readonly userExternalIds = new MultiIndex();
  readonly emails = new MultiIndex();
  /** Manager id → the users naming it as their manager. */
  readonly reports = new MultiIndex();
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
  /** The pull sync's lease and its small records (PullSyncStore). */
  syncLease: Lease | undefined;
  readonly syncRecords = new Map<SyncRecordName, string>();
  /** SCIM tokens (their JSON is the revision), their use times, setup links (JSON) and the activity record. */
  scimTokens = '';
  readonly tokenUsage = new Map<string, number>();
  readonly setupLinks = new Map<string, string>();
  /** Newest first. */
  activity: ActivityEntry[] = [];
  activityExpires = 0;
  lastRequestAt: string | null = null;
  /** Membership changes of a group still being applied chunk by chunk. */
  private readonly applying = new Map<string, Promise<unknown>>();

  append(events: PendingEvent[]): void {
    for (const e of events) this.appendOne(e);
  }
  appendOne(event: PendingEvent): void {
    this.events.append(event.json, Date.now());
  }

  /** Marks `groupId`'s memberships as being changed until `work` settles; answers `work`. */
  track<T>(groupId: string, work: Promise<T>): Promise<T> {
    const done: Promise<void> = work.then(
      () => this.untrack(groupId, done),
      () => this.untrack(groupId, done),
    );
    this.applying.set(groupId, done);
    return work;
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
   * The first slice runs synchronously with the caller's commit; see users-groups.ts for the rest.
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
      // This store does not build membership events (`buildsMembershipEvents`): its writers build every one.
      if (changed) this.appendOne(writerBuilt(m.event));
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
    this.reports.add(keys.managerId, id);
  }
  unindexUser(id: string, keys: UserKeys): void {
    this.userNames.delete(keys.userName.toLowerCase());
    this.userExternalIds.delete(keys.externalId, id);
    for (const email of keys.emails) this.emails.delete(email.toLowerCase(), id);
    this.reports.delete(keys.managerId, id);
  }
  indexGroup(id: string, keys: GroupKeys): void {
    this.displayNames.set(keys.displayName.toLowerCase(), id);
    this.groupExternalIds.add(keys.externalId, id);
  }
  unindexGroup(id: string, keys: GroupKeys): void {
    this.displayNames.delete(keys.displayName.toLowerCase());
    this.groupExternalIds.delete(keys.externalId, id);
  }

  /**
   * Whether a member change's event was built from another version of an existing user. In time slices (a
   * change may name 200,000 users): callers hold the group busy meanwhile, so user writes wait.
   */
  async staleMembers(changes: MemberChange[]): Promise<boolean> {
    const slicer = new Slicer();
    for (const m of changes) {
      if (slicer.spent()) await slicer.yield();
      const user = this.users.get(m.userId);
      if (user !== undefined && user.version !== m.userVersion) return true;
    }
    return false;
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

/** The row of a resource just created (version 1); `bodyJson`: its body as its writer serialised it. */
export const newRow = <K>(
  resource: StoredResource,
  keys: K,
  bodyJson = JSON.stringify(resource.body),
): Row & { keys: K } => ({
  body: bodyJson,
  created: resource.created,
  lastModified: resource.lastModified,
  version: 1,
  keys,
});

const toJson = (id: string, row: Row): StoredJson => {
  const json: StoredJson = {
    id,
    bodyJson: row.body,
    created: row.created,
    lastModified: row.lastModified,
    version: row.version,
  };
  const keys = (row as Partial<UserRow>).keys;
  if (keys?.managerEmail !== undefined) json.managerEmail = keys.managerEmail;
  if (keys?.roles !== undefined && keys.roles.length > 0) json.roles = keys.roles;
  if (keys?.customAttributes !== undefined && Object.keys(keys.customAttributes).length > 0)
    json.customAttributes = keys.customAttributes;
  return json;
};

const toResource = (id: string, row: Row): StoredResource => parsed(toJson(id, row));

export const ok = (row: Row, applied: boolean[] = []): WriteResult => ({
  status: 'ok',
  version: row.version,
  lastModified: row.lastModified,
  applied,
});

export const readJson = (rows: Map<string, Row> | undefined, id: string): StoredJson | null => {
  const row = rows?.get(id);
  return row ? toJson(id, row) : null;
};

export const read = (rows: Map<string, Row> | undefined, id: string): StoredResource | null => {
  const record = readJson(rows, id);
  return record && parsed(record);
};

export function pageRows(rows: Map<string, Row> | undefined, offset: number, limit: number): Page<StoredResource> {
  if (!rows) return { total: 0, items: [] };
  return { total: rows.size, items: page(rows, rows.size, offset, limit).map(([id, row]) => toResource(id, row)) };
}

/** A unique, case-insensitive index answers zero or one id. */
export function unique(index: Map<string, string>, value: string): string[] {
  const id = index.get(value.toLowerCase());
  return id ? [id] : [];
}

export function page<T>(items: Iterable<T>, total: number, offset: number, limit: number): T[] {
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
