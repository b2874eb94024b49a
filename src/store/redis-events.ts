/** Redis connection events as log lines: errors at warn, retries and recovery at debug (LOG_LEVEL=debug). */
import type { Logger } from '../logger.js';
import type { RedisStore } from './redis.js';

export function logRedisConnection(store: RedisStore, logger: Logger): void {
  const log = logger.child({ unit: 'store' });
  // The client reports the same error at every reconnect attempt: warn about each distinct one once per outage.
  let lastError = '';
  store.redis.on('reconnecting', (delayMs: number) => log.debug({ delayMs }, 'redis: reconnecting'));
  // A listener replaces ioredis' own unstructured console output for connection errors.
  store.redis.on('error', (err: Error) => {
    if (err.message === lastError) return;
    lastError = err.message;
    log.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, 'redis: connection error (requests answer 503 until it is back)');
  });
  store.redis.on('ready', () => {
    lastError = '';
    log.debug('redis: connection ready');
  });
}
