/**
 * Runs the Redis store's write scripts (lua/) with the keys they touch declared (lua/keys.ts,
 * plus those a script asks for): a write that finds membership work of its directory still pending finishes it
 * first, and a group write too big for one script call is staged in chunks, committed atomically as a journal
 * and drained a chunk per call.
 */
import { createHash, randomUUID } from 'node:crypto';
import { CHUNK_SIZE } from '../../core/chunks.js';
import { storeBuilt } from '../../core/events.js';
import type { PendingEvent, StoreBuiltEvent } from '../../core/model.js';
import type { GroupWriteResult, MemberChange, WriteResult } from '../../core/store-port.js';
import type { RedisClient } from './client.js';
import { sendFlat } from './flat-command.js';
import { prefix } from './keys.js';
import { SCRIPT_KEYS, stageKey } from './lua/keys.js';
import { FIELD_SEP } from './lua/prelude.js';
import { SCRIPTS, type ScriptName } from './lua/scripts.js';

type Reply = [string, ...string[]];
const flagsOf = (flags: string): boolean[] => Array.from(flags, (f) => f === '1');

function toWriteResult(reply: Reply): WriteResult {
  const [status, version, modified, flags] = reply as [string, string?, string?, string?];
  if (status === 'ok')
    return { status, version: Number(version), lastModified: Number(modified), applied: flagsOf(flags ?? '') };
  return { status: status as 'conflict' | 'stale' | 'missing' };
}

/**
 * Membership entries as lua/memberships.ts describes them (removals, additions, then displays), encoded a slice at
 * a time: the encoded copy of a 200,000-member change never sits in memory whole.
 */
export class MemberEntries {
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

  /** The users whose membership the entries of a slice change (the keys their script touches). */
  users(from: number, to: number): string[] {
    const out: string[] = [];
    const changes = this.remove.length + this.add.length;
    for (let i = from; i < Math.min(to, changes); i++)
      out.push((this.remove[i] ?? this.add[i - this.remove.length]!).userId);
    return out;
  }

  /**
   * What the script needs to build the events when the writer left them to the store (`StoreBuiltEvent`): the
   * removal and addition middles and the group; undefined when the writer built them.
   */
  template(): [removed: string, added: string, group: string] | undefined {
    const [removed, added] = [this.remove[0]?.event, this.add[0]?.event];
    const built = removed ?? added;
    if (!storeBuilt(built)) return undefined;
    const of = (e: PendingEvent | StoreBuiltEvent | undefined) => (storeBuilt(e) ? e.template.middle : '');
    return [of(removed), of(added), built.template.groupJson];
  }

  private encode(i: number): string {
    const S = FIELD_SEP;
    // A store-built event travels as its id (no user version: the script builds it from the record it holds).
    const event = (m: MemberChange) =>
      storeBuilt(m.event) ? `${S}${m.event.id}` : `${m.userVersion}${S}${m.event.json}`;
    if (i < this.remove.length) {
      const m = this.remove[i]!;
      return `-${m.userId}${S}${event(m)}${S}`;
    }
    i -= this.remove.length;
    if (i < this.add.length) {
      const m = this.add[i]!;
      return `+${m.userId}${S}${event(m)}${S}${m.display ?? ''}`;
    }
    const d = this.displays[i - this.add.length]!;
    return `=${d.userId}${S}${S}${S}${d.display}`;
  }
}

const SHA1 = Object.fromEntries(
  Object.entries(SCRIPTS).map(([name, lua]) => [name, createHash('sha1').update(lua).digest('hex')]),
) as Record<ScriptName, string>;
const isNoScript = (err: unknown): boolean => err instanceof Error && err.message.startsWith('NOSCRIPT');

/**
 * EVALSHA's arguments: the script, its key count, the keys (the directory record first), `args`. A key may be
 * declared twice (one a script asked for again): Redis and the scripts' guard take it as one, and deduplicating
 * here cost more than the rest of the call (docs/design/performance.md, "ioredis' `args.flat()` and a Set of keys").
 */
