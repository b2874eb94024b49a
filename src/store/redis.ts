/**
 * Redis adapter (ioredis). Key layout, all of one directory under the hash tag `{<directoryId>}`:
 *   dsync:{d}:dir          directory record (JSON)
 *   dsync:{d}:u:<id>       user record (see redis-scripts.ts for the encoding)
 *   dsync:{d}:uo           users ordered by creation (ZSET, paging)
 *   dsync:{d}:un|ue|um     userName (unique) / externalId / email indexes (HASH)
 *   dsync:{d}:g:<id>, go, gn, ge   the same for groups (gn = displayName, unique)
 *   dsync:{d}:m:<gid>      members of a group (ZSET in the order added)
 *   dsync:{d}:md:<gid>     the `display` a client sent for a member (HASH)
 *   dsync:{d}:seq          insertion counter giving the ZSET scores
 *   dsync:{d}:ug:<uid>     groups of a user (SET)
 *   dsync:{d}:gs:<gid>:<token>, gj:<gid>, gt:<gid>, gf:<token>, gx:<gid>, gpend, uw   big membership changes:
 *                          staging list, journal, its token and applied flags, members of a deleted group still
 *                          to unlink, groups with such work, user-write counter (see redis-scripts.ts)
 *   dsync:{d}:ev           the directory's event log (STREAM)
 *   dsync:{d}:dlog, dlq    delivery attempt logs and dead letters (STREAMs; ids are `<directoryId>_<entry id>`)
 *   dsync:{d}:lease, dstate   the delivery lease and cursor
 *   dsync:{d}:slease, sr:<name>   the pull sync's lease and its small records (status, service-account key)
 *   dsync:{d}:replay       a pending replay request (ZSET, one member scored by the earliest `since`)
 * and two global indexes: dsync:dirs (ZSET of all directories), dsync:tp:<tenant>:<product> (ZSET).
 */
import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { CHUNK_SIZE, chunksOf } from '../core/chunks.js';
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
import type { CommandObserver } from './command-observer.js';
import { failFast } from './fail-fast.js';
import { BODY_SEP, FIELD_SEP, LIST_SEP, SCRIPTS, type ScriptName } from './redis-scripts.js';

const prefix = (directoryId: string): string => `dsync:{${directoryId}}:`;
const DIRS = 'dsync:dirs';
const tenantProductKey = (tenant: string, product: string): string => `dsync:tp:${tenant}:${product}`;

function decode(id: string, rec: string): StoredResource {
  const split = rec.indexOf(BODY_SEP);
  const [version, created, modified] = rec.slice(0, split).split(FIELD_SEP);
  return {
    id,
    body: JSON.parse(rec.slice(split + 1)) as StoredResource['body'],
    version: Number(version),
    created: Number(created),
    lastModified: Number(modified),
  };
}

type Reply = [string, string?, string?, string?];
const flagsOf = (flags: string): boolean[] => Array.from(flags, (f) => f === '1');

function toWriteResult(reply: Reply): WriteResult {
  const [status, version, modified, flags] = reply;
  if (status === 'ok') return { status, version: Number(version), lastModified: Number(modified), applied: flagsOf(flags ?? '') };
  return { status: status as 'conflict' | 'stale' | 'missing' };
}

const userKeyArgs = (keys: UserKeys): string[] => [
  keys.userName.toLowerCase(),
  keys.externalId ?? '',
  keys.emails.map((e) => e.toLowerCase()).join(LIST_SEP),
];
const events = (list: PendingEvent[]): string[] => [String(list.length), ...list.map((e) => e.json)];
/**
 * Membership entries as redis-scripts.ts describes them (removals, additions, then displays), encoded a slice at
 * a time: the encoded copy of a 200,000-member change never sits in memory whole.
 */
class MemberEntries {
  readonly count: number;
  constructor(
    private readonly remove: MemberChange[],
    private readonly add: MemberChange[],
    private readonly displays: Array<{ userId: string; display: string }> = [],
  ) {
    this.count = remove.length + add.length + displays.length;
  }

  slice(from: number, to: number): string[] {
    const out: string[] = [];
    for (let i = from; i < Math.min(to, this.count); i++) out.push(this.encode(i));
    return out;
  }

