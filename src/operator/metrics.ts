/**
 * Operator metrics, named after controller-runtime's and client-go's so existing dashboards and alerts apply.
 * Labels are bounded (controller, result, resource, verb): never a namespace, tenant or object name.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { findCondition, READY } from './conditions.js';
import type { DirectoryConnection } from './crd-schema.js';
import type { WorkQueueHooks } from './controller/work-queue.js';

export class OperatorMetrics {
  readonly reconcileTotal: Counter<'controller' | 'result'>;
  readonly reconcileErrors: Counter<'controller'>;
  readonly terminalReconcileErrors: Counter<'controller'>;
  readonly reconcileTime: Histogram<'controller'>;
  readonly queueDepth: Gauge<'name'>;
  readonly queueAdds: Counter<'name'>;
  readonly queueRetries: Counter<'name'>;
  readonly leader: Gauge<'name'>;
  /**
   * Write requests sent to the API server (`target="kubernetes"`) and writes made to the store: 0 when nothing changed.
   */
  readonly writes: Counter<'target' | 'resource' | 'verb'>;
  /** Requests to the API server (watches excluded: they stream), by client-go's labels. */
  readonly restRequests: Counter<'code' | 'method' | 'host'>;
  private connections: (() => Iterable<DirectoryConnection>) | undefined;
  private reports: () => boolean = () => true;

  constructor(registry: Registry) {
    const registers = [registry];
    const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Counter<L>({ name, help, labelNames, registers });
    const gauge = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Gauge<L>({ name, help, labelNames, registers });
    this.restRequests = counter(
      'rest_client_requests_total',
      'Number of HTTP requests to the API server, partitioned by status code, method, and host',
      ['code', 'method', 'host'],
    );
    const metrics = this;
    new Gauge({
      name: 'dsync_directoryconnections',
      help: 'DirectoryConnections in the watched namespaces by Ready status and reason (reported by the leader alone, so a sum over replicas counts each once)',
      labelNames: ['ready', 'reason'],
      registers,
      collect() {
        this.reset();
        if (!metrics.connections || !metrics.reports()) return;
        const counts = new Map<string, { ready: string; reason: string; n: number }>();
        for (const cr of metrics.connections()) {
          const ready = findCondition(cr.status?.conditions, READY);
          const labels = { ready: ready?.status ?? 'Unknown', reason: ready?.reason ?? 'Pending' };
          const key = `${labels.ready}/${labels.reason}`;
          const entry = counts.get(key) ?? { ...labels, n: 0 };
          entry.n++;
          counts.set(key, entry);
        }
        for (const { ready, reason, n } of counts.values()) this.set({ ready, reason }, n);
      },
    });
    this.reconcileTotal = counter(
      'controller_runtime_reconcile_total',
      'Total number of reconciliations per controller and result',
      ['controller', 'result'],
    );
    this.reconcileErrors = counter(
      'controller_runtime_reconcile_errors_total',
      'Total number of reconciliation errors per controller',
      ['controller'],
    );
    this.terminalReconcileErrors = counter(
      'controller_runtime_terminal_reconcile_errors_total',
      'Total number of terminal reconciliation errors (not retried) per controller',
      ['controller'],
    );
    this.reconcileTime = new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      labelNames: ['controller'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.queueDepth = gauge('workqueue_depth', 'Current depth of the work queue', ['name']);
    this.queueAdds = counter('workqueue_adds_total', 'Total number of adds handled by the work queue', ['name']);
    this.queueRetries = counter('workqueue_retries_total', 'Total number of retries handled by the work queue', [
      'name',
    ]);
    this.leader = gauge('leader_election_master_status', '1 while this replica is the leader, 0 otherwise', ['name']);
    this.writes = counter(
      'dsync_operator_writes_total',
      'Write requests issued by the operator, to the API server or the directory store',
      ['target', 'resource', 'verb'],
    );
  }

  /** The cache the DirectoryConnection gauge counts at each scrape, while `reports()` (this replica leads). */
  trackConnections(list: () => Iterable<DirectoryConnection>, reports: () => boolean): void {
    this.connections = list;
    this.reports = reports;
  }

  queueHooks(name: string): WorkQueueHooks {
    return {
      depth: (depth) => this.queueDepth.set({ name }, depth),
      added: () => this.queueAdds.inc({ name }),
      retried: () => this.queueRetries.inc({ name }),
    };
  }

  /** Sum of write requests, optionally leaving out some resources (leases renew on their own). */
  async writeCount(exclude: string[] = []): Promise<number> {
    const { values } = await this.writes.get();
    return values.filter((v) => !exclude.includes(String(v.labels.resource))).reduce((sum, v) => sum + v.value, 0);
  }
}
