// RBAC set-up shared by the tests that run the operator as a restricted ServiceAccount: the chart's rules, and
// a kubeconfig holding a token of a ServiceAccount (TokenRequest is served by kube-apiserver itself).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import type { KubeObject, Resource } from '../../src/operator/kube.js';
import type { Env } from './operator-harness.js';

const RBAC_TEMPLATE = fileURLToPath(new URL('../../charts/dsync/templates/operator-rbac.yaml', import.meta.url));
export const CLUSTER_ROLES: Resource = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterroles' };
export const CLUSTER_ROLE_BINDINGS: Resource = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterrolebindings' };
export const ROLES: Resource = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles' };
export const ROLE_BINDINGS: Resource = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings' };
export const NAMESPACES: Resource = { group: '', version: 'v1', plural: 'namespaces' };
export const SERVICE_ACCOUNTS: Resource = { group: '', version: 'v1', plural: 'serviceaccounts' };

export type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };

/** The `rules` of the chart's two roles (the operator's, then leader election's); their text is not templated. */
export function chartRules(): Rule[][] {
  const text = readFileSync(RBAC_TEMPLATE, 'utf8')
    .split('\n')
    .filter((line) => !line.includes('{{'))
    .join('\n');
  return parseAllDocuments(text)
    .map((doc) => doc.toJS() as { rules?: Rule[] } | null)
    .flatMap((doc) => (doc?.rules ? [doc.rules] : []));
}

export const roleRef = (kind: string, name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });

/** Grants `rules` to the subjects in one namespace (a Role and its RoleBinding named `name`). */
export async function grantInNamespace(env: Env, namespace: string, name: string, rules: Rule[], subjects: unknown[]): Promise<void> {
  await env.kube.create(ROLES, { metadata: { name, namespace }, rules } as KubeObject);
  await env.kube.create(ROLE_BINDINGS, { metadata: { name, namespace }, roleRef: roleRef('Role', name), subjects } as KubeObject);
}

/** A kubeconfig acting as ServiceAccount `namespace/name` (which must exist), through a fresh token. */
export async function serviceAccountKubeConfig(env: Env, namespace: string, name: string): Promise<KubeConfig> {
  const path = `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`;
  const { status } = await env.kube.request<{ status: { token: string } }>('POST', path, {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
  });
  const cluster = env.kubeConfig.getCurrentCluster()!;
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [cluster],
    users: [{ name, token: status.token }],
    contexts: [{ name, cluster: cluster.name, user: name, namespace }],
    currentContext: name,
  });
  return kubeConfig;
}
