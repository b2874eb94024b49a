/**
 * The Redis store's connection: fail-fast options, its Lua commands, command metrics, ping and close. The
 * store's parts (redis-delivery.ts, redis.ts) build on it.
 */
import { Redis, type RedisOptions } from 'ioredis';
import type { CommandObserver } from './command-observer.js';
import { failFast } from './fail-fast.js';

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

/** Compare-and-delete / compare-and-set under a lease (KEYS[1] = lease key). */
const RELEASE_LEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const RENEW_LEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const SAVE_STATE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[2], 'cursor', ARGV[2], 'attempts', ARGV[3], 'pinned', ARGV[4], 'retryAt', ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;
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

/** The store's small commands beside the write scripts of redis-scripts.ts. */
const COMMANDS = {
  dsyncReleaseLease: { keys: 1, lua: RELEASE_LEASE },
  dsyncRenewLease: { keys: 1, lua: RENEW_LEASE },
  dsyncDisableWebhook: { keys: 1, lua: DISABLE_WEBHOOK },
  dsyncSaveState: { keys: 2, lua: SAVE_STATE },
  dsyncPutSyncRecord: { keys: 2, lua: PUT_SYNC_RECORD },
};

export class RedisConnection {
  readonly redis: Redis;

  /** Connection events are logged by `logRedisConnection` (redis-events.ts). */
  constructor(url: string, options: RedisStoreOptions = {}) {
    this.redis = new Redis(url, { enableAutoPipelining: true, ...FAIL_FAST, ...options });
    // Queue commands only until the first connection: a service starting beside its Redis waits for it, while
    // an outage later fails each command at once (503) instead of piling requests up behind a reconnect.
    this.redis.once('ready', () => {
      this.redis.options.enableOfflineQueue = false;
    });
    for (const [name, { keys, lua }] of Object.entries(COMMANDS)) this.redis.defineCommand(name, { numberOfKeys: keys, lua });
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

  protected command(name: string, ...args: Array<string | number>): Promise<unknown> {
    const fn = (this.redis as unknown as Record<string, (...a: Array<string | number>) => Promise<unknown>>)[name]!;
    return fn.call(this.redis, ...args);
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }
  async close(): Promise<void> {
    await this.redis.quit();
  }
}

failFast(RedisConnection.prototype);
