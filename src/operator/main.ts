/**
 * `runOperator`: wires the informers, the DirectoryConnection controller and leader election, and runs them.
 *
 * Every replica keeps warm caches; only the leader reconciles. Renewing starts the moment the Lease is taken.
 * When leadership is lost (another replica holds the Lease, or renewals failed up to the renew deadline), no
 * new reconcile starts, every write (Kubernetes and store) of the reconciles in flight is refused before it is
 * sent, and `done` rejects; the CLI then exits non-zero so the pod restarts, as controller-runtime does.
 * `stop()` finishes the reconciles in flight, then frees the Lease so a standby takes over without waiting.
 *
 * Secrets: only the operator's own (label `app.kubernetes.io/managed-by: dsync-operator`) are cached with their
 * data. Of every other Secret in the watched namespaces only the name, uid, resourceVersion and owner
 * references are kept, from a metadata-only watch (the API server never sends their data): a change of a
 * referenced webhook Secret triggers its reconcile at once, and the reconcile GETs the Secret once per
 * resourceVersion (referenced-secrets.ts).
 */
import { DirectoryService } from '../core/directories.js';
import { SetupLinks } from '../core/setup-links.js';
import { Controller } from './controller/controller.js';
import type { InformerEventType } from './controller/informer.js';
import { cacheFor } from './controller/namespaced-informers.js';
import { LeaderElector } from './controller/leader-election.js';
import type { Logger } from '../logger.js';
import { DIRECTORY_CONNECTIONS, GROUP, KIND, type DirectoryConnection } from './crd-schema.js';
import { CONTROLLER_NAME, DirectoryConnectionReconciler } from './directory-connection.js';
import { GoogleAccess } from './google-access.js';
import { MicrosoftAccess } from './microsoft-access.js';
import { HrisAccess } from './hris-access.js';
import { NotLeaderError, OperatorError } from './errors.js';
import { EventRecorder } from './kube-events.js';
import { KubeClient, objectKey, SECRETS, type KubeObject, type Secret, type WriteVerb } from './kube.js';
import { OperatorMetrics } from './metrics.js';
import { ReferencedSecrets } from './referenced-secrets.js';
import { backgroundMappingRefresh } from './mapping-refresh.js';
import { resolveOptions, type OperatorOptions } from './options.js';
import { readiness, type Readiness } from './readiness.js';
import { MANAGED_BY_SELECTOR, NOT_MANAGED_BY_SELECTOR } from './metadata-keys.js';
import { SCIM_SECRET_SUFFIX, holdsFinalizer } from './scim-secret.js';
import { SetupLinkStep } from './setup-link.js';

export type { OperatorOptions } from './options.js';

