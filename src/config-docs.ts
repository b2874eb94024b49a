/**
 * What each environment variable of config.ts means: the text of the generated configuration reference
 * (docs/reference/configuration.md, rewritten by `npm run docs:reference`). It sits beside config.ts so a
 * variable and its meaning change together; the type and a schema-level default are read from the zod schema,
 * the defaults the code fills in afterwards from the constants named here.
 */
import {
  DEFAULT_RETRY_SCHEDULE,
  DELIVERY_DEFAULTS,
  MAX_BATCH_SIZE,
  MAX_POSTS_PER_DIRECTORY,
} from './delivery/options.js';
import { PROVIDER_ENV_DOCS } from './config-docs-providers.js';
import { DEFAULT_AUTH_FAILURE_LIMITS } from './ratelimit/auth-failures.js';
import { DEFAULT_WAIT_TIMEOUT_MS } from './store/redis/durability.js';
import { DEFAULT_COMMAND_TIMEOUT_MS } from './store/redis/client.js';

/** The reference's sections, in this order. */
export const ENV_GROUPS = [
  'HTTP service',
  'Store (Redis)',
  'Webhook delivery and events',
  'Rate limits',
  'Google Workspace',
  'Microsoft Entra ID',
  'HRIS (BambooHR, HiBob, Personio)',
  'Metrics and logs',
  'Operator',
] as const;
export type EnvGroup = (typeof ENV_GROUPS)[number];

export interface EnvDoc {
  group: EnvGroup;
  meaning: string;
  /** The default when the schema leaves the variable optional and the code supplies one (or explains its absence). */
  default?: string;
  /** Replaces the type read from the schema where that can only say "string" (durations, lists). */
  type?: string;
}

const UNIT = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
] as const;

/** 90000 → `90s`, 120000 → `2m`: the largest unit that divides the value, as config-values.ts parses it. */
export function formatDuration(ms: number): string {
  const unit = UNIT.find(([, size]) => ms > 0 && ms % size === 0);
  return unit ? `${ms / unit[1]}${unit[0]}` : `${ms}ms`;
}

const DURATION = 'duration (`500ms`, `5s`, `30m`, `2h`, `1d`)';
const NODES = 'list (`host:port,host:port`)';
const REDIS_STORE = 'a Redis store (`REDIS_URL`, `REDIS_CLUSTER_NODES` or `REDIS_SENTINELS`)';

