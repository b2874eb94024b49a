/** Options of `runOperator`: documented here, defaulted and checked in one function, at construction. */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { KubeConfigView } from './kube-config/kube-credentials.js';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { newSecret } from '../core/ids.js';
import type { Logger } from '../logger.js';
import type { AccessStore, DirectoryStore, PullSyncStore } from '../core/store-port.js';
import type { MappingRefreshStore } from './mapping-refresh.js';
import { checkLeaderElectionTimings } from './controller/leader-election.js';
import { InvalidOptionError } from './errors.js';

export interface LeaderElectionOptions {
  /** Default true. Turn off only when exactly one replica runs. */
  enabled?: boolean;
  /** Namespace of the Lease. Default: the kubeconfig context's namespace (in a pod, its own), else `default`. */
  namespace?: string;
  /** Default `dsync-operator`. */
  leaseName?: string;
  /** Unique per replica. Default `<hostname>_<random>`. */
  identity?: string;
  /** Default 15 s; must be > renewDeadlineMs + retryPeriodMs (the leader steps down before a standby may take over). */
  leaseDurationMs?: number;
  /** Default 10 s; the leader steps down when it could not renew for this long (from the start of its last renewal). */
  renewDeadlineMs?: number;
  /** Default 2 s; must be < renewDeadlineMs. */
  retryPeriodMs?: number;
}

export interface OperatorOptions {
  /** Where the cluster is and how to authenticate (kubeconfig or in-cluster). */
  kubeConfig: KubeConfigView;
  /** The directory store `dsync serve` reads (Redis). The caller opens and closes it. */
  store: DirectoryStore &
    MappingRefreshStore &
    Pick<PullSyncStore, 'getSyncRecord' | 'putSyncRecord'> &
    Pick<AccessStore, 'getDirectoryAccess' | 'putScimTokens' | 'putSetupLink' | 'findSetupLink' | 'listSetupLinks'>;
  /** Base URL of `dsync serve` as identity providers reach it; SCIM endpoints are built on it. */
  externalUrl: string;
  /**
   * Watch DirectoryConnections and Secrets in these namespaces only, with one list+watch per namespace (so
   * namespaced Roles suffice). Default: all namespaces (cluster-wide list+watch).
   */
  namespaces?: string[];
  /** One namespace: the same as `namespaces: [namespace]`. */
  namespace?: string;
  logger?: Logger;
  /** Registry the metrics go to (the CLI serves it on METRICS_PORT). Default: a private one. */
  registry?: Registry;
  /** Concurrent reconciles (the bounded worker pool). Default 16. */
  workers?: number;
  /**
   * Client-side limit of the reconciler's API requests (watches and the Lease aside), as client-go's QPS and
   * Burst; qps 0 leaves it to the API server's priority and fairness alone. Default 500 a second, burst 1000.
   */
  kubeRateLimit?: { qps: number; burst: number };
  /** Every cached DirectoryConnection is reconciled again this often; 0 = never. Default 10 min. */
  resyncIntervalMs?: number;
  /** A watch silent (no event, no bookmark) for this long is restarted. Default 150 s. */
  watchdogMs?: number;
  /** How soon a resource waiting for its webhook Secret is looked at again. Default 60 s. */
  requeueAfterMs?: number;
  /** Longest wait for one directory-store call in a reconcile before it reports StoreUnavailable. Default 10 s. */
  storeTimeoutMs?: number;
  /** Retry backoff after a failed reconcile: doubles per failure from base to max. Default 5 ms → 5 min. */
  retry?: { baseDelayMs?: number; maxDelayMs?: number };
  leaderElection?: LeaderElectionOptions;
  /** SCIM bearer token generator. Default: 24 random bytes, base64url. */
  newToken?: () => string;
}

export type ResolvedOptions = Required<Omit<OperatorOptions, 'namespace' | 'namespaces' | 'leaderElection'>> & {
  /** undefined = all namespaces. */
  namespaces: string[] | undefined;
  leaderElection: Required<LeaderElectionOptions>;
};

function check(ok: boolean, option: string, problem: string): void {
  if (!ok) throw new InvalidOptionError(option, problem);
}

export function resolveOptions(options: OperatorOptions): ResolvedOptions {
  check(options.kubeConfig?.getCurrentCluster() != null, 'kubeConfig', 'must have a current cluster');
  check(options.store != null, 'store', 'is required');
  check(/^https?:\/\/[^/]/.test(options.externalUrl ?? ''), 'externalUrl', 'must be an http(s) URL');
  const le = options.leaderElection ?? {};
  const context = options.kubeConfig.getContextObject(options.kubeConfig.getCurrentContext());
  const resolved: ResolvedOptions = {
    kubeConfig: options.kubeConfig,
    store: options.store,
    externalUrl: options.externalUrl.replace(/\/+$/, ''),
    namespaces: options.namespaces ?? (options.namespace !== undefined ? [options.namespace] : undefined),
    logger: options.logger ?? pino({ level: 'silent' }),
    registry: options.registry ?? new Registry(),
    workers: options.workers ?? 16,
    kubeRateLimit: options.kubeRateLimit ?? { qps: 500, burst: 1000 },
    resyncIntervalMs: options.resyncIntervalMs ?? 600_000,
    watchdogMs: options.watchdogMs ?? 150_000,
    requeueAfterMs: options.requeueAfterMs ?? 60_000,
    storeTimeoutMs: options.storeTimeoutMs ?? 10_000,
    retry: { baseDelayMs: 5, maxDelayMs: 300_000, ...options.retry },
    newToken: options.newToken ?? (() => newSecret(24)),
    leaderElection: {
      enabled: le.enabled ?? true,
      namespace: le.namespace ?? context?.namespace ?? 'default',
      leaseName: le.leaseName ?? 'dsync-operator',
      identity: le.identity ?? `${hostname()}_${randomUUID().slice(0, 8)}`,
      leaseDurationMs: le.leaseDurationMs ?? 15_000,
      renewDeadlineMs: le.renewDeadlineMs ?? 10_000,
      retryPeriodMs: le.retryPeriodMs ?? 2_000,
    },
  };
  check(
    Number.isInteger(resolved.workers) && resolved.workers >= 1 && resolved.workers <= 64,
    'workers',
    'must be an integer from 1 to 64',
  );
  check(
    resolved.kubeRateLimit.qps >= 0 &&
      Number.isInteger(resolved.kubeRateLimit.burst) &&
      resolved.kubeRateLimit.burst >= 1,
    'kubeRateLimit',
    'needs qps >= 0 (0 = none) and an integer burst >= 1',
  );
  check(resolved.resyncIntervalMs >= 0, 'resyncIntervalMs', 'must be >= 0');
  check(resolved.watchdogMs > 0, 'watchdogMs', 'must be > 0');
  check(resolved.requeueAfterMs > 0, 'requeueAfterMs', 'must be > 0');
  check(
    options.namespace === undefined || options.namespaces === undefined,
    'namespace',
    'and namespaces are exclusive; set one',
  );
  check(
    resolved.namespaces === undefined ||
      (resolved.namespaces.length > 0 && resolved.namespaces.every((n) => /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(n))),
    'namespaces',
    'must be a non-empty list of namespace names',
  );
  check(resolved.storeTimeoutMs > 0, 'storeTimeoutMs', 'must be > 0');
  checkLeaderElectionTimings(resolved.leaderElection, 'leaderElection.');
  return resolved;
}
