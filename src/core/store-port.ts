/**
 * The storage port. Types only: `src/core` and `src/scim` import it with `import type` and never see an adapter.
 * Adapters: `store/memory/` (embedded default) and `store/redis/`; one contract suite (test/integration/store-contract)
 * proves they behave the same.
 *
 * Every write is one atomic step that also appends the events it causes to the directory's event log, so an
 * event is never lost or invented if the process dies in between. Callers do optimistic concurrency: they read,
 * compute the new state and its events, and commit with the version they read; `stale` means "read again".
 * Writes into a directory that no longer exists answer `missing` (a cascade delete may be under way).
 */
import type { DeliveryRecordStore, DeliveryStore } from './delivery-store-port.js';
import type {
  Directory,
  GroupKeys,
  PendingEvent,
  StoreBuiltEvent,
  StoredJson,
  StoredResource,
  UserJson,
  UserKeys,
} from './model.js';

export type {
  DeadLetter,
  DeliveryLogRecord,
  DeliveryRecordStore,
  DeliveryState,
  DeliveryStore,
  FailingDelivery,
} from './delivery-store-port.js';

/** `managerId`: the users whose manager (enterprise `manager.value`) is this id, their manager's reports. */
export type UserIndex = 'userName' | 'externalId' | 'email' | 'managerId';
export type GroupIndex = 'displayName' | 'externalId';

export interface Page<T> {
  total: number;
  items: T[];
}

/** Result of a conditional write. `conflict` = a uniqueness index already holds the value for another resource. */
export type WriteResult =
  /** `applied[i]` tells whether membership change i (removals first, then additions) really changed anything. */
  | { status: 'ok'; version: number; lastModified: number; applied: boolean[] }
  | { status: 'conflict' }
  | { status: 'stale' }
  | { status: 'missing' };

/**
 * A group write's result; `unbuilt`: the store found a user it cannot build a `StoreBuiltEvent` from (build them, write
 * again).
 */
export type GroupWriteResult = WriteResult | { status: 'unbuilt' };

export interface MemberChange<E extends PendingEvent | StoreBuiltEvent = PendingEvent | StoreBuiltEvent> {
  userId: string;
  /** Version of the user the event was built from: another means `stale` (the event would lie). None if store-built. */
  userVersion?: number;
  /** Appended to the log only if the membership really changed. */
  event: E;
  /** The `display` the client sent for this member, kept and echoed back (additions only). */
  display?: string;
}

export interface GroupUpdate {
  /** New body and keys, or absent when only memberships change. */
  body?: StoredResource['body'];
  keys?: GroupKeys;
  /** Checked when present: the write is refused with `stale` if the group moved on since it was read. */
  expectedVersion?: number;
  /** Checked when present: the group body (JSON) the events were built from; another body means `stale`. */
  expectedBody?: string;
  add: MemberChange[];
  remove: MemberChange[];
  /** Events appended unconditionally before the membership events (e.g. `group.updated`). */
  events: PendingEvent[];
  /** Member displays to (re)set after the changes, for users that are members then (PUT/replace resend them). */
  displays?: Array<{ userId: string; display: string }>;
  now: number;
}

/** One committed event as stored in a directory's ordered log. `seq` orders events within the directory. */
export interface LoggedEvent {
  seq: string;
  json: string;
  /**
   * The JSON as committed, before the store added `sequence` to it, when the store has it: V8 keeps `json` as two
   * joined strings, and reading any character of it first copies the whole event into one.
   */
  stored?: string;
}

