/**
 * `dsync.microsoft`: the Microsoft Entra ID provider as the library exposes it (admin consent, the pull sync
 * and its status, change notifications), composed from its parts. The HTTP routes and the CLI call these.
 */
import type { DirectoryService } from '../../core/directories.js';
import { parseInput } from '../../core/directories.js';
import type { Directory } from '../../core/model.js';
import type { SyncRunStore } from '../../core/store-port.js';
import type { BrowserFlows } from '../oauth/browser-flows.js';
import type { SyncReport } from '../pull/runner.js';
import { SyncRuns } from '../pull/sync-runs.js';
import { AdminConsent, MICROSOFT_FLOW } from './consent.js';
import { NotConsentedError, NotMicrosoftDirectoryError } from './errors.js';
import { MicrosoftSync, type MicrosoftSyncDeps } from './microsoft-sync.js';
import { NotificationHandler, notificationBatch, type Outcome, type Received } from './notifications.js';
import { SubscriptionRetries } from './subscription-retries.js';
import { Subscriptions, type Resource } from './subscriptions.js';
import type { MicrosoftSyncStatus } from './sync-status.js';
import { TenantGate } from './throttle.js';
import { GraphTokens } from './tokens.js';

export interface MicrosoftProvider {
  /** The origin of the admin-consent page (a page that sends the browser there allows it as a form target). */
  readonly consentOrigin: string;
  /**
   * The URL to send an admin of the directory's tenant to (a single-use start link of ours, which goes on to
   * Microsoft's admin-consent page). `redirectUrl`: where the callback sends the browser afterwards. The
   * callback is the browser flows' (`dsync.oauth`, as `microsoft`): it connects the directory, subscribes, syncs.
   */
  adminConsentUrl(input: { directoryId: string; redirectUrl?: string }): Promise<{ adminConsentUrl: string }>;
  /** Syncs every active Entra directory, or one. */
  sync(filter?: { directoryId?: string }): Promise<SyncReport>;
  /** The same sync as a background run (`Prefer: respond-async`): started or joined, then read by its id. */
  readonly runs: SyncRuns<Directory>;
  syncStatus(directoryId: string): Promise<MicrosoftSyncStatus>;
  /** Active Entra directories by the state of their last sync, and of their notification subscriptions. */
  directoryStates(): Promise<{ sync: Record<string, number>; notifications: Record<string, number> }>;
  /** A batch of Graph change notifications (the body Graph POSTs): checked, then each directory synced soon. */
  notifications(body: unknown): Promise<Received>;
  /**
   * Creates or renews a directory's subscriptions now, whatever a backoff says (after consent; `recreate`: that one
   * anew).
   */
  subscribe(directoryId: string, recreate?: Resource): Promise<void>;
  /** No notification-triggered sync is scheduled or running. */
  readonly idle: boolean;
  /** Stops the notification-triggered syncs still scheduled. */
  close(): void;
}

/**
 * The sync's own dependencies, plus the directory service the consent reads and updates through, and the
 * browser flows the admin consent registers with (as `microsoft`).
 */
export interface MicrosoftProviderDeps extends Omit<MicrosoftSyncDeps, 'tokens' | 'gate' | 'afterRun'> {
  store: MicrosoftSyncDeps['store'] & SyncRunStore;
  directories: DirectoryService;
  flows: BrowserFlows;
  onNotification?: (outcome: Outcome) => void;
}

export function createMicrosoftProvider(deps: MicrosoftProviderDeps): MicrosoftProvider {
  const { directories, onNotification, flows, ...rest } = deps;
  const logger = deps.logger.child({ unit: 'microsoft-sync' });
  const tokens = new GraphTokens(deps.options);
  const subscriptions = new Subscriptions({
    store: deps.store,
    options: deps.options,
    logger,
    onRequest: (outcome) => deps.observer?.subscription(outcome),
  });
  const retries = new SubscriptionRetries(logger);
  const sync = new MicrosoftSync({
    ...rest,
    tokens,
    gate: new TenantGate(),
    logger,
    afterRun: async (directory, graph, status) => {
      status.notifications = await subscriptions.ensure(directory, graph);
      retries.after(directory.id, status.notifications, () => keep(directory.id));
    },
  });
  /** The directory's subscriptions kept, and its status told (`force`: now, whatever the backoff says). */
  const keep = async (directoryId: string, options: { only?: Resource; force?: boolean } = {}) => {
    const directory = await sync.directory(directoryId);
    if (!directory.microsoft_tenant_id) throw new NotConsentedError(directoryId);
    const notifications = await subscriptions.ensure(directory, sync.graph(directory.microsoft_tenant_id), options);
    await sync.statuses.put({ ...(await sync.statuses.get(directoryId)), notifications });
    retries.after(directoryId, notifications, () => keep(directoryId));
  };
  const subscribe = (directoryId: string, recreate?: Resource) =>
    keep(directoryId, { force: true, ...(recreate && { only: recreate }) });
  const handler = new NotificationHandler({
    verifier: () => subscriptions.verifier(),
    sync: (directoryId) => sync.run({ directoryId }),
    resubscribe: subscribe,
    delayMs: deps.options.notificationDelayMs,
    logger,
    ...(onNotification && { onNotification }),
  });
  const consent = new AdminConsent({
    options: deps.options,
    directories,
    store: deps.store,
    statuses: sync.statuses,
    tokens,
    flows,
  });
  flows.register(MICROSOFT_FLOW, {
    consent: (directoryId, state, step) => consent.consent(directoryId, state, step),
    complete: async (directoryId, query, data) => {
      const done = await consent.complete(directoryId, query, data);
      if (typeof done !== 'string') return done; // signed in: on to the consent
      // The directory is connected: its subscriptions, then its first sync, without keeping the admin waiting.
      void subscribe(directoryId)
        .catch((err) => logger.warn({ err, directoryId }, 'could not subscribe after consent'))
        .finally(() => handler.schedule(directoryId));
      return done;
    },
  });
  return {
    consentOrigin: new URL(deps.options.authorityUrl).origin,
    adminConsentUrl: ({ directoryId, redirectUrl }) => consent.adminConsentUrl(directoryId, redirectUrl),
    notifications: (body) => handler.receive(parseInput(notificationBatch, body)),
    subscribe,
    get idle() {
      return handler.idle;
    },
    close: () => {
      handler.close();
      retries.close();
    },
    sync: (filter) => sync.run(filter),
    runs: new SyncRuns({
      store: deps.store,
      provider: 'microsoft',
      runner: sync.runner,
      logger: deps.logger.child({ unit: 'microsoft-sync-runs' }),
    }),
    directoryStates: () => sync.directoryStates(),
    syncStatus: async (directoryId) => {
      const directory = await directories.get(directoryId);
      if (directory.type !== 'microsoft-entra') throw new NotMicrosoftDirectoryError(directoryId);
      return sync.statuses.get(directoryId);
    },
  };
}