  private encode(i: number): string {
    const S = FIELD_SEP;
    if (i < this.remove.length) {
      const m = this.remove[i]!;
      return `-${m.userId}${S}${m.userVersion}${S}${m.event.json}${S}`;
    }
    i -= this.remove.length;
    if (i < this.add.length) {
      const m = this.add[i]!;
      return `+${m.userId}${S}${m.userVersion}${S}${m.event.json}${S}${m.display ?? ''}`;
    }
    const d = this.displays[i - this.add.length]!;
    return `=${d.userId}${S}${S}${S}${d.display}`;
  }
}

/** A staging list outlives any sane write but not a crashed one. */
const STAGE_TTL_MS = 15 * 60_000;
/** Re-checks of a staged change while users keep being written, before the write re-runs from a fresh read. */
const MAX_RESTAMPS = 5;

/**
 * Fail fast when Redis stalls or goes away (see store/fail-fast.ts): no command waits more than
 * `commandTimeout` once sent, and a command caught by a dropped connection is not re-sent after reconnecting
 * (the caller was already told it failed). Auto-pipelining holds a command back while the previous batch is
 * unanswered, so a stalled Redis fails a request within twice the timeout: 500 ms keeps that near a second.
 * A timed-out write may still run later: each is one Lua script with its events, so it lands whole or not at all.
 */
const FAIL_FAST: RedisOptions = { commandTimeout: 500, maxRetriesPerRequest: 1, autoResendUnfulfilledCommands: false };

/** ioredis' own options (e.g. `commandTimeout`), over the fail-fast defaults above. */
export type RedisStoreOptions = RedisOptions;

const CASCADE_BATCH = 500;
const DUE = 'dsync:due';

/** Compare-and-delete / compare-and-set under a lease (KEYS[1] = lease key). */
const RELEASE_LEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
/** Compare-and-set on the directory record (cjson: the record has no arrays, so encoding is faithful). */
const DISABLE_WEBHOOK = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local d = cjson.decode(raw)
if type(d.webhook) ~= 'table' or d.webhook.endpoint ~= ARGV[1] then return 0 end
d.webhook_disabled_at = ARGV[2]
redis.call('SET', KEYS[1], cjson.encode(d))
return 1`;
/** Sets (or, with an empty value, deletes) KEYS[2] only while the directory record KEYS[1] exists. */
const PUT_SYNC_RECORD = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] == '' then redis.call('DEL', KEYS[2]) else redis.call('SET', KEYS[2], ARGV[1]) end
return 1`;
const RENEW_LEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const SAVE_STATE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[2], 'cursor', ARGV[2], 'attempts', ARGV[3], 'pinned', ARGV[4], 'retryAt', ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/** Stream ids are `<ms>-<n>`: compare numerically, part by part. */
function compareSeq(a: string, b: string): number {
  const [am, an] = a.split('-').map(Number) as [number, number];
  const [bm, bn] = b.split('-').map(Number) as [number, number];
  return am - bm || an - bn;
}

/** A stream id Redis accepts: both parts well inside 64 bits. */
const SEQ = /^\d{1,15}-\d{1,15}$/;

export class RedisStore implements Store {
  readonly kind = 'redis' as const;
  readonly redis: Redis;

  /** Connection events are logged by `logRedisConnection` (redis-events.ts). */
  constructor(url: string, options: RedisStoreOptions = {}) {
    this.redis = new Redis(url, { enableAutoPipelining: true, ...FAIL_FAST, ...options });
    // Queue commands only until the first connection: a service starting beside its Redis waits for it, while
    // an outage later fails each command at once (503) instead of piling requests up behind a reconnect.
    this.redis.once('ready', () => {
      this.redis.options.enableOfflineQueue = false;
    });
    for (const [name, lua] of Object.entries(SCRIPTS)) this.redis.defineCommand(name, { numberOfKeys: 1, lua });
    this.redis.defineCommand('dsyncReleaseLease', { numberOfKeys: 1, lua: RELEASE_LEASE });
    this.redis.defineCommand('dsyncRenewLease', { numberOfKeys: 1, lua: RENEW_LEASE });
    this.redis.defineCommand('dsyncDisableWebhook', { numberOfKeys: 1, lua: DISABLE_WEBHOOK });
    this.redis.defineCommand('dsyncSaveState', { numberOfKeys: 2, lua: SAVE_STATE });
    this.redis.defineCommand('dsyncPutSyncRecord', { numberOfKeys: 2, lua: PUT_SYNC_RECORD });
  }

