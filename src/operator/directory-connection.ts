/**
 * The DirectoryConnection reconciler. Level-based: it gets a key, re-reads the resource and its Secrets from the
 * informer caches and moves the world one step towards the spec, writing only what differs.
 *
 *   1. get the resource (gone → done: the finalizer already cleaned up)
 *   2. being deleted → reconcileDelete: delete the stored directory, then drop the finalizer
 *   3. ensure the finalizer
 *   4. the ordered steps: valid spec → webhook Secret → SCIM Secret → stored directory; a step that cannot
 *      proceed halts the rest with a reason
 *   5. write the status once (observedGeneration only when every step passed), Event on a Ready transition
 *
 * The stored directory's id is the resource's uid, so a lost status write never creates a second directory.
 */
import { isDeepStrictEqual } from 'node:util';
import { scimPath, type DirectoryService } from '../core/directories.js';
import { describeIssues } from '../core/directory-input.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import type { Logger } from '../logger.js';
import { READY, REASONS, findCondition, setCondition, type Reason } from './conditions.js';
import type { ReconcileOutcome, Reconciler } from './controller/controller.js';
import type { Informer } from './controller/informer.js';
import {
  DIRECTORY_CONNECTIONS,
  directoryConnectionSpec,
  type DirectoryConnection,
  type DirectoryConnectionSpec,
  type DirectoryConnectionStatus,
} from './crd-schema.js';
import { directoryInput, planDirectory } from './desired-directory.js';
import { OperatorError, TerminalError } from './errors.js';
import type { EventRecorder } from './events.js';
import { SECRETS, type KubeClient, type Secret } from './kube.js';
import type { OperatorMetrics } from './metrics.js';
import { planScimSecret, scimSecretName } from './scim-secret.js';

export const FINALIZER = 'dsync.io/finalizer';
export const CONTROLLER_NAME = 'directoryconnection';

/** The identity the operator acts as in the store: only it may change the directories it manages. */
export const managedBy = (cr: DirectoryConnection): string =>
  `kubernetes:${cr.metadata.namespace}/${cr.metadata.name}`;

export interface DirectoryConnectionReconcilerOptions {
  client: KubeClient;
  connections: Informer<DirectoryConnection>;
  secrets: Informer<Secret>;
  directories: DirectoryService;
  /** Base URL of `dsync serve` as identity providers reach it. */
  externalUrl: string;
  events: EventRecorder;
  metrics: OperatorMetrics;
  logger: Logger;
  /** When to look again for a missing webhook Secret (its creation also triggers a reconcile). */
  requeueAfterMs: number;
  newToken: () => string;
}

/** What the steps found out; the status is computed from it at the end. */
interface Scope {
  cr: DirectoryConnection;
  log: Logger;
  spec?: DirectoryConnectionSpec;
  webhookSecret?: string;
  token?: string;
  secretName?: string;
  scimEndpoint?: string;
}

/** Why the steps stopped, and how to try again: when a watched object changes, after a delay, or with backoff. */
interface Halt {
  reason: Reason;
  message: string;
  retry: 'on-change' | 'after-delay' | 'backoff';
  cause?: unknown;
}

type Step = (scope: Scope) => Promise<Halt | undefined>;

export class DirectoryConnectionReconciler implements Reconciler {
  private readonly o: DirectoryConnectionReconcilerOptions;
  private readonly steps: Step[] = [
    (s) => this.ensureValidSpec(s),
    (s) => this.ensureWebhookSecret(s),
    (s) => this.ensureScimSecret(s),
    (s) => this.ensureDirectory(s),
  ];

  constructor(options: DirectoryConnectionReconcilerOptions) {
    this.o = options;
  }

  async reconcile(key: string): Promise<ReconcileOutcome> {
    const cached = this.o.connections.get(key);
    if (!cached) return {};
    if (cached.metadata.deletionTimestamp) return this.reconcileDelete(cached);
    const cr = await this.ensureFinalizer(cached);
    const scope: Scope = { cr, log: this.o.logger.child({ key, directoryId: cr.metadata.uid }) };
    let halt: Halt | undefined;
    for (const step of this.steps) {
      halt = await step(scope);
      if (halt) break;
    }
    await this.writeStatus(scope, halt);
    if (!halt) return {};
    if (halt.retry === 'after-delay') return { requeueAfterMs: this.o.requeueAfterMs };
    if (halt.retry === 'on-change') throw new TerminalError(`${halt.reason}: ${halt.message}`);
    throw new OperatorError(`${halt.reason}: ${halt.message}`, 'DSYNC_OPERATOR_RETRY', { cause: halt.cause });
  }

