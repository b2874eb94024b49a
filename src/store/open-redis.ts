/**
 * The one place a process builds its Redis store: fail-fast options (DSYNC_REDIS_COMMAND_TIMEOUT), command
 * metrics and connection logs, the same for `dsync serve`, the cron jobs and the operator.
 */
import type { Store } from '../core/store-port.js';
import type { Logger } from '../logger.js';
import type { CommandObserver } from './command-observer.js';
import { RedisStore } from './redis.js';
import { logRedisConnection } from './redis-events.js';

export function openRedisStore(url: string, o: { commandTimeoutMs?: number | undefined; logger: Logger; observe: CommandObserver }): RedisStore {
  const store = new RedisStore(url, o.commandTimeoutMs === undefined ? {} : { commandTimeout: o.commandTimeoutMs });
  store.observeCommands(o.observe);
  logRedisConnection(store, o.logger);
  return store;
}

/** The Redis client a store runs on, for what shares it (rate-limit counters, inflight locks); undefined = memory. */
export function redisClientOf(store: Store): RedisStore['redis'] | undefined {
  return store instanceof RedisStore ? store.redis : undefined;
}
