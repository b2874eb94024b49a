/**
 * How a DirectoryConnection's stored directory is deleted, and the finalizer that makes sure it is.
 *
 * The finalizer `dsync.io/finalizer` travels on the SCIM Secret `<name>-scim`, in its create request (no write
 * of its own). The Secret is owned by the resource (controller ownerReference), so deleting the resource lets
 * the garbage collector delete the Secret, which then waits on the finalizer: `releaseSecret` confirms with a
 * live GET (the cache may lag) that the owner is gone or going, deletes the stored directory, and removes the
 * finalizer. An operator that is down meanwhile finds the terminating Secret when it comes back.
 *
 * A Secret deleted while its resource lives and is not being deleted is not the resource's end:
 * - its namespace is terminating (the namespace controller deletes in no fixed order): it waits, holding the
 *   finalizer; the resource goes next, and its absence releases the Secret as above;
 * - else (deleted by hand): the resource takes the finalizer first, then the Secret is released, and the next
 *   reconcile creates the Secret anew (a new token, as before) and drops the resource's finalizer. The resource
 *   holds it before the Secret lets go, so a namespace deletion that starts in between still finds one.
 *
 * Resources made before the finalizer moved carry it themselves: `deleteConnection` deletes them as before, and
 * `dropConnectionFinalizer` drops it once their Secret holds it (the Secret step's update adds it there).
 */
import type { DirectoryService } from '../core/directories.js';
import { ForbiddenError, NotFoundError } from '../core/errors.js';
import type { Logger } from '../logger.js';
import { REASONS } from './conditions.js';
import type { ObjectCache } from './controller/namespaced-informers.js';
import { DIRECTORY_CONNECTIONS, type DirectoryConnection } from './crd-schema.js';
import { managedBy } from './desired-directory.js';
import { NotLeaderError, isNotFound } from './errors.js';
import type { EventRecorder } from './kube-events.js';
import { NAMESPACES, SECRETS, type KubeClient, type KubeObject, type Resource, type Secret } from './kube.js';
import { refused, type Halt, type ReconcileState } from './reconcile-state.js';
import { FINALIZER } from './metadata-keys.js';
import { SCIM_SECRET_SUFFIX, guardedDirectory, holdsFinalizer } from './scim-secret.js';

export interface DeletionOptions {
  client: KubeClient;
  connections: ObjectCache<DirectoryConnection>;
  secrets: ObjectCache<Secret>;
  otherSecrets: ObjectCache<KubeObject>;
  directories: DirectoryService;
  /** One store call, bounded (the reconciler's). */
  store: <T>(call: string, work: () => Promise<T>) => Promise<T>;
  countStoreWrite: (verb: 'delete') => void;
  /** Called before every store write; throws NotLeaderError once this replica no longer leads. */
  fence?: () => void;
  events: EventRecorder;
  logger: Logger;
}

const splitKey = (key: string): { namespace: string; name: string } => {
  const at = key.indexOf('/');
  return { namespace: key.slice(0, at), name: key.slice(at + 1) };
};

export class Deletion {
  /** Secrets (uid) whose blocked deletion has had its Warning Event; one per deletion, not one per retry. */
  private readonly reported = new Set<string>();

  constructor(private readonly o: DeletionOptions) {}

  /** The Secret `<name>-scim` of the resource with this key, as cached (labelled as the operator's or not). */
  scimSecret(key: string): KubeObject | undefined {
    const secretKey = `${key}${SCIM_SECRET_SUFFIX}`;
    return this.o.secrets.get(secretKey) ?? this.o.otherSecrets.get(secretKey);
  }

  /**
   * The SCIM Secret is being deleted and holds the finalizer. Its owner gone or going: the stored directory is
   * deleted, then the Secret released. Its owner alive: see `replaceSecret`.
   */
  async releaseSecret(key: string, secret: KubeObject): Promise<Halt | undefined> {
    const { namespace, name } = splitKey(key);
    const id = guardedDirectory(secret);
    const log = this.o.logger.child({ key, directoryId: id });
    const owner = await this.liveConnection(namespace, name);
    if (owner && owner.metadata.uid === id && !owner.metadata.deletionTimestamp)
      return this.replaceSecret(owner, secret, log);
    const halt = id ? await this.deleteDirectory(id, managedBy(namespace, name), log) : undefined;
    return (
      halt ??
      this.release(
        secret,
        `the stored directory is deleted but the finalizer ${FINALIZER} could not be removed from Secret ${secret.metadata.name}`,
      )
    );
  }

  /**
   * A halt of `releaseSecret` once the resource is gone: a Warning Event on the Secret, one per deletion (not per
   * retry).
   */
  async reportOnSecret(secret: KubeObject, halt: Halt | undefined): Promise<void> {
    const uid = secret.metadata.uid!;
    if (!halt) {
      this.reported.delete(uid);
      return;
    }
    if (this.reported.has(uid)) return;
    this.reported.add(uid);
    this.o.logger.warn(
      { secret: secret.metadata.name, namespace: secret.metadata.namespace, reason: halt.reason, err: halt.cause },
      halt.message,
    );
    await this.o.events.record(
      { apiVersion: 'v1', kind: 'Secret', metadata: secret.metadata },
      'Warning',
      halt.reason,
      halt.message,
    );
  }

  /** A resource that carries the finalizer itself is being deleted: the stored directory goes, then the finalizer. */
  async deleteConnection(cr: DirectoryConnection): Promise<Halt | undefined> {
    const { namespace, name, uid } = cr.metadata;
    const halt = await this.deleteDirectory(
      uid!,
      managedBy(namespace!, name),
      this.o.logger.child({ key: `${namespace}/${name}`, directoryId: uid }),
    );
    if (halt) return halt;
    try {
      await this.patchFinalizers(DIRECTORY_CONNECTIONS, cr, this.o.connections, false);
    } catch (err) {
      return refused(
        err,
        REASONS.DeletionBlocked,
        `the stored directory is deleted but the finalizer ${FINALIZER} could not be removed`,
      );
    }
    return undefined;
  }

