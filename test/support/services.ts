/**
 * Real services for the tests. `test/run.sh` starts redis-server and exports REDIS_TEST_URL, and for the
 * integration, conformance and Kubernetes specs a shared Redis Cluster (REDIS_CLUSTER_TEST_NODES) and Sentinel
 * setup (REDIS_SENTINEL_TEST_NODES, REDIS_SENTINEL_TEST_NAME); a test file never starts its own unless it needs
 * to kill or move them (test/support/redis-topology.ts).
 */
import { once } from 'node:events';
import type { Cluster } from 'ioredis';
import { isCluster } from '../../src/store/redis/client.js';
import type { RedisTarget } from '../../src/store/redis/target.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import type { RedisStoreOptions } from '../../src/store/redis/connection.js';

function required(name: string, what: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suite with \`npm test\` (test/run.sh starts ${what})`);
  return value;
}

export const redisUrl = (): string => required('REDIS_TEST_URL', 'redis-server');

/** The shared 3-master / 3-replica cluster. */
export const clusterNodes = (): string[] => required('REDIS_CLUSTER_TEST_NODES', 'a Redis Cluster').split(',');
export const clusterTarget = (): RedisTarget => ({ kind: 'cluster', nodes: clusterNodes() });

/** The shared master + replica behind 3 Sentinels. */
export const sentinelTarget = (): RedisTarget => ({
  kind: 'sentinel',
  sentinels: required('REDIS_SENTINEL_TEST_NODES', 'Redis Sentinels').split(','),
  name: required('REDIS_SENTINEL_TEST_NAME', 'Redis Sentinels'),
});

/** A Redis store on its own logical database, flushed first, so suites do not see each other's keys. */
export async function freshRedisStore(db = 1, options: RedisStoreOptions = {}): Promise<RedisStore> {
  const store = new RedisStore(`${redisUrl()}/${db}`, options);
  // ASYNC: the keyspace empties at once and a big one's memory is freed in the background (a synchronous flush of
  // what a big-group test left could outlast the store's command timeout).
  await store.redis.flushdb('ASYNC');
  return store;
}

/** Empties what `redis` holds: every master of a cluster (which has only db 0), else the selected db. */
export async function flushStore(redis: RedisStore['redis']): Promise<void> {
  if (!isCluster(redis)) {
    await redis.flushdb('ASYNC');
    return;
  }
  if (redis.status !== 'ready') await once(redis as Cluster, 'ready');
  await Promise.all(redis.nodes('master').map((node) => node.flushdb('ASYNC')));
}

/**
 * A store on the shared cluster or Sentinel master, emptied first. Writes wait for one replica, as they do by
 * default in production on these setups (DSYNC_REDIS_WAIT_REPLICAS).
 */
export async function freshReplicatedStore(
  kind: 'cluster' | 'sentinel',
  options: RedisStoreOptions = {},
): Promise<RedisStore> {
  const store = new RedisStore(kind === 'cluster' ? clusterTarget() : sentinelTarget(), {
    waitReplicas: 1,
    ...options,
  });
  await flushStore(store.redis);
  return store;
}