export interface DirectoryStore {
  createDirectory(directory: Directory): Promise<void>;
  getDirectory(id: string): Promise<Directory | null>;
  /** Directories of one tenant and product, oldest first. */
  listDirectories(filter: { tenant: string; product: string }): Promise<Directory[]>;
  /** Every directory id, oldest first (operator, delivery sweeps, pull sync). */
  listDirectoryIds(): Promise<string[]>;
  /**
   * Finishes big membership changes that were committed but not fully applied (a writer timed out or died
   * after its commit); the delivery sweep calls it, so such a change completes without any further request.
   */
  finishPendingWrites(directoryId: string): Promise<void>;
  /** Replaces the record; tenant, product and type are immutable and not re-indexed. */
  updateDirectory(directory: Directory): Promise<void>;
  /**
   * Marks the webhook disabled (a 410), atomically and only if its endpoint is still `endpoint`: a concurrent
   * update that set a new URL wins. Returns whether it was disabled.
   */
  disableWebhook(id: string, endpoint: string, at: string): Promise<boolean>;
  /**
   * Saves Google tokens a sync refreshed, those fields alone (a concurrent edit of any other field stays), and
   * only while the refresh token is still `expectedRefreshToken` (an admin who set other tokens meanwhile wins).
   * Returns whether they were saved.
   */
  saveGoogleTokens(
    id: string,
    expectedRefreshToken: string | undefined,
    tokens: { accessToken: string; refreshToken?: string },
    at: string,
  ): Promise<boolean>;
  /** Deletes the directory and cascades to its users, groups, memberships and events. */
  deleteDirectory(id: string): Promise<boolean>;
}

export interface UserStore {
  getUser(directoryId: string, id: string): Promise<StoredResource | null>;
  getUsers(directoryId: string, ids: string[]): Promise<Array<StoredResource | null>>;
  /** `getUsers` with each body left as the JSON text the store holds (membership events reuse it unparsed). */
  getUsersJson(directoryId: string, ids: string[]): Promise<Array<StoredJson | null>>;
  findUserIds(directoryId: string, index: UserIndex, value: string): Promise<string[]>;
  /** Ordered by creation; `offset` is 0-based. */
  listUsers(directoryId: string, offset: number, limit: number): Promise<Page<StoredResource>>;
  /** `json`: the body as its writer serialised it for the events (`userJson`), so the store need not again. */
  createUser(
    directoryId: string,
    user: StoredResource,
    keys: UserKeys,
    events: PendingEvent[],
    json?: UserJson,
  ): Promise<WriteResult>;
  updateUser(
    directoryId: string,
    id: string,
    expectedVersion: number,
    body: StoredResource['body'],
    keys: UserKeys,
    events: PendingEvent[],
    now: number,
    json?: UserJson,
  ): Promise<WriteResult>;
  /**
   * Deletes the user and its memberships. `groups` must be the user's groups, at the versions read, that the
   * `events` (the `group.user_removed` events, then `user.deleted`, appended in order) were built from.
   */
  deleteUser(
    directoryId: string,
    id: string,
    expectedVersion: number,
    groups: Array<{ id: string; version: number }>,
    events: PendingEvent[],
    now: number,
  ): Promise<WriteResult>;
  userGroupIds(directoryId: string, userId: string): Promise<string[]>;
  countUsers(directoryId: string): Promise<number>;
}

export interface GroupStore {
  /** Whether changes of up to a chunk may carry `StoreBuiltEvent`s, built from the users as stored at the commit. */
  readonly buildsMembershipEvents?: boolean;
  getGroup(directoryId: string, id: string): Promise<StoredResource | null>;
  getGroups(directoryId: string, ids: string[]): Promise<Array<StoredResource | null>>;
  findGroupIds(directoryId: string, index: GroupIndex, value: string): Promise<string[]>;
  listGroups(directoryId: string, offset: number, limit: number): Promise<Page<StoredResource>>;
  /** Members whose user does not exist are skipped (no event). */
  createGroup(
    directoryId: string,
    group: StoredResource,
    keys: GroupKeys,
    members: MemberChange[],
    events: PendingEvent[],
  ): Promise<GroupWriteResult>;
  updateGroup(directoryId: string, id: string, update: GroupUpdate): Promise<GroupWriteResult>;
  deleteGroup(directoryId: string, id: string, expectedVersion: number, events: PendingEvent[]): Promise<WriteResult>;
  /** The client-sent displays of these members (null where none was sent). */
  memberDisplays(directoryId: string, groupId: string, userIds: string[]): Promise<Array<string | null>>;
  /** Member user ids in the order they were added; `offset` is 0-based. */
  groupMemberIds(directoryId: string, groupId: string, offset: number, limit: number): Promise<Page<string>>;
  countGroups(directoryId: string): Promise<number>;
}