  /**
   * Reports every command (scripts as `evalsha`, pipelined ones included) to `observer` when it settles: the
   * one seam for store metrics (latency, errors), at ioredis' sendCommand.
   */
  observeCommands(observer: CommandObserver): void {
    type Sent = { name: string; promise: Promise<unknown> };
    const redis = this.redis as unknown as { sendCommand(command: Sent, ...rest: unknown[]): unknown };
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = (command: Sent, ...rest: unknown[]) => {
      const started = performance.now();
      const seconds = (): number => (performance.now() - started) / 1000;
      const name = command.name.toLowerCase(); // `call('GET')` and `get()` are one command
      command.promise.then(
        () => observer(name, seconds(), false),
        () => observer(name, seconds(), true),
      );
      return send(command, ...rest);
    };
  }

  private command(name: string, ...args: Array<string | number>): Promise<unknown> {
    const fn = (this.redis as unknown as Record<string, (...a: Array<string | number>) => Promise<unknown>>)[name]!;
    return fn.call(this.redis, ...args);
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }
  async close(): Promise<void> {
    await this.redis.quit();
  }

  /** One script call; `args` stay bounded (a chunk of entries at most), so spreading them is safe. */
  private raw(name: ScriptName, directoryId: string, args: string[]): Promise<Reply> {
    const fn = (this.redis as unknown as Record<ScriptName, (...a: string[]) => Promise<Reply>>)[name];
    return fn.call(this.redis, `${prefix(directoryId)}dir`, prefix(directoryId), ...args);
  }

  /** A write script; `busy` (memberships of the group, or of any group for user writes, still being applied) drains first. */
  private async script(name: ScriptName, directoryId: string, args: string[], groupId?: string): Promise<WriteResult> {
    for (;;) {
      const reply = await this.raw(name, directoryId, args);
      if (reply[0] !== 'busy') return toWriteResult(reply);
      await this.settle(directoryId, groupId);
    }
  }

  /** Applies the journal (or the unlinking after a delete) of one group to the end, a chunk per call. */
  private async drain(directoryId: string, groupId: string): Promise<void> {
    // Each call is one bounded, atomic chunk; other clients' commands run in between.
    let reply: unknown;
    do reply = await this.raw('dsyncDrain', directoryId, [groupId, String(CHUNK_SIZE)]);
    while (reply === 'more');
  }

  /** Finishes pending membership work of one group, or of every group of the directory. */
  private async settle(directoryId: string, groupId?: string): Promise<void> {
    const groups = groupId === undefined ? await this.redis.smembers(`${prefix(directoryId)}gpend`) : [groupId];
    for (const gid of groups) await this.drain(directoryId, gid);
  }

  /**
   * A group write with membership entries: inline when they fit one chunk, otherwise staged in chunks, committed
   * atomically as a journal and drained (see redis-scripts.ts). `head` is the script's ARGV before the members.
   */
  private async groupWrite(
    name: 'dsyncCreateGroup' | 'dsyncUpdateGroup',
    directoryId: string,
    groupId: string,
    head: string[],
    entries: MemberEntries,
  ): Promise<WriteResult> {
    if (entries.count <= CHUNK_SIZE) {
      return this.script(name, directoryId, [...head, 'i', String(entries.count), ...entries.slice(0, CHUNK_SIZE)], groupId);
    }
    for (;;) {
      const staged = await this.stage(directoryId, groupId, entries);
      if (typeof staged === 'string') return { status: staged };
      let reply: Reply = ['unknown'];
      try {
        reply = await this.raw(name, directoryId, [...head, 's', staged.key, staged.token, staged.stamp]);
        // Users were written meanwhile (other users, mostly): re-check the staged versions instead of re-staging.
        for (let i = 0; reply[0] === 'restamp' && i < MAX_RESTAMPS; i++) {
          const stamp = await this.verify(directoryId, staged.key, entries.count);
          if (stamp === 'stale' || stamp === 'missing') reply = [stamp];
          else reply = await this.raw(name, directoryId, [...head, 's', staged.key, staged.token, (staged.stamp = stamp)]);
        }
        if (reply[0] === 'restamp') reply = ['stale'];
      } finally {
        // Not committed (or unknown, when a command failed): drop the staged list now rather than let a retrying
        // IdP pile up lists until they expire. Commands on one connection run in order, so after a commit that
        // the reply was lost for, the list was already renamed away and this deletes nothing.
        if (reply[0] !== 'ok') await this.redis.del(staged.key).catch(() => undefined);
      }
      if (reply[0] === 'busy') {
        await this.drain(directoryId, groupId);
        continue;
      }
      const result = toWriteResult(reply);
      if (result.status !== 'ok') return result;
      await this.drain(directoryId, groupId);
      const flags = await this.redis.getdel(`${prefix(directoryId)}gf:${staged.token}`);
      return { ...result, applied: flagsOf(flags ?? '') };
    }
  }

