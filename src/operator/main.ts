/**
 * `runOperator`: wires the informers, the DirectoryConnection controller and leader election, and runs them.
 *
 * Every replica keeps warm caches; only the leader reconciles. When leadership is lost (renewals failed for the
 * renew deadline), reconciling stops at once and `done` rejects; the CLI then exits non-zero so the pod
 * restarts, as controller-runtime does. `stop()` finishes the reconciles in flight, then frees the Lease so a
 * standby takes over without waiting for it to expire.
 */
import { DirectoryService } from '../core/directories.js';
import { Controller } from './controller/controller.js';
import { Informer } from './controller/informer.js';
import { LeaderElector } from './controller/leader-election.js';
import { DIRECTORY_CONNECTIONS, GROUP, KIND, type DirectoryConnection } from './crd-schema.js';
import { CONTROLLER_NAME, DirectoryConnectionReconciler } from './directory-connection.js';
import { OperatorError } from './errors.js';
import { EventRecorder } from './events.js';
import { KubeClient, objectKey, SECRETS, type Secret, type WriteVerb } from './kube.js';
import { OperatorMetrics } from './metrics.js';
import { resolveOptions, type OperatorOptions } from './options.js';
import { SCIM_SECRET_SUFFIX } from './scim-secret.js';

export type { OperatorOptions } from './options.js';

export interface Operator {
  /** This replica's leader-election identity. */
  readonly identity: string;
  readonly metrics: OperatorMetrics;
  isLeader(): boolean;
  /** Reconciles every cached DirectoryConnection again now (what the periodic resync does). */
  resync(): void;
  /** Resolves when no reconcile is queued or running (delayed retries do not count). */
  idle(): Promise<void>;
  /** Resolves after `stop()`; rejects when the operator stops on its own (leadership lost). */
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

const SECRET_INDEX = 'webhookSecret';

/** `namespace/secretName` of the webhook Secret a resource references, for the Secret → resource mapping. */
function referencedSecret(cr: DirectoryConnection): string[] {
  const name = (cr.spec as { webhook?: { secretRef?: { name?: unknown } } } | undefined)?.webhook?.secretRef?.name;
  return typeof name === 'string' ? [`${cr.metadata.namespace}/${name}`] : [];
}

export function runOperator(options: OperatorOptions): Operator {
  const o = resolveOptions(options);
  const logger = o.logger.child({ component: 'operator' });
  const metrics = new OperatorMetrics(o.registry);
  const onWrite = (resource: string, verb: WriteVerb): void => metrics.writes.inc({ target: 'kubernetes', resource, verb });
  const client = new KubeClient({ kubeConfig: o.kubeConfig, onWrite });
  const le = o.leaderElection;
  // Its own connection pool and a timeout below the renew deadline, so renewals never queue behind reconciles.
  const leaseClient = new KubeClient({ kubeConfig: o.kubeConfig, onWrite, timeoutMs: le.renewDeadlineMs / 2 });
  const informer = { client, namespace: o.namespace, logger, watchdogMs: o.watchdogMs };
  const connections = new Informer<DirectoryConnection>({
    ...informer,
    resource: DIRECTORY_CONNECTIONS,
    resyncIntervalMs: o.resyncIntervalMs,
    indexers: { [SECRET_INDEX]: referencedSecret },
  });
  const secrets = new Informer<Secret>({ ...informer, resource: SECRETS, resyncIntervalMs: 0 });
  const controller = new Controller({
    name: CONTROLLER_NAME,
    workers: o.workers,
    metrics,
    logger,
    retry: o.retry,
    reconciler: new DirectoryConnectionReconciler({
      client,
      connections,
      secrets,
      directories: new DirectoryService({ store: o.store, externalUrl: o.externalUrl }),
      externalUrl: o.externalUrl,
      events: new EventRecorder({ client, component: 'dsync-operator', instance: le.identity, logger }),
      metrics,
      logger,
      requeueAfterMs: o.requeueAfterMs,
      newToken: o.newToken,
    }),
  });

  connections.on((_type, cr) => controller.enqueue(objectKey(cr)));
  // A Secret matters to the resources referencing it as their webhook Secret, to its owner, and (conflict
  // detection) to the resource whose `<name>-scim` name it takes.
  secrets.on((_type, secret) => {
    const { namespace, name } = secret.metadata;
    const keys = new Set(connections.keysByIndex(SECRET_INDEX, `${namespace}/${name}`));
    for (const ref of secret.metadata.ownerReferences ?? []) {
      if (ref.controller && ref.kind === KIND && ref.apiVersion.startsWith(`${GROUP}/`)) keys.add(`${namespace}/${ref.name}`);
    }
    const owner = name.endsWith(SCIM_SECRET_SUFFIX) && `${namespace}/${name.slice(0, -SCIM_SECRET_SUFFIX.length)}`;
    if (owner && connections.get(owner)) keys.add(owner);
    for (const key of keys) controller.enqueue(key);
  });

  const elector = le.enabled
    ? new LeaderElector({ client: leaseClient, namespace: le.namespace, name: le.leaseName, identity: le.identity, leaseDurationMs: le.leaseDurationMs, renewDeadlineMs: le.renewDeadlineMs, retryPeriodMs: le.retryPeriodMs, logger })
    : undefined;
  let stopping = false;
  let signalStop!: () => void;
  const stopRequested = new Promise<'stop'>((resolve) => (signalStop = () => resolve('stop')));

  async function lifecycle(): Promise<void> {
    connections.start();
    secrets.start();
    const ready = Promise.all([connections.synced, secrets.synced, elector ? elector.acquire() : true]);
    const outcome = await Promise.race([ready, stopRequested]);
    if (outcome === 'stop' || !outcome[2]) return;
    metrics.leader.set({ name: le.leaseName }, 1);
    logger.info({ namespace: o.namespace ?? '(all)', objects: connections.size, identity: le.identity }, 'reconciling');
    controller.start();
    for (const cr of connections.list()) controller.enqueue(objectKey(cr));
    if (!elector || (await elector.renew()) || stopping) return;
    metrics.leader.set({ name: le.leaseName }, 0);
    await controller.stop();
    throw new OperatorError('leader election lost: stopped reconciling', 'DSYNC_LEADER_ELECTION_LOST');
  }

  const done = lifecycle();
  done.catch(() => undefined); // observed by the caller through `done`; not an unhandled rejection here

  return {
    identity: le.identity,
    metrics,
    isLeader: () => controller.isRunning(),
    resync: () => connections.resync(),
    idle: () => controller.queue.idle(),
    done,
    async stop(): Promise<void> {
      if (stopping) return done.catch(() => undefined);
      stopping = true;
      signalStop();
      await controller.stop();
      await elector?.stop();
      metrics.leader.set({ name: le.leaseName }, 0);
      await Promise.all([connections.stop(), secrets.stop()]);
      client.close();
      leaseClient.close();
      await done.catch(() => undefined);
    },
  };
}