export interface EventLogStore {
  /** Orders two seqs of this store (negative: a is older). Seqs are opaque strings to everyone else. */
  compareSeq(a: string, b: string): number;
  /** Whether `text` has the shape of a seq of this store (Events API cursors come from clients). */
  isSeq(text: string): boolean;
  /** Events after `afterSeq` (exclusive; `null` = from the start), oldest first. */
  readEvents(directoryId: string, afterSeq: string | null, limit: number): Promise<LoggedEvent[]>;
  /** Seq of the newest event, or null when the log is empty. */
  lastEventSeq(directoryId: string): Promise<string | null>;
  /** Drops events at or before `seq` that are older than `olderThan` (epoch ms). */
  trimEvents(directoryId: string, uptoSeq: string, olderThan: number): Promise<void>;
}

/** Names of the small per-directory records a pull provider keeps (JSON; never listed with the directory). */
export type SyncRecordName =
  | 'google-sync-status'
  | 'google-service-account'
  | 'microsoft-sync-status'
  /** Graph's delta links of the directory (and, with nested groups, its direct memberships). */
  | 'microsoft-delta'
  /** The directory's change-notification subscriptions and their clientState secret. */
  | 'microsoft-subscriptions'
  | 'hris-sync-status'
  /** An HRIS directory's credentials (API key, service user, OAuth client) as the IT admin gave them. */
  | 'hris-credentials'
  /** Where an HRIS directory's changed-since feed resumes. */
  | 'hris-cursor';

export interface PullSyncStore {
  /** The record's JSON, or null when none was saved. */
  getSyncRecord(directoryId: string, name: SyncRecordName): Promise<string | null>;
  /** Saves (or, with null, deletes) the record; false when the directory does not exist. */
  putSyncRecord(directoryId: string, name: SyncRecordName, json: string | null): Promise<boolean>;
  /** An expiring lease on the directory's pull sync: one run per directory across processes (like delivery's). */
  acquireSyncLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends the lease only while `owner` still holds it; false = it was lost. */
  renewSyncLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean>;
  releaseSyncLease(directoryId: string, owner: string): Promise<void>;
}

/**
 * Short-lived single-use records (the OAuth flows' states and start links): each is taken at most once, however
 * many take it at the same time, and is gone after its time to live.
 */
