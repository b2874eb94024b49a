#!/usr/bin/env node
/**
 * The `dsync` command: the commands of cli-commands.ts (`serve`, `operator`, `cron …`), each run by its handler here.
 */
import { createServer, type Server } from 'node:http';
import { COMMAND_NAMES, HELP_WORDS, USAGE_EXIT, usage, type CommandName } from './cli-commands.js';
import { ConfigError, loadConfig, loadOperatorConfig, REDIS_STORE } from './config.js';
import type { Config, StoreConfig } from './config-types.js';
import { newSecret } from './core/ids.js';
import { waitForStore } from './core/wait-for-store.js';
import { createApp } from './http/app.js';
import { answerClientErrors } from './http/server/client-errors.js';
import { drainable } from './http/server/drain.js';
import { expressTypes } from './http/server/express-types.js';
import { bearer } from './http/routes/scim.js';
import { listen, PortError } from './listen.js';
import { createLogger, type Logger } from './logger.js';
import { Metrics, ProcessMetrics } from './metrics.js';
import type { SyncReport } from './providers/pull/runner.js';
import { createDsync, type Dsync } from './service.js';
import { onStopSignal } from './signals.js';
import { openRedisStore, openStore, redisClientOf, type OpenStoreOptions } from './store/open-store.js';
import { createPageLimits } from './ratelimit/page-limits.js';
import { createRateLimits, type RateLimits } from './ratelimit/rate-limits.js';

/** The store options every process opens its store with. */
function storeOptions(config: StoreConfig, logger: Logger, metrics: ProcessMetrics): OpenStoreOptions {
  return {
    commandTimeoutMs: config.redisCommandTimeoutMs,
    waitReplicas: config.redisWait.replicas,
    minReplicas: config.redisWait.minReplicas,
    waitTimeoutMs: config.redisWait.timeoutMs,
    logger,
    observe: metrics.observeStore,
    onNotDurable: metrics.countNotDurable,
    onDegraded: metrics.countDegraded,
  };
}

function build(config: Config, logger: Logger): Dsync {
  const metrics = new Metrics();
  return createDsync({
    store: openStore(config.redis, storeOptions(config, logger, metrics)),
    metrics,
    externalUrl: config.externalUrl,
    logger,
    webhook: {
      ...(config.webhook.batchSize !== undefined && { batchSize: config.webhook.batchSize }),
      allowPrivate: config.webhook.allowPrivate,
      retrySchedule: config.webhook.retrySchedule,
      timeoutMs: config.webhook.timeoutMs,
    },
    delivery: {
      retentionMs: config.eventRetentionMs,
      logRetentionMs: config.webhookLogRetentionMs,
      leaseMs: config.deliveryLeaseMs,
      ordering: config.webhookOrdering,
      postsPerDirectory: config.webhookConcurrency,
    },
    google: config.google,
    microsoft: config.microsoft,
    hris: config.hris,
  });
}

/** Rate limits on the store's Redis (shared by replicas), or in this process with the memory store. */
function openRateLimits(config: Config, dsync: Dsync, logger: Logger): RateLimits | undefined {
  if (!config.rateLimits) return undefined;
  const redis = redisClientOf(dsync.store);
  logger.info({ ...config.rateLimits, shared: redis !== undefined }, 'rate limits on');
  return createRateLimits({
    policy: config.rateLimits,
    scimAuthenticated: (directoryId, req) => dsync.requests.authenticates(directoryId, bearer(req)),
    ...(redis && { redis }),
    logger,
    record: (bucket, kind, outcome) => dsync.metrics.rateLimitDecisions.inc({ bucket, kind, outcome }),
  });
}

