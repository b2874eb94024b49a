/**
 * The Redis store (ioredis) whole: directories, users and groups here, over its access, pull-sync and delivery
 * parts (access.ts, pull-sync.ts, delivery.ts) and its connection. The keys it writes: keys.ts; the
 * scripts' arguments: script-args.ts; the writes it confirms on replicas: acknowledged-writes.ts.
 */
import { CHUNK_SIZE, chunksOf } from '../../core/chunks.js';
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
  GroupIndex,
  GroupUpdate,
  GroupWriteResult,
  MemberChange,
  Page,
  Store,
  UserIndex,
  WriteResult,
} from '../../core/store-port.js';
import { durableWrites } from './durability.js';
import { failFast } from './fail-fast.js';
import type { RedisStoreOptions } from './connection.js';
import { sendFlat } from './flat-command.js';
import type { RedisTarget } from './target.js';
import { accessKeys, RedisAccessStore } from './access.js';
import { ACKNOWLEDGED } from './acknowledged-writes.js';
import { syncKeys } from './pull-sync.js';
import { DIRS, DUE, prefix, tenantProductKey } from './keys.js';
import { SCRIPT_KEYS } from './lua/keys.js';
import { decode, decodeJson } from './records.js';
import { MemberEntries, RedisWriteScripts } from './script-runner.js';
import { createGroupArgs, eventArgs, updateGroupArgs, userArgs, userKeyArgs } from './script-args.js';

export type { RedisStoreOptions } from './connection.js';

const CASCADE_BATCH = 500;

export class RedisStore extends RedisAccessStore implements Store {
  readonly kind = 'redis' as const;
  readonly buildsMembershipEvents = true;
  private readonly writes: RedisWriteScripts;

  /** `target`: a `redis://` URL (one server) or any RedisTarget (cluster, sentinel). */
  constructor(target: string | RedisTarget, options: RedisStoreOptions = {}) {
    super(target, options);
    this.writes = new RedisWriteScripts(this.redis);
  }

  private async records<T>(
    directoryId: string,
    kind: 'u' | 'g',
    ids: string[],
    read: (id: string, rec: string) => T,
  ): Promise<Array<T | null>> {
    const p = prefix(directoryId);
    const out: Array<T | null> = [];
    for (const chunk of chunksOf(ids)) {
      const recs = (await sendFlat(
        this.redis,
        'mget',
        chunk.map((id) => `${p}${kind}:${id}`),
      )) as Array<string | null>;
      recs.forEach((rec, i) => out.push(rec === null ? null : read(chunk[i]!, rec)));
    }
    return out;
  }

  private async ordered(
    directoryId: string,
    kind: 'u' | 'g',
    offset: number,
    limit: number,
  ): Promise<Page<StoredResource>> {
    const key = `${prefix(directoryId)}${kind}o`;
    const [total, ids] = await Promise.all([
      this.redis.zcard(key),
      limit > 0 ? this.redis.zrange(key, offset, offset + limit - 1) : Promise.resolve([] as string[]),
    ]);
    const items = (await this.records(directoryId, kind, ids, decode)).filter((r): r is StoredResource => r !== null);
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
    // The global indexes live in other slots (other shards of a cluster): no MULTI or script may span them, so
    // they are written after the record, one single-key command each. A crash in between leaves an unlisted
    // record whose create answered an error: nobody holds its id or SCIM secret, so it takes no writes; every
    // id an index lists has (or had) its record, so readers skip an entry whose record is gone (a delete part-way).
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
    await this.writes.finishMemberships(directoryId);
  }

  async updateDirectory(directory: Directory): Promise<void> {
    await this.redis.set(`${prefix(directory.id)}dir`, JSON.stringify(directory), 'XX');
  }

  async disableWebhook(id: string, endpoint: string, at: string): Promise<boolean> {
    return (await this.command('dsyncDisableWebhook', `${prefix(id)}dir`, endpoint, at)) === 1;
  }

