/**
 * The DirectoryConnection reconciler. Level-based: it gets a key, re-reads the resource and its Secrets and
 * moves the world one step towards the spec, writing only what differs.
 *
 *   1. the SCIM Secret being deleted → deletion.ts (the finalizer is on it): the stored directory goes with
 *      the resource, or the Secret is made anew while the resource lives
 *   2. get the resource from the cache (gone → done: its Secret's finalizer cleans up)
 *   3. being deleted and carrying the finalizer itself (made before it moved to the Secret) → deletion.ts
 *   4. the ordered steps: valid spec → webhook Secret → SCIM Secret, created with the finalizer → the
 *      resource's own finalizer dropped once the Secret holds it → stored directory → acknowledge a webhook
 *      re-enable → Google → Entra → HRIS → setup link; a step that cannot proceed halts the rest with a reason.
 *      No store write happens before the Secret holding the finalizer exists.
 *   5. write the status once, with everything in it: observedGeneration on every outcome (kstatus reads a
 *      stale one as InProgress), Ready, and Stalled (a terminal reason) or Reconciling (a transient one);
 *      Event on a condition transition (not for a first outcome of Ready). No separate "first sight" write:
 *      until this one, the CRD's default (observedGeneration 0) reads as InProgress, and every step is bounded.
 *
 * So a new resource costs three writes: the Secret (finalizer included), the stored directory, the status.
 *
 * Store calls are bounded (`storeTimeoutMs`): a stalled Redis is Ready=False StoreUnavailable, never a hung worker.
 *
 * A write the API server refuses (quota, admission, RBAC, a terminating namespace) halts with its message, so
 * the status says so; only a 409 Conflict (a stale cache, retried at once) and transport errors (the status
 * write would fail too) are thrown without a status change.
 *
 * Secrets: the SCIM Secrets come from a cache of the Secrets labelled as the operator's; the webhook Secret is
 * read once per resourceVersion (referenced-secrets.ts; its changes are noticed through a metadata-only watch
 * of the other Secrets, see main.ts), so no Secret data but the operator's own and the referenced ones is held.
 *
 * The stored directory's id is the resource's uid, so a lost status write never creates a second directory.
 */
import { scimPath, type DirectoryService } from '../core/directories.js';
import { describeIssues } from '../core/directory-input.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import type { Directory } from '../core/model.js';
import type { Logger } from '../logger.js';
import { READY, REASONS, WEBHOOK_DISABLED, findCondition } from './conditions.js';
import { computeStatus } from './connection-status.js';
import type { ReconcileOutcome, Reconciler } from './controller/controller.js';
import type { ObjectCache } from './controller/namespaced-informers.js';
import { DIRECTORY_CONNECTIONS, directoryConnectionSpec, type DirectoryConnection, type DirectoryConnectionStatus } from './crd-schema.js';
import { Deletion } from './deletion.js';
import { directoryInput, managedBy, planDirectory, specFieldMessage } from './desired-directory.js';
import { withDeadline } from '../core/deadline.js';
import { DeadlineExceededError, NotLeaderError, isNotFound } from './errors.js';
import { ensureGoogle, type GoogleAccess } from './google-access.js';
import { ensureMicrosoft, type MicrosoftAccess } from './microsoft-access.js';
import { ensureHris, type HrisAccess } from './hris-access.js';
import type { EventRecorder } from './kube-events.js';
import { SECRETS, type KubeClient, type KubeObject, type Secret } from './kube.js';
import type { OperatorMetrics } from './metrics.js';
import type { ReferencedSecrets } from './referenced-secrets.js';
import type { SetupLinkStep } from './setup-link.js';
import { invalidSpec, outcome, refused, type Halt, type ReconcileState } from './reconcile-state.js';
import { REENABLE_WEBHOOK_ANNOTATION } from './metadata-keys.js';
import {
  guardedDirectory,
  holdsFinalizer,
  isControlledBy,
  pendingWebhookReenable,
  planScimSecret,
  scimSecretName,
  withWebhookReenabled,
} from './scim-secret.js';

