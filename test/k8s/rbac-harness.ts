// RBAC set-up shared by the tests that run the operator as a restricted ServiceAccount: the chart's rules, and
// a kubeconfig holding a token of a ServiceAccount (TokenRequest is served by kube-apiserver itself).
import type { KubeObject, Resource } from '../../src/operator/kube.js';
import type { KubeConfigView } from '../../src/operator/kube-config/kube-credentials.js';
import { helms, parseObjects, template } from './helm-tools.js';
import { variantKubeConfig, type Env } from './operator-harness.js';

export const CLUSTER_ROLES: Resource = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterroles' };
export const CLUSTER_ROLE_BINDINGS: Resource = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterrolebindings',
};
export const ROLES: Resource = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles' };
export const ROLE_BINDINGS: Resource = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings' };
export const NAMESPACES: Resource = { group: '', version: 'v1', plural: 'namespaces' };
export const SERVICE_ACCOUNTS: Resource = { group: '', version: 'v1', plural: 'serviceaccounts' };

export type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };

const RBAC_RESOURCES: Record<string, Resource> = {
  ServiceAccount: SERVICE_ACCOUNTS,
  ClusterRole: CLUSTER_ROLES,
  ClusterRoleBinding: CLUSTER_ROLE_BINDINGS,
  Role: ROLES,
  RoleBinding: ROLE_BINDINGS,
};

/**
 * Creates the chart's RBAC objects exactly as `helm template` renders them (release `dsync` in `dsync-system`,
 * whose namespace must exist) with `values`; returns them so a test can assert their shape.
 */
export async function applyChartRbac(
  env: Env,
  values: Record<string, unknown> = {},
): Promise<Array<KubeObject & { kind: string; rules?: Rule[] }>> {
  const objects = parseObjects(await template(helms()[0]!.bin, values)).filter((o) => o.kind in RBAC_RESOURCES);
  for (const o of objects) {
    // helm puts namespaced objects without a namespace into the release's namespace.
    if (!o.kind.startsWith('Cluster')) o.metadata.namespace ??= 'dsync-system';
    await env.kube.create(RBAC_RESOURCES[o.kind]!, o as unknown as KubeObject);
  }
  return objects as unknown as Array<KubeObject & { kind: string; rules?: Rule[] }>;
}

export const roleRef = (kind: string, name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });

/** Grants `rules` to the subjects in one namespace (a Role and its RoleBinding named `name`). */
export async function grantInNamespace(
  env: Env,
  namespace: string,
  name: string,
  rules: Rule[],
  subjects: unknown[],
): Promise<void> {
  await env.kube.create(ROLES, { metadata: { name, namespace }, rules } as KubeObject);
  await env.kube.create(ROLE_BINDINGS, {
    metadata: { name, namespace },
    roleRef: roleRef('Role', name),
    subjects,
  } as KubeObject);
}

/** A kubeconfig acting as ServiceAccount `namespace/name` (which must exist), through a fresh token. */
export async function serviceAccountKubeConfig(env: Env, namespace: string, name: string): Promise<KubeConfigView> {
  const path = `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`;
  const { status } = await env.kube.request<{ status: { token: string } }>('POST', path, {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
  });
  return (await variantKubeConfig(env, `sa-${namespace}-${name}`, { user: { token: status.token }, namespace }))
    .kubeConfig;
}
