/**
 * Configuration: the only module that reads `process.env`. Parsed with zod at start-up; a bad value stops the
 * process with a message naming the variable. Modules receive the slice they need, never the environment.
 */
import { z } from 'zod';
import { DsyncError } from './core/errors.js';
import {
  DEFAULT_RETRY_SCHEDULE,
  DELIVERY_DEFAULTS,
  MAX_BATCH_SIZE,
  MAX_POSTS_PER_DIRECTORY,
  ORDERINGS,
} from './delivery/options.js';
import { apiKeysSchema, toApiKey } from './http/middleware/api-keys.js';
import { DEFAULT_AUTH_FAILURE_LIMITS } from './ratelimit/auth-failures.js';
import {
  authFailureLimitSchema,
  environmentSchema,
  overridesSchema,
  planSchema,
  resolvePolicy,
} from './ratelimit/settings.js';
import { providerConfig, providerEnvShape } from './provider-config.js';
import type { Config, OperatorConfig, StoreConfig } from './config-types.js';
import { existsSync } from 'node:fs';
import { DEFAULT_WAIT_TIMEOUT_MS } from './store/redis/durability.js';
import type { RedisTarget } from './store/redis/target.js';
import {
  bool,
  duration,
  durationList,
  millis,
  nodeList,
  positiveDuration,
  positiveInt,
  trustProxy,
} from './config-values.js';

export const envSchema = z.object({
  PORT: positiveInt('PORT').max(65535).default(5225),
  HOST: z.string().default('0.0.0.0'),
  DSYNC_EXTERNAL_URL: z.url({ error: 'DSYNC_EXTERNAL_URL must be a URL' }).optional(),
  DSYNC_API_KEYS: apiKeysSchema.optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must start with redis:// or rediss://')
    .optional(),
  DSYNC_WEBHOOK_BATCH_SIZE: positiveInt('DSYNC_WEBHOOK_BATCH_SIZE').max(MAX_BATCH_SIZE).optional(),
  DSYNC_WEBHOOK_BATCH_CRON_INTERVAL: positiveInt('DSYNC_WEBHOOK_BATCH_CRON_INTERVAL').optional(),
  DSYNC_WEBHOOK_ALLOW_PRIVATE: bool.optional(),
  DSYNC_WEBHOOK_ORDERING: z
    .enum(ORDERINGS, { error: `DSYNC_WEBHOOK_ORDERING must be ${ORDERINGS.join(' or ')}` })
    .optional(),
  DSYNC_WEBHOOK_CONCURRENCY: positiveInt('DSYNC_WEBHOOK_CONCURRENCY').max(MAX_POSTS_PER_DIRECTORY).optional(),
  DSYNC_WEBHOOK_RETRY_SCHEDULE: durationList.optional(),
  DSYNC_WEBHOOK_TIMEOUT: positiveDuration.optional(),
  DSYNC_EVENT_RETENTION: duration.optional(), // 0 = delivered events are trimmed at once
  DSYNC_WEBHOOK_LOG_RETENTION: duration.optional(),
  DSYNC_DELIVERY_LEASE: positiveDuration.optional(),
  DSYNC_REDIS_COMMAND_TIMEOUT: duration.optional(),
  REDIS_CLUSTER_NODES: nodeList.optional(),
  REDIS_SENTINELS: nodeList.optional(),
  REDIS_SENTINEL_NAME: z.string().min(1, 'REDIS_SENTINEL_NAME must not be empty').optional(),
  REDIS_USERNAME: z.string().min(1).optional(),
  REDIS_PASSWORD: z.string().min(1).optional(),
  REDIS_TLS: bool.optional(),
  REDIS_TLS_CA_FILE: z.string().min(1).refine(existsSync, 'REDIS_TLS_CA_FILE: no such file').optional(),
  REDIS_SENTINEL_USERNAME: z.string().min(1).optional(),
  REDIS_SENTINEL_PASSWORD: z.string().min(1).optional(),
  REDIS_SENTINEL_TLS: bool.optional(),
  DSYNC_REDIS_WAIT_REPLICAS: z.coerce
    .number({ error: 'DSYNC_REDIS_WAIT_REPLICAS must be a number' })
    .int('DSYNC_REDIS_WAIT_REPLICAS must be an integer')
    .min(0, 'DSYNC_REDIS_WAIT_REPLICAS must be >= 0 (0 = off)')
    .optional(),
  DSYNC_REDIS_MIN_REPLICAS: z.coerce
    .number({ error: 'DSYNC_REDIS_MIN_REPLICAS must be a number' })
    .int('DSYNC_REDIS_MIN_REPLICAS must be an integer')
    .min(0, 'DSYNC_REDIS_MIN_REPLICAS must be >= 0')
    .optional(),
  DSYNC_REDIS_WAIT_TIMEOUT: millis
    .pipe(z.number().positive('DSYNC_REDIS_WAIT_TIMEOUT must be longer than 0'))
    .optional(),
  DSYNC_RATE_LIMIT_PLAN: planSchema.optional(),
  DSYNC_RATE_LIMIT_ENV: environmentSchema.default('production'),
  DSYNC_RATE_LIMIT_OVERRIDES: overridesSchema.optional(),
  DSYNC_AUTH_FAILURE_LIMIT: authFailureLimitSchema.optional(),
  DSYNC_TRUST_PROXY: trustProxy.optional(),
  ...providerEnvShape,
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // `dsync operator`
  KUBECONFIG: z.string().optional(),
  KUBERNETES_SERVICE_HOST: z.string().optional(),
  KUBERNETES_SERVICE_PORT: z.string().optional(),
  DSYNC_OPERATOR_NAMESPACE: z.string().min(1).optional(),
  DSYNC_OPERATOR_NAMESPACES: z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(
          z
            .string()
            .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'DSYNC_OPERATOR_NAMESPACES: each entry must be a namespace name'),
        )
        .min(1, 'DSYNC_OPERATOR_NAMESPACES must list at least one namespace'),
    )
    .optional(),
  DSYNC_OPERATOR_WORKERS: positiveInt('DSYNC_OPERATOR_WORKERS').max(64).default(16),
  DSYNC_OPERATOR_RESYNC: z.string().default('10m').pipe(duration),
  DSYNC_OPERATOR_KUBE_QPS: z.coerce
    .number({ error: 'DSYNC_OPERATOR_KUBE_QPS must be a number' })
    .min(0, 'DSYNC_OPERATOR_KUBE_QPS must be >= 0 (0 = no client-side limit)')
    .default(500),
  DSYNC_OPERATOR_KUBE_BURST: positiveInt('DSYNC_OPERATOR_KUBE_BURST').default(1000),
  DSYNC_LEADER_ELECTION: bool.default(true),
  DSYNC_LEADER_ELECTION_NAMESPACE: z.string().min(1).optional(),
  DSYNC_LEADER_ELECTION_LEASE_DURATION: z.string().default('15s').pipe(duration),
  DSYNC_LEADER_ELECTION_RENEW_DEADLINE: z.string().default('10s').pipe(duration),
  DSYNC_LEADER_ELECTION_RETRY_PERIOD: z.string().default('2s').pipe(duration),
});

