/**
 * Composition root of the library and the server: wires the store, the directory service, the SCIM handler
 * and the delivery engine. Adapters are chosen by the caller (cli.ts, or the embedding application).
 */
import { pino } from 'pino';
import { ActivityRecorder } from './core/activity.js';
import { DirectoryService } from './core/directories.js';
import { Reevaluations } from './core/reevaluations.js';
import type { Directory, DirectorySyncEvent } from './core/model.js';
import { GroupWriter } from './core/groups.js';
import { DirectoryQueries } from './core/queries.js';
import { ScimTokens } from './core/scim-tokens.js';
import { SetupLinks } from './core/setup-links.js';
import { UserWriter } from './core/users.js';
import { measureBacklog } from './delivery/backlog.js';
import { DeliveryEngine, type AttemptRecord } from './delivery/engine.js';
import { DeliveryReads } from './delivery/reads.js';
import { resolveWebhookOptions, type EngineTuning, type WebhookOptions } from './delivery/options.js';
import { RetryPolicy } from './delivery/retry-policy.js';
import { CallbackSink, WebhookSink, type Sink } from './delivery/sinks.js';
import { WebhookSender } from './delivery/webhook-sender.js';
import type { Logger } from './logger.js';
import { Metrics } from './metrics.js';
import { createGoogleProvider, type GoogleProvider } from './providers/google/google.js';
import type { RetryOptions } from './providers/pull/retry.js';
import { externalIdGroupKeys } from './providers/pull/group-keys.js';
import { googleOptions, type GoogleOptions } from './providers/google/options.js';
import { createMicrosoftProvider, type MicrosoftProvider } from './providers/microsoft/microsoft.js';
import { createHrisProvider, type HrisProvider } from './providers/hris/hris.js';
import { hrisOptions, type HrisOptions } from './providers/hris/options.js';
import { RedisBudget } from './providers/pull/shared-budget.js';
import { redisClientOf } from './store/open-store.js';
import { microsoftOptions, type MicrosoftOptions } from './providers/microsoft/options.js';
import { BrowserFlows } from './providers/oauth/browser-flows.js';
import { ScimHandler, type EventCallback, type ScimRequest, type ServedRequest } from './scim/handler.js';
import type { ScimResult } from './scim/context.js';
import type { ShardReplication, Store } from './core/store-port.js';

export interface DsyncOptions {
  store: Store;
  /** Base URL that `scim.endpoint` is built on. */
  externalUrl: string;
  logger?: Logger;
  /**
   * Embedded mode (docs/guides/embedding.md): every event goes to this callback once, in the delivery
   * ordering (`delivery.ordering`), retried on a throw; webhooks are not called.
   */
  eventCallback?: (event: DirectorySyncEvent) => unknown;
  /** The webhook sender and retry schedule (delivery/options.ts documents each option and its default). */
  webhook?: WebhookOptions;
  /** How long a PATCH that changes a mapping waits for the users' evaluation before answering (default 5 s). */
  reevaluationWaitMs?: number;
  /** Engine tuning (tests, benchmarks); see delivery/options.ts. */
  delivery?: EngineTuning;
  onAttempt?: (attempt: AttemptRecord) => void;
  /** Shared metrics registry (the CLI exposes it on METRICS_PORT). */
  metrics?: Metrics;
  /** Google Workspace pull sync (DSYNC_GOOGLE_*); `retry` and `leaseMs` tune it for tests and benchmarks. */
  google?: Partial<GoogleOptions> & { retry?: RetryOptions; leaseMs?: number };
  /**
   * Where the setup page is mounted as a browser reaches it (setup links are built on it); default
   * `<externalUrl>/setup`.
   */
  setupUrl?: string;
  /** Keep the activity record of SCIM requests (the setup page's "recent requests"); default true. */
  recordActivity?: boolean;
  /** Microsoft Entra ID pull sync (DSYNC_MICROSOFT_*); `retry` and `leaseMs` tune it for tests and benchmarks. */
  microsoft?: Partial<MicrosoftOptions> & { retry?: RetryOptions; leaseMs?: number };
  /**
   * BambooHR, HiBob, Personio pull syncs (DSYNC_BAMBOOHR_API_URL...); `retry` and `leaseMs` tune them for tests and
   * benchmarks.
   */
  hris?: Partial<HrisOptions> & { retry?: RetryOptions; leaseMs?: number; budgetWindowSeconds?: number };
}