  /** Re-checks the user versions of a staged list a chunk per call; the stamp to commit with, or why not. */
  private async verify(directoryId: string, key: string, count: number): Promise<string | 'stale' | 'missing'> {
    let stamp: string | undefined;
    for (let i = 0; i < count; i += CHUNK_SIZE) {
      const [status, uw] = await this.raw('dsyncVerify', directoryId, [key, String(i), String(CHUNK_SIZE)]);
      if (status !== 'ok') return status as 'stale' | 'missing';
      stamp ??= uw!;
    }
    return stamp!;
  }

  /** Stages entries a chunk per call into an expiring list; `stamp` is the user-write count the commit checks. */
  private async stage(
    directoryId: string,
    groupId: string,
    entries: MemberEntries,
  ): Promise<{ key: string; token: string; stamp: string } | 'stale' | 'missing'> {
    const token = randomUUID();
    const key = `${prefix(directoryId)}gs:${groupId}:${token}`;
    let stamp: string | undefined;
    try {
      for (let i = 0; i < entries.count; i += CHUNK_SIZE) {
        const [status, count] = await this.raw('dsyncStage', directoryId, [key, String(STAGE_TTL_MS), ...entries.slice(i, i + CHUNK_SIZE)]);
        if (status !== 'ok') {
          await this.redis.del(key);
          return status as 'stale' | 'missing';
        }
        stamp ??= count!;
      }
    } catch (err) {
      await this.redis.del(key).catch(() => undefined); // a half-staged list is never committed: drop it now
      throw err;
    }
    return { key, token, stamp: stamp! };
  }

  private async records(directoryId: string, kind: 'u' | 'g', ids: string[]): Promise<Array<StoredResource | null>> {
    const p = prefix(directoryId);
    const out: Array<StoredResource | null> = [];
    for (const chunk of chunksOf(ids)) {
      const recs = await this.redis.mget(chunk.map((id) => `${p}${kind}:${id}`));
      recs.forEach((rec, i) => out.push(rec === null ? null : decode(chunk[i]!, rec)));
    }
    return out;
  }

  private async ordered(directoryId: string, kind: 'u' | 'g', offset: number, limit: number): Promise<Page<StoredResource>> {
    const key = `${prefix(directoryId)}${kind}o`;
    const [total, ids] = await Promise.all([
      this.redis.zcard(key),
      limit > 0 ? this.redis.zrange(key, offset, offset + limit - 1) : Promise.resolve([] as string[]),
    ]);
    const items = (await this.records(directoryId, kind, ids)).filter((r): r is StoredResource => r !== null);
    return { total, items };
  }

  private async lookup(directoryId: string, index: string, value: string): Promise<string[]> {
    const ids = await this.redis.hget(`${prefix(directoryId)}${index}`, value);
    return ids ? ids.split(' ') : [];
  }

  // Directories -----------------------------------------------------------------------------------------

  async createDirectory(directory: Directory): Promise<void> {
    const score = Date.parse(directory.created_at);
    await this.redis
      .multi()
      .set(`${prefix(directory.id)}dir`, JSON.stringify(directory))
      .exec();
    // The global indexes live in other slots, so they are written after the record (a crash in between
    // leaves an unlisted directory, never a listed ghost).
    await Promise.all([
      this.redis.zadd(DIRS, score, directory.id),
      this.redis.zadd(tenantProductKey(directory.tenant, directory.product), score, directory.id),
    ]);
  }

