/**
 * The Redis store's access side (AccessStore). Per directory, under its hash tag:
 *   dsync:{d}:tok       the SCIM token list (JSON; the string itself is the compare-and-set revision)
 *   dsync:{d}:tokuse    when each token was last used (HASH id → epoch ms)
 *   dsync:{d}:links     its setup links (HASH id → JSON)
 *   dsync:{d}:act       the activity record (LIST of JSON, newest first, capped, expiring)
 *   dsync:{d}:actlast   the last request's time (outlives the record)
 * and one global key per setup link, dsync:setup:<hash> (JSON, expiring), by which a link's URL is resolved.
 */
import type { Directory } from '../../core/model.js';
import type {
  ActivityEntry,
  AccessStore,
  DirectoryAccess,
  ResourceRef,
  StoredScimToken,
  StoredSetupLink,
} from '../../core/store-port.js';
import { failFast } from './fail-fast.js';
import type { RedisStoreOptions } from './connection.js';
import { sendFlat } from './flat-command.js';
import { prefix } from './keys.js';
import { decode } from './records.js';
import { ACCESS_COMMANDS } from './lua/access.js';
import { RedisPullSyncStore } from './pull-sync.js';
import type { RedisTarget } from './target.js';

export const setupLinkKey = (hash: string): string => `dsync:setup:${hash}`;

/** A directory's record and token list as last parsed, with the texts they were parsed from. */
interface ParsedAccess {
  dir: string;
  tok: string | null;
  directory: Directory;
  tokens: StoredScimToken[];
}

/** Past this many directories the parsed records start over (a few KB each). */
const MAX_PARSED = 10_000;

/** A parsed JSON value made read-only all the way down: one copy is handed to every request that read its text. */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) frozen(v);
    Object.freeze(value);
  }
  return value;
}

/** The directory's access keys, for its cascade delete (the links' global keys go through `dropSetupLinks`). */
export const accessKeys = (directoryId: string): string[] =>
  ['tok', 'tokuse', 'links', 'act', 'actlast'].map((k) => `${prefix(directoryId)}${k}`);

export class RedisAccessStore extends RedisPullSyncStore implements AccessStore {
  /**
   * Every SCIM request reads its directory's record and token list, and they seldom change: each is parsed once
   * per text and the frozen result shared by the requests that read the same text (compared whole, so a change
   * written by any replica is seen by the next request).
   */
  private readonly parsed = new Map<string, ParsedAccess>();

  constructor(target: string | RedisTarget, options: RedisStoreOptions = {}) {
    super(target, options);
    this.defineCommands(ACCESS_COMMANDS);
  }

  async getDirectoryAccess(id: string, resource?: ResourceRef): Promise<DirectoryAccess | null> {
    const p = prefix(id);
    const keys = [`${p}dir`, `${p}tok`];
    if (resource) keys.push(`${p}${resource.kind === 'user' ? 'u' : 'g'}:${resource.id}`);
    const [dir, tok, rec] = (await sendFlat(this.redis, 'mget', keys)) as Array<string | null>;
    if (!dir) {
      // Deleted (by any replica): its parsed record, secret included, is not kept either.
      this.parsed.delete(id);
      return null;
    }
    const { directory, tokens } = this.parsedAccess(id, dir, tok ?? null);
    const access: DirectoryAccess = { directory, tokens, tokensRevision: tok ?? '' };
    if (resource) access.resource = rec ? decode(resource.id, rec) : null;
    return access;
  }

