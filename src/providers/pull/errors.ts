/** Coded errors every pull provider shares (its lease, its mass-deletion guard), named after the provider. */
import { DsyncError } from '../../core/errors.js';

/** How a provider's shared errors read: `Google`, `DSYNC_GOOGLE`, the variable that raises its guard. */
export interface ProviderLabel {
  name: string;
  codePrefix: string;
  maxShareVariable: string;
}

/** Another run holds this directory's sync lease. */
export class SyncBusyError extends DsyncError {
  override name = 'SyncBusyError';
  constructor(p: ProviderLabel, id: string) {
    super(`Directory ${id} is being synced by another run`, `${p.codePrefix}_SYNC_BUSY`, 409);
  }
}

/** The run would delete more than the allowed share of the directory: it deleted nothing and says so. */
export class MassDeletionError extends DsyncError {
  override name = 'MassDeletionError';
  constructor(p: ProviderLabel, what: string, deletions: number, stored: number, maxShare: number) {
    super(
      `Mass-deletion guard: this run would delete ${deletions} of ${stored} ${what} (more than ${Math.round(maxShare * 100)}%); ` +
        `nothing was deleted. Check the directory in ${p.name}; raise ${p.maxShareVariable} if the deletions are intended`,
      `${p.codePrefix}_MASS_DELETION`,
      409,
    );
  }
}

/** The run lost its lease on the directory (it took too long, or the store failed): it stopped. */
export class LeaseLostError extends DsyncError {
  override name = 'LeaseLostError';
  constructor(p: ProviderLabel, id: string) {
    super(`The sync of directory ${id} lost its lease and stopped`, `${p.codePrefix}_LEASE_LOST`, 503);
  }
}