  async getDirectory(id: string): Promise<Directory | null> {
    const json = await this.redis.get(`${prefix(id)}dir`);
    return json ? (JSON.parse(json) as Directory) : null;
  }

  private async directoriesById(ids: string[]): Promise<Directory[]> {
    const all = await Promise.all(ids.map((id) => this.getDirectory(id)));
    return all.filter((d): d is Directory => d !== null);
  }

  async listDirectories(filter: { tenant: string; product: string }): Promise<Directory[]> {
    return this.directoriesById(await this.redis.zrange(tenantProductKey(filter.tenant, filter.product), 0, -1));
  }

  async listDirectoryIds(): Promise<string[]> {
    return this.redis.zrange(DIRS, 0, -1);
  }

  async finishPendingWrites(directoryId: string): Promise<void> {
    await this.settle(directoryId);
  }

  async updateDirectory(directory: Directory): Promise<void> {
    await this.redis.set(`${prefix(directory.id)}dir`, JSON.stringify(directory), 'XX');
  }

  async disableWebhook(id: string, endpoint: string, at: string): Promise<boolean> {
    return (await this.command('dsyncDisableWebhook', `${prefix(id)}dir`, endpoint, at)) === 1;
  }

  /**
   * Idempotent: the record goes first (every SCIM write then refuses), then the data in batches. Re-running it
   * after a crash part-way finishes the job even though the record is already gone.
   */
  async deleteDirectory(id: string): Promise<boolean> {
    const directory = await this.getDirectory(id);
    const p = prefix(id);
    await this.redis.del(`${p}dir`);
    await this.redis.zrem(DIRS, id);
    if (directory) await this.redis.zrem(tenantProductKey(directory.tenant, directory.product), id);
    for (const [order, keysOf] of [
      ['uo', (uid: string) => [`${p}u:${uid}`, `${p}ug:${uid}`]],
      ['go', (gid: string) => [`${p}g:${gid}`, `${p}m:${gid}`, `${p}md:${gid}`, `${p}gj:${gid}`, `${p}gt:${gid}`, `${p}gx:${gid}`]],
    ] as const) {
      for (;;) {
        const ids = await this.redis.zrange(`${p}${order}`, 0, CASCADE_BATCH - 1);
        if (ids.length === 0) break;
        await this.redis
          .multi()
          .del(...ids.flatMap(keysOf))
          .zrem(`${p}${order}`, ...ids)
          .exec();
      }
    }
    await this.redis.del(`${p}un`, `${p}ue`, `${p}um`, `${p}gn`, `${p}ge`, `${p}ev`, `${p}lease`, `${p}dstate`, `${p}seq`, `${p}dlog`, `${p}dlq`, `${p}replay`, `${p}gpend`, `${p}uw`, `${p}slease`, `${p}sr:google-sync-status`, `${p}sr:google-service-account`);
    await this.redis.zrem(DUE, id);
    return directory !== null;
  }

  // Users -----------------------------------------------------------------------------------------------

