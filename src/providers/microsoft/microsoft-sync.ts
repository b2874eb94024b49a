/**
 * The Entra pull sync over every active microsoft-entra directory (or one), on the shared runner (leases,
 * statuses, report: pull/runner.ts). The work on one directory: its tenant's Graph, a delta (or full) round,
 * the new delta links saved only after the whole run succeeded, then its change-notification subscriptions
 * kept alive (subscriptions.ts), which never fail the sync itself.
 */
import type { Directory } from '../../core/model.js';
import type { DirectoryStore, PullSyncStore } from '../../core/store-port.js';
import type { Logger } from '../../logger.js';
import type { SyncReadStore } from '../pull/apply.js';
import { MassDeletionError } from '../pull/errors.js';
import type { RetryOptions } from '../pull/retry.js';
import { PullRunner, type RunContext, type RunObserver, type SyncReport } from '../pull/runner.js';
import type { SyncState } from '../pull/sync-status.js';
import type { SyncWriters } from '../pull/writers.js';
import { DeltaApi } from './delta-api.js';
import { DeltaSync } from './delta-sync.js';
import { MICROSOFT, MicrosoftCredentialsError, NotConsentedError, NotMicrosoftDirectoryError } from './errors.js';
import { DEFAULT_GRAPH_RETRY, GraphApi } from './graph-api.js';
import type { MicrosoftOptions } from './options.js';
import { DeltaStates, MicrosoftSyncStatuses, type MicrosoftSyncStatus } from './sync-status.js';
import type { SubscriptionOutcome } from './subscriptions.js';
import type { TenantGate } from './throttle.js';
import type { GraphTokens } from './tokens.js';

export type MicrosoftSyncStore = SyncReadStore &
  Pick<DirectoryStore, 'getDirectory' | 'listDirectoryIds' | 'updateDirectory'> &
  PullSyncStore;

/** Told about runs, Graph requests, retries, throttling and subscription requests (metrics.ts); never about tenants. */
export interface MicrosoftObserver extends RunObserver {
  request(): void;
  retry(reason: string): void;
  throttled(): void;
  subscription(outcome: SubscriptionOutcome): void;
}

export interface MicrosoftSyncDeps {
  store: MicrosoftSyncStore;
  writers: SyncWriters;
  options: MicrosoftOptions;
  tokens: GraphTokens;
  gate: TenantGate;
  logger: Logger;
  observer?: MicrosoftObserver;
  retry?: RetryOptions;
  leaseMs?: number;
  /** After a successful run: the directory's subscriptions (their state goes into the status). */
  afterRun?: (directory: Directory, graph: GraphApi, status: MicrosoftSyncStatus) => Promise<void>;
}

const STATE_OF: Array<[new (...args: never[]) => Error, SyncState]> = [
  [MicrosoftCredentialsError, 'invalid_credentials'],
  [NotConsentedError, 'not_authorized'],
  [MassDeletionError, 'guarded'],
];

export class MicrosoftSync {
  readonly statuses: MicrosoftSyncStatuses;
  readonly deltaStates: DeltaStates;
  /** The shared runner: also what a background run drives (pull/sync-runs.ts). */
  readonly runner: PullRunner<MicrosoftSyncStatus>;

  constructor(private readonly deps: MicrosoftSyncDeps) {
    this.statuses = new MicrosoftSyncStatuses(deps.store);
    this.deltaStates = new DeltaStates(deps.store);
    this.runner = new PullRunner({
      type: 'microsoft-entra',
      label: MICROSOFT,
      store: deps.store,
      statuses: this.statuses,
      logger: deps.logger,
      ...(deps.observer && { observer: deps.observer }),
      leaseMs: deps.leaseMs ?? 60_000,
      wrongType: (id) => new NotMicrosoftDirectoryError(id),
      stateOf: (err) => STATE_OF.find(([type]) => err instanceof type)?.[1],
      fresh: (status) => ({ ...status, mode: null, seen: { users: 0, groups: 0 }, graph_requests: 0, throttled: 0 }),
      work: (directory, run) => this.syncOne(directory, run),
    });
  }

  async run(filter: { directoryId?: string } = {}): Promise<SyncReport> {
    return this.runner.run(filter);
  }

  directory(id: string): Promise<Directory> {
    return this.runner.directory(id);
  }

  directories(): Promise<Directory[]> {
    return this.runner.directories();
  }

  /** Active directories by sync state, and by notification state (the metrics gauges). */
  async directoryStates(): Promise<{ sync: Record<string, number>; notifications: Record<string, number> }> {
    const sync: Record<string, number> = {};
    const notifications: Record<string, number> = {};
    for (const d of await this.runner.directories()) {
      const status = await this.statuses.get(d.id);
      sync[status.state] = (sync[status.state] ?? 0) + 1;
      notifications[status.notifications.state] = (notifications[status.notifications.state] ?? 0) + 1;
    }
    return { sync, notifications };
  }

  /** The tenant's Graph, counting into `status` when given. */
  graph(tenantId: string, status?: MicrosoftSyncStatus): GraphApi {
    const { observer } = this.deps;
    return new GraphApi({
      tenantId,
      graphUrl: this.deps.options.graphUrl,
      tokens: this.deps.tokens,
      gate: this.deps.gate,
      retry: this.deps.retry ?? DEFAULT_GRAPH_RETRY,
      onRequest: () => {
        if (status) status.graph_requests++;
        observer?.request();
      },
      onRetry: (f) => observer?.retry(f.status ? String(f.status) : 'network'),
      onThrottled: () => {
        if (status) status.throttled++;
        observer?.throttled();
      },
    });
  }

  private async syncOne(directory: Directory, { status, checkpoint }: RunContext<MicrosoftSyncStatus>): Promise<void> {
    const tenantId = directory.microsoft_tenant_id;
    if (!tenantId) throw new NotConsentedError(directory.id);
    status.tenant_id = tenantId;
    const graph = this.graph(tenantId, status);
    const run = new DeltaSync(
      directory,
      {
        store: this.deps.store,
        writers: this.deps.writers,
        api: new DeltaApi(graph),
        maxDeleteShare: this.deps.options.maxDeleteShare,
        checkpoint,
      },
      status.counts,
    );
    try {
      const state = await run.run(await this.deltaStates.get(directory.id));
      checkpoint();
      await this.deltaStates.put(directory.id, state);
    } finally {
      status.mode = run.mode;
      status.seen = run.seen;
    }
    await this.deps.afterRun?.(directory, graph, status);
  }
}