function scriptCall(script: string, p: string, keys: string[], args: string[]): string[] {
  const call = [script, String(keys.length + 1), `${p}dir`];
  for (const key of keys) call.push(p + key);
  for (const arg of args) call.push(arg);
  return call;
}

/** A staging list outlives any sane write but not a crashed one. */
const STAGE_TTL_MS = 15 * 60_000;
/** Re-checks of a staged change while users keep being written, before the write re-runs from a fresh read. */
const MAX_RESTAMPS = 5;

export class RedisWriteScripts {
  constructor(private readonly redis: RedisClient) {}

  /**
   * One script call, the directory record and `keys` (names after the directory prefix) declared;
   * `keys` and `args` stay bounded (a chunk of entries at most).
   */
  private async raw(name: ScriptName, directoryId: string, keys: string[], args: string[]): Promise<Reply> {
    const call = scriptCall(SHA1[name], prefix(directoryId), keys, args);
    // EVALSHA by name, not an ioredis custom command: with a varying key count, a custom command's first argument
    // is the count, and auto-pipelining on a cluster would group the call by the slot of that number instead of
    // the keys' (ioredis then refuses the batch). EVALSHA's keys are known to ioredis, so it routes by them.
    try {
      return (await sendFlat(this.redis, 'evalsha', call)) as Reply;
    } catch (err) {
      if (!isNoScript(err)) throw err;
      return (await sendFlat(this.redis, 'eval', call.with(0, SCRIPTS[name]))) as Reply; // loads it too
    }
  }

  /**
   * A script call that answers with keys it needs beside `keys` (found in stored data: `{'keys', name…}`) runs
   * again with those declared, until it answers something else.
   */
  private async call(name: ScriptName, directoryId: string, keys: string[], args: string[]): Promise<Reply> {
    let found: string[] = [];
    for (;;) {
      const reply = await this.raw(name, directoryId, [...keys, ...found], args);
      if (reply[0] !== 'keys') return reply;
      found = reply.slice(1);
    }
  }

  /**
   * A write script; `busy` (memberships of the group, or of any group for user writes, still being applied) drains
   * first.
   */
  async run(
    name: ScriptName,
    directoryId: string,
    keys: string[],
    args: string[],
    groupId?: string,
  ): Promise<WriteResult> {
    return toWriteResult(await this.settled(name, directoryId, keys, args, groupId));
  }

  /** The reply of a write script once no membership work it waits for is pending (see run). */
  private async settled(
    name: ScriptName,
    directoryId: string,
    keys: string[],
    args: string[],
    groupId?: string,
  ): Promise<Reply> {
    for (;;) {
      const reply = await this.call(name, directoryId, keys, args);
      if (reply[0] !== 'busy') return reply;
      await this.finishMemberships(directoryId, groupId);
    }
  }

  /**
   * Applies the journal (or the unlinking after a delete) of one group to the end, a chunk per call: each call
   * is one bounded, atomic chunk; other clients' commands run in between. The writer of the change (`own`)
   * declares each chunk's keys from its entries; anyone else (or the writer, once another drainer took a chunk)
   * is told them by the previous call. Every read of a group's members comes here first: with neither list (the
   * group is pending exactly while one exists) one plain EXISTS answers, lighter than the script.
   */
  async drain(directoryId: string, groupId: string, own?: { token: string; entries: MemberEntries }): Promise<void> {
    const p = prefix(directoryId);
    if (!own && (await this.redis.exists(`${p}gj:${groupId}`, `${p}gx:${groupId}`)) === 0) return;
    let found: string[] = [];
    for (let i = 0; ; i += CHUNK_SIZE) {
      const chunk = own ? SCRIPT_KEYS.journalChunk(own.token, own.entries.users(i, i + CHUNK_SIZE)) : found;
      const reply = await this.raw(
        'dsyncDrain',
        directoryId,
        [...SCRIPT_KEYS.drain(groupId), ...chunk],
        [groupId, String(CHUNK_SIZE), own ? '' : '1'],
      );
      if (reply[0] === 'done') return;
      if (reply[0] === 'keys') {
        own = undefined;
        found = reply.slice(1);
      }
    }
  }

