/**
 * The DirectoryConnection reconciler. Level-based: it gets a key, re-reads the resource and its Secrets and
 * moves the world one step towards the spec, writing only what differs.
 *
 *   1. the SCIM Secret being deleted → deletion.ts (the finalizer is on it): the stored directory goes with
 *      the resource, or the Secret is made anew while the resource lives
 *   2. get the resource from the cache (gone → done: its Secret's finalizer cleans up)
 *   3. being deleted and carrying the finalizer itself (made before it moved to the Secret) → deletion.ts
 *   4. the ordered steps: valid spec → webhook Secret → SCIM Secret, created with the finalizer
 *      (scim-secret-step.ts) → the resource's own finalizer dropped once the Secret holds it → stored directory
 *      → acknowledge a webhook re-enable → Google → Entra → HRIS → setup link; a step that cannot proceed halts
 *      the rest with a reason. No store write happens before the Secret holding the finalizer exists.
 *   5. write the status once (status-write.ts), with everything in it: observedGeneration on every outcome
 *      (kstatus reads a stale one as InProgress), Ready, and Stalled (a terminal reason) or Reconciling (a transient one);
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
import { REASONS } from './conditions.js';
import type { ReconcileOutcome, Reconciler } from './controller/controller.js';
import type { ObjectCache } from './controller/namespaced-informers.js';
import { directoryConnectionSpec, type DirectoryConnection } from './crd-schema.js';
import { Deletion } from './deletion.js';
import { directoryInput, managedBy, planDirectory, specFieldMessage } from './desired-directory.js';
import { withDeadline } from '../core/deadline.js';
import { DeadlineExceededError, NotLeaderError } from './errors.js';
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
import { ScimSecretStep } from './scim-secret-step.js';
import { StatusWriter } from './status-write.js';
import { guardedDirectory, holdsFinalizer, pendingWebhookReenable, withWebhookReenabled } from './scim-secret.js';

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
  private readonly status: StatusWriter;
  private readonly scimSecret: ScimSecretStep;
  private readonly steps: Step[] = [
    ['spec', (s) => this.ensureValidSpec(s)],
    ['webhookSecret', (s) => this.ensureWebhookSecret(s)],
    ['scimSecret', (s) => this.scimSecret.ensure(s)],
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
    [
      'microsoft',
      (s) => ensureMicrosoft(s, { microsoft: this.o.microsoft, store: (call, work) => this.store(call, work) }),
    ],
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
    this.status = new StatusWriter(options);
    this.scimSecret = new ScimSecretStep({ ...options, endpoint: (cr) => this.endpoint(cr) });
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
      return holdsFinalizer(cached)
        ? this.settle(this.stateOf(cached), await this.deletion.deleteConnection(cached))
        : {};
    }
    const state = this.stateOf(cached);
    let halt: Halt | undefined;
    for (const [name, run] of this.steps) {
      const started = performance.now();
      halt = await run(state);
      state.log.debug(
        { step: name, ms: Math.round(performance.now() - started), halt: halt?.reason },
        'reconcile step',
      );
      if (halt) break;
    }
    await this.status.write(state, halt);
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
    if (halt) await this.status.write(state, halt);
    return outcome(halt, this.o.requeueAfterMs);
  }

  private stateOf(cr: DirectoryConnection): ReconcileState {
    return {
      cr,
      log: this.o.logger.child({ key: `${cr.metadata.namespace}/${cr.metadata.name}`, directoryId: cr.metadata.uid }),
    };
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
  private async secretValue(
    state: ReconcileState,
    ref: { name: string; key: string },
    field: string,
  ): Promise<string | Halt> {
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
      const plan = planDirectory(current, {
        input,
        scim,
        managedBy: actor.managedBy,
        reenableWebhook: reenable !== undefined,
      });
      if (plan.action === 'immutable') {
        return invalidSpec(
          `${plan.field} cannot be changed (the directory was created with ${plan.field} ${plan.stored})`,
        );
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
      if (err instanceof ForbiddenError)
        return { reason: REASONS.DirectoryConflict, message: err.message, retry: 'on-change' };
      if (err instanceof ValidationError) return invalidSpec(err.message);
      const message =
        err instanceof DeadlineExceededError
          ? `the directory store could not be reached: ${err.message}`
          : 'the directory store could not be reached';
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
      return refused(
        err,
        REASONS.SecretWriteFailed,
        `could not record ${REENABLE_WEBHOOK_ANNOTATION} on Secret ${secret.metadata.name}`,
      );
    }
    return undefined;
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