export interface Dsync {
  readonly store: Store;
  readonly directories: DirectoryService;
  readonly queries: DirectoryQueries;
  /** The user and group write use cases, for every writer besides SCIM (the pull sync, an embedding app). */
  readonly users: UserWriter;
  readonly groups: GroupWriter;
  readonly delivery: DeliveryEngine;
  /** The event log, dead letters and delivery attempt logs, as the Events API and delivery routes read them. */
  readonly deliveryReads: DeliveryReads;
  readonly metrics: Metrics;
  /** The embeddable SCIM request handler (docs/guides/embedding.md). */
  readonly requests: {
    handle(request: ScimRequest, callback?: EventCallback): Promise<ScimResult>;
    /** `handle`, also telling how the request stood with its directory (the HTTP endpoint's metrics go by it). */
    serve(request: ScimRequest): Promise<ServedRequest>;
    /** Whether `apiSecret` is the SCIM secret of directory `directoryId`. */
    authenticates(directoryId: string, apiSecret: string): Promise<boolean>;
  };
  /**
   * Readiness: resolves when the store answers (the `store` is named by its kind), and its shards' replicas in sync.
   */
  readonly health: { store: Store['kind']; ping(): Promise<void>; replication(): Promise<ShardReplication[]> };
  /** Google Workspace: the authorization flow (docs/guides/google-workspace.md), the pull sync and its status. */
  readonly google: GoogleProvider;
  /** A directory's SCIM bearer tokens: list, create, revoke (at most two at once, `scim.secret` the first). */
  readonly scimTokens: ScimTokens;
  /** Setup links for the customer's IT admin: create, list, revoke, resolve. */
  readonly setupLinks: SetupLinks;
  /** The recent SCIM requests of each directory. */
  readonly activity: ActivityRecorder;
  /** Microsoft Entra ID: admin consent, the pull sync on Graph's delta query, change notifications. */
  readonly microsoft: MicrosoftProvider;
  /** BambooHR, HiBob, Personio: credentials tried and kept, the pull sync, provider webhooks as hints. */
  readonly hris: HrisProvider;
  /** The browser OAuth flows of the pull providers: start one in a browser, open a start link, finish a callback. */
  readonly oauth: BrowserFlows;
  /** Delivers queued events now (batch mode's cron). */
  processEvents(): ReturnType<DeliveryEngine['processDue']>;
  /** Starts background delivery (real-time polling and the crash-repair sweep). */
  start(): void;
  close(): Promise<void>;
}