  async getUser(directoryId: string, id: string): Promise<StoredResource | null> {
    const rec = await this.redis.get(`${prefix(directoryId)}u:${id}`);
    return rec === null ? null : decode(id, rec);
  }
  getUsers(directoryId: string, ids: string[]): Promise<Array<StoredResource | null>> {
    return this.records(directoryId, 'u', ids);
  }
  findUserIds(directoryId: string, index: UserIndex, value: string): Promise<string[]> {
    if (index === 'userName') return this.lookup(directoryId, 'un', value.toLowerCase());
    if (index === 'externalId') return this.lookup(directoryId, 'ue', value);
    return this.lookup(directoryId, 'um', value.toLowerCase());
  }
  listUsers(directoryId: string, offset: number, limit: number): Promise<Page<StoredResource>> {
    return this.ordered(directoryId, 'u', offset, limit);
  }
  countUsers(directoryId: string): Promise<number> {
    return this.redis.zcard(`${prefix(directoryId)}uo`);
  }
  createUser(directoryId: string, user: StoredResource, keys: UserKeys, evs: PendingEvent[]): Promise<WriteResult> {
    return this.script('dsyncCreateUser', directoryId, [
      user.id,
      ...userKeyArgs(keys),
      String(user.created),
      String(user.lastModified),
      JSON.stringify(user.body),
      ...events(evs),
    ]);
  }
  updateUser(
    directoryId: string,
    id: string,
    expectedVersion: number,
    body: StoredResource['body'],
    keys: UserKeys,
    evs: PendingEvent[],
    now: number,
  ): Promise<WriteResult> {
    return this.script('dsyncUpdateUser', directoryId, [
      id,
      String(expectedVersion),
      ...userKeyArgs(keys),
      String(now),
      JSON.stringify(body),
      ...events(evs),
    ]);
  }
  deleteUser(
    directoryId: string,
    id: string,
    expectedVersion: number,
    groups: Array<{ id: string; version: number }>,
    evs: PendingEvent[],
    now: number,
  ): Promise<WriteResult> {
    return this.script('dsyncDeleteUser', directoryId, [
      id,
      String(expectedVersion),
      String(now),
      String(groups.length),
      ...groups.flatMap((g) => [g.id, String(g.version)]),
      ...events(evs),
    ]);
  }
  async userGroupIds(directoryId: string, userId: string): Promise<string[]> {
    await this.settle(directoryId);
    return this.redis.smembers(`${prefix(directoryId)}ug:${userId}`);
  }

  // Groups ----------------------------------------------------------------------------------------------

  async getGroup(directoryId: string, id: string): Promise<StoredResource | null> {
    const rec = await this.redis.get(`${prefix(directoryId)}g:${id}`);
    return rec === null ? null : decode(id, rec);
  }
  getGroups(directoryId: string, ids: string[]): Promise<Array<StoredResource | null>> {
    return this.records(directoryId, 'g', ids);
  }
  findGroupIds(directoryId: string, index: GroupIndex, value: string): Promise<string[]> {
    if (index === 'displayName') return this.lookup(directoryId, 'gn', value.toLowerCase());
    return this.lookup(directoryId, 'ge', value);
  }
  listGroups(directoryId: string, offset: number, limit: number): Promise<Page<StoredResource>> {
    return this.ordered(directoryId, 'g', offset, limit);
  }
  countGroups(directoryId: string): Promise<number> {
    return this.redis.zcard(`${prefix(directoryId)}go`);
  }
  createGroup(
    directoryId: string,
    group: StoredResource,
    keys: GroupKeys,
    memberList: MemberChange[],
    evs: PendingEvent[],
  ): Promise<WriteResult> {
    const head = [
      group.id,
      keys.displayName.toLowerCase(),
      keys.externalId ?? '',
      String(group.created),
      String(group.lastModified),
      JSON.stringify(group.body),
      ...events(evs),
    ];
    return this.groupWrite('dsyncCreateGroup', directoryId, group.id, head, new MemberEntries([], memberList));
  }
  updateGroup(directoryId: string, id: string, update: GroupUpdate): Promise<WriteResult> {
    const hasBody = update.body !== undefined && update.keys !== undefined;
    const head = [
      id,
      update.expectedVersion === undefined ? '' : String(update.expectedVersion),
      hasBody ? '1' : '',
      update.keys?.displayName.toLowerCase() ?? '',
      update.keys?.externalId ?? '',
      String(update.now),
      hasBody ? JSON.stringify(update.body) : '',
      update.expectedBody ?? '',
      ...events(update.events),
    ];
    return this.groupWrite('dsyncUpdateGroup', directoryId, id, head, new MemberEntries(update.remove, update.add, update.displays));
  }
  async deleteGroup(directoryId: string, id: string, expectedVersion: number, evs: PendingEvent[]): Promise<WriteResult> {
    const result = await this.script('dsyncDeleteGroup', directoryId, [id, String(expectedVersion), String(CHUNK_SIZE), ...events(evs)], id);
    // A big group's user links are unlinked after the commit; finish that before answering.
    if (result.status === 'ok') await this.drain(directoryId, id);
    return result;
  }
  async memberDisplays(directoryId: string, groupId: string, userIds: string[]): Promise<Array<string | null>> {
    await this.drain(directoryId, groupId);
    const out: Array<string | null> = [];
    for (const chunk of chunksOf(userIds)) for (const d of await this.redis.hmget(`${prefix(directoryId)}md:${groupId}`, ...chunk)) out.push(d);
    return out;
  }
  async groupMemberIds(directoryId: string, groupId: string, offset: number, limit: number): Promise<Page<string>> {
    await this.drain(directoryId, groupId);
    const key = `${prefix(directoryId)}m:${groupId}`;
    const [total, items] = await Promise.all([
      this.redis.zcard(key),
      limit > 0 ? this.redis.zrange(key, offset, offset + limit - 1) : Promise.resolve([] as string[]),
    ]);
    return { total, items };
  }