export interface OneTimeStore {
  /** Saves `value` under `key` for `ttlMs`; false when the key is already in use. */
  putOnce(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** The value, removed in the same atomic step; null when there is none (never put, expired or already taken). */
  takeOnce(key: string): Promise<string | null>;
}

/**
 * A SCIM bearer token as stored: its SHA-256, never its value (the first token, `scim.secret`, lives on the directory).
 */
export interface StoredScimToken {
  id: string;
  /** Hex SHA-256 of the token. */
  hash: string;
  created_at: string;
  /** Set on the token an operator rotation replaced: it stops working then. */
  expires_at?: string;
  /** Marks the record that only describes the directory's `scim.secret` (its creation time); never a credential. */
  primary?: true;
}

/** A user or group of a directory, as a request names it. */
export interface ResourceRef {
  kind: 'user' | 'group';
  id: string;
}

/** What a SCIM request authenticates against, read in one round trip. */
export interface DirectoryAccess {
  directory: Directory;
  tokens: StoredScimToken[];
  /** Opaque: what `putScimTokens` compares with (the list changed meanwhile = `stale`). */
  tokensRevision: string;
  /**
   * The resource `getDirectoryAccess` was asked for, as `getUser`/`getGroup` read it (null: none), in the same trip.
   */
  resource?: StoredResource | null;
}

/** A setup link as stored: the SHA-256 of its secret part, never the URL. */
export interface StoredSetupLink {
  id: string;
  directory_id: string;
  /** Hex SHA-256 of the link's secret part. */
  hash: string;
  created_at: string;
  expires_at: string;
  revoked_at?: string;
}

/** One SCIM request as the activity record keeps it: no body, no header, no query. */
export interface ActivityEntry {
  at: string;
  method: string;
  path: string;
  status: number;
  /** The error detail the request was answered with (status >= 400), else null. */
  error: string | null;
}

/** SCIM tokens, setup links and the activity record of each directory (the setup page's data). */
export interface AccessStore {
  /** `resource`: a user or group to read with it (the one a SCIM request names: one round trip, not two). */
  getDirectoryAccess(id: string, resource?: ResourceRef): Promise<DirectoryAccess | null>;
  /** Replaces the token list if it is still at `revision` (compare-and-set); `missing` once the directory is gone. */
  putScimTokens(directoryId: string, revision: string, tokens: StoredScimToken[]): Promise<'ok' | 'stale' | 'missing'>;
  /** When each token was last used (epoch ms), as recorded: coarse, written off the request path. */
  scimTokenUsage(directoryId: string): Promise<Record<string, number>>;
  /** Records use times (a later time wins); `forget` drops the entries of revoked tokens. */
  recordScimTokenUsage(directoryId: string, usage: Record<string, number>, forget?: string[]): Promise<void>;
  /**
   * Saves a link (new or changed) while the directory exists; found by its hash until `keepUntil` (epoch ms), so a
   * revoked or expired link can still be told from an unknown one. `drop`: links to forget (long expired).
   * `maxOpen`: a new link is saved only if the directory has fewer working links (neither revoked nor expired),
   * checked and saved in one atomic step, else `full`.
   */
  putSetupLink(
    link: StoredSetupLink,
    keepUntil: number,
    drop?: StoredSetupLink[],
    maxOpen?: number,
  ): Promise<'saved' | 'missing' | 'full'>;
  findSetupLink(hash: string): Promise<StoredSetupLink | null>;
  listSetupLinks(directoryId: string): Promise<StoredSetupLink[]>;
  /**
   * Appends entries (oldest first), keeps the newest `keep`, and lets the record expire `ttlMs` after the last
   * write; `lastRequestAt` (the newest authenticated request among them, or null) moves `last_request_at`.
   */
  appendActivity(
    directoryId: string,
    entries: ActivityEntry[],
    keep: number,
    ttlMs: number,
    lastRequestAt: string | null,
  ): Promise<void>;
  /** Newest first, at most `limit`; `last_request_at` outlives the entries. */
  readActivity(
    directoryId: string,
    limit: number,
  ): Promise<{ last_request_at: string | null; recent: ActivityEntry[] }>;
}

/**
 * Background runs of a pull sync (a provider's cron route with `Prefer: respond-async`), shared by every process:
 * at most one run going per scope (a provider and its filter), and each run's record, readable anywhere.
 */
export interface SyncRunStore {
  /** Makes `runId` the run going for `scope` for `ttlMs`, unless one already is: answers the id of the run going. */
  claimSyncRun(scope: string, runId: string, ttlMs: number): Promise<string>;
  /** The id of the run going for `scope`, or null. */
  currentSyncRun(scope: string): Promise<string | null>;
  /** Extends the claim only while `runId` still holds it; false = it was lost. */
  renewSyncRun(scope: string, runId: string, ttlMs: number): Promise<boolean>;
  releaseSyncRun(scope: string, runId: string): Promise<void>;
  /** Saves a run's record (JSON), kept `ttlMs` from now. */
  putSyncRun(runId: string, json: string, ttlMs: number): Promise<void>;
  getSyncRun(runId: string): Promise<string | null>;
}

/** A master's replicas as durability counts them (readiness): those in sync now, the wanted and the minimum. */
export interface ShardReplication {
  /** `host:port` of the master. */
  master: string;
  inSync: number;
  wanted: number;
  minimum: number;
}

export interface Store
  extends DirectoryStore,
    UserStore,
    GroupStore,
    EventLogStore,
    DeliveryStore,
    DeliveryRecordStore,
    PullSyncStore,
    OneTimeStore,
    AccessStore,
    SyncRunStore {
  readonly kind: 'memory' | 'redis';
  /** Resolves when the backing store answers (readiness). */
  ping(): Promise<void>;
  /**
   * Each master's replicas in sync against DSYNC_REDIS_WAIT/MIN_REPLICAS; [] when writes wait for none (memory, WAIT
   * off).
   */
  replication(): Promise<ShardReplication[]>;
  close(): Promise<void>;
}
