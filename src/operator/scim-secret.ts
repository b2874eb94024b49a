/**
 * The Secret `<name>-scim` holding what the identity provider needs (keys `endpoint` and `token`). Its token is
 * the source of truth for the stored directory's SCIM secret: generated once, kept across restarts and
 * re-reconciles, replaced only when the `dsync.io/rotate-token` annotation takes a value not handled yet.
 * It also remembers the last `dsync.io/reenable-webhook` value handled. It carries the label
 * `app.kubernetes.io/managed-by: dsync-operator`, by which the operator watches only its own Secrets, and the
 * finalizer that keeps the stored directory from outliving the resource (deletion.ts): in its create request,
 * so guarding the directory costs no write of its own.
 * Pure planning: the reconciler performs the write.
 */
import type { DirectoryConnection } from './crd-schema.js';
import { API_VERSION, KIND } from './crd-schema.js';
import type { KubeObject, OwnerReference, Secret } from './kube.js';
import {
  DIRECTORY_ID_ANNOTATION,
  FINALIZER,
  MANAGED_BY_LABEL,
  REENABLE_WEBHOOK_ANNOTATION,
  REENABLED_WEBHOOK_ANNOTATION,
  ROTATE_ANNOTATION,
  ROTATED_ANNOTATION,
} from './metadata-keys.js';

export const SCIM_SECRET_SUFFIX = '-scim';
export const scimSecretName = (connectionName: string): string => `${connectionName}${SCIM_SECRET_SUFFIX}`;

export type ScimSecretPlan =
  | { action: 'conflict'; message: string }
  | { action: 'none'; token: string }
  | { action: 'create' | 'update'; secret: Secret; token: string; rotated: boolean };

export interface ScimSecretInput {
  owner: DirectoryConnection;
  existing: Secret | undefined;
  endpoint: string;
  newToken: () => string;
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const unb64 = (text: string | undefined): string => (text ? Buffer.from(text, 'base64').toString('utf8') : '');

export function controllerReference(owner: DirectoryConnection): OwnerReference {
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    name: owner.metadata.name,
    uid: owner.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

export const isControlledBy = (obj: KubeObject, owner: DirectoryConnection): boolean =>
  (obj.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.uid === owner.metadata.uid);

export const holdsFinalizer = (obj: KubeObject): boolean => obj.metadata.finalizers?.includes(FINALIZER) ?? false;

/**
 * The stored directory a SCIM Secret guards: its annotation, else its controller's uid (Secrets made before the
 * annotation).
 */
export function guardedDirectory(secret: KubeObject): string | undefined {
  const owner = secret.metadata.ownerReferences?.find(
    (r) => r.controller && r.kind === KIND && r.apiVersion === API_VERSION,
  );
  return secret.metadata.annotations?.[DIRECTORY_ID_ANNOTATION] ?? owner?.uid;
}

export function planScimSecret({ owner, existing, endpoint, newToken }: ScimSecretInput): ScimSecretPlan {
  const name = scimSecretName(owner.metadata.name);
  if (existing && !isControlledBy(existing, owner)) {
    return {
      action: 'conflict',
      message: `Secret ${name} exists and is not owned by this DirectoryConnection; rename or delete it (it is never adopted)`,
    };
  }
  const rotateTo = owner.metadata.annotations?.[ROTATE_ANNOTATION];
  const handled = existing?.metadata.annotations?.[ROTATED_ANNOTATION];
  const rotated = existing !== undefined && rotateTo !== undefined && rotateTo !== handled;
  const current = unb64(existing?.data?.['token']);
  const token = rotated || !current ? newToken() : current;
  const data = { endpoint: b64(endpoint), token: b64(token) };
  const annotations: Record<string, string> = {
    [DIRECTORY_ID_ANNOTATION]: owner.metadata.uid!,
    ...(rotateTo !== undefined && { [ROTATED_ANNOTATION]: rotateTo }),
  };

  if (!existing) {
    // A new Secret starts with the current re-enable value handled, as with rotate-token: a value handled
    // before the Secret was lost must not re-enable a webhook disabled again since.
    const reenable = owner.metadata.annotations?.[REENABLE_WEBHOOK_ANNOTATION];
    const secret: Secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: {
        name,
        namespace: owner.metadata.namespace!,
        labels: { ...MANAGED_BY_LABEL },
        annotations: { ...annotations, ...(reenable !== undefined && { [REENABLED_WEBHOOK_ANNOTATION]: reenable }) },
        ownerReferences: [controllerReference(owner)],
        finalizers: [FINALIZER],
      },
      data,
    };
    return { action: 'create', secret, token, rotated: false };
  }

  const labels = { ...existing.metadata.labels, ...MANAGED_BY_LABEL };
  const merged = { ...existing.metadata.annotations, ...annotations };
  const unchanged =
    Object.keys(existing.data ?? {}).length === 2 &&
    existing.data?.['endpoint'] === data.endpoint &&
    existing.data?.['token'] === data.token &&
    Object.entries(MANAGED_BY_LABEL).every(([key, value]) => existing.metadata.labels?.[key] === value) &&
    existing.metadata.annotations?.[DIRECTORY_ID_ANNOTATION] === owner.metadata.uid &&
    holdsFinalizer(existing) &&
    (rotateTo === undefined || handled === rotateTo);
  if (unchanged) return { action: 'none', token };
  // A Secret made before the finalizer moved here gets it (and the annotation) with this update, token unchanged.
  const finalizers = holdsFinalizer(existing)
    ? existing.metadata.finalizers
    : [...(existing.metadata.finalizers ?? []), FINALIZER];
  const secret: Secret = {
    ...existing,
    metadata: { ...existing.metadata, labels, annotations: merged, finalizers },
    data,
  };
  return { action: 'update', secret, token, rotated };
}

/** The reenable-webhook value set on the resource and not yet handled (recorded on the Secret), if any. */
export function pendingWebhookReenable(owner: DirectoryConnection, secret: Secret | undefined): string | undefined {
  const wanted = owner.metadata.annotations?.[REENABLE_WEBHOOK_ANNOTATION];
  if (wanted === undefined || !secret || secret.metadata.annotations?.[REENABLED_WEBHOOK_ANNOTATION] === wanted)
    return undefined;
  return wanted;
}

/** The Secret with `value` recorded as the reenable-webhook value handled (written once the store has it). */
export function withWebhookReenabled(secret: Secret, value: string): Secret {
  const annotations = { ...secret.metadata.annotations, [REENABLED_WEBHOOK_ANNOTATION]: value };
  return { ...secret, metadata: { ...secret.metadata, annotations } };
}