  /** A reconcile step: once the Secret holds the finalizer, the resource needs it no more (one write, once). */
  async dropConnectionFinalizer(state: ReconcileState): Promise<Halt | undefined> {
    const { cr, scimSecret } = state;
    if (!holdsFinalizer(cr) || !scimSecret || !holdsFinalizer(scimSecret)) return undefined;
    try {
      state.cr = await this.patchFinalizers(DIRECTORY_CONNECTIONS, cr, this.o.connections, false);
      state.log.info(
        { secret: scimSecret.metadata.name },
        'the finalizer is on the SCIM Secret; removed it from the resource',
      );
    } catch (err) {
      return refused(
        err,
        REASONS.FinalizerWriteFailed,
        `could not remove the finalizer ${FINALIZER} (now on Secret ${scimSecret.metadata.name})`,
      );
    }
    return undefined;
  }

  /**
   * The Secret is being deleted while its resource lives. With its namespace: wait, the resource goes next.
   * Else the resource takes the finalizer, then the Secret is released and the next reconcile makes a new one.
   */
  private async replaceSecret(owner: DirectoryConnection, secret: KubeObject, log: Logger): Promise<Halt | undefined> {
    const namespace = owner.metadata.namespace!;
    if (await this.namespaceTerminating(namespace)) {
      log.info(
        { secret: secret.metadata.name },
        'the SCIM Secret is deleted with its namespace; it holds the stored directory until the resource goes',
      );
      return undefined;
    }
    if (!holdsFinalizer(owner)) {
      try {
        await this.patchFinalizers(DIRECTORY_CONNECTIONS, owner, this.o.connections, true);
      } catch (err) {
        return refused(
          err,
          REASONS.FinalizerWriteFailed,
          `could not add the finalizer ${FINALIZER} while Secret ${secret.metadata.name} is replaced`,
        );
      }
    }
    log.info(
      { secret: secret.metadata.name },
      'the SCIM Secret was deleted; the resource holds the finalizer until a new one is made',
    );
    return this.release(
      secret,
      `could not remove the finalizer ${FINALIZER} from the deleted Secret ${secret.metadata.name}`,
    );
  }

  /** Removes the finalizer from the Secret, which the API server then deletes. */
  private async release(secret: KubeObject, failure: string): Promise<Halt | undefined> {
    const key = `${secret.metadata.namespace}/${secret.metadata.name}`;
    const cache = this.o.secrets.get(key) ? this.o.secrets : this.o.otherSecrets;
    try {
      await this.patchFinalizers(SECRETS, secret, cache as ObjectCache<KubeObject>, false);
    } catch (err) {
      return refused(err, REASONS.DeletionBlocked, failure);
    }
    return undefined;
  }

  /** GET, not the cache: whether the owner still lives decides whether its directory is deleted. */
  private async liveConnection(namespace: string, name: string): Promise<DirectoryConnection | undefined> {
    try {
      return await this.o.client.get<DirectoryConnection>(DIRECTORY_CONNECTIONS, namespace, name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private async namespaceTerminating(namespace: string): Promise<boolean> {
    try {
      const ns = await this.o.client.get<KubeObject & { status?: { phase?: string } }>(NAMESPACES, '', namespace);
      return ns.metadata.deletionTimestamp !== undefined || ns.status?.phase === 'Terminating';
    } catch (err) {
      if (isNotFound(err)) return true;
      throw err;
    }
  }

  private async deleteDirectory(id: string, owner: string, log: Logger): Promise<Halt | undefined> {
    try {
      this.o.fence?.();
      await this.o.store('delete', () => this.o.directories.delete(id, { managedBy: owner }));
      this.o.countStoreWrite('delete');
      log.info('deleted the stored directory and its data');
    } catch (err) {
      if (err instanceof NotLeaderError) throw err;
      if (err instanceof ForbiddenError)
        log.warn({ err }, 'the stored directory is managed by someone else; leaving it');
      else if (!(err instanceof NotFoundError)) {
        const message =
          'the stored directory could not be deleted: the directory store could not be reached; the finalizer holds on until it is';
        return { reason: REASONS.DeletionBlocked, message, retry: 'backoff', cause: err };
      }
    }
    return undefined;
  }

  /**
   * Merge patch adding or removing the finalizer, conditional on the resourceVersion the decision was based on.
   * Removing it from an object being deleted is done once the object is gone (a 404 included).
   */
  private async patchFinalizers<T extends KubeObject>(
    r: Resource,
    obj: T,
    cache: ObjectCache<T>,
    add: boolean,
  ): Promise<T> {
    const others = (obj.metadata.finalizers ?? []).filter((f) => f !== FINALIZER);
    const { namespace, name, resourceVersion, deletionTimestamp } = obj.metadata;
    const finalizers = add ? [...others, FINALIZER] : others;
    try {
      const written = await this.o.client.mergePatch<T>(r, namespace!, name, {
        metadata: { finalizers, resourceVersion },
      });
      // A patch that lets a terminating object go is answered with its last stored state, the finalizer still in
      // it: cached as such, the next reconcile would remove it again. Cached is what holds until the watch
      // reports the deletion.
      cache.recordWrite({ ...written, metadata: { ...written.metadata, finalizers } }, resourceVersion);
      return written;
    } catch (err) {
      if (!add && deletionTimestamp && isNotFound(err)) return obj;
      throw err;
    }
  }
}
