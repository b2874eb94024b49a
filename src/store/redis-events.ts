/** Redis connection events as log lines: errors at warn, retries and recovery at debug (LOG_LEVEL=debug). */
import type { Logger } from '../logger.js';
import type { RedisStore } from './redis.js';

export function logRedisConnection(store: RedisStore, logger: Logger): void {
  const log = logger.child({ unit: 'store' });
  store.redis.on('reconnecting', (delayMs: number) => log.debug({ delayMs }, 'redis: reconnecting'));
  // A listener replaces ioredis' own unstructured console output for connection errors.
  store.redis.on('error', (err: Error) => log.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, 'redis: connection error'));
  store.redis.on('ready', () => log.debug('redis: connection ready'));
}