  private async ensureFinalizer(cr: DirectoryConnection): Promise<DirectoryConnection> {
    const finalizers = cr.metadata.finalizers ?? [];
    if (finalizers.includes(FINALIZER)) return cr;
    return this.patchMetadata(cr, { finalizers: [...finalizers, FINALIZER] });
  }

  private async reconcileDelete(cr: DirectoryConnection): Promise<ReconcileOutcome> {
    const finalizers = cr.metadata.finalizers ?? [];
    if (!finalizers.includes(FINALIZER)) return {};
    const log = this.o.logger.child({ key: `${cr.metadata.namespace}/${cr.metadata.name}`, directoryId: cr.metadata.uid });
    try {
      await this.o.directories.delete(cr.metadata.uid!, { managedBy: managedBy(cr) });
      this.countStoreWrite('delete');
      log.info('deleted the stored directory and its data');
    } catch (err) {
      if (err instanceof ForbiddenError) log.warn({ err }, 'the stored directory is managed by someone else; leaving it');
      else if (!(err instanceof NotFoundError)) {
        throw new OperatorError(`${REASONS.StoreUnavailable}: could not delete the directory`, 'DSYNC_OPERATOR_RETRY', { cause: err });
      }
    }
    await this.patchMetadata(cr, { finalizers: finalizers.filter((f) => f !== FINALIZER) });
    return {};
  }

  private async ensureValidSpec(scope: Scope): Promise<Halt | undefined> {
    // The same field rules as the core's, including those JSON Schema cannot carry (a name blank once trimmed).
    const parsed = directoryConnectionSpec.safeParse(scope.cr.spec);
    if (!parsed.success) return invalidSpec(describeIssues(parsed.error).message);
    scope.spec = parsed.data;
    return undefined;
  }

  private async ensureWebhookSecret(scope: Scope): Promise<Halt | undefined> {
    const ref = scope.spec!.webhook?.secretRef;
    if (!ref) return undefined;
    const secret = this.o.secrets.get(`${scope.cr.metadata.namespace}/${ref.name}`);
    const value = secret?.data?.[ref.key];
    if (value === undefined) {
      const message = secret ? `Secret ${ref.name} has no key ${ref.key}` : `Secret ${ref.name} not found`;
      return { reason: REASONS.SecretNotFound, message: `${message} (spec.webhook.secretRef)`, retry: 'after-delay' };
    }
    scope.webhookSecret = Buffer.from(value, 'base64').toString('utf8');
    return undefined;
  }

  private async ensureScimSecret(scope: Scope): Promise<Halt | undefined> {
    const { cr } = scope;
    const name = scimSecretName(cr.metadata.name);
    const existing = this.o.secrets.get(`${cr.metadata.namespace}/${name}`);
    const plan = planScimSecret({ owner: cr, existing, endpoint: this.endpoint(cr), newToken: this.o.newToken });
    if (plan.action === 'conflict') return { reason: REASONS.SecretConflict, message: plan.message, retry: 'on-change' };
    if (plan.action === 'create') {
      this.o.secrets.recordWrite(await this.o.client.create(SECRETS, plan.secret), undefined);
      scope.log.info({ secret: name }, 'created the SCIM Secret');
    } else if (plan.action === 'update') {
      this.o.secrets.recordWrite(await this.o.client.replace(SECRETS, plan.secret), existing?.metadata.resourceVersion);
      scope.log.info({ secret: name, rotated: plan.rotated }, 'updated the SCIM Secret');
      if (plan.rotated) {
        await this.o.events.record(cr, 'Normal', 'TokenRotated', `Issued a new SCIM token in Secret ${name}; update the identity provider`);
      }
    }
    scope.token = plan.token;
    scope.secretName = name;
    return undefined;
  }

