// The two controllers of kube-controller-manager that the operator's deletion relies on, and that this test API
// server does not run (no controllers, as envtest): the garbage collector and the namespace controller. Each
// function does one pass of what that controller does, with the same API calls; a test calls it where the
// controller would act, so the order of events, which the real controllers leave to chance, is the test's.
import { DIRECTORY_CONNECTIONS, KIND, type DirectoryConnection } from '../../src/operator/crd-schema.js';
import { isNotFound } from '../../src/operator/errors.js';
import {
  NAMESPACES,
  SECRETS,
  resourcePath,
  type KubeClient,
  type KubeObject,
  type Resource,
  type Secret,
} from '../../src/operator/kube.js';

const FOREGROUND = 'foregroundDeletion';
const ORPHAN = 'orphan';

/** DELETE with options (propagation policy, preconditions), as the controllers send it. */
export function deleteWith(
  kube: KubeClient,
  r: Resource,
  namespace: string,
  name: string,
  options: Record<string, unknown>,
): Promise<unknown> {
  return kube.request('DELETE', resourcePath(r, namespace, name), {
    body: { kind: 'DeleteOptions', apiVersion: 'v1', ...options },
  });
}

async function getOrUndefined<T>(
  kube: KubeClient,
  r: Resource,
  namespace: string,
  name: string,
): Promise<T | undefined> {
  try {
    return await kube.get<T>(r, namespace, name);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

const dropFinalizer = (kube: KubeClient, cr: DirectoryConnection, finalizer: string): Promise<unknown> =>
  kube.mergePatch(DIRECTORY_CONNECTIONS, cr.metadata.namespace!, cr.metadata.name, {
    metadata: {
      resourceVersion: cr.metadata.resourceVersion,
      finalizers: (cr.metadata.finalizers ?? []).filter((f) => f !== finalizer),
    },
  });

/**
 * One pass of the garbage collector over the Secrets of `namespace` owned by DirectoryConnections: a Secret
 * whose owner is gone (or is another object by now) is deleted (background, on the uid it had); an owner being
 * deleted in the foreground has its blocking dependents deleted and, once none is left, loses its
 * `foregroundDeletion` finalizer; an owner deleted with `orphan` has the owner reference removed from its
 * dependents, then loses its `orphan` finalizer.
 */
export async function collectGarbage(kube: KubeClient, namespace: string): Promise<void> {
  const owners = new Map<string, DirectoryConnection | undefined>();
  const owner = async (name: string): Promise<DirectoryConnection | undefined> => {
    if (!owners.has(name))
      owners.set(name, await getOrUndefined<DirectoryConnection>(kube, DIRECTORY_CONNECTIONS, namespace, name));
    return owners.get(name);
  };
  const dependents = new Map<string, number>(); // owner uid → dependents still there
  for (const secret of (await kube.list<Secret>(SECRETS, namespace, {})).items) {
    for (const ref of secret.metadata.ownerReferences ?? []) {
      if (ref.kind !== KIND) continue;
      dependents.set(ref.uid, (dependents.get(ref.uid) ?? 0) + 1);
      if (secret.metadata.deletionTimestamp) continue;
      const cr = await owner(ref.name);
      const terminating = cr?.metadata.uid === ref.uid && cr.metadata.deletionTimestamp !== undefined;
      if (
        !cr ||
        cr.metadata.uid !== ref.uid ||
        (terminating && ref.blockOwnerDeletion && cr.metadata.finalizers?.includes(FOREGROUND))
      ) {
        await deleteWith(kube, SECRETS, namespace, secret.metadata.name, {
          propagationPolicy: 'Background',
          preconditions: { uid: secret.metadata.uid },
        });
      } else if (terminating && cr.metadata.finalizers?.includes(ORPHAN)) {
        const kept = (secret.metadata.ownerReferences ?? []).filter((r) => r.uid !== ref.uid);
        await kube.mergePatch(SECRETS, namespace, secret.metadata.name, {
          metadata: { ownerReferences: kept, resourceVersion: secret.metadata.resourceVersion },
        });
        dependents.set(ref.uid, dependents.get(ref.uid)! - 1);
      }
    }
  }
  for (const cr of (await kube.list<DirectoryConnection>(DIRECTORY_CONNECTIONS, namespace, {})).items) {
    if (!cr.metadata.deletionTimestamp || (dependents.get(cr.metadata.uid!) ?? 0) > 0) continue;
    for (const finalizer of [FOREGROUND, ORPHAN]) {
      if (cr.metadata.finalizers?.includes(finalizer)) await dropFinalizer(kube, cr, finalizer);
    }
  }
}

/** The namespace controller's deletion of everything of `resources` in a terminating namespace, in this order. */
export async function deleteNamespaceContents(
  kube: KubeClient,
  namespace: string,
  resources: Resource[],
): Promise<void> {
  for (const r of resources) {
    await kube.request('DELETE', resourcePath(r, namespace), {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' },
    });
  }
}

/**
 * The namespace controller's last step once the namespace is empty: its `kubernetes` finalizer goes, and so does the
 * namespace.
 */
export async function finalizeNamespace(kube: KubeClient, namespace: string): Promise<void> {
  const ns = await kube.get<KubeObject & { spec?: { finalizers?: string[] } }>(NAMESPACES, '', namespace);
  await kube.request('PUT', `${resourcePath(NAMESPACES, '', namespace)}/finalize`, {
    body: { ...ns, spec: { ...ns.spec, finalizers: (ns.spec?.finalizers ?? []).filter((f) => f !== 'kubernetes') } },
  });
}
