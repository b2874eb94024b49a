/**
 * The Secret `<name>-scim` holding what the identity provider needs (keys `endpoint` and `token`). Its token is
 * the source of truth for the stored directory's SCIM secret: generated once, kept across restarts and
 * re-reconciles, replaced only when the `dsync.io/rotate-token` annotation takes a value not handled yet.
 * Pure planning: the reconciler performs the write.
 */
import type { DirectoryConnection } from './crd-schema.js';
import { API_VERSION, KIND } from './crd-schema.js';
import type { OwnerReference, Secret } from './kube.js';

/** Set on the DirectoryConnection to any new value to issue a new SCIM token. */
export const ROTATE_ANNOTATION = 'dsync.io/rotate-token';
/** On the Secret: the last rotate-token value handled, so a value rotates once. */
export const ROTATED_ANNOTATION = 'dsync.io/rotated-token';
export const MANAGED_BY_LABEL = { 'app.kubernetes.io/managed-by': 'dsync-operator' } as const;

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
  return { apiVersion: API_VERSION, kind: KIND, name: owner.metadata.name, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

export const isControlledBy = (obj: Secret, owner: DirectoryConnection): boolean =>
  (obj.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.uid === owner.metadata.uid);

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
  const annotations: Record<string, string> = rotateTo === undefined ? {} : { [ROTATED_ANNOTATION]: rotateTo };

  if (!existing) {
    const secret: Secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: {
        name,
        namespace: owner.metadata.namespace!,
        labels: { ...MANAGED_BY_LABEL },
        annotations,
        ownerReferences: [controllerReference(owner)],
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
    existing.metadata.labels?.['app.kubernetes.io/managed-by'] === MANAGED_BY_LABEL['app.kubernetes.io/managed-by'] &&
    (rotateTo === undefined || handled === rotateTo);
  if (unchanged) return { action: 'none', token };
  const secret: Secret = { ...existing, metadata: { ...existing.metadata, labels, annotations: merged }, data };
  return { action: 'update', secret, token, rotated };
}