export const ENV_DOCS: Record<string, EnvDoc> = {
  PORT: {
    group: 'HTTP service',
    meaning: 'HTTP port of `dsync serve` (management API, SCIM endpoints, health probes).',
  },
  HOST: { group: 'HTTP service', meaning: 'Address the HTTP and metrics listeners bind to.' },
  DSYNC_EXTERNAL_URL: {
    group: 'HTTP service',
    default: '`http://localhost:$PORT`',
    meaning:
      'Base URL identity providers reach dsync on; `scim.endpoint` of every directory is built on it (by `serve` and by the operator alike).',
  },
  DSYNC_API_KEYS: {
    group: 'HTTP service',
    default: 'one generated per run (memory store only)',
    type: 'list (comma-separated)',
    meaning: `Management API keys (\`Authorization: Api-Key <key>\`), each \`key[:read][:tenant=<t>[:product=<p>]]\`: a bare key has full access, \`:read\` reads only, \`tenant=\` reaches that tenant's directories; neither of the last two sees a secret value. Required with ${REDIS_STORE}: dsync refuses to run a shared store without keys.`,
  },
  DSYNC_TRUST_PROXY: {
    group: 'HTTP service',
    default: "unset: the socket's peer is the client",
    type: '`true`, a number of hops, or a list of addresses/CIDRs (`loopback`, `uniquelocal`, `10.0.0.0/8`)',
    meaning:
      "Express's `trust proxy`: which proxies' `X-Forwarded-For` names the client, for the per-address limits (failed authentications, the setup page). Set it behind an Ingress, or every client counts as the Ingress's address.",
  },
  REDIS_URL: {
    group: 'Store (Redis)',
    default: 'unset: the in-memory store',
    meaning:
      'One Redis server, `redis://…` or `rediss://…` (user and password in the URL). The in-memory store loses everything on exit.',
  },
  REDIS_CLUSTER_NODES: {
    group: 'Store (Redis)',
    type: NODES,
    meaning:
      'The store on a Redis Cluster instead: any reachable startup nodes (an entry may be `redis[s]://[user:pass@]host:port`); the rest is discovered.',
  },
  REDIS_SENTINELS: {
    group: 'Store (Redis)',
    type: NODES,
    meaning: 'The store behind Redis Sentinel instead: the Sentinels. Goes with `REDIS_SENTINEL_NAME`.',
  },
  REDIS_SENTINEL_NAME: { group: 'Store (Redis)', meaning: 'The master name the Sentinels monitor.' },
  REDIS_USERNAME: {
    group: 'Store (Redis)',
    meaning: 'ACL user of the data nodes (cluster or Sentinel; a `REDIS_URL` carries its own).',
  },
  REDIS_PASSWORD: { group: 'Store (Redis)', meaning: 'Password of that ACL user.' },
  REDIS_TLS: {
    group: 'Store (Redis)',
    default: '`false`',
    meaning: 'TLS to the data nodes (cluster or Sentinel; implied by `rediss://` entries).',
  },
  REDIS_TLS_CA_FILE: {
    group: 'Store (Redis)',
    default: 'the system CAs',
    meaning: 'PEM file of the CA that signed the Redis (and Sentinel) certificates.',
  },
  REDIS_SENTINEL_USERNAME: { group: 'Store (Redis)', meaning: "The Sentinels' own ACL user (when they require auth)." },
  REDIS_SENTINEL_PASSWORD: { group: 'Store (Redis)', meaning: "The Sentinels' own password." },
  REDIS_SENTINEL_TLS: { group: 'Store (Redis)', default: '`false`', meaning: 'TLS to the Sentinels themselves.' },
  DSYNC_REDIS_WAIT_REPLICAS: {
    group: 'Store (Redis)',
    default: '`1` with a cluster or Sentinel, `0` with `REDIS_URL`',
    meaning:
      'A write waits for up to this many replicas, of those connected and in sync, to confirm it (`WAIT`) before it answers 2xx; `0` turns it off (faster; a failover may lose acknowledged writes).',
  },
  DSYNC_REDIS_MIN_REPLICAS: {
    group: 'Store (Redis)',
    default: '`0`',
    meaning:
      'The fewest confirmations a write may answer 2xx with (at most `DSYNC_REDIS_WAIT_REPLICAS`); below it the write answers 503 and `/readyz` says `below-min-replicas`. `0`: a shard whose only replica was promoted stays writable, its writes counted as degraded (`dsync_store_degraded_writes_total`; a second failure before a new replica syncs could lose them). `1`: refuse them instead.',
  },
  DSYNC_REDIS_WAIT_TIMEOUT: {
    group: 'Store (Redis)',
    default: `\`${DEFAULT_WAIT_TIMEOUT_MS}\` (ms)`,
    type: 'milliseconds, or a duration (`500ms`, `2s`)',
    meaning:
      'How long a write waits for those replicas; past it the write counts as degraded, or answers 503 (not durable, safe to retry) below `DSYNC_REDIS_MIN_REPLICAS`.',
  },
  DSYNC_REDIS_COMMAND_TIMEOUT: {
    group: 'Store (Redis)',
    default: `\`${formatDuration(DEFAULT_COMMAND_TIMEOUT_MS)}\``,
    type: DURATION,
    meaning:
      'A Redis command not answered within this fails the request with 503 and `Retry-After` (a store outage never hangs a request).',
  },
  DSYNC_WEBHOOK_BATCH_SIZE: {
    group: 'Webhook delivery and events',
    default: 'unset: real time',
    meaning: `Batch mode: up to N events (1–${MAX_BATCH_SIZE}) of one directory per POST, as a JSON array, delivered when the queue is processed.`,
  },
  DSYNC_WEBHOOK_BATCH_CRON_INTERVAL: {
    group: 'Webhook delivery and events',
    type: 'integer (seconds)',
    meaning: 'Batch mode: process the queue in-process at this interval (besides the route and the CronJob).',
  },
  DSYNC_WEBHOOK_ALLOW_PRIVATE: {
    group: 'Webhook delivery and events',
    default: '`true` on the memory store, `false` with Redis',
    meaning:
      'Allow webhook URLs that resolve to loopback, private or link-local addresses (the SSRF guard off: local development, receivers inside the cluster).',
  },
  DSYNC_WEBHOOK_ORDERING: {
    group: 'Webhook delivery and events',
    default: `\`${DELIVERY_DEFAULTS.ordering}\``,
    type: '`resource` or `directory`',
    meaning:
      '`resource`: an event is never sent before an earlier event of its directory that names the same user or group has been delivered or dead-lettered; other events go in parallel and a failing event holds back only those that share a user or group with it. `directory`: one POST in flight per directory, in log order. See [Delivery](../concepts/delivery.md).',
  },
  DSYNC_WEBHOOK_CONCURRENCY: {
    group: 'Webhook delivery and events',
    default: `\`${DELIVERY_DEFAULTS.postsPerDirectory}\``,
    type: `integer, 1 to ${MAX_POSTS_PER_DIRECTORY}`,
    meaning: 'POSTs in flight per directory with `resource` ordering (batch mode: batches in flight).',
  },
  DSYNC_WEBHOOK_RETRY_SCHEDULE: {
    group: 'Webhook delivery and events',
    default: `\`${DEFAULT_RETRY_SCHEDULE.map(formatDuration).join(',')}\``,
    type: 'list of durations',
    meaning: 'Delays between delivery attempts (±20% jitter); after the last one the delivery is dead-lettered.',
  },
  DSYNC_WEBHOOK_TIMEOUT: {
    group: 'Webhook delivery and events',
    default: `\`${formatDuration(DELIVERY_DEFAULTS.timeoutMs)}\``,
    type: DURATION,
    meaning: 'Connect, headers and body timeout of one webhook POST.',
  },
  DSYNC_EVENT_RETENTION: {
    group: 'Webhook delivery and events',
    default: `\`${formatDuration(DELIVERY_DEFAULTS.retentionMs)}\``,
    type: DURATION,
    meaning:
      'How long delivered events stay readable through the Events API (and replayable); `0` trims them once delivered.',
  },
  DSYNC_WEBHOOK_LOG_RETENTION: {
    group: 'Webhook delivery and events',
    default: `\`${formatDuration(DELIVERY_DEFAULTS.logRetentionMs)}\``,
    type: DURATION,
    meaning: 'How long delivery attempt logs are kept (directories with `log_webhook_events`).',
  },
  DSYNC_DELIVERY_LEASE: {
    group: 'Webhook delivery and events',
    default: `\`${formatDuration(DELIVERY_DEFAULTS.leaseMs)}\``,
    type: DURATION,
    meaning:
      "A deliverer's lease on a directory, renewed while it works: a crashed replica's directories resume after at most this.",
  },
  DSYNC_RATE_LIMIT_PLAN: {
    group: 'Rate limits',
    default: 'unset: limits off',
    type: '`developer`, `production`, `growth`, `enterprise` (legacy `essential`, `scale`)',
    meaning: "The plan whose preset limits apply (`essential` has Production's limits, `scale` Growth's).",
  },
  DSYNC_RATE_LIMIT_ENV: { group: 'Rate limits', meaning: "The environment column of the plan's preset." },
  DSYNC_RATE_LIMIT_OVERRIDES: {
    group: 'Rate limits',
    type: 'list (`<bucket>=<rps>/<rpm>,…`)',
    meaning: 'Per-bucket limits over the preset, e.g. `scim=20/600,default=800/18000`. Needs `DSYNC_RATE_LIMIT_PLAN`.',
  },
  DSYNC_AUTH_FAILURE_LIMIT: {
    group: 'Rate limits',
    default: `\`${DEFAULT_AUTH_FAILURE_LIMITS.perAddress}/${DEFAULT_AUTH_FAILURE_LIMITS.total}\``,
    type: '`<per client address>/<in total>` (a minute)',
    meaning:
      "Failed authentications a minute per client address and in total per realm (the management API, each SCIM directory, Graph's change notifications, the setup page). A client past its own limit is answered 429 without its credential being compared until the minute ends; a realm past its total refuses, the same way, each client that fails in it from then on (after one failure), never a client that has not failed. Always on, whatever the plan.",
  },
  ...PROVIDER_ENV_DOCS,
  METRICS_PORT: {
    group: 'Metrics and logs',
    meaning: 'Prometheus `/metrics` listener of every long-running process; `0` turns it off.',
  },
  LOG_LEVEL: { group: 'Metrics and logs', meaning: 'pino log level (logs are JSON on stdout).' },
  KUBECONFIG: {
    group: 'Operator',
    default: "`~/.kube/config`, else the pod's service account",
    type: 'list (kubeconfig paths, `:`-separated)',
    meaning:
      'The cluster of `dsync operator`, read as kubectl reads it (files merged, the first name wins): token, token file, client certificate and `exec` plugin credentials; a legacy `auth-provider` or a `proxy-url` is read by @kubernetes/client-node.',
  },
  KUBERNETES_SERVICE_HOST: {
    group: 'Operator',
    default: 'set by Kubernetes in a pod',
    meaning:
      'With `KUBERNETES_SERVICE_PORT`, the API server a pod reaches with its service account when there is no kubeconfig.',
  },
  KUBERNETES_SERVICE_PORT: {
    group: 'Operator',
    default: 'set by Kubernetes in a pod',
    meaning: 'The port of `KUBERNETES_SERVICE_HOST`.',
  },
  DSYNC_OPERATOR_NAMESPACES: {
    group: 'Operator',
    default: 'every namespace',
    type: 'list (comma-separated namespaces)',
    meaning:
      'Namespaces `dsync operator` watches, one list+watch each, so Roles in them suffice instead of a ClusterRole.',
  },
  DSYNC_OPERATOR_NAMESPACE: {
    group: 'Operator',
    meaning: 'One namespace: the same as `DSYNC_OPERATOR_NAMESPACES` with one entry (setting both is an error).',
  },
  DSYNC_OPERATOR_WORKERS: { group: 'Operator', meaning: 'Concurrent reconciles (never two of one resource).' },
  DSYNC_OPERATOR_KUBE_QPS: {
    group: 'Operator',
    type: 'number (≥ 0)',
    meaning:
      "Client-side limit of the operator's API requests a second (watches and the Lease aside), as client-go's QPS; `0` leaves pacing to the API server's priority and fairness. A 429 is sent again after its `Retry-After`.",
  },
  DSYNC_OPERATOR_KUBE_BURST: {
    group: 'Operator',
    meaning: "How many API requests may go at once after a quiet spell (client-go's Burst).",
  },
  DSYNC_OPERATOR_RESYNC: {
    group: 'Operator',
    type: DURATION,
    meaning: 'Every DirectoryConnection is reconciled again this often, repairing drift in Redis or its Secret.',
  },
  DSYNC_LEADER_ELECTION: {
    group: 'Operator',
    default: '`true`',
    meaning: 'Lease-based leader election; turn it off only with a single replica.',
  },
  DSYNC_LEADER_ELECTION_NAMESPACE: {
    group: 'Operator',
    default: "the kubeconfig context's namespace (in a pod: its own)",
    meaning: 'Where the Lease `dsync-operator` lives.',
  },
  DSYNC_LEADER_ELECTION_LEASE_DURATION: {
    group: 'Operator',
    type: DURATION,
    meaning:
      'How long a Lease holds without renewal; must exceed the renew deadline plus the retry period (checked at start).',
  },
  DSYNC_LEADER_ELECTION_RENEW_DEADLINE: {
    group: 'Operator',
    type: DURATION,
    meaning: 'How long the leader keeps trying to renew before it steps down.',
  },
  DSYNC_LEADER_ELECTION_RETRY_PERIOD: {
    group: 'Operator',
    type: DURATION,
    meaning: 'How often candidates try to acquire or renew the Lease.',
  },
};