export const CONTROLLER_NAME = 'directoryconnection';

const managerOf = (cr: DirectoryConnection): string => managedBy(cr.metadata.namespace!, cr.metadata.name);

export interface DirectoryConnectionReconcilerOptions {
  client: KubeClient;
  connections: ObjectCache<DirectoryConnection>;
  /** The Secrets the operator owns (label `app.kubernetes.io/managed-by: dsync-operator`), data included. */
  secrets: ObjectCache<Secret>;
  /** Metadata (name, owner references) of every other Secret: finds a `<name>-scim` Secret that is not labelled. */
  otherSecrets: ObjectCache<KubeObject>;
  /** The Secrets resources reference (webhook, Google service account), read once per resourceVersion. */
  referencedSecrets: ReferencedSecrets;
  directories: DirectoryService;
  /** Base URL of `dsync serve` as identity providers reach it. */
  externalUrl: string;
  events: EventRecorder;
  metrics: OperatorMetrics;
  logger: Logger;
  /** When to look again for a missing webhook Secret (its creation also triggers a reconcile). */
  requeueAfterMs: number;
  newToken: () => string;
  /** Longest wait for one store call before the reconcile reports StoreUnavailable and retries. */
  storeTimeoutMs: number;
  /** Called before every store write; throws NotLeaderError once this replica no longer leads. */
  fence?: () => void;
  google: GoogleAccess;
  microsoft: MicrosoftAccess;
  hris: HrisAccess;
  /** spec.setupLink: the link in the Secret `<name>-setup`. */
  setupLink: SetupLinkStep;
}

/** A named step (the name goes to the debug log). */
type Step = [name: string, run: (state: ReconcileState) => Promise<Halt | undefined>];

export class DirectoryConnectionReconciler implements Reconciler {
  private readonly o: DirectoryConnectionReconcilerOptions;
  private readonly deletion: Deletion;
  private readonly steps: Step[] = [
    ['spec', (s) => this.ensureValidSpec(s)],
    ['webhookSecret', (s) => this.ensureWebhookSecret(s)],
    ['scimSecret', (s) => this.ensureScimSecret(s)],
    ['finalizer', (s) => this.deletion.dropConnectionFinalizer(s)],
    ['directory', (s) => this.ensureDirectory(s)],
    ['webhookReenable', (s) => this.acknowledgeWebhookReenable(s)],
    [
      'google',
      (s) =>
        ensureGoogle(s, {
          google: this.o.google,
          secretValue: (ref, field) => this.secretValue(s, ref, field),
          store: (call, work) => this.store(call, work),
          ...(this.o.fence && { fence: this.o.fence }),
        }),
    ],
    ['microsoft', (s) => ensureMicrosoft(s, { microsoft: this.o.microsoft, store: (call, work) => this.store(call, work) })],
    [
      'hris',
      (s) =>
        ensureHris(s, {
          hris: this.o.hris,
          secretValue: (ref, field) => this.secretValue(s, ref, field),
          store: (call, work) => this.store(call, work),
          ...(this.o.fence && { fence: this.o.fence }),
        }),
    ],
    ['setupLink', (s) => this.o.setupLink.ensure(s)],
  ];

  constructor(options: DirectoryConnectionReconcilerOptions) {
    this.o = options;
    this.deletion = new Deletion({
      ...options,
      store: (call, work) => this.store(call, work),
      countStoreWrite: (verb) => this.countStoreWrite(verb),
    });
  }

  async reconcile(key: string): Promise<ReconcileOutcome> {
    const secret = this.deletion.scimSecret(key);
    if (secret?.metadata.deletionTimestamp) return this.reconcileSecretDeletion(key, secret);
    const cached = this.o.connections.get(key);
    if (!cached) return {};
    if (cached.metadata.deletionTimestamp) {
      return holdsFinalizer(cached) ? this.settle(this.stateOf(cached), await this.deletion.deleteConnection(cached)) : {};
    }
    const state = this.stateOf(cached);
    let halt: Halt | undefined;
    for (const [name, run] of this.steps) {
      const started = performance.now();
      halt = await run(state);
      state.log.debug({ step: name, ms: Math.round(performance.now() - started), halt: halt?.reason }, 'reconcile step');
      if (halt) break;
    }
    await this.writeStatus(state, halt);
    return outcome(halt, this.o.requeueAfterMs);
  }

