/**
 * Prometheus metrics on their own listener (METRICS_PORT), never routed by the Ingress. Label values are
 * bounded (route templates, outcomes, command names): no tenant or directory labels.
 *
 * ProcessMetrics is what every dsync process exports (build info, store commands, Node's defaults); Metrics
 * adds `dsync serve`'s families (HTTP, delivery, backlog, cron runs), so the operator, which builds only a
 * ProcessMetrics, does not export delivery families stuck at zero.
 */
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Backlog } from './delivery/backlog.js';
import { listen } from './listen.js';
import type { SyncObserver } from './providers/google/google-sync.js';
import type { MicrosoftObserver } from './providers/microsoft/microsoft-sync.js';
import { HRIS_TYPES, type HrisType } from './providers/hris/connector.js';
import type { HrisObserver } from './providers/hris/hris-sync.js';
import type { CommandObserver } from './store/redis/command-observer.js';
import { HRIS_NAMES, hrisFamilies, type MicrosoftStates, pullRunFamilies, stateGauge } from './metrics-families.js';

const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

export class ProcessMetrics {
  readonly registry = new Registry();
  readonly storeErrors = new Counter({
    name: 'dsync_store_errors_total',
    help: 'Store (Redis) commands that failed, by command name',
    labelNames: ['command'] as const,
    registers: [this.registry],
  });
  readonly storeNotDurable = new Counter({
    name: 'dsync_store_not_durable_total',
    help: 'Store writes answered 503 because fewer replicas than DSYNC_REDIS_MIN_REPLICAS confirmed them in time (or the WAIT failed)',
    registers: [this.registry],
  });
  readonly storeDegraded = new Counter({
    name: 'dsync_store_degraded_writes_total',
    help: 'Store writes acknowledged with fewer replica confirmations than DSYNC_REDIS_WAIT_REPLICAS (a failover before a replica has them could lose them)',
    registers: [this.registry],
  });
  readonly storeDuration = new Histogram({
    name: 'dsync_store_command_duration_seconds',
    help: 'Duration of store (Redis) commands, by command name',
    labelNames: ['command'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'dsync_build_info',
      help: 'Always 1; the labels say which dsync and Node.js run',
      labelNames: ['version', 'node_version'] as const,
      registers: [this.registry],
    }).set({ version: VERSION, node_version: process.version }, 1);
  }

  /** Give to the store's `onNotDurable`. */
  readonly countNotDurable = (): void => this.storeNotDurable.inc();

  /** Give to the store's `onDegraded`. */
  readonly countDegraded = (): void => this.storeDegraded.inc();

  /** Give to `RedisStore.observeCommands`. */
  readonly observeStore: CommandObserver = (command, seconds, failed) => {
    this.storeDuration.observe({ command }, seconds);
    if (failed) this.storeErrors.inc({ command });
  };