export { DEFAULT_RETRY_SCHEDULE };

/** A bad environment: the CLI prints the message alone (it names the variable) and exits non-zero. */
export class ConfigError extends DsyncError {
  override name = 'ConfigError';
  constructor(message: string) {
    super(message, 'DSYNC_CONFIG');
  }
}

function parseEnv(env: NodeJS.ProcessEnv): Env {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`).join('; '),
    );
  }
  return parsed.data;
}

/** How the messages name "some Redis store is configured". */
export const REDIS_STORE = 'a Redis store (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS)';

type Env = z.infer<typeof envSchema>;

function redisTarget(e: Env): RedisTarget | undefined {
  const set = (['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_SENTINELS'] as const).filter(
    (name) => e[name] !== undefined,
  );
  if (set.length > 1)
    throw new ConfigError(`set one of REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS, not ${set.join(' and ')}`);
  if ((e.REDIS_SENTINELS === undefined) !== (e.REDIS_SENTINEL_NAME === undefined)) {
    throw new ConfigError(
      'REDIS_SENTINELS and REDIS_SENTINEL_NAME (the master name the Sentinels monitor) go together',
    );
  }
  const sentinelOnly = (['REDIS_SENTINEL_USERNAME', 'REDIS_SENTINEL_PASSWORD', 'REDIS_SENTINEL_TLS'] as const).filter(
    (n) => e[n] !== undefined,
  );
  if (sentinelOnly.length > 0 && e.REDIS_SENTINELS === undefined)
    throw new ConfigError(`${sentinelOnly.join(', ')} need REDIS_SENTINELS`);
  const nodeAuth = (['REDIS_USERNAME', 'REDIS_PASSWORD', 'REDIS_TLS'] as const).filter((n) => e[n] !== undefined);
  if (nodeAuth.length > 0 && e.REDIS_URL !== undefined) {
    throw new ConfigError(
      `${nodeAuth.join(', ')}: with REDIS_URL, put the user, password and TLS in the URL (rediss://user:password@host:port)`,
    );
  }
  if (e.REDIS_URL?.startsWith('redis://') && e.REDIS_TLS_CA_FILE !== undefined) {
    throw new ConfigError('REDIS_TLS_CA_FILE is for TLS: with REDIS_URL, use a rediss:// URL');
  }
  if (set.length === 0) {
    const stray = [...nodeAuth, ...(e.REDIS_TLS_CA_FILE !== undefined ? ['REDIS_TLS_CA_FILE'] : [])];
    if (stray.length > 0) throw new ConfigError(`${stray.join(', ')} need ${REDIS_STORE}`);
    return undefined;
  }
  const auth = {
    ...(e.REDIS_USERNAME !== undefined && { username: e.REDIS_USERNAME }),
    ...(e.REDIS_PASSWORD !== undefined && { password: e.REDIS_PASSWORD }),
    ...(e.REDIS_TLS !== undefined && { tls: e.REDIS_TLS }),
    ...(e.REDIS_TLS_CA_FILE !== undefined && { caFile: e.REDIS_TLS_CA_FILE }),
    ...(e.REDIS_SENTINEL_USERNAME !== undefined && { sentinelUsername: e.REDIS_SENTINEL_USERNAME }),
    ...(e.REDIS_SENTINEL_PASSWORD !== undefined && { sentinelPassword: e.REDIS_SENTINEL_PASSWORD }),
    ...(e.REDIS_SENTINEL_TLS !== undefined && { sentinelTls: e.REDIS_SENTINEL_TLS }),
  };
  if (e.REDIS_CLUSTER_NODES) return { kind: 'cluster', nodes: e.REDIS_CLUSTER_NODES, ...auth };
  if (e.REDIS_SENTINELS)
    return { kind: 'sentinel', sentinels: e.REDIS_SENTINELS, name: e.REDIS_SENTINEL_NAME!, ...auth };
  return { kind: 'server', url: e.REDIS_URL!, ...auth };
}