async function serve(config: Config, logger: Logger): Promise<void> {
  // A stray rejected promise must not take every tenant's endpoint down with it: log it loudly, keep serving.
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled promise rejection'));
  const dsync = build(config, logger);
  await waitForStore(dsync.store, logger);
  const rateLimits = openRateLimits(config, dsync, logger);
  const redis = redisClientOf(dsync.store);
  const app = createApp({
    dsync,
    apiKeys: config.apiKeys,
    logger,
    // On the store's Redis, like the rate limits: a guesser spread over replicas is counted once.
    authFailures: { limits: config.authFailureLimits, ...(redis && { redis }) },
    // The setup page's limits are always on, shared by replicas likewise.
    pageLimits: createPageLimits(redis ? { redis } : {}),
    ...(rateLimits && { rateLimits }),
    ...(config.trustProxy !== undefined && { trustProxy: config.trustProxy }),
    draining: () => drain.draining, // the server below, once it stops
  });
  const types = expressTypes();
  types.adopt(app);
  const server: Server = createServer(types.options, app);
  const drain = drainable(server);
  answerClientErrors(server);
  server.keepAliveTimeout = 65_000;
  // Both ports are bound before any background work starts, so a clash exits with one line and nothing to undo.
  await listen(server, config.port, config.host, 'PORT');
  const metricsServer =
    config.metricsPort > 0 ? await dsync.metrics.listen(config.metricsPort, config.host) : undefined;
  dsync.start();
  let batchTimer: NodeJS.Timeout | undefined;
  if (config.webhook.batchSize !== undefined && config.webhook.batchIntervalSeconds !== undefined) {
    batchTimer = setInterval(() => {
      dsync.processEvents().catch((err) => logger.error({ err }, 'scheduled event processing failed'));
    }, config.webhook.batchIntervalSeconds * 1000);
  }
  const pullTimers = [
    startPullInterval('Google', config.google.syncIntervalSeconds, () => dsync.google.sync(), logger),
    startPullInterval('Microsoft Entra ID', config.microsoft.syncIntervalSeconds, () => dsync.microsoft.sync(), logger),
    startPullInterval('HRIS', config.hris.syncIntervalSeconds, () => dsync.hris.sync(), logger),
  ];
  logger.info(
    {
      port: config.port,
      metricsPort: config.metricsPort || 'off',
      store: dsync.store.kind,
      externalUrl: config.externalUrl,
      batchSize: config.webhook.batchSize,
    },
    'dsync is listening',
  );
  if (config.apiKeyGenerated) {
    const key = config.apiKeys[0]!.key;
    process.stdout.write(
      `\n  dsync is running on ${config.externalUrl} (in-memory store).\n` +
        `  Generated management API key for this run: ${key}\n\n` +
        `  Try:\n    curl -s -H 'Authorization: Api-Key ${key}' -H 'Content-Type: application/json' \\\n` +
        `      -d '{"name":"Acme","tenant":"acme","product":"demo","type":"okta-scim-v2"}' ${config.externalUrl}/api/v1/directory-sync\n\n`,
    );
  }
  // Graceful: not ready at once, every connection drained without failing a request (http/server/drain.ts), then
  // delivery
  // stops and the store closes.
  const shutdown = async (signal: string): Promise<void> => {
    logger.info({ signal }, 'shutting down: finishing in-flight requests, closing connections');
    const force = setTimeout(() => {
      logger.error('shutdown took longer than 10 s; exiting anyway');
      process.exit(1);
    }, 10_000);
    force.unref();
    if (batchTimer) clearInterval(batchTimer);
    for (const timer of pullTimers) if (timer) clearInterval(timer);
    metricsServer?.close();
    metricsServer?.closeAllConnections();
    await drain.drain();
    await dsync.close();
    logger.info('stopped');
    process.exit(0);
  };
  onStopSignal(logger, (signal) =>
    shutdown(signal).catch((err) => {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }),
  );
}

/**
 * One pass over the queued events. Exits non-zero only when the job could not run (bad configuration, store
 * unreachable): a receiver that is down is one tenant's problem, reported in the summary line and retried on
 * the schedule, so it must not fail the CronJob (and page whoever watches KubeJobFailed).
 */
async function processEvents(config: Config, logger: Logger): Promise<void> {
  if (!config.redis)
    throw new ConfigError(`cron process-events needs ${REDIS_STORE}: the in-memory store has no queue to process`);
  const dsync = build(config, logger);
  try {
    await waitForStore(dsync.store, logger);
    const stats = await dsync.processEvents();
    logger.info(stats, 'processed queued events');
    process.stdout.write(
      `process-events: ${stats.directories} directories, ${stats.delivered} events delivered, ${stats.failed} deliveries failed` +
        `${stats.failed > 0 ? ' (receivers down or refusing; retried on the schedule)' : ''}\n`,
    );
  } finally {
    await dsync.close();
  }
}