  /**
   * The SCIM Secret is being deleted. Without the finalizer (released a moment ago, or not the operator's) it
   * just goes, and its deletion queues the resource again. With it: deletion.ts; a halt is reported on the
   * resource while it lives, else (the resource is gone) as an Event on the Secret.
   */
  private async reconcileSecretDeletion(key: string, secret: KubeObject): Promise<ReconcileOutcome> {
    if (!holdsFinalizer(secret)) return {};
    const halt = await this.deletion.releaseSecret(key, secret);
    const cr = this.o.connections.get(key);
    if (cr && cr.metadata.uid === guardedDirectory(secret)) return this.settle(this.stateOf(cr), halt);
    await this.deletion.reportOnSecret(secret, halt);
    return outcome(halt, this.o.requeueAfterMs);
  }

  /** The status write for a halt of the deletion paths (nothing to write without one), and the outcome. */
  private async settle(state: ReconcileState, halt: Halt | undefined): Promise<ReconcileOutcome> {
    if (halt) await this.writeStatus(state, halt);
    return outcome(halt, this.o.requeueAfterMs);
  }

  private stateOf(cr: DirectoryConnection): ReconcileState {
    return { cr, log: this.o.logger.child({ key: `${cr.metadata.namespace}/${cr.metadata.name}`, directoryId: cr.metadata.uid }) };
  }

  private async ensureValidSpec(state: ReconcileState): Promise<Halt | undefined> {
    // The same field rules as the core's, including those JSON Schema cannot carry (a name blank once trimmed).
    const parsed = directoryConnectionSpec.safeParse(state.cr.spec);
    if (!parsed.success) return invalidSpec(describeIssues(parsed.error).message);
    state.spec = parsed.data;
    return undefined;
  }

  private async ensureWebhookSecret(state: ReconcileState): Promise<Halt | undefined> {
    const ref = state.spec!.webhook?.secretRef;
    if (!ref) return undefined;
    const read = await this.secretValue(state, ref, 'spec.webhook.secretRef');
    if (typeof read !== 'string') return read;
    state.webhookSecret = read;
    return undefined;
  }

  /** A referenced Secret's value, at its current resourceVersion; a change of it triggers a reconcile (main.ts). */
  private async secretValue(state: ReconcileState, ref: { name: string; key: string }, field: string): Promise<string | Halt> {
    let secret: Secret | undefined;
    try {
      secret = await this.o.referencedSecrets.get(state.cr.metadata.namespace!, ref.name);
    } catch (err) {
      return refused(err, REASONS.SecretReadFailed, `could not read Secret ${ref.name} (${field})`, true);
    }
    const value = secret?.data?.[ref.key];
    if (value === undefined) {
      const message = secret ? `Secret ${ref.name} has no key ${ref.key}` : `Secret ${ref.name} not found`;
      return { reason: REASONS.SecretNotFound, message: `${message} (${field})`, retry: 'after-delay' };
    }
    return Buffer.from(value, 'base64').toString('utf8');
  }

