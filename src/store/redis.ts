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
 *   dsync:{d}:ev           the directory's event log (STREAM)
 *   dsync:{d}:dlog, dlq    delivery attempt logs and dead letters (STREAMs; ids are `<directoryId>_<entry id>`)
 *   dsync:{d}:lease, dstate   the delivery lease and cursor
 *   dsync:{d}:replay       a pending replay request (ZSET, one member scored by the earliest `since`)
 * and two global indexes: dsync:dirs (ZSET of all directories), dsync:tp:<tenant>:<product> (ZSET).
 */
import { Redis, type RedisOptions } from 'ioredis';
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
  UserIndex,
  WriteResult,
} from './port.js';
import type { CommandObserver } from './command-observer.js';
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

function toWriteResult(reply: unknown): WriteResult {
  const [status, version, modified, flags] = reply as [string, string?, string?, string?];
  if (status === 'ok') {
    return { status, version: Number(version), lastModified: Number(modified), applied: [...(flags ?? '')].map((f) => f === '1') };
  }
  return { status: status as 'conflict' | 'stale' | 'missing' };
}

const userKeyArgs = (keys: UserKeys): string[] => [
  keys.userName.toLowerCase(),
  keys.externalId ?? '',
  keys.emails.map((e) => e.toLowerCase()).join(LIST_SEP),
];
const events = (list: PendingEvent[]): string[] => [String(list.length), ...list.map((e) => e.json)];
const members = (list: MemberChange[]): string[] => [
  String(list.length),
  ...list.flatMap((m) => [m.userId, String(m.userVersion), m.display ?? '', m.event.json]),
];

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

  constructor(url: string, options: RedisOptions = {}) {
    this.redis = new Redis(url, { enableAutoPipelining: true, maxRetriesPerRequest: 3, ...options });
    for (const [name, lua] of Object.entries(SCRIPTS)) this.redis.defineCommand(name, { numberOfKeys: 1, lua });
    this.redis.defineCommand('dsyncReleaseLease', { numberOfKeys: 1, lua: RELEASE_LEASE });
    this.redis.defineCommand('dsyncRenewLease', { numberOfKeys: 1, lua: RENEW_LEASE });
    this.redis.defineCommand('dsyncDisableWebhook', { numberOfKeys: 1, lua: DISABLE_WEBHOOK });
    this.redis.defineCommand('dsyncSaveState', { numberOfKeys: 2, lua: SAVE_STATE });
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

  private script(name: ScriptName, directoryId: string, args: string[]): Promise<WriteResult> {
    const fn = (this.redis as unknown as Record<ScriptName, (...a: string[]) => Promise<unknown>>)[name];
    return fn.call(this.redis, `${prefix(directoryId)}dir`, prefix(directoryId), ...args).then(toWriteResult);
  }

  private async records(directoryId: string, kind: 'u' | 'g', ids: string[]): Promise<Array<StoredResource | null>> {
    if (ids.length === 0) return [];
    const p = prefix(directoryId);
    const recs = await this.redis.mget(ids.map((id) => `${p}${kind}:${id}`));
    return recs.map((rec, i) => (rec === null ? null : decode(ids[i]!, rec)));
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
      ['go', (gid: string) => [`${p}g:${gid}`, `${p}m:${gid}`, `${p}md:${gid}`]],
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
    await this.redis.del(`${p}un`, `${p}ue`, `${p}um`, `${p}gn`, `${p}ge`, `${p}ev`, `${p}lease`, `${p}dstate`, `${p}seq`, `${p}dlog`, `${p}dlq`, `${p}replay`);
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
  userGroupIds(directoryId: string, userId: string): Promise<string[]> {
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
    return this.script('dsyncCreateGroup', directoryId, [
      group.id,
      keys.displayName.toLowerCase(),
      keys.externalId ?? '',
      String(group.created),
      String(group.lastModified),
      JSON.stringify(group.body),
      ...events(evs),
      ...members(memberList),
    ]);
  }
  updateGroup(directoryId: string, id: string, update: GroupUpdate): Promise<WriteResult> {
    const hasBody = update.body !== undefined && update.keys !== undefined;
    return this.script('dsyncUpdateGroup', directoryId, [
      id,
      update.expectedVersion === undefined ? '' : String(update.expectedVersion),
      hasBody ? '1' : '',
      update.keys?.displayName.toLowerCase() ?? '',
      update.keys?.externalId ?? '',
      String(update.now),
      hasBody ? JSON.stringify(update.body) : '',
      update.expectedBody ?? '',
      ...events(update.events),
      ...members(update.remove),
      ...members(update.add),
      String(update.displays?.length ?? 0),
      ...(update.displays ?? []).flatMap((d) => [d.userId, d.display]),
    ]);
  }
  deleteGroup(directoryId: string, id: string, expectedVersion: number, evs: PendingEvent[]): Promise<WriteResult> {
    return this.script('dsyncDeleteGroup', directoryId, [id, String(expectedVersion), ...events(evs)]);
  }
  async memberDisplays(directoryId: string, groupId: string, userIds: string[]): Promise<Array<string | null>> {
    if (userIds.length === 0) return [];
    return this.redis.hmget(`${prefix(directoryId)}md:${groupId}`, ...userIds);
  }
  async groupMemberIds(directoryId: string, groupId: string, offset: number, limit: number): Promise<Page<string>> {
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
    const key = `${prefix(directoryId)}lease`;
    if ((await this.redis.set(key, owner, 'PX', ttlMs, 'NX')) === 'OK') return true;
    // Re-entrant for the holder: extend our own lease.
    return this.renewLease(directoryId, owner, ttlMs);
  }
  async renewLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.command('dsyncRenewLease', `${prefix(directoryId)}lease`, owner, ttlMs)) === 1;
  }
  async releaseLease(directoryId: string, owner: string): Promise<void> {
    await this.command('dsyncReleaseLease', `${prefix(directoryId)}lease`, owner);
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
