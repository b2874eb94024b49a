/** Redis connection events as log lines: errors at warn, retries, topology and recovery at debug (LOG_LEVEL=debug). */
import type { Logger } from '../../logger.js';
import { isCluster } from './client.js';
import type { RedisStore } from './users-groups.js';

export function logRedisConnection(store: RedisStore, logger: Logger): void {
  const log = logger.child({ unit: 'store' });
  const client = store.redis;
  // The client reports the same error at every reconnect attempt: warn about each distinct one once per outage.
  let lastError = '';
  const warn = (err: Error, node?: string): void => {
    if (err.message === lastError) return;
    lastError = err.message;
    log.warn(
      { err: { message: err.message, code: (err as { code?: string }).code }, ...(node && { node }) },
      'redis: connection error (requests answer 503 until it is back)',
    );
  };
  client.on('reconnecting', (delayMs: number) => log.debug({ delayMs }, 'redis: reconnecting'));
  // A listener replaces ioredis' own unstructured console output for connection errors.
  client.on('error', (err: Error) => warn(err));
  client.on('ready', () => {
    lastError = '';
    log.debug('redis: connection ready');
  });
  if (!isCluster(client)) return;
  // A cluster also reports per node: a lost master, a failover, nodes joining and leaving as slots move.
  client.on('node error', (err: Error, node: string) => warn(err, node));
  const nodeName = (redis: { options: { host?: string; port?: number } }): string =>
    `${redis.options.host}:${redis.options.port}`;
  client.on('+node', (redis) => log.debug({ node: nodeName(redis) }, 'redis: cluster node joined'));
  client.on('-node', (redis) => log.debug({ node: nodeName(redis) }, 'redis: cluster node left'));
  client.on('end', () => log.debug('redis: cluster connection ended'));
}
