// The operator's own kubeconfig loader against a real kube-apiserver: client certificates from files, an exec
// plugin, the pod's service account (token file, mounted CA and namespace), each proven by who the API server
// says the caller is; and the client's watch streaming real events.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { parse, stringify } from 'yaml';
import { KubeApiError } from '../../src/operator/errors.js';
import { KubeClient, SECRETS, resourcePath, type Secret } from '../../src/operator/kube.js';
import { loadKubeConfig } from '../../src/operator/kube-config/load-kube-config.js';
import type { KubeConfigView } from '../../src/operator/kube-config/kube-credentials.js';
import { startCluster, type Cluster } from './cluster.js';

interface SelfSubjectReview {
  status: { userInfo: { username: string; groups?: string[] } };
}

/** Who the API server takes the caller for (SelfSubjectReview, kubectl auth whoami). */
async function whoami(kubeConfig: KubeConfigView): Promise<string> {
  const client = new KubeClient({ kubeConfig });
  try {
    const review = await client.request<SelfSubjectReview>(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      {
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      },
    );
    return review.status.userInfo.username;
  } finally {
    client.close();
  }
}

describe('operator kubeconfig loader (real kube-apiserver)', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let admin: { clusters: Array<{ cluster: { server: string } }>; users: Array<{ user: { token: string } }> };
  let server: string;

  before(async () => {
    cluster = await startCluster();
    admin = parse(await readFile(cluster.kubeconfigPath, 'utf8')) as typeof admin;
    server = admin.clusters[0]!.cluster.server;
  });

  after(async () => {
    await cluster?.stop();
  });

  /** A kubeconfig in its own directory (so relative paths are relative to it) with `user` as its credentials. */
  async function kubeconfigWith(name: string, user: Record<string, unknown>): Promise<string> {
    const dir = join(cluster.dir, name);
    await mkdir(dir, { recursive: true });
    const path = join(dir, 'config');
    const doc = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'envtest', cluster: { server, 'certificate-authority': '../certs/ca.crt' } }],
      users: [{ name: name, user }],
      contexts: [{ name, context: { cluster: 'envtest', user: name } }],
      'current-context': name,
    };
    await writeFile(path, stringify(doc), { mode: 0o600 });
    return path;
  }

  it('authenticates with a client certificate and key read from files relative to the kubeconfig', async () => {
    const path = await kubeconfigWith('certs-user', {
      'client-certificate': '../certs/admin.crt',
      'client-key': '../certs/admin.key',
    });
    expect(await whoami(await loadKubeConfig({ kubeconfig: path }))).to.equal('admin');
  });

  it("authenticates through an exec plugin's ExecCredential, run once for many requests", async () => {
    const dir = join(cluster.dir, 'exec-user');
    await mkdir(dir, { recursive: true });
    const plugin = join(dir, 'plugin.mjs');
    const token = admin.users[0]!.user.token;
    await writeFile(
      plugin,
      `#!${process.execPath}\nimport { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(join(dir, 'runs'))}, 'x');\n` +
        `console.log(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: ${JSON.stringify(token)} } }));\n`,
    );
    await chmod(plugin, 0o755);
    const path = await kubeconfigWith('exec-user', {
      exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './plugin.mjs' },
    });
    const kubeConfig = await loadKubeConfig({ kubeconfig: path });
    expect(await whoami(kubeConfig)).to.equal('admin');
    expect(await whoami(kubeConfig)).to.equal('admin');
    expect(await readFile(join(dir, 'runs'), 'utf8')).to.equal('x');
  });

  it("in a pod: the service account's token file, mounted CA and namespace, without a kubeconfig", async () => {
    const client = new KubeClient({ kubeConfig: await loadKubeConfig({ kubeconfig: cluster.kubeconfigPath }) });
    await client.create(
      { group: '', version: 'v1', plural: 'serviceaccounts' },
      { metadata: { name: 'dsync', namespace: 'default' } },
    );
    const { status } = await client.request<{ status: { token: string } }>(
      'POST',
      '/api/v1/namespaces/default/serviceaccounts/dsync/token',
      {
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
      },
    );
    client.close();
    const mount = join(cluster.dir, 'serviceaccount');
    await mkdir(mount, { recursive: true });
    await writeFile(join(mount, 'token'), status.token);
    await writeFile(join(mount, 'ca.crt'), await readFile(join(cluster.dir, 'certs', 'ca.crt')));
    await writeFile(join(mount, 'namespace'), 'default');
    const { hostname, port } = new URL(server);
    const inPod = await loadKubeConfig({
      serviceHost: hostname,
      servicePort: port,
      serviceAccountDir: mount,
      home: join(cluster.dir, 'no-home'),
    });
    expect(await whoami(inPod)).to.equal('system:serviceaccount:default:dsync');
    expect(inPod.getContextObject(inPod.getCurrentContext())).to.deep.equal({ namespace: 'default' });
  });

  it('refuses a wrong token with the API server’s 401', async () => {
    const path = await kubeconfigWith('bad-token', { token: 'not-a-token' });
    const err = (await whoami(await loadKubeConfig({ kubeconfig: path })).catch((e: unknown) => e)) as {
      status?: number;
    };
    expect(err.status).to.equal(401);
  });

  it('watches: streams the events of real writes; a refused watch ends with the server’s status', async () => {
    const client = new KubeClient({ kubeConfig: await loadKubeConfig({ kubeconfig: cluster.kubeconfigPath }) });
    const list = await client.list<Secret>(SECRETS, 'default', {});
    const events: string[] = [];
    let ended: unknown = 'open';
    const stop = client.watch(
      resourcePath(SECRETS, 'default'),
      { resourceVersion: list.metadata.resourceVersion },
      undefined,
      (type, obj) => {
        events.push(`${type} ${(obj as Secret).metadata.name}`);
      },
      (err) => (ended = err),
    );
    const secret = await client.create<Secret>(SECRETS, {
      metadata: { name: 'watched', namespace: 'default' },
      data: { a: 'YQ==' },
    });
    await client.delete(SECRETS, 'default', secret.metadata.name);
    for (let i = 0; i < 100 && events.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    stop();
    expect(events).to.deep.equal(['ADDED watched', 'DELETED watched']);
    expect(ended, 'stopping does not report an end').to.equal('open');

    const refused = await new Promise<unknown>((resolve) =>
      client.watch('/api/v1/namespaces/default/nothings', {}, undefined, () => undefined, resolve),
    );
    client.close();
    expect(refused).to.be.instanceOf(KubeApiError);
    expect((refused as KubeApiError).status).to.equal(404);
  });
});