export function createDsync(options: DsyncOptions): Dsync {
  const logger = options.logger ?? pino({ level: 'silent' });
  const { store } = options;
  // The users' writer is made below: the directories reach it only once a mapping changes.
  const reevaluations = new Reevaluations({
    store,
    reevaluateAll: (dir, progress) => users.reevaluateAll(dir, progress),
    onError: (directoryId, err) =>
      logger.error({ err, directoryId }, 'user re-evaluation failed; the next serve process to start runs it again'),
    onDone: (directoryId, status) => logger.info({ directoryId, ...status }, 'users re-evaluated'),
  });
  const directories = new DirectoryService({
    store,
    externalUrl: options.externalUrl,
    mappingChanged: (dir) => reevaluations.run(dir),
    ...(options.reevaluationWaitMs !== undefined && { reevaluationWaitMs: options.reevaluationWaitMs }),
  });
  const queries = new DirectoryQueries(store, directories);
  const webhook = resolveWebhookOptions(options.webhook);
  const sender = new WebhookSender({ allowPrivate: webhook.allowPrivate, timeoutMs: webhook.timeoutMs });
  const sink: Sink = options.eventCallback ? new CallbackSink(options.eventCallback) : new WebhookSink(sender);
  const batchSize = options.eventCallback ? undefined : webhook.batchSize;
  const metrics = options.metrics ?? new Metrics();
  const mode = batchSize === undefined ? 'realtime' : 'batch';
  metrics.trackBacklog(mode, () => measureBacklog(store));
  const observe = (attempt: AttemptRecord) => {
    const outcome = attempt.result.error ? 'error' : Metrics.outcome(attempt.result.status);
    metrics.deliveryAttempts.inc({ mode, outcome });
    metrics.deliveryDuration.observe({ outcome }, attempt.result.latencyMs / 1000);
    if (attempt.verdict === 'delivered') metrics.eventsDelivered.inc(attempt.eventIds.length);
    if (attempt.verdict === 'dead' || attempt.verdict === 'disable')
      metrics.eventsDeadLettered.inc(attempt.eventIds.length);
    options.onAttempt?.(attempt);
  };
  const delivery = new DeliveryEngine({
    store,
    sink,
    policy: new RetryPolicy(webhook.retrySchedule),
    logger: logger.child({ unit: 'delivery' }),
    ...(batchSize !== undefined && { batchSize }),
    realtime: batchSize === undefined,
    ...options.delivery,
    onAttempt: observe,
  });
  // Every writer tells delivery about the events it committed (SCIM today, the pull sync next).
  const committed = (directoryId: string) => delivery.notify(directoryId);
  const users = new UserWriter({ store, committed });
  const roles = (dir: Directory, ids: readonly string[]) => users.refreshRoles(dir, ids);
  const groups = new GroupWriter({ store, committed, roles });
  const scimTokens = new ScimTokens({
    store,
    onError: (err) => logger.warn({ err }, 'could not record when a SCIM token was used'),
  });
  const activity = new ActivityRecorder({
    store,
    onError: (err) => logger.warn({ err }, 'could not write the SCIM activity record'),
  });
  const scim = new ScimHandler({
    reads: store,
    users,
    groups,
    tokens: scimTokens,
    onError: (err, req, errorId) => {
      const { requestId, directoryId, method, resourceType } = req;
      logger.error({ err, errorId, requestId, directoryId, method, resourceType }, 'SCIM request failed');
    },
    // A request without a token is not recorded (anyone can send one, with a path of their choosing); a wrong
    // token is (its client is limited), without moving the directory's last request.
    ...(options.recordActivity !== false && {
      onAnswered: (req, result, admission) => {
        if (admission !== 'no-token')
          activity.record(req.directoryId, {
            ...activityEntry(req, result),
            authenticated: admission === 'authenticated',
          });
      },
    }),
  });
  // The same core use cases as SCIM: a pulled change emits exactly the events of the same change pushed.
  // Groups keyed by the provider's key (Google's email, Graph's id), not their (non-unique) name.
  const pullWriters = { users, groups: new GroupWriter({ store, committed, keys: externalIdGroupKeys, roles }) };
  const { retry, leaseMs, ...googleGiven } = options.google ?? {};
  const setupLinks = new SetupLinks({
    store,
    baseUrl: options.setupUrl ?? `${options.externalUrl.replace(/\/+$/, '')}/setup`,
  });
  const oauth = new BrowserFlows({
    store,
    externalUrl: options.externalUrl,
    setupLinkWorks: (directoryId, linkId) => setupLinks.works(directoryId, linkId),
  });
  const google = createGoogleProvider({
    store,
    directories,
    flows: oauth,
    writers: pullWriters,
    options: googleOptions(options.externalUrl, googleGiven),
    logger,
    observer: metrics.googleObserver,
    ...(retry && { retry }),
    ...(leaseMs !== undefined && { leaseMs }),
  });
  metrics.trackGoogleStates(() => google.directoryStates());
  const { retry: msRetry, leaseMs: msLeaseMs, ...microsoftGiven } = options.microsoft ?? {};
  const microsoft = createMicrosoftProvider({
    store,
    directories,
    flows: oauth,
    writers: pullWriters,
    options: microsoftOptions(options.externalUrl, microsoftGiven),
    logger,
    observer: metrics.microsoftObserver,
    onNotification: (outcome) => metrics.microsoftNotifications.inc({ outcome }),
    ...(msRetry && { retry: msRetry }),
    ...(msLeaseMs !== undefined && { leaseMs: msLeaseMs }),
  });
  metrics.trackMicrosoftStates(() => microsoft.directoryStates());
  const { retry: hrisRetry, leaseMs: hrisLeaseMs, budgetWindowSeconds, ...hrisGiven } = options.hris ?? {};
  // On Redis, a company's request budget is shared by every replica; in memory, this process is the only one.
  const redis = redisClientOf(store);
  const hris = createHrisProvider({
    store,
    directories,
    writers: pullWriters,
    options: hrisOptions(hrisGiven),
    logger,
    observer: metrics.hrisObserver,
    ...(redis && { budget: new RedisBudget(redis, budgetWindowSeconds) }),
    ...(hrisRetry && { retry: hrisRetry }),
    ...(hrisLeaseMs !== undefined && { leaseMs: hrisLeaseMs }),
  });
  metrics.trackHrisStates(() => hris.directoryStates());
  return {
    store,
    directories,
    queries,
    users,
    groups,
    google,
    scimTokens,
    setupLinks,
    activity,
    microsoft,
    hris,
    oauth,
    delivery,
    deliveryReads: new DeliveryReads(store),
    metrics,
    requests: {
      handle: (request, callback) => scim.handle(request, callback),
      serve: (request) => scim.serve(request),
      authenticates: (directoryId, apiSecret) => scim.authenticates(directoryId, apiSecret),
    },
    health: { store: store.kind, ping: () => store.ping(), replication: () => store.replication() },
    async processEvents() {
      // A receiver that is down is a `partial` run (its events are retried on the schedule); `error` means the
      // job itself could not run (the store failed).
      try {
        const stats = await delivery.processDue();
        metrics.cronRuns.inc({ task: 'process-events', outcome: stats.failed > 0 ? 'partial' : 'success' });
        return stats;
      } catch (err) {
        metrics.cronRuns.inc({ task: 'process-events', outcome: 'error' });
        throw err;
      }
    },
    start: () => {
      delivery.start();
      // Evaluations a stopped process left running.
      reevaluations
        .resumePending()
        .catch((err: unknown) => logger.error({ err }, 'could not look for user re-evaluations to resume'));
    },
    async close() {
      microsoft.close();
      hris.close();
      await reevaluations.stop();
      await delivery.stop();
      await activity.close();
      await sender.close();
      await store.close();
    },
  };
}

/** What the activity record keeps of a SCIM request and its answer: never a body, a header or the query. */
function activityEntry(req: ScimRequest, result: ScimResult) {
  const detail = result.status >= 400 ? (result.data as { detail?: unknown } | undefined)?.detail : undefined;
  return {
    method: req.method,
    path: `/${req.resourceType}${req.resourceId ? `/${req.resourceId}` : ''}`,
    status: result.status,
    error: typeof detail === 'string' ? detail : null,
  };
}