/**
 * The store slice of both configs. WAIT defaults on (1 replica) where the store has replicas by design
 * (cluster, sentinel), off for one server (which may have none: every write would count as degraded). The
 * minimum defaults to 0: a shard whose only replica was promoted stays writable (its writes counted as degraded).
 */
function storeConfig(e: Env): StoreConfig {
  const redis = redisTarget(e);
  if (redis === undefined && e.DSYNC_REDIS_WAIT_REPLICAS)
    throw new ConfigError(`DSYNC_REDIS_WAIT_REPLICAS needs ${REDIS_STORE}`);
  const replicas = e.DSYNC_REDIS_WAIT_REPLICAS ?? (redis === undefined || redis.kind === 'server' ? 0 : 1);
  const minReplicas = e.DSYNC_REDIS_MIN_REPLICAS ?? 0;
  if (minReplicas > replicas) {
    throw new ConfigError(
      `DSYNC_REDIS_MIN_REPLICAS (${minReplicas}) must not exceed DSYNC_REDIS_WAIT_REPLICAS (${replicas}): a write never waits for more replicas than that`,
    );
  }
  return {
    ...(redis !== undefined && { redis }),
    ...(e.DSYNC_REDIS_COMMAND_TIMEOUT !== undefined && { redisCommandTimeoutMs: e.DSYNC_REDIS_COMMAND_TIMEOUT }),
    redisWait: {
      replicas,
      minReplicas,
      timeoutMs: e.DSYNC_REDIS_WAIT_TIMEOUT ?? DEFAULT_WAIT_TIMEOUT_MS,
    },
  };
}