  private parsedAccess(id: string, dir: string, tok: string | null): ParsedAccess {
    const last = this.parsed.get(id);
    if (last && last.dir === dir && last.tok === tok) return last;
    const directory = last?.dir === dir ? last.directory : frozen(JSON.parse(dir) as Directory);
    const tokens = last && last.tok === tok ? last.tokens : frozen(tok ? (JSON.parse(tok) as StoredScimToken[]) : []);
    if (!last && this.parsed.size >= MAX_PARSED) this.parsed.clear();
    const entry = { dir, tok, directory, tokens };
    this.parsed.set(id, entry);
    return entry;
  }
  async putScimTokens(
    directoryId: string,
    revision: string,
    tokens: StoredScimToken[],
  ): Promise<'ok' | 'stale' | 'missing'> {
    const p = prefix(directoryId);
    const next = tokens.length > 0 ? JSON.stringify(tokens) : '';
    return (await this.command('dsyncPutTokens', `${p}dir`, `${p}tok`, revision, next)) as 'ok' | 'stale' | 'missing';
  }
  async scimTokenUsage(directoryId: string): Promise<Record<string, number>> {
    const raw = await this.redis.hgetall(`${prefix(directoryId)}tokuse`);
    return Object.fromEntries(Object.entries(raw).map(([id, at]) => [id, Number(at)]));
  }
  async recordScimTokenUsage(directoryId: string, usage: Record<string, number>, forget: string[] = []): Promise<void> {
    const p = prefix(directoryId);
    const pairs = Object.entries(usage).flatMap(([id, at]) => [id, String(at)]);
    await this.command('dsyncRecordUsage', `${p}dir`, `${p}tokuse`, pairs.length / 2, ...pairs, ...forget);
  }

  async putSetupLink(
    link: StoredSetupLink,
    keepUntil: number,
    drop: StoredSetupLink[] = [],
    maxOpen?: number,
  ): Promise<'saved' | 'missing' | 'full'> {
    const p = prefix(link.directory_id);
    const json = JSON.stringify(link);
    const bound = maxOpen === undefined ? '' : String(maxOpen);
    const answer = await this.command(
      'dsyncPutLink',
      `${p}dir`,
      `${p}links`,
      link.id,
      json,
      bound,
      new Date().toISOString(),
      ...drop.map((d) => d.id),
    );
    if (answer !== 1) return answer === 2 ? 'full' : 'missing';
    // The global key is what resolves the URL: written after the directory's own record of the link, so a
    // revocation that answered has taken effect (a failure here fails the call, and the caller retries).
    await this.redis.set(setupLinkKey(link.hash), json, 'PXAT', keepUntil);
    if (drop.length > 0) await this.redis.del(...drop.map((d) => setupLinkKey(d.hash)));
    return 'saved';
  }
  async findSetupLink(hash: string): Promise<StoredSetupLink | null> {
    const json = await this.redis.get(setupLinkKey(hash));
    return json ? (JSON.parse(json) as StoredSetupLink) : null;
  }
  async listSetupLinks(directoryId: string): Promise<StoredSetupLink[]> {
    return (await this.redis.hvals(`${prefix(directoryId)}links`)).map((json) => JSON.parse(json) as StoredSetupLink);
  }
  /** The cascade delete of a directory: its links stop resolving. */
  protected async dropSetupLinks(directoryId: string): Promise<void> {
    const links = await this.listSetupLinks(directoryId);
    // One key per command: each global key has its own slot on a cluster.
    await Promise.all(links.map((l) => this.redis.del(setupLinkKey(l.hash))));
  }

  async appendActivity(
    directoryId: string,
    entries: ActivityEntry[],
    keep: number,
    ttlMs: number,
    lastRequestAt: string | null,
  ): Promise<void> {
    if (entries.length === 0) return;
    const p = prefix(directoryId);
    await this.command(
      'dsyncAppendActivity',
      `${p}dir`,
      `${p}act`,
      `${p}actlast`,
      keep,
      ttlMs,
      lastRequestAt ?? '',
      ...entries.map((e) => JSON.stringify(e)),
    );
  }
  async readActivity(
    directoryId: string,
    limit: number,
  ): Promise<{ last_request_at: string | null; recent: ActivityEntry[] }> {
    const p = prefix(directoryId);
    const [recent, last] = await Promise.all([
      this.redis.lrange(`${p}act`, 0, limit - 1),
      this.redis.get(`${p}actlast`),
    ]);
    return { last_request_at: last, recent: recent.map((json) => JSON.parse(json) as ActivityEntry) };
  }
}

failFast(RedisAccessStore.prototype);