  /**
   * Serves `/metrics` on METRICS_PORT and, when `readiness` is given, `/readyz`: 200 while it says ready, 503
   * otherwise, its detail as the body (the operator's readinessProbe). Rejects with a PortError naming the
   * variable when the port is taken.
   */
  listen(port: number, host = '0.0.0.0', readiness?: () => { ready: boolean; detail: string }): Promise<Server> {
    const server = createServer(async (req, res) => {
      if (readiness && req.url === '/readyz') {
        const { ready, detail } = readiness();
        res.writeHead(ready ? 200 : 503, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`${detail}\n`);
        return;
      }
      if (req.url !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      try {
        const body = await this.registry.metrics();
        res.setHeader('Content-Type', this.registry.contentType);
        res.end(body);
      } catch (err) {
        res.writeHead(500).end(`metrics collection failed: ${(err as Error).message}\n`);
      }
    });
    return listen(server, port, host, 'METRICS_PORT').then(() => server);
  }
}

/** A backlog measurement is reused for this long, so several gauges and scrapers share one store walk. */
const BACKLOG_TTL_MS = 5_000;

export class Metrics extends ProcessMetrics {
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route template (refused: answered before a handler), method (other: not one the service answers) and status code',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly deliveryAttempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by mode and outcome',
    labelNames: ['mode', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly deliveryDuration = new Histogram({
    name: 'webhook_delivery_duration_seconds',
    help: 'Duration of one webhook POST',
    labelNames: ['outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
    registers: [this.registry],
  });
  readonly eventsDelivered = new Counter({
    name: 'webhook_events_delivered_total',
    help: 'Events delivered (2xx) to webhooks or the embedded callback',
    registers: [this.registry],
  });
  readonly eventsDeadLettered = new Counter({
    name: 'webhook_events_dead_lettered_total',
    help: 'Events given up on after the last retry (or a 410)',
    registers: [this.registry],
  });
  readonly rateLimitDecisions = new Counter({
    name: 'dsync_ratelimit_decisions_total',
    help: 'Rate-limit decisions by bucket (scim, default), kind (burst, sustained, inflight) and outcome (allowed, limited, report_only)',
    labelNames: ['bucket', 'kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly authFailures = new Counter({
    name: 'dsync_auth_failures_total',
    help: "Failed authentications (outcome failed: a wrong key or SCIM token, a Graph notification with another directory's clientState, a setup link that does not open) and requests refused while their client or realm was over the failure limit (refused), by api (management, scim, notifications, setup)",
    labelNames: ['api', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly cronRuns = new Counter({
    name: 'dsync_cron_runs_total',
    help: 'Runs of a cron job (process-events): success, partial (some receivers failed; retried later) or error (could not run)',
    labelNames: ['task', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly googleRuns = pullRunFamilies(this.registry, 'google', 'Google');
  readonly googleApiRequests = new Counter({
    name: 'dsync_google_api_requests_total',
    help: 'Google Directory API requests made (retries included)',
    registers: [this.registry],
  });
  readonly googleApiRetries = new Counter({
    name: 'dsync_google_api_retries_total',
    help: 'Google Directory API requests retried, by reason (userRateLimitExceeded, 429, 503, network, ...)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  /** What the Google sync reports to (no directory labels: bounded series). */
  readonly googleObserver: SyncObserver = {
    directoryRun: this.googleRuns,
    request: () => this.googleApiRequests.inc(),
    retry: (reason) => this.googleApiRetries.inc({ reason }),
  };

  private readonly microsoftRuns = pullRunFamilies(this.registry, 'microsoft', 'Microsoft Entra ID');
  readonly graphRequests = new Counter({
    name: 'dsync_microsoft_graph_requests_total',
    help: 'Microsoft Graph requests made (retries included)',
    registers: [this.registry],
  });
  readonly graphRetries = new Counter({
    name: 'dsync_microsoft_graph_retries_total',
    help: 'Microsoft Graph requests retried, by reason (429, 503, network, ...)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly graphThrottled = new Counter({
    name: 'dsync_microsoft_graph_throttled_total',
    help: 'Graph answers that throttled a tenant (429 or 503 with Retry-After): its requests waited as told',
    registers: [this.registry],
  });
  readonly microsoftNotifications = new Counter({
    name: 'dsync_microsoft_notifications_total',
    help: 'Graph change notifications received, by outcome (accepted, ignored: unknown subscription or wrong clientState, lifecycle)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly subscriptionRequests = new Counter({
    name: 'dsync_microsoft_subscription_requests_total',
    help: "Graph subscription requests, by outcome (created, renewed; refused: Graph answered 4xx, its message in the directory's sync status; failed: no answer or 5xx)",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  /** What the Entra sync reports to (no directory labels: bounded series). */
  readonly microsoftObserver: MicrosoftObserver = {
    directoryRun: this.microsoftRuns,
    request: () => this.graphRequests.inc(),
    retry: (reason) => this.graphRetries.inc({ reason }),
    throttled: () => this.graphThrottled.inc(),
    subscription: (outcome) => this.subscriptionRequests.inc({ outcome }),
  };

  /** What the HRIS syncs report to, each provider its own families (no directory labels: bounded series). */
  readonly hrisObserver: HrisObserver = hrisFamilies(this.registry);

  private googleStates: (() => Promise<Record<string, number>>) | undefined;
  private hrisStates: (() => Promise<Record<HrisType, Record<string, number>>>) | undefined;
  private microsoftStates: (() => Promise<MicrosoftStates>) | undefined;

  private backlogSource: { mode: string; measure: () => Promise<Backlog> } | undefined;
  private backlogCache: { at: number; value: Promise<Backlog> } | undefined;

  constructor() {
    super();
    const gauge = (name: string, help: string, pick: (b: Backlog) => number, withMode: boolean): void => {
      const metrics = this; // prom-client calls collect with the gauge as `this`
      new Gauge({
        name,
        help,
        labelNames: withMode ? ['mode'] : [],
        registers: [this.registry],
        async collect() {
          const source = metrics.backlogSource;
          if (!source) return;
          const value = pick(await metrics.backlog());
          if (withMode) this.set({ mode: source.mode }, value);
          else this.set(value);
        },
      });
    };
    gauge(
      'dsync_webhook_backlog_events',
      'Events committed but not yet delivered (counted up to 1000 per directory)',
      (b) => b.pendingEvents,
      true,
    );
    gauge(
      'dsync_webhook_backlog_oldest_age_seconds',
      'Age of the oldest event not yet delivered; 0 when none',
      (b) => b.oldestPendingAgeSeconds,
      true,
    );
    gauge(
      'dsync_dead_letters_pending',
      'Dead letters (given-up deliveries) not yet replayed',
      (b) => b.deadLetters,
      false,
    );
    gauge('dsync_webhooks_disabled', 'Directories whose webhook a 410 Gone disabled', (b) => b.webhooksDisabled, false);
    stateGauge(
      this.registry,
      'dsync_google_directories',
      'Active Google directories by the state of their last sync (invalid_credentials: authorize again; guarded: the mass-deletion guard stopped deletions)',
      async () => this.googleStates?.(),
    );
    stateGauge(
      this.registry,
      'dsync_microsoft_directories',
      'Active Microsoft Entra ID directories by the state of their last sync (invalid_credentials: consent revoked, grant it again; guarded: the mass-deletion guard stopped deletions)',
      async () => (await this.microsoftStates?.())?.sync,
    );
    stateGauge(
      this.registry,
      'dsync_microsoft_subscriptions',
      "Active Microsoft Entra ID directories by the state of their change-notification subscriptions (off: no public https URL; failed: see the directory's sync status)",
      async () => (await this.microsoftStates?.())?.notifications,
    );
    for (const type of HRIS_TYPES) {
      stateGauge(
        this.registry,
        `dsync_${type}_directories`,
        `Active ${HRIS_NAMES[type]} directories by the state of their last sync (invalid_credentials: the key was refused, enter it again; guarded: the mass-deletion guard stopped deletions)`,
        async () => (await this.hrisStates?.())?.[type],
      );
    }
  }

  /** Where `dsync_bamboohr_directories`, `dsync_hibob_directories` and `dsync_personio_directories` read from. */
  trackHrisStates(measure: () => Promise<Record<HrisType, Record<string, number>>>): void {
    this.hrisStates = measure;
  }

  /** Where `dsync_microsoft_directories` and `dsync_microsoft_subscriptions` read from. */
  trackMicrosoftStates(measure: () => Promise<MicrosoftStates>): void {
    this.microsoftStates = measure;
  }

  /** Where `dsync_google_directories` reads from (counts of directories by sync state). */
  trackGoogleStates(measure: () => Promise<Record<string, number>>): void {
    this.googleStates = measure;
  }

  /** Where the backlog gauges read from, and the delivery mode (`realtime` or `batch`) they are labelled with. */
  trackBacklog(mode: string, measure: () => Promise<Backlog>): void {
    this.backlogSource = { mode, measure };
  }

  private backlog(): Promise<Backlog> {
    const now = Date.now();
    if (!this.backlogCache || now - this.backlogCache.at > BACKLOG_TTL_MS) {
      const value = this.backlogSource!.measure();
      value.catch(() => (this.backlogCache = undefined)); // a failed walk is not cached
      this.backlogCache = { at: now, value };
    }
    return this.backlogCache.value;
  }

  /** Outcome label of an attempt: 2xx, 4xx, 410, 429, 5xx, or error (network, timeout, blocked). */
  static outcome(status: number | undefined): string {
    if (status === undefined) return 'error';
    if (status === 410 || status === 429) return String(status);
    return `${Math.floor(status / 100)}xx`;
  }
}