  // Events ----------------------------------------------------------------------------------------------

  async readEvents(directoryId: string, afterSeq: string | null, limit: number): Promise<LoggedEvent[]> {
    const entries = await this.redis.xrange(
      `${prefix(directoryId)}ev`,
      afterSeq === null ? '-' : `(${afterSeq}`,
      '+',
      'COUNT',
      limit,
    );
    return entries.map(([seq, fields]) => ({ seq, json: fields[1]! }));
  }

  compareSeq(a: string, b: string): number {
    return compareSeq(a, b);
  }
  isSeq(text: string): boolean {
    return SEQ.test(text);
  }

  async lastEventSeq(directoryId: string): Promise<string | null> {
    const [last] = await this.redis.xrevrange(`${prefix(directoryId)}ev`, '+', '-', 'COUNT', 1);
    return last ? last[0] : null;
  }

  async trimEvents(directoryId: string, uptoSeq: string, olderThan: number): Promise<void> {
    // XTRIM MINID drops ids below the bound: the smaller of "just after uptoSeq" and "olderThan ms".
    const [ms, n] = uptoSeq.split('-').map(Number) as [number, number];
    const afterUpto = `${ms}-${n + 1}`;
    const byAge = `${olderThan}-0`;
    const minId = compareSeq(afterUpto, byAge) < 0 ? afterUpto : byAge;
    await this.redis.xtrim(`${prefix(directoryId)}ev`, 'MINID', minId);
  }

  // Delivery --------------------------------------------------------------------------------------------

