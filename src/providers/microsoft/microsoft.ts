/**
 * `dsync.microsoft`: the Microsoft Entra ID provider as the library exposes it (admin consent, the pull sync
 * and its status, change notifications), composed from its parts. The HTTP routes and the CLI call these.
 */
import type { DirectoryService } from '../../core/directories.js';
import type { SyncReport } from '../pull/runner.js';
import { NotMicrosoftDirectoryError } from './errors.js';
import { MicrosoftSync, type MicrosoftSyncDeps } from './microsoft-sync.js';
import type { MicrosoftSyncStatus } from './sync-status.js';
import { TenantGate } from './throttle.js';
import { GraphTokens } from './tokens.js';

export interface MicrosoftProvider {
  /** Syncs every active Entra directory, or one. */
  sync(filter?: { directoryId?: string }): Promise<SyncReport>;
  syncStatus(directoryId: string): Promise<MicrosoftSyncStatus>;
  /** Active Entra directories by the state of their last sync, and of their notification subscriptions. */
  directoryStates(): Promise<{ sync: Record<string, number>; notifications: Record<string, number> }>;
}

export interface MicrosoftProviderDeps extends Omit<MicrosoftSyncDeps, 'tokens' | 'gate' | 'afterRun'> {
  directories: DirectoryService;
}

export function createMicrosoftProvider(deps: MicrosoftProviderDeps): MicrosoftProvider {
  const { directories, ...rest } = deps;
  const tokens = new GraphTokens(deps.options);
  const sync = new MicrosoftSync({ ...rest, tokens, gate: new TenantGate(), logger: deps.logger.child({ unit: 'microsoft-sync' }) });
  return {
    sync: (filter) => sync.run(filter),
    directoryStates: () => sync.directoryStates(),
    syncStatus: async (directoryId) => {
      const directory = await directories.get(directoryId);
      if (directory.type !== 'microsoft-entra') throw new NotMicrosoftDirectoryError(directoryId);
      return sync.statuses.get(directoryId);
    },
  };
}
