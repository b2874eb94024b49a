/**
 * Real services for the tests. `test/run.sh` starts redis-server and exports REDIS_TEST_URL; a test file
 * never starts its own unless it needs to kill it.
 */
import { RedisStore } from '../../src/store/redis.js';

export function redisUrl(): string {
  const url = process.env.REDIS_TEST_URL;
  if (!url) throw new Error('REDIS_TEST_URL is not set: run the suite with `npm test` (test/run.sh starts redis-server)');
  return url;
}

/** A Redis store on its own logical database, flushed first, so suites do not see each other's keys. */
export async function freshRedisStore(db = 1): Promise<RedisStore> {
  const store = new RedisStore(`${redisUrl()}/${db}`);
  await store.redis.flushdb();
  return store;
}