  async saveGoogleTokens(
    id: string,
    expectedRefreshToken: string | undefined,
    tokens: { accessToken: string; refreshToken?: string },
    at: string,
  ): Promise<boolean> {
    const args = [expectedRefreshToken ?? '', tokens.accessToken, tokens.refreshToken ?? '', at];
    return (await this.command('dsyncSaveGoogleTokens', `${prefix(id)}dir`, ...args)) === 1;
  }

  /**
   * Idempotent: the record goes first (every SCIM write then refuses), then the global index entries (their own
   * slots, one command each), then the data in batches (the directory's slot). Re-running it after a crash
   * part-way finishes the job even though the record is already gone.
   */
  async deleteDirectory(id: string): Promise<boolean> {
    const directory = await this.getDirectory(id);
    const p = prefix(id);
    await this.dropSetupLinks(id);
    await this.redis.del(`${p}dir`);
    await this.redis.zrem(DIRS, id);
    if (directory) await this.redis.zrem(tenantProductKey(directory.tenant, directory.product), id);
    for (const [order, keysOf] of [
      ['uo', (uid: string) => [`${p}u:${uid}`, `${p}ug:${uid}`]],
      [
        'go',
        (gid: string) => [
          `${p}g:${gid}`,
          `${p}m:${gid}`,
          `${p}md:${gid}`,
          `${p}gj:${gid}`,
          `${p}gt:${gid}`,
          `${p}gx:${gid}`,
        ],
      ],
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
    await this.redis.del(
      `${p}un`,
      `${p}ue`,
      `${p}um`,
      `${p}ur`,
      `${p}gn`,
      `${p}ge`,
      `${p}ev`,
      `${p}evn`,
      `${p}lease`,
      `${p}dstate`,
      `${p}seq`,
      `${p}dlog`,
      `${p}dlq`,
      `${p}replay`,
      `${p}gpend`,
      `${p}uw`,
      ...syncKeys(id),
      ...accessKeys(id),
    );
    await this.redis.zrem(DUE, id);
    return directory !== null;
  }

  // Users -----------------------------------------------------------------------------------------------

  async getUser(directoryId: string, id: string): Promise<StoredResource | null> {
    const rec = await this.redis.get(`${prefix(directoryId)}u:${id}`);
    return rec === null ? null : decode(id, rec);
  }
  getUsers(directoryId: string, ids: string[]): Promise<Array<StoredResource | null>> {
    return this.records(directoryId, 'u', ids, decode);
  }
  getUsersJson(directoryId: string, ids: string[]): Promise<Array<StoredJson | null>> {
    return this.records(directoryId, 'u', ids, decodeJson);
  }
  findUserIds(directoryId: string, index: UserIndex, value: string): Promise<string[]> {
    if (index === 'userName') return this.lookup(directoryId, 'un', value.toLowerCase());
    if (index === 'externalId') return this.lookup(directoryId, 'ue', value);
    if (index === 'managerId') return this.lookup(directoryId, 'ur', value);
    return this.lookup(directoryId, 'um', value.toLowerCase());
  }
  listUsers(directoryId: string, offset: number, limit: number): Promise<Page<StoredResource>> {
    return this.ordered(directoryId, 'u', offset, limit);
  }
  countUsers(directoryId: string): Promise<number> {
    return this.redis.zcard(`${prefix(directoryId)}uo`);
  }
  createUser(
    directoryId: string,
    user: StoredResource,
    keys: UserKeys,
    evs: PendingEvent[],
    json?: UserJson,
  ): Promise<WriteResult> {
    return this.writes.run('dsyncCreateUser', directoryId, SCRIPT_KEYS.createUser(user.id), [
      user.id,
      ...userKeyArgs(keys),
      String(user.created),
      String(user.lastModified),
      ...userArgs(user.id, user.body, keys, json),
      ...eventArgs(evs),
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
    json?: UserJson,
  ): Promise<WriteResult> {
    return this.writes.run('dsyncUpdateUser', directoryId, SCRIPT_KEYS.updateUser(id), [
      id,
      String(expectedVersion),
      ...userKeyArgs(keys),
      String(now),
      ...userArgs(id, body, keys, json),
      ...eventArgs(evs),
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
    const groupIds = groups.map((g) => g.id);
    return this.writes.run('dsyncDeleteUser', directoryId, SCRIPT_KEYS.deleteUser(id, groupIds), [
      id,
      String(expectedVersion),
      String(now),
      String(groups.length),
      ...groups.flatMap((g) => [g.id, String(g.version)]),
      ...eventArgs(evs),
    ]);
  }
  async userGroupIds(directoryId: string, userId: string): Promise<string[]> {
    await this.writes.finishMemberships(directoryId);
    return this.redis.smembers(`${prefix(directoryId)}ug:${userId}`);
  }

  // Groups ----------------------------------------------------------------------------------------------

  async getGroup(directoryId: string, id: string): Promise<StoredResource | null> {
    const rec = await this.redis.get(`${prefix(directoryId)}g:${id}`);
    return rec === null ? null : decode(id, rec);
  }
  getGroups(directoryId: string, ids: string[]): Promise<Array<StoredResource | null>> {
    return this.records(directoryId, 'g', ids, decode);
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
  ): Promise<GroupWriteResult> {
    const args = createGroupArgs(group, keys, evs);
    const head = { keys: SCRIPT_KEYS.createGroup(group.id), args };
    return this.writes.groupWrite('dsyncCreateGroup', directoryId, group.id, head, new MemberEntries([], memberList));
  }
  updateGroup(directoryId: string, id: string, update: GroupUpdate): Promise<GroupWriteResult> {
    const hasBody = update.body !== undefined && update.keys !== undefined;
    const args = updateGroupArgs(id, update, hasBody);
    const head = { keys: SCRIPT_KEYS.updateGroup(id, hasBody), args };
    return this.writes.groupWrite(
      'dsyncUpdateGroup',
      directoryId,
      id,
      head,
      new MemberEntries(update.remove, update.add, update.displays),
    );
  }
  async deleteGroup(
    directoryId: string,
    id: string,
    expectedVersion: number,
    evs: PendingEvent[],
  ): Promise<WriteResult> {
    // Up to a chunk of members are unlinked by the script: it needs their keys, read here (it re-checks them).
    const members = await this.redis.zrange(`${prefix(directoryId)}m:${id}`, 0, CHUNK_SIZE);
    const keys = [
      ...SCRIPT_KEYS.deleteGroup(id),
      ...(members.length > CHUNK_SIZE ? [] : members.map((uid) => `ug:${uid}`)),
    ];
    const args = [id, String(expectedVersion), String(CHUNK_SIZE), ...eventArgs(evs)];
    const result = await this.writes.run('dsyncDeleteGroup', directoryId, keys, args, id);
    // A big group's user links are unlinked after the commit; finish that before answering.
    if (result.status === 'ok') await this.writes.drain(directoryId, id);
    return result;
  }
  async memberDisplays(directoryId: string, groupId: string, userIds: string[]): Promise<Array<string | null>> {
    await this.writes.drain(directoryId, groupId);
    const out: Array<string | null> = [];
    const key = `${prefix(directoryId)}md:${groupId}`;
    for (const chunk of chunksOf(userIds))
      for (const d of (await sendFlat(this.redis, 'hmget', [key, ...chunk])) as Array<string | null>) out.push(d);
    return out;
  }
  async groupMemberIds(directoryId: string, groupId: string, offset: number, limit: number): Promise<Page<string>> {
    await this.writes.drain(directoryId, groupId);
    const key = `${prefix(directoryId)}m:${groupId}`;
    const [total, items] = await Promise.all([
      this.redis.zcard(key),
      limit > 0 ? this.redis.zrange(key, offset, offset + limit - 1) : Promise.resolve([] as string[]),
    ]);
    return { total, items };
  }
}

durableWrites(RedisStore.prototype, ACKNOWLEDGED);
failFast(RedisStore.prototype);
