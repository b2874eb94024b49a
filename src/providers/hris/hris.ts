/**
 * `dsync.hris`: the HRIS providers (BambooHR, HiBob, Personio) as the library exposes them: credentials tried and
 * kept, the pull sync and its status, background runs, and provider webhooks as hints. The HTTP routes, the
 * setup page and the CLI call these.
 */
import type { DirectoryService } from '../../core/directories.js';
import { parseInput } from '../../core/directories.js';
import { ForbiddenError, NotFoundError } from '../../core/errors.js';
import type { Directory } from '../../core/model.js';
import type { SyncRunStore } from '../../core/store-port.js';
import type { SyncReport } from '../pull/runner.js';
import { SyncRuns } from '../pull/sync-runs.js';
import { SyncSoon } from '../pull/sync-soon.js';
import { isHrisType, type HrisType, type WebhookCall } from './connector.js';
import { connectorFor } from './connectors.js';
import { HrisNotConnectedError, HrisWebhookRefusedError, NotHrisDirectoryError } from './errors.js';
import { CONNECT_RETRY, HrisSync, type HrisSyncDeps } from './hris-sync.js';
import type { HrisSyncStatus } from './sync-status.js';

/** What a connected directory shows of its credentials: never a secret. */
export interface HrisConnectionView {
  directory_id: string;
  type: HrisType;
  provider: string;
  connected_at: string;
  /** The credentials' fields that are not secret (BambooHR's subdomain, HiBob's service user id...). */
  account: Record<string, string>;
}

export interface HrisProvider {
  /** Tries the credentials with the provider at once; keeps them only when it accepted them, then syncs soon. */
  setCredentials(directoryId: string, input: unknown): Promise<HrisConnectionView>;
  /** Saves credentials as a controller (the operator) does, tried first; false when they were already these. */
  putCredentials(directoryId: string, input: unknown): Promise<boolean>;
  /** Syncs every active HRIS directory, or one. */
  sync(filter?: { directoryId?: string }): Promise<SyncReport>;
  /** The same sync as a background run (`Prefer: respond-async`): started or joined, then read by its id. */
  readonly runs: SyncRuns<Directory>;
  syncStatus(directoryId: string): Promise<HrisSyncStatus>;
  /** Active HRIS directories by provider and by the state of their last sync. */
  directoryStates(): Promise<Record<HrisType, Record<string, number>>>;
  /** A provider webhook: checked (where the provider signs), then the directory synced soon. */
  webhook(directoryId: string, call: WebhookCall): Promise<void>;
  /** No webhook-triggered sync is scheduled or running. */
  readonly idle: boolean;
  close(): void;
}

export interface HrisProviderDeps extends HrisSyncDeps {
  store: HrisSyncDeps['store'] & SyncRunStore;
  directories: DirectoryService;
}

export function createHrisProvider(deps: HrisProviderDeps): HrisProvider {
  const logger = deps.logger.child({ unit: 'hris-sync' });
  const { directories, ...syncDeps } = deps;
  const sync = new HrisSync({ ...syncDeps, logger });
  const soon = new SyncSoon({
    sync: (directoryId) => sync.runner.run({ directoryId }),
    delayMs: deps.options.webhookDelayMs,
    minIntervalMs: deps.options.webhookMinIntervalMs,
    logger,
    what: 'HRIS',
  });

  const hrisDirectory = async (id: string): Promise<Directory & { type: HrisType }> => {
    const directory = await directories.get(id);
    if (!isHrisType(directory.type)) throw new NotHrisDirectoryError(id);
    return directory as Directory & { type: HrisType };
  };

  /** The input checked, then tried with the provider (its 401/403 is a 400 naming its answer): nothing kept yet. */
  const tried = async (directoryId: string, input: unknown) => {
    const directory = await hrisDirectory(directoryId);
    const connector = connectorFor(directory.type);
    const credentials = parseInput(connector.credentials, input) as Record<string, string>;
    await sync.connection(directory.type, credentials, undefined, deps.retry ?? CONNECT_RETRY).conn.verify();
    return { directory, connector, credentials };
  };

  const keep = async (directoryId: string, credentials: Record<string, string>): Promise<string> => {
    const connected_at = new Date().toISOString();
    if (!(await sync.credentials.put(directoryId, { credentials, connected_at })))
      throw new NotFoundError(`Directory ${directoryId} not found`);
    await sync.cursors.put(directoryId, null);
    await sync.statuses.reauthorized(directoryId);
    soon.schedule(directoryId);
    return connected_at;
  };

  return {
    async setCredentials(directoryId, input) {
      const directory = await hrisDirectory(directoryId);
      if (directory.managed_by) {
        throw new ForbiddenError(
          `Directory ${directoryId} is managed by ${directory.managed_by}; set spec.hris.credentialsSecretRef of its DirectoryConnection instead`,
        );
      }
      const { connector, credentials } = await tried(directoryId, input);
      const connected_at = await keep(directoryId, credentials);
      return {
        directory_id: directoryId,
        type: directory.type,
        provider: connector.name,
        connected_at,
        account: connector.visible(credentials),
      };
    },
    async putCredentials(directoryId, input) {
      const current = await sync.credentials.get(directoryId);
      if (current && JSON.stringify(current.credentials) === JSON.stringify(input)) return false;
      const { credentials } = await tried(directoryId, input);
      await keep(directoryId, credentials);
      return true;
    },
    sync: (filter) => sync.runner.run(filter),
    runs: new SyncRuns({
      store: deps.store,
      provider: 'hris',
      runner: sync.runner,
      logger: deps.logger.child({ unit: 'hris-sync-runs' }),
    }),
    async syncStatus(directoryId) {
      await hrisDirectory(directoryId);
      return sync.statuses.get(directoryId);
    },
    async directoryStates() {
      const out = { bamboohr: {}, hibob: {}, personio: {} } as Record<HrisType, Record<string, number>>;
      for (const d of await sync.runner.directories()) {
        const { state } = await sync.statuses.get(d.id);
        const byState = out[d.type as HrisType];
        byState[state] = (byState[state] ?? 0) + 1;
      }
      return out;
    },
    async webhook(directoryId, call) {
      const directory = await sync.runner.directory(directoryId);
      const stored = await sync.credentials.get(directoryId);
      if (!stored) throw new HrisNotConnectedError(directoryId);
      const refused = connectorFor(directory.type as HrisType).verifyWebhook(stored.credentials, call, Date.now());
      if (refused) throw new HrisWebhookRefusedError(`Webhook refused: ${refused}`);
      soon.schedule(directoryId);
    },
    get idle() {
      return soon.idle;
    },
    close: () => soon.close(),
  };
}
