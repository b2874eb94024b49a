/**
 * Builds the ioredis client of a RedisTarget with the store's fail-fast options: a `Redis` for one server or a
 * Sentinel-managed master, a `Cluster` for Redis Cluster. Both take the same commands (and `defineCommand`).
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { coalesceWrites } from './coalesced-writes.js';
import { parseNode, type RedisTarget } from './target.js';

export type RedisClient = Redis | Cluster;

/**
 * Fail fast when Redis stalls or goes away (see fail-fast.ts): no command waits more than
 * `commandTimeout` once sent, and a command caught by a dropped connection is not re-sent after reconnecting
 * (the caller was already told it failed). A cluster's auto-pipelining holds a command back while the previous
 * batch is unanswered, so a stalled node fails a request within twice the timeout: 500 ms keeps that near a second.
 * A timed-out write may still run later: each is one Lua script with its events, so it lands whole or not at all.
 */
export const DEFAULT_COMMAND_TIMEOUT_MS = 500;
const FAIL_FAST: RedisOptions = {
  commandTimeout: DEFAULT_COMMAND_TIMEOUT_MS,
  maxRetriesPerRequest: 1,
  autoResendUnfulfilledCommands: false,
};

/**
 * A cluster re-routes a command on MOVED/ASK at once and retries it after a pause on CLUSTERDOWN, TRYAGAIN or
 * a closed node connection (failover); the command's timeout runs from its first send, and 4 redirections of
 * 100 ms keep a command that never got sent within about a second too.
 */
const CLUSTER_FAIL_FAST: ClusterOptions = {
  maxRedirections: 4,
  retryDelayOnFailover: 100,
  retryDelayOnClusterDown: 100,
  retryDelayOnTryAgain: 100,
  slotsRefreshTimeout: 1000,
  // Never give up on the cluster: reconnect at most every 2 s while it is away (requests answer 503 meanwhile).
  clusterRetryStrategy: (times) => Math.min(100 * times, 2000),
};

const tlsOptions = (caFile: string | undefined): ConnectionOptions => (caFile ? { ca: readFileSync(caFile) } : {});

function clusterClient(target: Extract<RedisTarget, { kind: 'cluster' }>, options: RedisOptions): Cluster {
  const nodes = target.nodes.map(parseNode);
  // Credentials and TLS of the first URL entry that has them stand for the whole cluster (one ACL, one CA).
  const username = target.username ?? nodes.find((n) => n.username)?.username;
  const password = target.password ?? nodes.find((n) => n.password)?.password;
  const tls = target.tls || nodes.some((n) => n.tls);
  return new Cluster(
    nodes.map(({ host, port }) => ({ host, port })),
    {
      ...CLUSTER_FAIL_FAST,
      scaleReads: 'master', // reads see every acknowledged write (replicas lag)
      enableAutoPipelining: true,
      // The nodes announce IPs: keep TLS checking the name the certificate was issued for, not the IP.
      ...(tls && {
        dnsLookup: (address: string, callback: (err: null, address: string) => void) => callback(null, address),
      }),
      redisOptions: {
        ...FAIL_FAST,
        ...options,
        ...(username !== undefined && { username }),
        ...(password !== undefined && { password }),
        ...(tls && { tls: tlsOptions(target.caFile) }),
      },
    },
  );
}

/**
 * One server or a Sentinel's master: no auto-pipelining. Each batch of it is a Pipeline (which copies every
 * defined script onto itself), a setImmediate, a promise per command and its reply by nextTick, and a batch waits
 * while the one before is unanswered; a plain connection has many commands in flight, and writes a turn's commands
 * together (coalesced-writes.ts): faster writes at lower CPU (docs/design/performance.md, "Commands sent as they
 * come", "A turn's commands in one write"). A cluster keeps it: it is how commands group per node.
 */
const SERVER: RedisOptions = { ...FAIL_FAST, enableAutoPipelining: false };

function sentinelClient(target: Extract<RedisTarget, { kind: 'sentinel' }>, options: RedisOptions): Redis {
  return new Redis({
    sentinels: target.sentinels.map(parseNode).map(({ host, port }) => ({ host, port })),
    name: target.name,
    // Learn of a promotion from the Sentinels' +switch-master instead of only at the next reconnect.
    failoverDetector: true,
    ...SERVER,
    sentinelCommandTimeout: options.commandTimeout ?? FAIL_FAST.commandTimeout!,
    ...options,
    ...(target.username !== undefined && { username: target.username }),
    ...(target.password !== undefined && { password: target.password }),
    ...(target.sentinelUsername !== undefined && { sentinelUsername: target.sentinelUsername }),
    ...(target.sentinelPassword !== undefined && { sentinelPassword: target.sentinelPassword }),
    ...(target.tls && { tls: tlsOptions(target.caFile), enableTLSForSentinelMode: true }),
    ...(target.sentinelTls && { sentinelTLS: tlsOptions(target.caFile) }),
  });
}

/** Each connection of a client without auto-pipelining writes a turn's commands together (coalesced-writes.ts). */
function withCoalescedWrites(client: Redis): Redis {
  client.on('connect', () => coalesceWrites(client.stream));
  return client;
}

/** The client of `target` (a plain string is a `redis://` URL), with `options` over the fail-fast defaults. */
export function createRedisClient(target: string | RedisTarget, options: RedisOptions = {}): RedisClient {
  const t: RedisTarget = typeof target === 'string' ? { kind: 'server', url: target } : target;
  if (t.kind === 'cluster') return clusterClient(t, options);
  if (t.kind === 'sentinel') return withCoalescedWrites(sentinelClient(t, options));
  return withCoalescedWrites(
    new Redis(t.url, { ...SERVER, ...options, ...(t.caFile && { tls: tlsOptions(t.caFile) }) }),
  );
}

/** Whether the client is a Cluster (ioredis marks it so; `instanceof` would tie callers to one ioredis copy). */
export const isCluster = (client: RedisClient): client is Cluster =>
  (client as { isCluster?: boolean }).isCluster === true;
