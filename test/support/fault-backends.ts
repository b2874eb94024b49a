/**
 * Where the delivery fault tests run their dsync processes: the test Redis server and the shared Redis Cluster
 * of test/run.sh. The tests' own checks read the store through the same kind of client.
 */
import { Cluster, Command, Redis } from 'ioredis';
import type { RedisClient } from '../../src/store/redis/client.js';
import { dsyncEnv } from './dsync-process.js';
import { clusterNodes, flushStore, redisUrl } from './services.js';

export interface Backend {
  name: string;
  /** The environment of a dsync process on this store; `db` is the suite's database on the single server. */
  env(db: number, extra?: Record<string, string>): Record<string, string>;
  /** A client on the store, emptied first. */
  fresh(db: number): Promise<RedisClient>;
  /** A plain connection to the server holding `key` (CLIENT PAUSE must reach that node); disconnect it after. */
  serverOf(redis: RedisClient, key: string): Redis;
}

export const oneServer: Backend = {
  name: 'one Redis server',
  env: (db, extra) => dsyncEnv({ REDIS_URL: `${redisUrl()}/${db}` }, extra),
  async fresh(db) {
    const redis = new Redis(`${redisUrl()}/${db}`);
    await redis.flushdb('ASYNC');
    return redis;
  },
  serverOf: (redis) => (redis as Redis).duplicate(),
};

export const cluster: Backend = {
  name: 'Redis Cluster',
  env: (_db, extra) => dsyncEnv({ REDIS_CLUSTER_NODES: clusterNodes().join(',') }, extra),
  async fresh() {
    const redis = new Cluster(clusterNodes());
    await flushStore(redis);
    return redis;
  },
  serverOf(redis, key) {
    const [host, port] = (redis as Cluster).slots[new Command('get', [key]).getSlot()]![0]!.split(':');
    return new Redis(Number(port), host!);
  },
};

export const FAULT_BACKENDS = [oneServer, cluster];