export function loadOperatorConfig(env: NodeJS.ProcessEnv = process.env): OperatorConfig {
  const e = parseEnv(env);
  if (e.DSYNC_OPERATOR_NAMESPACE !== undefined && e.DSYNC_OPERATOR_NAMESPACES !== undefined) {
    throw new ConfigError('set DSYNC_OPERATOR_NAMESPACES or DSYNC_OPERATOR_NAMESPACE, not both');
  }
  const namespaces =
    e.DSYNC_OPERATOR_NAMESPACES ??
    (e.DSYNC_OPERATOR_NAMESPACE !== undefined ? [e.DSYNC_OPERATOR_NAMESPACE] : undefined);
  return {
    externalUrl: (e.DSYNC_EXTERNAL_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    ...storeConfig(e),
    metricsPort: e.METRICS_PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    operator: {
      cluster: {
        kubeconfig: e.KUBECONFIG,
        serviceHost: e.KUBERNETES_SERVICE_HOST,
        servicePort: e.KUBERNETES_SERVICE_PORT,
      },
      ...(namespaces !== undefined && { namespaces }),
      workers: e.DSYNC_OPERATOR_WORKERS,
      resyncIntervalMs: e.DSYNC_OPERATOR_RESYNC,
      kubeRateLimit: { qps: e.DSYNC_OPERATOR_KUBE_QPS, burst: e.DSYNC_OPERATOR_KUBE_BURST },
      leaderElection: {
        enabled: e.DSYNC_LEADER_ELECTION,
        ...(e.DSYNC_LEADER_ELECTION_NAMESPACE !== undefined && { namespace: e.DSYNC_LEADER_ELECTION_NAMESPACE }),
        leaseDurationMs: e.DSYNC_LEADER_ELECTION_LEASE_DURATION,
        renewDeadlineMs: e.DSYNC_LEADER_ELECTION_RENEW_DEADLINE,
        retryPeriodMs: e.DSYNC_LEADER_ELECTION_RETRY_PERIOD,
      },
    },
  };
}

/**
 * `servesApi: false` (the cron jobs) skips the API-key rule: a process that serves no API needs no keys, and a
 * CronJob should not have to mount them.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  generateKey: () => string,
  { servesApi = true }: { servesApi?: boolean } = {},
): Config {
  const e = parseEnv(env);
  const keys = e.DSYNC_API_KEYS ?? [];
  const store = storeConfig(e);
  if (keys.length === 0 && store.redis && servesApi) {
    throw new ConfigError(
      `DSYNC_API_KEYS must be set with ${REDIS_STORE} (refusing to run a shared store without API keys)`,
    );
  }
  if (e.DSYNC_RATE_LIMIT_PLAN === undefined && e.DSYNC_RATE_LIMIT_OVERRIDES !== undefined) {
    throw new ConfigError('DSYNC_RATE_LIMIT_OVERRIDES needs DSYNC_RATE_LIMIT_PLAN (the preset the overrides change)');
  }
  const externalUrl = (e.DSYNC_EXTERNAL_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const providers = providerConfig(e, externalUrl, (message) => new ConfigError(message));
  return {
    port: e.PORT,
    host: e.HOST,
    externalUrl,
    apiKeys: keys.length > 0 ? keys : [toApiKey(generateKey())],
    apiKeyGenerated: keys.length === 0,
    ...store,
    webhook: {
      ...(e.DSYNC_WEBHOOK_BATCH_SIZE !== undefined && { batchSize: e.DSYNC_WEBHOOK_BATCH_SIZE }),
      ...(e.DSYNC_WEBHOOK_BATCH_CRON_INTERVAL !== undefined && {
        batchIntervalSeconds: e.DSYNC_WEBHOOK_BATCH_CRON_INTERVAL,
      }),
      allowPrivate: e.DSYNC_WEBHOOK_ALLOW_PRIVATE ?? store.redis === undefined,
      retrySchedule: e.DSYNC_WEBHOOK_RETRY_SCHEDULE ?? [...DEFAULT_RETRY_SCHEDULE],
      timeoutMs: e.DSYNC_WEBHOOK_TIMEOUT ?? DELIVERY_DEFAULTS.timeoutMs,
    },
    eventRetentionMs: e.DSYNC_EVENT_RETENTION ?? DELIVERY_DEFAULTS.retentionMs,
    webhookLogRetentionMs: e.DSYNC_WEBHOOK_LOG_RETENTION ?? DELIVERY_DEFAULTS.logRetentionMs,
    deliveryLeaseMs: e.DSYNC_DELIVERY_LEASE ?? DELIVERY_DEFAULTS.leaseMs,
    webhookOrdering: e.DSYNC_WEBHOOK_ORDERING ?? DELIVERY_DEFAULTS.ordering,
    webhookConcurrency: e.DSYNC_WEBHOOK_CONCURRENCY ?? DELIVERY_DEFAULTS.postsPerDirectory,
    ...providers,
    ...(e.DSYNC_RATE_LIMIT_PLAN !== undefined && {
      rateLimits: resolvePolicy(e.DSYNC_RATE_LIMIT_PLAN, e.DSYNC_RATE_LIMIT_ENV, e.DSYNC_RATE_LIMIT_OVERRIDES),
    }),
    authFailureLimits: e.DSYNC_AUTH_FAILURE_LIMIT ?? DEFAULT_AUTH_FAILURE_LIMITS,
    ...(e.DSYNC_TRUST_PROXY !== undefined && { trustProxy: e.DSYNC_TRUST_PROXY }),
    metricsPort: e.METRICS_PORT,
    logLevel: e.LOG_LEVEL,
  };
}
