/**
 * `dsync operator`: runs the operator with the environment's configuration (config.ts) against the cluster of
 * KUBECONFIG (else ~/.kube/config, else the pod's service account), serving metrics and its readiness (/readyz) on
 * METRICS_PORT. SIGTERM/SIGINT stop it
 * gracefully (the Lease is released); a lost leadership exits with status 1 so the pod restarts.
 */
import type { OperatorConfig } from '../config-types.js';
import type { Store } from '../core/store-port.js';
import { waitForStore } from '../core/wait-for-store.js';
import type { Logger } from '../logger.js';
import type { ProcessMetrics } from '../metrics.js';
import { onStopSignal } from '../signals.js';
import { loadKubeConfig } from './kube-config/load-kube-config.js';
import { runOperator, type Operator } from './main.js';
import type { Readiness } from './readiness.js';

/** `store` and `metrics` are built by the caller (the CLI: adapters are built in one place); closed here on exit. */
export async function operatorCommand(
  config: OperatorConfig,
  logger: Logger,
  { store, metrics }: { store: Store; metrics: ProcessMetrics },
): Promise<void> {
  const kubeConfig = await loadKubeConfig(config.operator.cluster);
  await waitForStore(store, logger);
  // Bound before the operator starts, so a taken METRICS_PORT exits with one line and no half-started controller.
  let operator: Operator | undefined;
  const ready = (): Readiness => operator?.readiness() ?? { ready: false, detail: 'starting' };
  const server = config.metricsPort > 0 ? await metrics.listen(config.metricsPort, config.host, ready) : undefined;
  const { operator: settings } = config;
  operator = runOperator({
    kubeConfig,
    store,
    externalUrl: config.externalUrl,
    ...(settings.namespaces !== undefined && { namespaces: settings.namespaces }),
    logger,
    registry: metrics.registry,
    workers: settings.workers,
    resyncIntervalMs: settings.resyncIntervalMs,
    kubeRateLimit: settings.kubeRateLimit,
    leaderElection: settings.leaderElection,
  });
  logger.info(
    {
      cluster: kubeConfig.getCurrentCluster()?.server,
      namespaces: settings.namespaces ?? '(all)',
      identity: operator.identity,
    },
    'dsync operator started',
  );

  const exit = async (code: number): Promise<void> => {
    const force = setTimeout(() => process.exit(code || 1), 20_000);
    force.unref();
    await operator.stop();
    server?.close();
    await store.close().catch(() => undefined);
    process.exit(code);
  };
  onStopSignal(logger, (signal) => {
    logger.info({ signal }, 'shutting down');
    void exit(0);
  });
  operator.done.catch((err: unknown) => {
    logger.error({ err }, 'operator stopped');
    void exit(1);
  });
}