  async markDue(directoryId: string, at: number): Promise<void> {
    await this.redis.zadd(DUE, 'LT', at, directoryId);
  }
  dueDirectories(now: number, limit: number): Promise<string[]> {
    return this.redis.zrangebyscore(DUE, '-inf', now, 'LIMIT', 0, limit);
  }
  async clearDue(directoryId: string): Promise<void> {
    await this.redis.zrem(DUE, directoryId);
  }
  async acquireLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.takeLease(`${prefix(directoryId)}lease`, owner, ttlMs);
  }
  async renewLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.command('dsyncRenewLease', `${prefix(directoryId)}lease`, owner, ttlMs)) === 1;
  }
  async releaseLease(directoryId: string, owner: string): Promise<void> {
    await this.command('dsyncReleaseLease', `${prefix(directoryId)}lease`, owner);
  }
  private async takeLease(key: string, owner: string, ttlMs: number): Promise<boolean> {
    if ((await this.redis.set(key, owner, 'PX', ttlMs, 'NX')) === 'OK') return true;
    // Re-entrant for the holder: extend our own lease.
    return (await this.command('dsyncRenewLease', key, owner, ttlMs)) === 1;
  }

  // Pull sync ------------------------------------------------------------------------------------------

  async getSyncRecord(directoryId: string, name: SyncRecordName): Promise<string | null> {
    return this.redis.get(`${prefix(directoryId)}sr:${name}`);
  }
  async putSyncRecord(directoryId: string, name: SyncRecordName, json: string | null): Promise<boolean> {
    const p = prefix(directoryId);
    // Only beside a live directory record, so a deleted directory's cascade never leaves a record behind.
    return (await this.command('dsyncPutSyncRecord', `${p}dir`, `${p}sr:${name}`, json ?? '')) === 1;
  }
  async acquireSyncLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean> {
    if ((await this.redis.exists(`${prefix(directoryId)}dir`)) === 0) return false;
    return this.takeLease(`${prefix(directoryId)}slease`, owner, ttlMs);
  }
  async renewSyncLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.command('dsyncRenewLease', `${prefix(directoryId)}slease`, owner, ttlMs)) === 1;
  }
  async releaseSyncLease(directoryId: string, owner: string): Promise<void> {
    await this.command('dsyncReleaseLease', `${prefix(directoryId)}slease`, owner);
  }

  async deliveryState(directoryId: string): Promise<DeliveryState> {
    const h = await this.redis.hgetall(`${prefix(directoryId)}dstate`);
    return { cursor: h.cursor || null, attempts: Number(h.attempts ?? 0), pinned: h.pinned || null, ...(h.retryAt ? { retryAt: Number(h.retryAt) } : {}) };
  }
  async saveDeliveryState(directoryId: string, owner: string, state: DeliveryState, ttlMs: number): Promise<boolean> {
    const p = prefix(directoryId);
    const saved = await this.command(
      'dsyncSaveState',
      `${p}lease`,
      `${p}dstate`,
      owner,
      state.cursor ?? '',
      state.attempts,
      state.pinned ?? '',
      ttlMs,
      state.retryAt ?? '',
    );
    return saved === 1;
  }

  // Delivery logs and dead letters ----------------------------------------------------------------------

  async appendDeliveryLog(directoryId: string, record: Omit<DeliveryLogRecord, 'id'>, olderThan: number): Promise<string> {
    const key = `${prefix(directoryId)}dlog`;
    const entry = await this.redis.xadd(key, 'MINID', '~', `${olderThan}-0`, '*', 'r', JSON.stringify(record));
    return `${directoryId}_${entry}`;
  }
  async listDeliveryLogs(directoryId: string, offset: number, limit: number): Promise<DeliveryLogRecord[]> {
    const entries = await this.redis.xrevrange(`${prefix(directoryId)}dlog`, '+', '-', 'COUNT', offset + limit);
    return entries.slice(offset).map(([entry, fields]) => ({ id: `${directoryId}_${entry}`, ...JSON.parse(fields[1]!) }));
  }
  async getDeliveryLog(directoryId: string, id: string): Promise<DeliveryLogRecord | null> {
    const entry = id.slice(directoryId.length + 1);
    if (!/^\d+-\d+$/.test(entry)) return null;
    const [found] = await this.redis.xrange(`${prefix(directoryId)}dlog`, entry, entry);
    return found ? { id, ...JSON.parse(found[1][1]!) } : null;
  }
  async addDeadLetter(directoryId: string, letter: Omit<DeadLetter, 'id'>): Promise<string> {
    const entry = await this.redis.xadd(`${prefix(directoryId)}dlq`, 'MAXLEN', '~', 10_000, '*', 'l', JSON.stringify(letter));
    return `${directoryId}_${entry}`;
  }
  async listDeadLetters(directoryId: string): Promise<DeadLetter[]> {
    const entries = await this.redis.xrange(`${prefix(directoryId)}dlq`, '-', '+');
    return entries.map(([entry, fields]) => ({ id: `${directoryId}_${entry}`, ...JSON.parse(fields[1]!) }));
  }
  async removeDeadLetter(directoryId: string, id: string): Promise<boolean> {
    const entry = id.slice(directoryId.length + 1);
    if (!/^\d+-\d+$/.test(entry)) return false;
    return (await this.redis.xdel(`${prefix(directoryId)}dlq`, entry)) === 1;
  }
  async seqBefore(directoryId: string, time: number): Promise<string | null> {
    const [last] = await this.redis.xrevrange(`${prefix(directoryId)}ev`, `(${time}-0`, '-', 'COUNT', 1);
    return last ? last[0] : null;
  }
  async requestReplay(directoryId: string, since: number): Promise<void> {
    await this.redis.zadd(`${prefix(directoryId)}replay`, 'LT', since, 'since');
  }
  async takeReplayRequest(directoryId: string): Promise<number | null> {
    const [, score] = await this.redis.zpopmin(`${prefix(directoryId)}replay`);
    return score === undefined ? null : Number(score);
  }
}

failFast(RedisStore.prototype);
