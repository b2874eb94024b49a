// N DirectoryConnections for the operator benchmarks: created through the API, 50 at a time, and counted Ready
// as the API server has them, through a watch (a list per poll would cost O(N) each time).
import { pino } from 'pino';
import { findCondition, READY } from '../../src/operator/conditions.js';
import { Informer } from '../../src/operator/controller/informer.js';
import { API_VERSION, DIRECTORY_CONNECTIONS, KIND, type DirectoryConnection } from '../../src/operator/crd-schema.js';
import { SECRETS, type KubeClient } from '../../src/operator/kube.js';

export const CREATE_CONCURRENCY = 50;
const NAMESPACE = 'default';
const SECRET = 'hook';

/** The webhook Secret every DirectoryConnection names. */
export async function createWebhookSecret(kube: KubeClient): Promise<void> {
  await kube.create(SECRETS, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: SECRET, namespace: NAMESPACE },
    data: { secret: Buffer.from('whsec_benchmark').toString('base64') },
  });
}

/** Creates dc-0 … dc-(n-1), CREATE_CONCURRENCY requests at a time. */
export async function createConnections(kube: KubeClient, n: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CREATE_CONCURRENCY }, async () => {
      while (next < n) {
        const i = next++;
        const cr: DirectoryConnection = {
          apiVersion: API_VERSION,
          kind: KIND,
          metadata: { name: `dc-${i}`, namespace: NAMESPACE },
          spec: {
            name: `Directory ${i}`,
            tenant: `tenant-${i}`,
            product: 'bench',
            type: 'okta-scim-v2',
            webhook: { url: 'https://hooks.example.com/dsync', secretRef: { name: SECRET, key: 'secret' } },
          },
        };
        await kube.create(DIRECTORY_CONNECTIONS, cr);
      }
    }),
  );
}

/** The names of the Ready DirectoryConnections, kept current by a watch once `synced` resolves. */
export async function watchReady(kube: KubeClient): Promise<{ ready: Set<string>; stop(): Promise<void> }> {
  const watcher = new Informer<DirectoryConnection>({
    client: kube,
    resource: DIRECTORY_CONNECTIONS,
    namespace: NAMESPACE,
    logger: pino({ level: 'silent' }),
    resyncIntervalMs: 0,
  });
  const ready = new Set<string>();
  watcher.on((type, cr) => {
    const isReady = type !== 'delete' && findCondition(cr.status?.conditions, READY)?.status === 'True';
    if (isReady) ready.add(cr.metadata.name);
    else ready.delete(cr.metadata.name);
  });
  watcher.start();
  await watcher.synced;
  return { ready, stop: () => watcher.stop() };
}
