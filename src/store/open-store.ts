/**
 * The one place a process builds its store adapter: Redis with fail-fast options (DSYNC_REDIS_COMMAND_TIMEOUT),
 * command metrics and connection logs, the same for `dsync serve`, the cron jobs and the operator; or the
 * in-memory store when no Redis is configured (`dsync serve` alone).
 */
import type { Store } from '../core/store-port.js';
import type { Logger } from '../logger.js';
import type { CommandObserver } from './command-observer.js';
import { MemoryStore } from './memory.js';
import { RedisStore } from './redis.js';
import { logRedisConnection } from './redis-events.js';

export interface OpenStoreOptions {
  commandTimeoutMs?: number | undefined;
  logger: Logger;
  observe: CommandObserver;
}

export function openRedisStore(url: string, o: OpenStoreOptions): RedisStore {
  const store = new RedisStore(url, o.commandTimeoutMs === undefined ? {} : { commandTimeout: o.commandTimeoutMs });
  store.observeCommands(o.observe);
  logRedisConnection(store, o.logger);
  return store;
}

/** Redis when `redisUrl` is set, else the embedded memory store (with a warning: its data dies with the process). */
export function openStore(redisUrl: string | undefined, o: OpenStoreOptions): Store {
  if (redisUrl) return openRedisStore(redisUrl, o);
  o.logger.warn('REDIS_URL is not set: using the embedded in-memory store; all data is lost when the process exits');
  return new MemoryStore();
}

/** The Redis client a store runs on, for what shares it (rate-limit counters, inflight locks); undefined = memory. */
export function redisClientOf(store: Store): RedisStore['redis'] | undefined {
  return store instanceof RedisStore ? store.redis : undefined;
}