/** DSYNC_*_SYNC_INTERVAL: a pull sync in-process; a run still going when the next is due is not doubled. */
function startPullInterval(
  name: string,
  seconds: number | undefined,
  run: () => Promise<SyncReport>,
  logger: Logger,
): NodeJS.Timeout | undefined {
  if (seconds === undefined) return undefined;
  let running = false;
  return setInterval(() => {
    if (running) return;
    running = true;
    run()
      .then((report) =>
        logger.info({ directories: report.directories.length, failed: report.failed }, `scheduled ${name} sync done`),
      )
      .catch((err) => logger.error({ err }, `scheduled ${name} sync could not run`))
      .finally(() => (running = false));
  }, seconds * 1000);
}

/**
 * One pull of every active directory of a provider. Exits non-zero only when the run could not work (bad
 * configuration, store unreachable): one customer's revoked token, revoked consent or outage is reported in the
 * output, its sync status and the metrics, so a failed Job means real trouble.
 */
async function syncPull(
  task: string,
  config: Config,
  logger: Logger,
  run: (dsync: Dsync) => Promise<SyncReport>,
): Promise<void> {
  if (!config.redis)
    throw new ConfigError(`cron ${task} needs ${REDIS_STORE}: the in-memory store has no directories to sync`);
  const dsync = build(config, logger);
  try {
    await waitForStore(dsync.store, logger);
    const report = await run(dsync);
    for (const d of report.directories) {
      process.stdout.write(
        `${task}: ${d.id} (${d.tenant}/${d.product}) ${d.state}${d.error ? `: ${d.error.message}` : ''}\n`,
      );
    }
    process.stdout.write(
      `${task}: ${report.directories.length} directories, ${report.created} created, ${report.updated} updated, ` +
        `${report.deleted} deleted, ${report.failed} failed\n`,
    );
  } finally {
    await dsync.close();
  }
}

/** Each command's handler; the operator needs no API keys (it serves no API) and a cron job none either. */
const HANDLERS: Record<CommandName, () => Promise<void>> = {
  serve: () => withConfig(true, serve),
  operator: runOperator,
  'cron process-events': () => withConfig(false, processEvents),
  'cron sync-google': () =>
    withConfig(false, (config, logger) => syncPull('sync-google', config, logger, (dsync) => dsync.google.sync())),
  'cron sync-microsoft': () =>
    withConfig(false, (config, logger) =>
      syncPull('sync-microsoft', config, logger, (dsync) => dsync.microsoft.sync()),
    ),
  'cron sync-hris': () =>
    withConfig(false, (config, logger) => syncPull('sync-hris', config, logger, (dsync) => dsync.hris.sync())),
};

function withConfig(servesApi: boolean, run: (config: Config, logger: Logger) => Promise<void>): Promise<void> {
  const config = loadConfig(process.env, () => newSecret(24), { servesApi });
  return run(config, createLogger(config.logLevel));
}

async function runOperator(): Promise<void> {
  const operatorConfig = loadOperatorConfig(process.env);
  if (!operatorConfig.redis) {
    throw new ConfigError(`dsync operator needs ${REDIS_STORE}: it writes the directories that dsync serve reads`);
  }
  const logger = createLogger(operatorConfig.logLevel);
  const metrics = new ProcessMetrics(); // not serve's delivery families: the operator delivers nothing
  const store = openRedisStore(operatorConfig.redis, storeOptions(operatorConfig, logger, metrics));
  // Loaded on demand: `serve` and the cron jobs never load the operator.
  const { operatorCommand } = await import('./operator/command.js');
  return operatorCommand(operatorConfig, logger, { store, metrics });
}

async function main(argv: string[]): Promise<void> {
  if (argv.length === 0 || (HELP_WORDS as readonly string[]).includes(argv[0]!)) {
    process.stdout.write(`${usage()}\n`);
    return;
  }
  const name = COMMAND_NAMES.find((command) => command === argv.join(' '));
  if (!name) {
    process.stderr.write(`dsync: unknown command "${argv.join(' ')}"\n\n${usage()}\n`);
    process.exitCode = USAGE_EXIT;
    return;
  }
  return HANDLERS[name]();
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError) process.stderr.write(`dsync: configuration error: ${err.message}\n`);
  else if (err instanceof PortError) process.stderr.write(`dsync: ${err.message}\n`);
  else process.stderr.write(`dsync: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
