/**
 * The shapes of the parsed configuration: what config.ts gives each process (`dsync serve`, `dsync operator`) and
 * the store part they share; apart so a module can name its slice without the parsing behind it.
 */
import type { Ordering } from './delivery/options.js';
import type { ApiKey } from './http/middleware/api-keys.js';
import type { AuthFailureLimits } from './ratelimit/auth-failures.js';
import type { RateLimitPolicy } from './ratelimit/settings.js';
import type { GoogleOptions } from './providers/google/options.js';
import type { MicrosoftOptions } from './providers/microsoft/options.js';
import type { HrisOptions } from './providers/hris/options.js';
import type { RedisTarget } from './store/redis/target.js';

/** The store every process shares: where it is, how long a command may take, how durable an acknowledged write is. */
export interface StoreConfig {
  /** Unset = the embedded memory store (`dsync serve` alone). */
  redis?: RedisTarget;
  /** A Redis command not answered within this fails (503 with Retry-After); unset = the store's default. */
  redisCommandTimeoutMs?: number;
  /**
   * WAIT for up to `replicas` replicas in sync (within timeoutMs) before acknowledging a write, refusing it when
   * fewer than `minReplicas` confirm; replicas 0 = off.
   */
  redisWait: { replicas: number; minReplicas: number; timeoutMs: number };
}

export interface Config extends StoreConfig {
  port: number;
  host: string;
  externalUrl: string;
  /** DSYNC_API_KEYS, each with its scope (http/middleware/api-keys.ts). */
  apiKeys: ApiKey[];
  /** True when no key was configured and one was generated for this run (memory store only). */
  apiKeyGenerated: boolean;
  webhook: {
    batchSize?: number;
    batchIntervalSeconds?: number;
    allowPrivate: boolean;
    retrySchedule: number[];
    timeoutMs: number;
  };
  /** How long delivered events stay in the log (Events API window). */
  eventRetentionMs: number;
  /** How long delivery attempt logs are kept (directories with log_webhook_events). */
  webhookLogRetentionMs: number;
  /** Lease of a deliverer on a directory (renewed while it works): how long a crashed replica's directories wait. */
  deliveryLeaseMs: number;
  /** Delivery order (DSYNC_WEBHOOK_ORDERING) and POSTs in flight per directory (DSYNC_WEBHOOK_CONCURRENCY). */
  webhookOrdering: Ordering;
  webhookConcurrency: number;
  google: GoogleOptions;
  microsoft: MicrosoftOptions;
  hris: HrisOptions;
  /** Project rate limits (DSYNC_RATE_LIMIT_*); unset = limits off. */
  rateLimits?: RateLimitPolicy;
  /** Failed authentications a minute, per client address and in total (DSYNC_AUTH_FAILURE_LIMIT); always on. */
  authFailureLimits: AuthFailureLimits;
  /** Which proxies' X-Forwarded-For names the client (DSYNC_TRUST_PROXY); unset = the socket's peer is the client. */
  trustProxy?: boolean | number | string[];
  metricsPort: number;
  logLevel: string;
}

/** What `dsync operator` needs: no API keys (it serves no API), but a store shared with `dsync serve`. */
export interface OperatorConfig extends StoreConfig {
  externalUrl: string;
  metricsPort: number;
  host: string;
  logLevel: string;
  operator: {
    /** Where the cluster is: KUBECONFIG, else ~/.kube/config, else the pod's service account (operator/kube-config). */
    cluster: { kubeconfig?: string; serviceHost?: string; servicePort?: string };
    /** Watch these namespaces only (DSYNC_OPERATOR_NAMESPACES, or DSYNC_OPERATOR_NAMESPACE); unset = all namespaces. */
    namespaces?: string[];
    workers: number;
    resyncIntervalMs: number;
    /**
     * Client-side limit of the API requests (watches aside): requests a second (0 = none) and burst, as client-go's
     * QPS/Burst.
     */
    kubeRateLimit: { qps: number; burst: number };
    leaderElection: {
      enabled: boolean;
      /** Unset = the namespace of the kubeconfig context (in a pod: its own namespace). */
      namespace?: string;
      leaseDurationMs: number;
      renewDeadlineMs: number;
      retryPeriodMs: number;
    };
  };
}
