// Smoke test of the real-API-server harness (test/k8s/apiserver.sh + cluster.ts).
// Needs `bash test/k8s/apiserver.sh build` to have run first.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ApiException,
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  Watch,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { startCluster, type Cluster } from './cluster.js';

const group = 'smoke.dsync.test';
const crd: V1CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${group}` },
  spec: {
    group,
    names: { kind: 'Widget', plural: 'widgets', singular: 'widget' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  provider: {
                    type: 'string',
                    x_kubernetes_validations: [{ rule: 'self == oldSelf', message: 'provider is immutable' }],
                  },
                },
              },
            },
          },
        },
      },
    ],
  },
};

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.split(' ')[2] !== 'Z';
  } catch {
    return false;
  }
}

function envPids(dir: string): number[] {
  const env = readFileSync(join(dir, 'env'), 'utf8');
  return [...env.matchAll(/^(?:APISERVER|ETCD)_PID=(\d+)$/gm)].map((m) => Number(m[1]));
}

describe('k8s test harness (real kube-apiserver + etcd)', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  let kc: KubeConfig;

  before(async () => {
    cluster = await startCluster();
    kc = new KubeConfig();
    kc.loadFromFile(cluster.kubeconfigPath);
  });

  after(async () => {
    await cluster?.stop();
  });

  it('serves the core API to the kubeconfig admin (system:masters, by a static token)', async () => {
    const nss = await kc.makeApiClient(CoreV1Api).listNamespace();
    expect(nss.items.map((n) => n.metadata?.name)).to.include.members(['default', 'kube-system']);
  });

  it('enforces CRD CEL transition rules', async () => {
    const ext = kc.makeApiClient(ApiextensionsV1Api);
    await ext.createCustomResourceDefinition({ body: crd });
    for (let i = 0; ; i++) {
      const got = await ext.readCustomResourceDefinition({ name: `widgets.${group}` });
      if (got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (i > 100) throw new Error('CRD not established');
      await new Promise((r) => setTimeout(r, 100));
    }
    const co = kc.makeApiClient(CustomObjectsApi);
    const base = { group, version: 'v1', namespace: 'default', plural: 'widgets' };
    const created = (await co.createNamespacedCustomObject({
      ...base,
      body: { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w1' }, spec: { provider: 'scim' } },
    })) as { spec: { provider: string } };
    created.spec.provider = 'google';
    const err: unknown = await co.replaceNamespacedCustomObject({ ...base, name: 'w1', body: created }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ApiException);
    expect((err as ApiException<unknown>).code).to.equal(422);
    expect(String((err as ApiException<unknown>).body)).to.contain('provider is immutable');
  });

  it('restarts the API server mid-watch on the same port', async () => {
    const watch = new Watch(kc);
    const events: string[] = [];
    let ended!: () => void;
    const watchEnded = new Promise<void>((resolve) => (ended = resolve));
    await watch.watch(
      '/api/v1/namespaces',
      {},
      (phase, obj: { metadata?: { name?: string } }) => events.push(`${phase} ${obj.metadata?.name}`),
      () => ended(),
    );
    const server = kc.getCurrentCluster()?.server;
    await cluster.restartApiServer();
    await watchEnded; // the watch stream is closed by the restart
    expect(events).to.include('ADDED default');
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'after-restart' } } });
    const fresh = new KubeConfig();
    fresh.loadFromFile(cluster.kubeconfigPath);
    expect(fresh.getCurrentCluster()?.server).to.equal(server);
    await cluster.restartApiServer({ hard: true });
    const ns = await core.readNamespace({ name: 'after-restart' });
    expect(ns.metadata?.name).to.equal('after-restart'); // etcd kept the data
  });

  it('stop() kills kube-apiserver and etcd', async () => {
    const pids = envPids(cluster.dir);
    expect(pids).to.have.length(2);
    await cluster.stop();
    await cluster.stop(); // idempotent
    for (const pid of pids) expect(pidAlive(pid), `pid ${pid}`).to.equal(false);
  });
});
