/**
 * Locks behind the inflight rules: one holder per key, with an expiry so the lock of a process that died
 * (killed mid-request) frees itself; a live holder renews it (a long write, such as a 200,000-member group,
 * keeps its lock). Only the holder releases or renews (token compare), so a lock that expired and was taken by
 * another request is never touched by the first one.
 */
import { createHash, randomUUID } from 'node:crypto';

export interface InflightLocks {
  /** The holder's token, or undefined when the key is held. */
  acquire(key: string, ttlMs: number): Promise<string | undefined>;
  release(key: string, token: string): Promise<void>;
  /** Pushes the expiry of a lock still held by `token` to `ttlMs` from now. */
  renew(key: string, token: string, ttlMs: number): Promise<void>;
}

/** Keys are hashed: the path is client-chosen and may be long; the hash bounds the Redis key. */
const redisKey = (key: string): string =>
  `dsync:inflight:${createHash('sha256').update(key).digest('base64url').slice(0, 32)}`;

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

interface LockRedis {
  set(key: string, value: string, px: 'PX', ttl: number, nx: 'NX'): Promise<string | null>;
  eval(script: string, numKeys: number, ...args: string[]): Promise<unknown>;
}

/** `SET key token NX PX ttl`; release by a compare-and-delete script. Shared by every replica on that Redis. */
export class RedisInflightLocks implements InflightLocks {
  constructor(private readonly redis: object) {}

  private get client(): LockRedis {
    return this.redis as LockRedis;
  }

  async acquire(key: string, ttlMs: number): Promise<string | undefined> {
    const token = randomUUID();
    const reply = await this.client.set(redisKey(key), token, 'PX', ttlMs, 'NX');
    return reply === 'OK' ? token : undefined;
  }

  async release(key: string, token: string): Promise<void> {
    await this.client.eval(RELEASE, 1, redisKey(key), token);
  }

  async renew(key: string, token: string, ttlMs: number): Promise<void> {
    await this.client.eval(RENEW, 1, redisKey(key), token, String(ttlMs));
  }
}

/** The same in this process: for the embedded memory store, and while Redis is unreachable. */
export class MemoryInflightLocks implements InflightLocks {
  private readonly held = new Map<string, { token: string; expiresAt: number }>();

  async acquire(key: string, ttlMs: number): Promise<string | undefined> {
    const now = Date.now();
    const current = this.held.get(key);
    if (current && current.expiresAt > now) return undefined;
    const token = randomUUID();
    this.held.set(key, { token, expiresAt: now + ttlMs });
    return token;
  }

  async release(key: string, token: string): Promise<void> {
    if (this.held.get(key)?.token === token) this.held.delete(key);
  }

  async renew(key: string, token: string, ttlMs: number): Promise<void> {
    const current = this.held.get(key);
    if (current?.token === token) current.expiresAt = Date.now() + ttlMs;
  }
}

/**
 * Redis locks that fall back to this process's locks when Redis fails, so an outage keeps concurrent writes
 * apart on each replica instead of failing the request (503) or letting everything through.
 */
export class InsuredInflightLocks implements InflightLocks {
  private readonly local = new MemoryInflightLocks();
  /** Tokens handed out by the local locks, so their release goes back to them. */
  private readonly localTokens = new Set<string>();

  constructor(
    private readonly redis: RedisInflightLocks,
    private readonly onLocalFallback: (err: unknown) => void,
  ) {}

  async acquire(key: string, ttlMs: number): Promise<string | undefined> {
    try {
      return await this.redis.acquire(key, ttlMs);
    } catch (err) {
      this.onLocalFallback(err);
      const token = await this.local.acquire(key, ttlMs);
      if (token) this.localTokens.add(token);
      return token;
    }
  }

  async release(key: string, token: string): Promise<void> {
    if (this.localTokens.delete(token)) return this.local.release(key, token);
    // A failed release leaves the lock to its expiry, which is what expiry is for.
    await this.redis.release(key, token).catch(() => undefined);
  }

  async renew(key: string, token: string, ttlMs: number): Promise<void> {
    if (this.localTokens.has(token)) return this.local.renew(key, token, ttlMs);
    // A failed renewal lets the lock expire: advisory, like every lock on one Redis.
    await this.redis.renew(key, token, ttlMs).catch(() => undefined);
  }
}
