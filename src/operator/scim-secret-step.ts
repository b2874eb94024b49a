/**
 * Step 4's SCIM Secret: found among the operator's Secrets (or an unlabelled one of its own, read and labelled
 * again), then created, updated or rotated as planned (scim-secret.ts). It is kept out of the reconciler because
 * it is the step with the most Kubernetes writes, each refused with its own message.
 */
import type { Halt, ReconcileState } from './reconcile-state.js';
import type { DirectoryConnection } from './crd-schema.js';
import type { ObjectCache } from './controller/namespaced-informers.js';
import { REASONS } from './conditions.js';
import { isNotFound } from './errors.js';
import type { EventRecorder } from './kube-events.js';
import { SECRETS, type KubeClient, type KubeObject, type Secret } from './kube.js';
import { refused } from './reconcile-state.js';
import { isControlledBy, planScimSecret, scimSecretName } from './scim-secret.js';

export interface ScimSecretStepDeps {
  client: KubeClient;
  /** The Secrets the operator owns, data included. */
  secrets: ObjectCache<Secret>;
  /** Metadata of every other Secret: finds a `<name>-scim` Secret that is not labelled. */
  otherSecrets: ObjectCache<KubeObject>;
  events: EventRecorder;
  newToken: () => string;
  /** The SCIM endpoint the Secret names for the resource. */
  endpoint: (cr: DirectoryConnection) => string;
}

export class ScimSecretStep {
  constructor(private readonly o: ScimSecretStepDeps) {}

  async ensure(state: ReconcileState): Promise<Halt | undefined> {
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
          existing = await this.read(namespace, name);
        } catch (err) {
          return refused(err, REASONS.SecretReadFailed, `could not read Secret ${name}`, true);
        }
      }
    }
    const plan = planScimSecret({ owner: cr, existing, endpoint: this.o.endpoint(cr), newToken: this.o.newToken });
    if (plan.action === 'conflict')
      return { reason: REASONS.SecretConflict, message: plan.message, retry: 'on-change' };
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
        await this.o.events.record(
          cr,
          'Normal',
          'TokenRotated',
          `Issued a new SCIM token in Secret ${name}; update the identity provider`,
        );
      }
    }
    state.token = plan.token;
    state.secretName = name;
    return undefined;
  }

  /** GET of a Secret; undefined when it does not exist. */
  private async read(namespace: string, name: string): Promise<Secret | undefined> {
    try {
      return await this.o.client.get<Secret>(SECRETS, namespace, name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
}
