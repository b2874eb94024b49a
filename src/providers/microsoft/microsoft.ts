/**
 * `dsync.microsoft`: the Microsoft Entra ID provider as the library exposes it (admin consent, the pull sync
 * and its status, change notifications), composed from its parts. The HTTP routes and the CLI call these.
 */
import type { DirectoryService } from '../../core/directories.js';
import { parseInput } from '../../core/directories.js';
import { AdminConsent } from './consent.js';
import { AsyncRuns, type AsyncRun } from '../pull/async-runs.js';
import type { SyncReport } from '../pull/runner.js';
import { NotConsentedError, NotMicrosoftDirectoryError } from './errors.js';
import { MicrosoftSync, type MicrosoftSyncDeps } from './microsoft-sync.js';
import { NotificationHandler, notificationBatch, type Outcome } from './notifications.js';
import { Subscriptions, type Resource } from './subscriptions.js';
import type { MicrosoftSyncStatus } from './sync-status.js';
import { TenantGate } from './throttle.js';
import { GraphTokens } from './tokens.js';

export interface MicrosoftProvider {
  /** The origin of the admin-consent page (a page that sends the browser there allows it as a form target). */
  readonly consentOrigin: string;
  /** The admin-consent URL for an admin of the directory's tenant. `redirectUrl`: where the callback sends the browser. */
  adminConsentUrl(input: { directoryId: string; redirectUrl?: string }): Promise<{ adminConsentUrl: string }>;
  /** The browser's return from the admin-consent page: connects the directory, subscribes, syncs soon. */
  callback(query: Record<string, unknown>): Promise<{ directoryId: string; tenantId: string; redirectUrl?: string }>;
  /** Where a callback's state would send the browser (to report a failure there), if the state is valid. */
  redirectOf(state: unknown): string | undefined;
  /** Syncs every active Entra directory, or one. */
  sync(filter?: { directoryId?: string }): Promise<SyncReport>;
  /** The same in the background (or the run of that scope already going); `syncRun` reads it later. */
  startSync(filter?: { directoryId?: string }): Promise<{ run: AsyncRun; joined: boolean }>;
  syncRun(runId: string): AsyncRun | undefined;
  syncStatus(directoryId: string): Promise<MicrosoftSyncStatus>;
  /** Active Entra directories by the state of their last sync, and of their notification subscriptions. */
  directoryStates(): Promise<{ sync: Record<string, number>; notifications: Record<string, number> }>;
  /** A batch of Graph change notifications (the body Graph POSTs): checked, then each directory synced soon. */
  notifications(body: unknown): Promise<{ accepted: number }>;
  /** Creates or renews a directory's subscriptions now (after consent; `recreate`: that one anew). */
  subscribe(directoryId: string, recreate?: Resource): Promise<void>;
  /** No notification-triggered sync is scheduled or running. */
  readonly idle: boolean;
  /** Stops the notification-triggered syncs still scheduled. */
  close(): void;
}

export interface MicrosoftProviderDeps extends Omit<MicrosoftSyncDeps, 'tokens' | 'gate' | 'afterRun'> {
  directories: DirectoryService;
  onNotification?: (outcome: Outcome) => void;
}

export function createMicrosoftProvider(deps: MicrosoftProviderDeps): MicrosoftProvider {
  const { directories, onNotification, ...rest } = deps;
  const logger = deps.logger.child({ unit: 'microsoft-sync' });
  const tokens = new GraphTokens(deps.options);
  const subscriptions = new Subscriptions({ store: deps.store, options: deps.options, logger });
  const sync = new MicrosoftSync({
    ...rest,
    tokens,
    gate: new TenantGate(),
    logger,
    afterRun: async (directory, graph, status) => {
      status.notifications = await subscriptions.ensure(directory, graph);
    },
  });
  const subscribe = async (directoryId: string, recreate?: Resource) => {
    const directory = await sync.directory(directoryId);
    if (!directory.microsoft_tenant_id) throw new NotConsentedError(directoryId);
    const notifications = await subscriptions.ensure(directory, sync.graph(directory.microsoft_tenant_id), recreate);
    await sync.statuses.put({ ...(await sync.statuses.get(directoryId)), notifications });
  };
  const handler = new NotificationHandler({
    verify: (clientState, subscriptionId) => subscriptions.verify(clientState, subscriptionId),
    sync: (directoryId) => sync.run({ directoryId }),
    resubscribe: subscribe,
    delayMs: deps.options.notificationDelayMs,
    logger,
    ...(onNotification && { onNotification }),
  });
  const runs = new AsyncRuns();
  const consent = new AdminConsent({ options: deps.options, directories, store: deps.store, statuses: sync.statuses, tokens });
  return {
    consentOrigin: new URL(deps.options.authorityUrl).origin,
    adminConsentUrl: ({ directoryId, redirectUrl }) => consent.adminConsentUrl(directoryId, redirectUrl),
    callback: async (query) => {
      const connected = await consent.callback(query);
      // The directory is connected: its subscriptions, then its first sync, without keeping the admin waiting.
      void subscribe(connected.directoryId)
        .catch((err) => logger.warn({ err, directoryId: connected.directoryId }, 'could not subscribe after consent'))
        .finally(() => handler.schedule(connected.directoryId));
      return connected;
    },
    redirectOf: (state) => consent.redirectOf(state),
    notifications: async (body) => ({ accepted: await handler.receive(parseInput(notificationBatch, body)) }),
    subscribe,
    get idle() {
      return handler.idle;
    },
    close: () => handler.close(),
    sync: (filter) => sync.run(filter),
    startSync: async (filter = {}) => {
      if (filter.directoryId !== undefined) await sync.directory(filter.directoryId); // a 404/400 now, not in the run
      return runs.start(filter.directoryId ?? '*', () => sync.run(filter));
    },
    syncRun: (runId) => runs.get(runId),
    directoryStates: () => sync.directoryStates(),
    syncStatus: async (directoryId) => {
      const directory = await directories.get(directoryId);
      if (directory.type !== 'microsoft-entra') throw new NotMicrosoftDirectoryError(directoryId);
      return sync.statuses.get(directoryId);
    },
  };
}
