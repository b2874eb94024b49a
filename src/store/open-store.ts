/**
 * The one place a process builds its store adapter: Redis (one server, a cluster or a Sentinel-managed master)
 * with fail-fast options (DSYNC_REDIS_COMMAND_TIMEOUT), WAIT durability (DSYNC_REDIS_WAIT_*), command metrics and
 * connection logs, the same for `dsync serve`, the cron jobs and the operator; or the in-memory store when no
 * Redis is configured (`dsync serve` alone).
 */
import type { Store } from '../core/store-port.js';
import type { Logger } from '../logger.js';
import type { CommandObserver } from './redis/command-observer.js';
import { MemoryStore } from './memory/users-groups.js';
import { RedisStore } from './redis/users-groups.js';
import { logRedisConnection } from './redis/connection-log.js';
import { describeTarget, type RedisTarget } from './redis/target.js';

export interface OpenStoreOptions {
  commandTimeoutMs?: number | undefined;
  /**
   * Replicas in sync each acknowledged write waits for (0 = no WAIT), the fewest it may settle for, and for how long.
   */
  waitReplicas?: number | undefined;
  minReplicas?: number | undefined;
  waitTimeoutMs?: number | undefined;
  logger: Logger;
  observe: CommandObserver;
  /**
   * Told of each write answered 503 as not durable, and of each acknowledged with fewer replicas than wanted (metrics).
   */
  onNotDurable?: () => void;
  onDegraded?: () => void;
}

export function openRedisStore(target: string | RedisTarget, o: OpenStoreOptions): RedisStore {
  const store = new RedisStore(target, {
    ...(o.commandTimeoutMs !== undefined && { commandTimeout: o.commandTimeoutMs }),
    ...(o.waitReplicas !== undefined && { waitReplicas: o.waitReplicas }),
    ...(o.minReplicas !== undefined && { minReplicas: o.minReplicas }),
    ...(o.waitTimeoutMs !== undefined && { waitTimeoutMs: o.waitTimeoutMs }),
    ...(o.onNotDurable && { onNotDurable: o.onNotDurable }),
    ...(o.onDegraded && { onDegraded: o.onDegraded }),
  });
  store.observeCommands(o.observe);
  logRedisConnection(store, o.logger);
  const t: RedisTarget = typeof target === 'string' ? { kind: 'server', url: target } : target;
  o.logger.info(
    { store: describeTarget(t), waitReplicas: o.waitReplicas ?? 0, minReplicas: o.minReplicas ?? 0 },
    'store: Redis',
  );
  return store;
}

/** Redis when a target is set, else the embedded memory store (with a warning: its data dies with the process). */
export function openStore(target: string | RedisTarget | undefined, o: OpenStoreOptions): Store {
  if (target) return openRedisStore(target, o);
  o.logger.warn(
    'no Redis is configured (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS): using the embedded in-memory store; all data is lost when the process exits',
  );
  return new MemoryStore();
}

/** The Redis client a store runs on, for what shares it (rate-limit counters, inflight locks); undefined = memory. */
export function redisClientOf(store: Store): RedisStore['redis'] | undefined {
  return store instanceof RedisStore ? store.redis : undefined;
}