export interface Operator {
  /** This replica's leader-election identity. */
  readonly identity: string;
  readonly metrics: OperatorMetrics;
  isLeader(): boolean;
  /** Caches synced, and leading or a healthy standby: what `/readyz` answers. */
  readiness(): Readiness;
  /**
   * Reconciles every cached DirectoryConnection again now (the periodic resync: those not reconciled within half its
   * interval).
   */
  resync(): void;
  /** Resolves when no reconcile is queued or running (delayed retries do not count). */
  idle(): Promise<void>;
  /** Resolves after `stop()`; rejects when the operator stops on its own (leadership lost). */
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

const SECRET_INDEX = 'webhookSecret';

/**
 * `namespace/secretName` of the Secrets a resource references (webhook, Google service account, HRIS credentials), for
 * the Secret → resource mapping.
 */
function referencedSecret(cr: DirectoryConnection): string[] {
  type Ref = { secretRef?: { name?: unknown } };
  const spec = cr.spec as
    | { webhook?: Ref; google?: { serviceAccount?: Ref }; hris?: { credentialsSecretRef?: { name?: unknown } } }
    | undefined;
  const names = [
    spec?.webhook?.secretRef?.name,
    spec?.google?.serviceAccount?.secretRef?.name,
    spec?.hris?.credentialsSecretRef?.name,
  ];
  return [...new Set(names.filter((n): n is string => typeof n === 'string'))].map(
    (n) => `${cr.metadata.namespace}/${n}`,
  );
}

/**
 * What is kept of a Secret that is not labelled as the operator's: enough to map it to resources, and to
 * finish the deletion of a SCIM Secret whose label was removed; nothing else.
 */
function secretIdentity(obj: KubeObject): KubeObject {
  const { name, namespace, uid, resourceVersion, ownerReferences, deletionTimestamp, finalizers } = obj.metadata;
  return {
    metadata: {
      name,
      namespace,
      uid,
      resourceVersion,
      ...(ownerReferences && { ownerReferences }),
      ...(deletionTimestamp && { deletionTimestamp }),
      ...(finalizers && { finalizers }),
    },
  };
}

/** The resource a SCIM Secret `<name>-scim` belongs to, by its name. */
const scimSecretOwner = (secret: KubeObject): string | undefined =>
  secret.metadata.name.endsWith(SCIM_SECRET_SUFFIX)
    ? `${secret.metadata.namespace}/${secret.metadata.name.slice(0, -SCIM_SECRET_SUFFIX.length)}`
    : undefined;

/**
 * Every key to reconcile: the cached resources, and the resources of SCIM Secrets being deleted that hold the
 * finalizer (their resource may be gone already, e.g. deleted while no operator ran).
 */
function* allKeys(caches: Caches): Generator<string> {
  for (const cr of caches.connections.list()) yield objectKey(cr);
  for (const cache of [caches.secrets, caches.otherSecrets]) {
    for (const secret of cache.list()) {
      const owner = secret.metadata.deletionTimestamp && holdsFinalizer(secret) && scimSecretOwner(secret);
      if (owner && !caches.connections.get(owner)) yield owner;
    }
  }
}

type Resolved = ReturnType<typeof resolveOptions>;

/** The API clients: the Lease's own (renewals never queue behind reconciles) and the reconciler's, fenced. */
function buildClients(o: Resolved, metrics: OperatorMetrics, logger: Logger) {
  const le = o.leaderElection;
  const onWrite = (resource: string, verb: WriteVerb): void =>
    metrics.writes.inc({ target: 'kubernetes', resource, verb });
  const onResponse = (method: string, code: string, host: string): void =>
    metrics.restRequests.inc({ code, method, host });
  // The elector bounds each of its requests itself.
  const leaseClient = new KubeClient({ kubeConfig: o.kubeConfig, onWrite, onResponse });
  const elector = le.enabled
    ? new LeaderElector({
        client: leaseClient,
        namespace: le.namespace,
        name: le.leaseName,
        identity: le.identity,
        leaseDurationMs: le.leaseDurationMs,
        renewDeadlineMs: le.renewDeadlineMs,
        retryPeriodMs: le.retryPeriodMs,
        logger,
      })
    : undefined;
  // Every write of the reconciler (Kubernetes and store) passes this first: a replica that does not lead any
  // more (even before its renew loop noticed) writes nothing.
  const fence = (): void => {
    if (elector && !elector.isLeader()) throw new NotLeaderError();
  };
  const client = new KubeClient({
    kubeConfig: o.kubeConfig,
    onWrite,
    onResponse,
    beforeWrite: fence,
    ...(o.kubeRateLimit.qps > 0 && { rateLimit: o.kubeRateLimit }),
  });
  return { leaseClient, client, elector, fence };
}

/** The watched caches: DirectoryConnections, the operator's own Secrets, and the identity of every other Secret. */
function buildCaches(o: Resolved, client: KubeClient, logger: Logger) {
  const informer = { client, logger, watchdogMs: o.watchdogMs };
  const connections = cacheFor<DirectoryConnection>(o.namespaces, {
    ...informer,
    resource: DIRECTORY_CONNECTIONS,
    resyncIntervalMs: 0, // the controller's own resync (lead()) skips what was just reconciled
    indexers: { [SECRET_INDEX]: referencedSecret },
  });
  const secrets = cacheFor<Secret>(o.namespaces, {
    ...informer,
    resource: SECRETS,
    resyncIntervalMs: 0,
    labelSelector: MANAGED_BY_SELECTOR,
  });
  const otherSecrets = cacheFor<KubeObject>(o.namespaces, {
    ...informer,
    resource: SECRETS,
    resyncIntervalMs: 0,
    labelSelector: NOT_MANAGED_BY_SELECTOR,
    metadataOnly: true,
    transform: secretIdentity,
  });
  return { connections, secrets, otherSecrets, all: [connections, secrets, otherSecrets] };
}

type Caches = ReturnType<typeof buildCaches>;

/**
 * Changes that queue a reconcile: a DirectoryConnection's own, and a Secret's for the resources referencing it
 * as their webhook Secret, for its owner, and (conflict detection) for the resource whose `<name>-scim` name it
 * takes. The two Secret informers split the Secrets by label, so each change arrives once.
 */
function enqueueOnChange(caches: Caches, controller: Controller): void {
  const { connections } = caches;
  connections.on((_type, cr) => controller.enqueue(objectKey(cr)));
  const onSecret = (_type: InformerEventType, secret: KubeObject): void => {
    const { namespace, name } = secret.metadata;
    const keys = new Set(connections.keysByIndex(SECRET_INDEX, `${namespace}/${name}`));
    for (const ref of secret.metadata.ownerReferences ?? []) {
      if (ref.controller && ref.kind === KIND && ref.apiVersion.startsWith(`${GROUP}/`))
        keys.add(`${namespace}/${ref.name}`);
    }
    // By name: a conflicting Secret's removal, and a SCIM Secret holding the finalizer whose owner reference is gone.
    const owner = scimSecretOwner(secret);
    if (owner && (connections.get(owner) || holdsFinalizer(secret))) keys.add(owner);
    for (const key of keys) controller.enqueue(key);
  };
  caches.secrets.on(onSecret);
  caches.otherSecrets.on(onSecret);
}

interface Lifecycle {
  o: Resolved;
  logger: Logger;
  metrics: OperatorMetrics;
  caches: Caches;
  controller: Controller;
  elector: LeaderElector | undefined;
  stopRequested: Promise<'stop'>;
  stopping: () => boolean;
}

/** Every resyncIntervalMs, reconciles again what has not been reconciled for half of it; until the controller stops. */
function startResync(o: Resolved, caches: Caches, controller: Controller): void {
  if (o.resyncIntervalMs === 0) return;
  const timer = setInterval(() => {
    if (controller.isRunning()) controller.resync(allKeys(caches), o.resyncIntervalMs / 2);
    else clearInterval(timer);
  }, o.resyncIntervalMs);
  timer.unref();
}

/** Starts the caches, waits for them and the Lease, reconciles while leading; rejects when leadership is lost. */
async function lead({
  o,
  logger,
  metrics,
  caches,
  controller,
  elector,
  stopRequested,
  stopping,
}: Lifecycle): Promise<void> {
  const le = o.leaderElection;
  // Standbys report 0 (not nothing), so "no leader" is visible as max(leader_election_master_status) == 0.
  metrics.leader.set({ name: le.leaseName }, 0);
  for (const i of caches.all) i.start();
  const acquired = elector ? elector.acquire() : Promise.resolve(true);
  // The renew deadline runs from the acquisition: renewing must not wait for the caches.
  const renewing = acquired.then((ok) => (ok && elector ? elector.renew() : true));
  const ready = Promise.all([Promise.all(caches.all.map((i) => i.synced)), acquired]);
  const outcome = await Promise.race([ready, stopRequested]);
  if (outcome === 'stop' || !outcome[1]) return;
  if (!elector || elector.isLeader()) {
    metrics.leader.set({ name: le.leaseName }, 1);
    logger.info(
      { namespaces: o.namespaces ?? '(all)', objects: caches.connections.size, identity: le.identity },
      'reconciling',
    );
    controller.start();
    for (const key of allKeys(caches)) controller.enqueue(key);
    startResync(o, caches, controller);
  }
  if ((await renewing) || stopping()) return;
  // Lost: no reconcile starts from here on, and the writes of those in flight are fenced off.
  metrics.leader.set({ name: le.leaseName }, 0);
  await controller.stop();
  throw new OperatorError('leader election lost: stopped reconciling', 'DSYNC_LEADER_ELECTION_LOST');
}

export function runOperator(options: OperatorOptions): Operator {
  const o = resolveOptions(options);
  const logger = o.logger.child({ component: 'operator' });
  const metrics = new OperatorMetrics(o.registry);
  const le = o.leaderElection;
  const { leaseClient, client, elector, fence } = buildClients(o, metrics, logger);
  const caches = buildCaches(o, client, logger);
  let synced = false;
  void Promise.all(caches.all.map((i) => i.synced)).then(() => (synced = true));
  // The leader alone reports the DirectoryConnections (standbys' caches hold the same), so a sum over pods is right.
  metrics.trackConnections(
    () => caches.connections.list(),
    () => controller.isRunning(),
  );
  const events = new EventRecorder({ client, component: 'dsync-operator', instance: le.identity, logger });
  const controller = new Controller({
    name: CONTROLLER_NAME,
    workers: o.workers,
    metrics,
    logger,
    retry: o.retry,
    reconciler: new DirectoryConnectionReconciler({
      client,
      connections: caches.connections,
      secrets: caches.secrets,
      otherSecrets: caches.otherSecrets,
      referencedSecrets: new ReferencedSecrets(client, caches.otherSecrets),
      directories: new DirectoryService({
        store: o.store,
        externalUrl: o.externalUrl,
        mappingChanged: backgroundMappingRefresh(o.store, logger),
      }),
      externalUrl: o.externalUrl,
      events,
      metrics,
      logger,
      requeueAfterMs: o.requeueAfterMs,
      storeTimeoutMs: o.storeTimeoutMs,
      newToken: o.newToken,
      fence,
      google: new GoogleAccess(o.store),
      microsoft: new MicrosoftAccess(o.store),
      hris: new HrisAccess(o.store),
      setupLink: new SetupLinkStep({
        links: new SetupLinks({ store: o.store, baseUrl: `${o.externalUrl}/setup` }),
        client,
        secrets: caches.secrets,
        otherSecrets: caches.otherSecrets,
        events,
        storeTimeoutMs: o.storeTimeoutMs,
        fence,
      }),
    }),
  });
  enqueueOnChange(caches, controller);

  let stopping = false;
  let signalStop!: () => void;
  const stopRequested = new Promise<'stop'>((resolve) => (signalStop = () => resolve('stop')));
  const done = lead({ o, logger, metrics, caches, controller, elector, stopRequested, stopping: () => stopping });
  done.catch(() => undefined); // observed by the caller through `done`; not an unhandled rejection here

  return {
    identity: le.identity,
    metrics,
    isLeader: () => controller.isRunning(),
    readiness: () =>
      readiness({
        synced,
        leading: controller.isRunning(),
        electing: elector !== undefined,
        sinceLeaseContactMs: elector?.sinceContactMs() ?? Infinity,
        leaseDurationMs: le.leaseDurationMs,
      }),
    resync: () => caches.connections.resync(),
    idle: () => controller.queue.idle(),
    done,
    async stop(): Promise<void> {
      if (stopping) return done.catch(() => undefined);
      stopping = true;
      signalStop();
      await controller.stop();
      await elector?.stop();
      metrics.leader.set({ name: le.leaseName }, 0);
      await Promise.all(caches.all.map((i) => i.stop()));
      client.close();
      leaseClient.close();
      await done.catch(() => undefined);
    },
  };
}
