/**
 * `dsync.google`: the Google Workspace provider as the library exposes it (the three authorization steps, the sync and
 * its
 * status), composed from its parts. The HTTP routes and the CLI call these, nothing else.
 */
import type { DirectoryService } from '../../core/directories.js';
import type { Directory } from '../../core/model.js';
import type { SyncRunStore } from '../../core/store-port.js';
import type { BrowserFlows } from '../oauth/browser-flows.js';
import { SyncRuns } from '../pull/sync-runs.js';
import { GOOGLE_FLOW, GoogleAuthorization, type GoogleDirectoryView, type TokenSet } from './authorization.js';
import { NotGoogleDirectoryError } from './errors.js';
import { GoogleSync, type GoogleSyncDeps, type SyncReport } from './google-sync.js';
import { ServiceAccounts, type ServiceAccount } from './service-account.js';
import type { SyncStatus } from './sync-status.js';

export interface GoogleProvider {
  /** Whether an OAuth client is configured (DSYNC_GOOGLE_CLIENT_ID and _SECRET): the consent flow can run. */
  readonly configured: boolean;
  /** The origin of Google's consent page (a page that sends the browser there allows it as a form target). */
  readonly consentOrigin: string;
  /**
   * Step 1: the URL to send an admin of the workspace to (a single-use start link of ours, which goes on to
   * Google's consent page). `redirectUrl`: where the callback sends the browser afterwards.
   */
  authorizationUrl(input: { directoryId: string; redirectUrl?: string }): Promise<{ authorizationUrl: string }>;
  /** Step 2: an authorization code for the token set. */
  exchangeCode(input: { directoryId: string; code: string }): Promise<TokenSet>;
  /** Step 3: the tokens the sync uses. */
  setToken(input: { directoryId: string; accessToken: string; refreshToken: string }): Promise<GoogleDirectoryView>;
  /** The service-account alternative (input: `{key, admin_email}`); answers without the key. */
  setServiceAccount(
    directoryId: string,
    input: unknown,
  ): Promise<{ id: string; client_email: string; admin_email: string }>;
  /** Saves a service account as a controller (the operator) does, past the managed-directory rule. */
  putServiceAccount(directoryId: string, account: ServiceAccount | null): Promise<boolean>;
  /** Syncs every active Google directory, or one. */
  sync(filter?: { directoryId?: string }): Promise<SyncReport>;
  /** The same sync as a background run (`Prefer: respond-async`): started or joined, then read by its id. */
  readonly runs: SyncRuns<Directory>;
  syncStatus(directoryId: string): Promise<SyncStatus>;
  /** Active Google directories by the state of their last sync. */
  directoryStates(): Promise<Record<string, number>>;
}

/**
 * The sync's own dependencies, plus the directory service the authorization steps read and update through, and
 * the browser flows Google's consent registers with (as `google`).
 */
export interface GoogleProviderDeps extends GoogleSyncDeps {
  store: GoogleSyncDeps['store'] & SyncRunStore;
  directories: DirectoryService;
  flows: BrowserFlows;
}

export function createGoogleProvider(deps: GoogleProviderDeps): GoogleProvider {
  const serviceAccounts = new ServiceAccounts(deps.store);
  const { directories: _directories, flows: _flows, ...syncDeps } = deps;
  const sync = new GoogleSync({ ...syncDeps, logger: deps.logger.child({ unit: 'google-sync' }) });
  const auth = new GoogleAuthorization({
    options: deps.options,
    directories: deps.directories,
    store: deps.store,
    statuses: sync.statuses,
    serviceAccounts,
    flows: deps.flows,
  });
  deps.flows.register(GOOGLE_FLOW, auth);
  return {
    configured: Boolean(deps.options.clientId && deps.options.clientSecret),
    consentOrigin: new URL(deps.options.authUrl).origin,
    authorizationUrl: ({ directoryId, redirectUrl }) => auth.authorizationUrl(directoryId, redirectUrl),
    exchangeCode: ({ directoryId, code }) => auth.exchangeCode(directoryId, { code }),
    setToken: ({ directoryId, accessToken, refreshToken }) =>
      auth.setToken(directoryId, { access_token: accessToken, refresh_token: refreshToken }),
    setServiceAccount: (directoryId, input) => auth.setServiceAccount(directoryId, input),
    putServiceAccount: async (directoryId, account) => {
      const saved = await serviceAccounts.put(directoryId, account);
      if (saved && account) await sync.statuses.reauthorized(directoryId);
      return saved;
    },
    sync: (filter) => sync.run(filter),
    runs: new SyncRuns({
      store: deps.store,
      provider: 'google',
      runner: sync.runner,
      logger: deps.logger.child({ unit: 'google-sync-runs' }),
    }),
    directoryStates: () => sync.directoryStates(),
    syncStatus: async (directoryId) => {
      const directory = await deps.directories.get(directoryId);
      if (directory.type !== 'google') throw new NotGoogleDirectoryError(directoryId);
      return sync.statuses.get(directoryId);
    },
  };
}