  private async ensureScimSecret(state: ReconcileState): Promise<Halt | undefined> {
    const { cr } = state;
    const namespace = cr.metadata.namespace!;
    const name = scimSecretName(cr.metadata.name);
    const cached = this.o.secrets.get(`${namespace}/${name}`);
    let existing: Secret | undefined = cached;
    if (!existing) {
      // Not labelled as the operator's: someone else's Secret (a conflict, told by its owner references), or
      // one of ours without the label (made by an earlier version, or the label was removed): read it, and
      // the update below labels it again.
      const other = this.o.otherSecrets.get(`${namespace}/${name}`);
      if (other && !isControlledBy(other, cr)) existing = other;
      else if (other) {
        try {
          existing = await this.readSecret(namespace, name);
        } catch (err) {
          return refused(err, REASONS.SecretReadFailed, `could not read Secret ${name}`, true);
        }
      }
    }
    const plan = planScimSecret({ owner: cr, existing, endpoint: this.endpoint(cr), newToken: this.o.newToken });
    if (plan.action === 'conflict') return { reason: REASONS.SecretConflict, message: plan.message, retry: 'on-change' };
    state.scimSecret = existing;
    if (plan.action === 'create') {
      try {
        state.scimSecret = await this.o.client.create(SECRETS, plan.secret);
      } catch (err) {
        return refused(err, REASONS.SecretWriteFailed, `could not create Secret ${name}`, true);
      }
      this.o.secrets.recordWrite(state.scimSecret, undefined);
      state.log.info({ secret: name }, 'created the SCIM Secret');
    } else if (plan.action === 'update') {
      try {
        state.scimSecret = await this.o.client.replace(SECRETS, plan.secret);
      } catch (err) {
        return refused(err, REASONS.SecretWriteFailed, `could not update Secret ${name}`);
      }
      this.o.secrets.recordWrite(state.scimSecret, cached?.metadata.resourceVersion);
      state.log.info({ secret: name, rotated: plan.rotated, relabelled: !cached }, 'updated the SCIM Secret');
      if (plan.rotated) {
        await this.o.events.record(cr, 'Normal', 'TokenRotated', `Issued a new SCIM token in Secret ${name}; update the identity provider`);
      }
    }
    state.token = plan.token;
    state.secretName = name;
    return undefined;
  }

  private async ensureDirectory(state: ReconcileState): Promise<Halt | undefined> {
    const { cr } = state;
    const id = cr.metadata.uid!;
    const actor = { managedBy: managerOf(cr) };
    let input;
    try {
      input = directoryInput(state.spec!, state.webhookSecret);
    } catch (err) {
      if (err instanceof ValidationError) return invalidSpec(specFieldMessage(err));
      throw err;
    }
    const scim = { secret: state.token!, endpoint: this.endpoint(cr) };
    const reenable = pendingWebhookReenable(cr, state.scimSecret);
    let stored: Directory | null;
    try {
      const current = await this.store('get', () => this.o.directories.get(id)).catch((err: unknown) => {
        if (err instanceof NotFoundError) return null;
        throw err;
      });
      const plan = planDirectory(current, { input, scim, managedBy: actor.managedBy, reenableWebhook: reenable !== undefined });
      if (plan.action === 'immutable') {
        return invalidSpec(`${plan.field} cannot be changed (the directory was created with ${plan.field} ${plan.stored})`);
      }
      stored = current;
      if (plan.action === 'create') {
        this.o.fence?.();
        await this.store('create', () => this.o.directories.create(input, actor, { id, scimSecret: scim.secret }));
        this.countStoreWrite('create');
        state.log.info('created the stored directory');
        stored = null;
      } else if (plan.action === 'update') {
        this.o.fence?.();
        await this.store('update', () => this.o.directories.put(plan.next, actor));
        this.countStoreWrite('update');
        state.log.info('updated the stored directory');
        if (current?.webhook_disabled_at && !plan.next.webhook_disabled_at) {
          state.log.info({ disabledAt: current.webhook_disabled_at }, 'webhook delivery re-enabled');
        }
        stored = plan.next;
      }
    } catch (err) {
      if (err instanceof NotLeaderError) throw err;
      if (err instanceof ForbiddenError) return { reason: REASONS.DirectoryConflict, message: err.message, retry: 'on-change' };
      if (err instanceof ValidationError) return invalidSpec(err.message);
      const message = err instanceof DeadlineExceededError ? `the directory store could not be reached: ${err.message}` : 'the directory store could not be reached';
      return { reason: REASONS.StoreUnavailable, message, retry: 'backoff', cause: err };
    }
    state.scimEndpoint = scim.endpoint;
    state.webhookDisabledAt = stored?.webhook_disabled_at ?? null;
    state.reenabled = reenable;
    return undefined;
  }

