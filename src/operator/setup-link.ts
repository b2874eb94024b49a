/**
 * `spec.setupLink`: the operator keeps a working setup link for the customer's IT admin in the Secret
 * `<name>-setup` (key `url`, and `expiresAt`), owned by the DirectoryConnection — never in its status or events.
 * A link that ended (expired, or revoked through the API) is replaced by a new one on the next reconcile;
 * `enabled: false` revokes it and empties the Secret (the operator may not delete Secrets; the owner reference
 * removes it with the resource).
 */
import { NotFoundError } from '../core/errors.js';
import type { SetupLinks } from '../core/setup-links.js';
import { withDeadline } from '../core/deadline.js';
import { REASONS } from './conditions.js';
import type { ObjectCache } from './controller/namespaced-informers.js';
import { durationSeconds } from './crd-schema.js';
import { DeadlineExceededError, NotLeaderError } from './errors.js';
import type { EventRecorder } from './kube-events.js';
import { SECRETS, type KubeClient, type KubeObject, type Secret } from './kube.js';
import { refused, type Halt, type ReconcileState } from './reconcile-state.js';
import { MANAGED_BY_LABEL, SETUP_LINK_ID_ANNOTATION } from './metadata-keys.js';
import { controllerReference, isControlledBy } from './scim-secret.js';

export const setupSecretName = (connectionName: string): string => `${connectionName}-setup`;

export interface SetupLinkStepOptions {
  links: SetupLinks;
  client: KubeClient;
  secrets: ObjectCache<Secret>;
  /** Metadata of the Secrets not labelled as the operator's (a foreign `<name>-setup` is a conflict). */
  otherSecrets: ObjectCache<KubeObject>;
  events: EventRecorder;
  storeTimeoutMs: number;
  fence?: () => void;
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

export class SetupLinkStep {
  constructor(private readonly o: SetupLinkStepOptions) {}

  async ensure(state: ReconcileState): Promise<Halt | undefined> {
    const { cr } = state;
    const want = state.spec!.setupLink;
    const name = setupSecretName(cr.metadata.name);
    const key = `${cr.metadata.namespace}/${name}`;
    // An unlabelled one of ours (the label was removed) is rewritten whole: its metadata is all it takes.
    const existing: Secret | undefined = this.o.secrets.get(key) ?? this.o.otherSecrets.get(key);
    if (existing && !isControlledBy(existing, cr)) {
      if (!want?.enabled) return undefined;
      return {
        reason: REASONS.SecretConflict,
        message: `Secret ${name} exists and is not owned by this DirectoryConnection; rename or delete it`,
        retry: 'on-change',
      };
    }
    const linkId = existing?.metadata.annotations?.[SETUP_LINK_ID_ANNOTATION];
    const directoryId = cr.metadata.uid!;
    try {
      if (!want?.enabled) {
        if (!linkId || !existing) return undefined;
        this.o.fence?.();
        await this.store(() => this.o.links.revoke(directoryId, linkId)).catch((err: unknown) => {
          if (!(err instanceof NotFoundError)) throw err;
        });
        await this.write(state, existing, {}, undefined);
        state.log.info({ secret: name }, 'revoked the setup link');
        return undefined;
      }
      const current = (await this.store(() => this.o.links.list(directoryId))).find((l) => l.id === linkId);
      if (current && !current.revoked && Date.parse(current.expires_at) > Date.now()) return undefined;
      this.o.fence?.();
      const created = await this.store(() =>
        this.o.links.create(directoryId, { expires_in: durationSeconds(want.expiresIn) }),
      );
      await this.write(
        state,
        existing,
        { url: b64(created.url), expiresAt: b64(created.expires_at) },
        created.id,
      ).catch(async (err: unknown) => {
        // Nobody could ever see this link: end it rather than leave it working unseen.
        await this.store(() => this.o.links.revoke(directoryId, created.id)).catch(() => undefined);
        throw err;
      });
      state.log.info({ secret: name, expiresAt: created.expires_at }, 'issued a setup link');
      await this.o.events.record(
        cr,
        'Normal',
        'SetupLinkIssued',
        `Issued a setup link in Secret ${name}, valid until ${created.expires_at}`,
      );
      return undefined;
    } catch (err) {
      if (err instanceof NotLeaderError) throw err;
      if (err instanceof SecretWriteError)
        return refused(err.cause, REASONS.SecretWriteFailed, `could not write Secret ${name}`, !existing);
      const message =
        err instanceof DeadlineExceededError
          ? `the directory store could not be reached: ${err.message}`
          : 'the directory store could not be reached';
      return { reason: REASONS.StoreUnavailable, message, retry: 'backoff', cause: err };
    }
  }

  private async write(
    state: ReconcileState,
    existing: Secret | undefined,
    data: Record<string, string>,
    linkId: string | undefined,
  ): Promise<void> {
    const { cr } = state;
    const annotations = { ...existing?.metadata.annotations };
    if (linkId) annotations[SETUP_LINK_ID_ANNOTATION] = linkId;
    else delete annotations[SETUP_LINK_ID_ANNOTATION];
    const secret: Secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      ...existing,
      metadata: {
        ...existing?.metadata,
        name: setupSecretName(cr.metadata.name),
        namespace: cr.metadata.namespace!,
        labels: { ...existing?.metadata.labels, ...MANAGED_BY_LABEL },
        annotations,
        ownerReferences: existing?.metadata.ownerReferences ?? [controllerReference(cr)],
      },
      data,
    };
    let written: Secret;
    try {
      written = existing ? await this.o.client.replace(SECRETS, secret) : await this.o.client.create(SECRETS, secret);
    } catch (err) {
      throw new SecretWriteError(err);
    }
    this.o.secrets.recordWrite(written, existing?.metadata.resourceVersion);
  }

  private store<T>(work: () => Promise<T>): Promise<T> {
    const ms = this.o.storeTimeoutMs;
    return withDeadline(work(), ms, () => new DeadlineExceededError('directory store (setup link)', ms));
  }
}

/** A Kubernetes write of the Secret failed (told apart from a store failure). */
class SecretWriteError extends Error {
  constructor(override readonly cause: unknown) {
    super('Secret write failed');
  }
}
