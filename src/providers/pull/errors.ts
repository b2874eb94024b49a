/** Coded errors every pull provider shares (its lease, its mass-deletion guard), named after the provider. */
import type { GuardCodePrefix, RunCodePrefix } from '../../core/error-codes-providers.js';
import { DsyncError } from '../../core/errors.js';

/**
 * How a provider's shared errors read: `Google`, `DSYNC_GOOGLE`, the variable that raises its guard. The prefix is
 * one the error-code table knows: a runner's (RunCodePrefix) or a mass-deletion guard's (GuardCodePrefix).
 */
export interface ProviderLabel<P extends RunCodePrefix | GuardCodePrefix = RunCodePrefix | GuardCodePrefix> {
  name: string;
  codePrefix: P;
  maxShareVariable: string;
}

/** Another run holds this directory's sync lease. */
export class SyncBusyError extends DsyncError {
  override name = 'SyncBusyError';
  constructor(p: ProviderLabel<RunCodePrefix>, id: string) {
    super(`Directory ${id} is being synced by another run`, `${p.codePrefix}_SYNC_BUSY`);
  }
}

/** The run would delete more than the allowed share of the directory: it deleted nothing and says so. */
export class MassDeletionError extends DsyncError {
  override name = 'MassDeletionError';
  constructor(p: ProviderLabel<GuardCodePrefix>, what: string, deletions: number, stored: number, maxShare: number) {
    super(
      `Mass-deletion guard: this run would delete ${deletions} of ${stored} ${what} (more than ${Math.round(maxShare * 100)}%); ` +
        `nothing was deleted. Check the directory in ${p.name}; raise ${p.maxShareVariable} if the deletions are intended`,
      `${p.codePrefix}_MASS_DELETION`,
    );
  }
}

/** The run lost its lease on the directory (it took too long, or the store failed): it stopped. */
export class LeaseLostError extends DsyncError {
  override name = 'LeaseLostError';
  constructor(p: ProviderLabel<RunCodePrefix>, id: string) {
    super(`The sync of directory ${id} lost its lease and stopped`, `${p.codePrefix}_LEASE_LOST`);
  }
}