  /** Records the reenable-webhook value on the Secret, after the store has it: a value re-enables once. */
  private async acknowledgeWebhookReenable(state: ReconcileState): Promise<Halt | undefined> {
    const secret = state.scimSecret;
    if (state.reenabled === undefined || !secret) return undefined;
    try {
      const written = await this.o.client.replace(SECRETS, withWebhookReenabled(secret, state.reenabled));
      this.o.secrets.recordWrite(written, secret.metadata.resourceVersion);
      state.scimSecret = written;
    } catch (err) {
      return refused(err, REASONS.SecretWriteFailed, `could not record ${REENABLE_WEBHOOK_ANNOTATION} on Secret ${secret.metadata.name}`);
    }
    return undefined;
  }

  /** GET of a Secret; undefined when it does not exist. */
  private async readSecret(namespace: string, name: string): Promise<Secret | undefined> {
    try {
      return await this.o.client.get<Secret>(SECRETS, namespace, name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** The one status write of a reconcile; skipped when nothing changed. Events on condition transitions. */
  private async writeStatus(state: ReconcileState, halt: Halt | undefined): Promise<void> {
    const { cr } = state;
    const previous = cr.status ?? {};
    const { status, ready, webhook, pullSync, changed } = computeStatus(state, halt, new Date());
    if (!changed) return;
    const written = await this.patchStatus(cr, status);
    const before = findCondition(previous.conditions, READY);
    if (before?.status !== ready.status || before.reason !== ready.reason) {
      if (halt) state.log.warn({ reason: halt.reason, err: halt.cause }, halt.message);
      // A resource that is Ready at its first outcome gets no Event: its status says so, and at a mass apply an
      // Event each would be one more API write per resource. Failures and later transitions get one.
      if (halt || before) await this.o.events.record(written, halt ? 'Warning' : 'Normal', ready.reason, ready.message);
    }
    const webhookBefore = findCondition(previous.conditions, WEBHOOK_DISABLED);
    if (webhook && webhookBefore?.status !== webhook.status) {
      if (webhook.status === 'True') await this.o.events.record(written, 'Warning', WEBHOOK_DISABLED, webhook.message);
      else await this.o.events.record(written, 'Normal', 'WebhookReenabled', webhook.message);
    }
    const pullBefore = pullSync && findCondition(previous.conditions, pullSync.type);
    if (pullSync?.status === 'False' && (pullBefore?.status !== 'False' || pullBefore.reason !== pullSync.reason)) {
      await this.o.events.record(written, 'Warning', pullSync.reason, pullSync.message);
    }
  }

  /** Merge patch of the status subresource (fields gone from `status` are removed), conditional on the resourceVersion. */
  private async patchStatus(cr: DirectoryConnection, status: DirectoryConnectionStatus): Promise<DirectoryConnection> {
    const previous = cr.status ?? {};
    const removed = Object.fromEntries(Object.keys(previous).filter((k) => !(k in status)).map((k) => [k, null]));
    const patch = { metadata: { resourceVersion: cr.metadata.resourceVersion }, status: { ...removed, ...status } };
    const { namespace, name } = cr.metadata;
    const written = await this.o.client.mergePatch<DirectoryConnection>(DIRECTORY_CONNECTIONS, namespace!, name, patch, 'status');
    this.o.connections.recordWrite(written, cr.metadata.resourceVersion);
    return written;
  }

  /** One store call, bounded: a stalled store fails it with DeadlineExceededError instead of hanging the worker. */
  private store<T>(call: string, work: () => Promise<T>): Promise<T> {
    const ms = this.o.storeTimeoutMs;
    return withDeadline(work(), ms, () => new DeadlineExceededError(`directory store (${call})`, ms));
  }

  private endpoint(cr: DirectoryConnection): string {
    return `${this.o.externalUrl}${scimPath(cr.metadata.uid!)}`;
  }

  private countStoreWrite(verb: 'create' | 'update' | 'delete'): void {
    this.o.metrics.writes.inc({ target: 'store', resource: 'directories', verb });
  }
}
