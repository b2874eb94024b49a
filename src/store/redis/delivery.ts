/**
 * The Redis store's event log (a STREAM per directory) and delivery side: due set, leases, cursor, logs, dead letters.
 */
import type { DeadLetter, DeliveryLogRecord, DeliveryState, LoggedEvent } from '../../core/store-port.js';
import { withSequence } from '../../core/event-sequence.js';
import { failFast } from './fail-fast.js';
import { RedisConnection } from './connection.js';
import { sequenceOfId } from './event-ids.js';
import { DUE, prefix } from './keys.js';
import { entryEventJson } from './records.js';

/** Stream ids are `<ms>-<n>`: compare numerically, part by part. */
function compareSeq(a: string, b: string): number {
  const [am, an] = a.split('-').map(Number) as [number, number];
  const [bm, bn] = b.split('-').map(Number) as [number, number];
  return am - bm || an - bn;
}

/** A stream id Redis accepts: both parts well inside 64 bits. */
const SEQ = /^\d{1,15}-\d{1,15}$/;

export class RedisDeliveryStore extends RedisConnection {
  // Events ----------------------------------------------------------------------------------------------

  async readEvents(directoryId: string, afterSeq: string | null, limit: number): Promise<LoggedEvent[]> {
    const entries = await this.redis.xrange(
      `${prefix(directoryId)}ev`,
      afterSeq === null ? '-' : `(${afterSeq}`,
      '+',
      'COUNT',
      limit,
    );
    return entries.map(([seq, fields]) => {
      const stored = entryEventJson(fields);
      return { seq, json: withSequence(stored, sequenceOfId(seq)), stored };
    });
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

  /**
   * The due set is a global key (its own slot on a cluster), so marking is never part of a directory's write
   * script: the engine marks after the commit, and its sweep re-marks every directory whose log is ahead of its
   * cursor, which repairs a mark lost to a crash or a failover in between.
   */
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
    return {
      cursor: h.cursor || null,
      attempts: Number(h.attempts ?? 0),
      pinned: h.pinned || null,
      ...(h.retryAt ? { retryAt: Number(h.retryAt) } : {}),
      ...(h.ahead ? (JSON.parse(h.ahead) as Pick<DeliveryState, 'done' | 'failing'>) : {}),
    };
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
      state.done?.length || state.failing?.length
        ? JSON.stringify({ done: state.done ?? [], failing: state.failing ?? [] })
        : '',
    );
    return saved === 1;
  }

  // Delivery logs and dead letters ----------------------------------------------------------------------

  async appendDeliveryLog(
    directoryId: string,
    record: Omit<DeliveryLogRecord, 'id'>,
    olderThan: number,
  ): Promise<string> {
    const key = `${prefix(directoryId)}dlog`;
    const entry = await this.redis.xadd(key, 'MINID', '~', `${olderThan}-0`, '*', 'r', JSON.stringify(record));
    return `${directoryId}_${entry}`;
  }
  async listDeliveryLogs(directoryId: string, offset: number, limit: number): Promise<DeliveryLogRecord[]> {
    const entries = await this.redis.xrevrange(`${prefix(directoryId)}dlog`, '+', '-', 'COUNT', offset + limit);
    return entries
      .slice(offset)
      .map(([entry, fields]) => ({ id: `${directoryId}_${entry}`, ...JSON.parse(fields[1]!) }));
  }
  async getDeliveryLog(directoryId: string, id: string): Promise<DeliveryLogRecord | null> {
    const entry = id.slice(directoryId.length + 1);
    if (!/^\d+-\d+$/.test(entry)) return null;
    const [found] = await this.redis.xrange(`${prefix(directoryId)}dlog`, entry, entry);
    return found ? { id, ...JSON.parse(found[1][1]!) } : null;
  }
  async addDeadLetter(directoryId: string, letter: Omit<DeadLetter, 'id'>): Promise<string> {
    const entry = await this.redis.xadd(
      `${prefix(directoryId)}dlq`,
      'MAXLEN',
      '~',
      10_000,
      '*',
      'l',
      JSON.stringify(letter),
    );
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
    // Stream ids start at 0-1: nothing is before time 0, and Redis refuses the range `(0-0` (or a negative id).
    if (time <= 0) return null;
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

failFast(RedisDeliveryStore.prototype);