  /** Finishes pending membership work of one group, or of every group of the directory. */
  async finishMemberships(directoryId: string, groupId?: string): Promise<void> {
    const groups = groupId === undefined ? await this.redis.smembers(`${prefix(directoryId)}gpend`) : [groupId];
    for (const gid of groups) await this.drain(directoryId, gid);
  }

  /**
   * A group write with membership entries: inline when they fit one chunk, otherwise staged in chunks, committed
   * atomically as a journal and drained (see lua/memberships.ts). `head` is the script's ARGV before the
   * members, `keys` the keys it declares besides those of the members.
   */
  async groupWrite(
    name: 'dsyncCreateGroup' | 'dsyncUpdateGroup',
    directoryId: string,
    groupId: string,
    head: { keys: string[]; args: string[] },
    entries: MemberEntries,
  ): Promise<GroupWriteResult> {
    const template = entries.template();
    if (entries.count <= CHUNK_SIZE) {
      const keys = [...head.keys, ...SCRIPT_KEYS.inlineMembers(groupId, entries.users(0, CHUNK_SIZE))];
      const mode = template ? ['b', ...template] : ['i'];
      const reply = await this.settled(
        name,
        directoryId,
        keys,
        [...head.args, ...mode, String(entries.count), ...entries.slice(0, CHUNK_SIZE)],
        groupId,
      );
      return reply[0] === 'unbuilt' ? { status: 'unbuilt' } : toWriteResult(reply);
    }
    // Staged changes carry their events (a journal is applied a chunk per call, long after the users were read).
    if (template) return { status: 'unbuilt' };
    for (;;) {
      const staged = await this.stage(directoryId, groupId, entries);
      if (typeof staged === 'string') return { status: staged };
      let reply: Reply = ['unknown'];
      const keys = [...head.keys, ...SCRIPT_KEYS.stagedMembers(groupId, staged.token)];
      const commit = () => this.call(name, directoryId, keys, [...head.args, 's', staged.token, staged.stamp]);
      try {
        reply = await commit();
        // Users were written meanwhile (other users, mostly): re-check the staged versions instead of re-staging.
        for (let i = 0; reply[0] === 'restamp' && i < MAX_RESTAMPS; i++) {
          const stamp = await this.verify(directoryId, groupId, staged.token, entries);
          if (stamp === 'stale' || stamp === 'missing') reply = [stamp];
          else {
            staged.stamp = stamp;
            reply = await commit();
          }
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
      await this.drain(directoryId, groupId, { token: staged.token, entries });
      const flags = await this.redis.getdel(`${prefix(directoryId)}gf:${staged.token}`);
      return { ...result, applied: flagsOf(flags ?? '') };
    }
  }

  /** Re-checks the user versions of a staged list a chunk per call; the stamp to commit with, or why not. */
  private async verify(
    directoryId: string,
    groupId: string,
    token: string,
    entries: MemberEntries,
  ): Promise<string | 'stale' | 'missing'> {
    let stamp: string | undefined;
    for (let i = 0; i < entries.count; i += CHUNK_SIZE) {
      const keys = SCRIPT_KEYS.stage(groupId, token, entries.users(i, i + CHUNK_SIZE));
      const [status, uw] = await this.raw('dsyncVerify', directoryId, keys, [
        groupId,
        token,
        String(i),
        String(CHUNK_SIZE),
      ]);
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
    const key = prefix(directoryId) + stageKey(groupId, token);
    let stamp: string | undefined;
    try {
      for (let i = 0; i < entries.count; i += CHUNK_SIZE) {
        const keys = SCRIPT_KEYS.stage(groupId, token, entries.users(i, i + CHUNK_SIZE));
        const args = [groupId, token, String(STAGE_TTL_MS), ...entries.slice(i, i + CHUNK_SIZE)];
        const [status, count] = await this.raw('dsyncStage', directoryId, keys, args);
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
}
