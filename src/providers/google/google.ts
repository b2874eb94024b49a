/**
 * `dsync.google`: the Google Workspace provider as the library exposes it (SPEC.md §4.2 steps, the sync and its
 * status), composed from its parts. The HTTP routes and the CLI call these, nothing else.
 */
import type { DirectoryService } from '../../core/directories.js';
import type { Directory } from '../../core/model.js';
import type { SyncRunStore } from '../../core/store-port.js';
import { SyncRuns } from '../sync-runs.js';
import { GoogleAuthorization, type GoogleDirectoryView, type TokenSet } from './authorization.js';
import { NotGoogleDirectoryError } from './errors.js';
import { GoogleSync, type GoogleSyncDeps, type SyncReport } from './google-sync.js';
import { ServiceAccounts, type ServiceAccount } from './service-account.js';
import type { SyncStatus } from './sync-status.js';

export interface GoogleProvider {
  /** Step 1: the consent URL for an admin of the workspace. `redirectUrl`: where the callback sends the browser. */
  authorizationUrl(input: { directoryId: string; redirectUrl?: string }): Promise<{ authorizationUrl: string }>;
  /** Step 2: an authorization code for the token set. */
  exchangeCode(input: { directoryId: string; code: string }): Promise<TokenSet>;
  /** Step 3: the tokens the sync uses. */
  setToken(input: { directoryId: string; accessToken: string; refreshToken: string }): Promise<GoogleDirectoryView>;
  /** The browser callback (steps 2 and 3 after checking the signed state). */
  callback(query: { code?: unknown; state?: unknown; error?: unknown }): Promise<{ directoryId: string; redirectUrl?: string }>;
  /** Where a callback's state would send the browser (to report a failure there), if the state is valid. */
  redirectOf(state: unknown): string | undefined;
  /** The service-account alternative (input: `{key, admin_email}`); answers without the key. */
  setServiceAccount(directoryId: string, input: unknown): Promise<{ id: string; client_email: string; admin_email: string }>;
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

/** The sync's own dependencies, plus the directory service the authorization steps read and update through. */
export interface GoogleProviderDeps extends GoogleSyncDeps {
  store: GoogleSyncDeps['store'] & SyncRunStore;
  directories: DirectoryService;
}

export function createGoogleProvider(deps: GoogleProviderDeps): GoogleProvider {
  const serviceAccounts = new ServiceAccounts(deps.store);
  const { directories: _directories, ...syncDeps } = deps;
  const sync = new GoogleSync({ ...syncDeps, logger: deps.logger.child({ unit: 'google-sync' }) });
  const auth = new GoogleAuthorization({
    options: deps.options,
    directories: deps.directories,
    store: deps.store,
    statuses: sync.statuses,
    serviceAccounts,
  });
  return {
    authorizationUrl: ({ directoryId, redirectUrl }) => auth.authorizationUrl(directoryId, redirectUrl),
    exchangeCode: ({ directoryId, code }) => auth.exchangeCode(directoryId, { code }),
    setToken: ({ directoryId, accessToken, refreshToken }) =>
      auth.setToken(directoryId, { access_token: accessToken, refresh_token: refreshToken }),
    callback: (query) => auth.callback(query),
    redirectOf: (state) => auth.redirectOf(state),
    setServiceAccount: (directoryId, input) => auth.setServiceAccount(directoryId, input),
    putServiceAccount: async (directoryId, account) => {
      const saved = await serviceAccounts.put(directoryId, account);
      if (saved && account) await sync.statuses.reauthorized(directoryId);
      return saved;
    },
    sync: (filter) => sync.run(filter),
    runs: new SyncRuns({ store: deps.store, provider: 'google', runner: sync, logger: deps.logger.child({ unit: 'google-sync-runs' }) }),
    directoryStates: () => sync.directoryStates(),
    syncStatus: async (directoryId) => {
      const directory = await deps.directories.get(directoryId);
      if (directory.type !== 'google') throw new NotGoogleDirectoryError(directoryId);
      return sync.statuses.get(directoryId);
    },
  };
}