  private async ensureDirectory(scope: Scope): Promise<Halt | undefined> {
    const { cr } = scope;
    const id = cr.metadata.uid!;
    const actor = { managedBy: managedBy(cr) };
    let input;
    try {
      input = directoryInput(scope.spec!, scope.webhookSecret);
    } catch (err) {
      if (err instanceof ValidationError) return invalidSpec(`${err.message} (value of spec.webhook.secretRef)`);
      throw err;
    }
    const scim = { secret: scope.token!, endpoint: this.endpoint(cr) };
    try {
      const current = await this.o.directories.get(id).catch((err: unknown) => {
        if (err instanceof NotFoundError) return null;
        throw err;
      });
      const plan = planDirectory(current, { input, scim, managedBy: actor.managedBy });
      if (plan.action === 'immutable') {
        return invalidSpec(`${plan.field} cannot be changed (the directory was created with ${plan.field} ${plan.stored})`);
      }
      if (plan.action === 'create') {
        await this.o.directories.create(input, actor, { id, scimSecret: scim.secret });
        this.countStoreWrite('create');
        scope.log.info('created the stored directory');
      } else if (plan.action === 'update') {
        await this.o.directories.put(plan.next, actor);
        this.countStoreWrite('update');
        scope.log.info('updated the stored directory');
      }
    } catch (err) {
      if (err instanceof ForbiddenError) return { reason: REASONS.DirectoryConflict, message: err.message, retry: 'on-change' };
      if (err instanceof ValidationError) return invalidSpec(err.message);
      return { reason: REASONS.StoreUnavailable, message: 'the directory store could not be reached', retry: 'backoff', cause: err };
    }
    scope.scimEndpoint = scim.endpoint;
    return undefined;
  }

  /** The one status write of a reconcile; skipped when nothing changed. */
  private async writeStatus(scope: Scope, halt: Halt | undefined): Promise<void> {
    const { cr } = scope;
    const previous = cr.status ?? {};
    const generation = cr.metadata.generation ?? 0;
    const ready = halt
      ? { status: 'False' as const, reason: halt.reason, message: halt.message }
      : {
          status: 'True' as const,
          reason: REASONS.Reconciled,
          message: `The directory is in sync; the SCIM endpoint and token are in Secret ${scope.secretName}`,
        };
    const status: DirectoryConnectionStatus = dropUndefined({
      directoryId: cr.metadata.uid,
      scimEndpoint: scope.scimEndpoint ?? previous.scimEndpoint,
      secretName: scope.secretName ?? previous.secretName,
      observedGeneration: halt ? previous.observedGeneration : generation,
      conditions: setCondition(previous.conditions, { type: READY, ...ready, observedGeneration: generation }, new Date()),
    });
    if (isDeepStrictEqual(dropUndefined(previous), status)) return;
    const removed = Object.fromEntries(Object.keys(previous).filter((k) => !(k in status)).map((k) => [k, null]));
    const patch = { metadata: { resourceVersion: cr.metadata.resourceVersion }, status: { ...removed, ...status } };
    const { namespace, name } = cr.metadata;
    const written = await this.o.client.mergePatch<DirectoryConnection>(DIRECTORY_CONNECTIONS, namespace!, name, patch, 'status');
    this.o.connections.recordWrite(written, cr.metadata.resourceVersion);
    const before = findCondition(previous.conditions, READY);
    if (before?.status !== ready.status || before.reason !== ready.reason) {
      if (halt) scope.log.warn({ reason: halt.reason, err: halt.cause }, halt.message);
      await this.o.events.record(written, halt ? 'Warning' : 'Normal', ready.reason, ready.message);
    }
  }

  /** Merge patch of metadata, conditional on the resourceVersion the decision was based on. */
  private async patchMetadata(cr: DirectoryConnection, metadata: { finalizers: string[] }): Promise<DirectoryConnection> {
    const patch = { metadata: { ...metadata, resourceVersion: cr.metadata.resourceVersion } };
    const written = await this.o.client.mergePatch<DirectoryConnection>(
      DIRECTORY_CONNECTIONS,
      cr.metadata.namespace!,
      cr.metadata.name,
      patch,
    );
    this.o.connections.recordWrite(written, cr.metadata.resourceVersion);
    return written;
  }

  private endpoint(cr: DirectoryConnection): string {
    return `${this.o.externalUrl}${scimPath(cr.metadata.uid!)}`;
  }

  private countStoreWrite(verb: 'create' | 'update' | 'delete'): void {
    this.o.metrics.writes.inc({ target: 'store', resource: 'directories', verb });
  }
}

const invalidSpec = (message: string): Halt => ({ reason: REASONS.InvalidSpec, message, retry: 'on-change' });

function dropUndefined<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}
