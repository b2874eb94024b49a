/**
 * Where the Redis store lives: one server (`REDIS_URL`), a Redis Cluster (`REDIS_CLUSTER_NODES`) or a master
 * behind Sentinel (`REDIS_SENTINELS` + `REDIS_SENTINEL_NAME`), with the ACL user and TLS of the data nodes and
 * of the Sentinels. Parsing of one `host:port` / `redis[s]://[user:pass@]host:port` entry lives here too.
 */

/** Auth and TLS shared by cluster and sentinel targets (a `REDIS_URL` carries its own in the URL). */
export interface RedisTargetAuth {
  username?: string;
  password?: string;
  /** TLS to the data nodes (also implied by a `rediss://` entry). */
  tls?: boolean;
  /** PEM file of the CA that signed the nodes' (and Sentinels') certificates; unset = the system's CAs. */
  caFile?: string;
  sentinelUsername?: string;
  sentinelPassword?: string;
  /** TLS to the Sentinels themselves. */
  sentinelTls?: boolean;
}

export type RedisTarget = (
  | { kind: 'server'; url: string }
  | { kind: 'cluster'; nodes: string[] }
  | { kind: 'sentinel'; sentinels: string[]; name: string }
) &
  RedisTargetAuth;

export interface RedisNode {
  host: string;
  port: number;
  username?: string;
  password?: string;
  tls?: boolean;
}

const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/**
 * One node as given: `host:port` (IPv6 in brackets) or a `redis://` / `rediss://` URL. Throws a message naming the
 * entry.
 */
export function parseNode(text: string): RedisNode {
  const entry = text.trim();
  if (/^rediss?:\/\//.test(entry)) {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      throw new Error(`"${entry}" is not a valid redis:// URL`);
    }
    if (!url.hostname || !url.port) throw new Error(`"${entry}" needs a host and a port`);
    return {
      ...parseNode(`${url.hostname}:${url.port}`),
      ...(url.username && { username: decodeURIComponent(url.username) }),
      ...(url.password && { password: decodeURIComponent(url.password) }),
      ...(url.protocol === 'rediss:' && { tls: true }),
    };
  }
  const m = HOST_PORT.exec(entry);
  const port = Number(m?.[2]);
  if (!m || port < 1 || port > 65535) throw new Error(`"${entry}" is not host:port (e.g. redis-0.redis:6379)`);
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

/** A comma list of nodes; throws on an empty list or a bad entry. */
export function parseNodeList(text: string): RedisNode[] {
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('lists no node');
  return entries.map(parseNode);
}

/** For logs: where the store is, without credentials. */
export function describeTarget(target: RedisTarget): string {
  if (target.kind === 'cluster') return `Redis Cluster (${target.nodes.length} startup nodes)`;
  if (target.kind === 'sentinel')
    return `Redis Sentinel master "${target.name}" (${target.sentinels.length} sentinels)`;
  const url = new URL(target.url);
  return `Redis ${url.protocol}//${url.host}${url.pathname}`;
}
