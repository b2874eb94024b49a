// The operator on a Redis Cluster, as the Deployment runs it: `dsync operator` and `dsync serve` (the real CLI)
// both on REDIS_CLUSTER_NODES (the shared test cluster) against a real kube-apiserver. A DirectoryConnection
// becomes a directory on the cluster that serve answers for; deleting it removes the directory from the cluster
// (through its SCIM Secret's finalizer, once the garbage collector, played here by the test, deletes the Secret).
import { expect } from 'chai';
import { DIRECTORY_CONNECTIONS, type DirectoryConnection } from '../../src/operator/crd-schema.js';
import { SECRETS } from '../../src/operator/kube.js';
import { run, waitHealthy, type Running } from '../support/cli.js';
import { API_KEY } from '../support/harness.js';
import { clusterNodes, freshReplicatedStore } from '../support/services.js';
import { collectGarbage } from './cluster-controllers.js';
import {
  EXTERNAL_URL,
  connection,
  createConnection,
  getSecret,
  readyOf,
  startEnv,
  unb64,
  waitFor,
  type Env,
} from './operator-harness.js';
import { freePort } from '../support/ports.js';

describe('operator and serve on a Redis Cluster (real CLI processes, kube-apiserver, cluster)', function () {
  this.timeout(120_000);
  let env: Env;
  let serveUrl: string;
  const procs: Running[] = [];

  const manage = (path: string) =>
    fetch(`${serveUrl}/api/v1/directory-sync${path}`, { headers: { authorization: `Api-Key ${API_KEY}` } });

  before(async () => {
    env = await startEnv(() => freshReplicatedStore('cluster'));
    const store = {
      REDIS_CLUSTER_NODES: clusterNodes().join(','),
      METRICS_PORT: '0',
      DSYNC_EXTERNAL_URL: EXTERNAL_URL,
    };
    const port = await freePort();
    const cli = (command: string, extra: Record<string, string>) =>
      run('node', ['--import', 'tsx', 'src/cli.ts', command], { ...store, ...extra });
    procs.push(
      cli('operator', { KUBECONFIG: env.cluster.kubeconfigPath, DSYNC_LEADER_ELECTION_RETRY_PERIOD: '500ms' }),
    );
    procs.push(cli('serve', { PORT: String(port), DSYNC_API_KEYS: API_KEY }));
    await waitHealthy(port, procs[1]!);
    serveUrl = `http://127.0.0.1:${port}`;
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') for (const p of procs) process.stderr.write(`${p.output()}\n`);
  });

  after(async () => {
    for (const p of procs) p.child.kill('SIGTERM');
    await Promise.all(procs.map((p) => p.exited));
    await env?.stop();
  });

  it('apply → Ready: the directory is stored on the cluster, and serve on the cluster answers for it', async () => {
    await createConnection(env, connection('acme', { name: 'Acme on a cluster' }));
    const cr = await waitFor(
      'acme Ready=True',
      async () => {
        const got = await env.kube.get<DirectoryConnection>(DIRECTORY_CONNECTIONS, 'default', 'acme');
        return readyOf(got)?.status === 'True' && got;
      },
      60_000,
    ); // includes the operator's start and election
    const uid = cr.metadata.uid!;
    expect(await env.store.getDirectory(uid)).to.deep.include({
      name: 'Acme on a cluster',
      managed_by: 'kubernetes:default/acme',
    });

    const managed = await manage(`/${uid}`);
    expect(managed.status).to.equal(200);
    expect(((await managed.json()) as { data: object }).data).to.deep.include({ id: uid, name: 'Acme on a cluster' });
    const token = unb64((await getSecret(env, 'acme-scim')).data?.['token']);
    const users = await fetch(`${serveUrl}/api/scim/v2.0/${uid}/Users`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(users.status).to.equal(200);
    expect(await users.json()).to.deep.include({ totalResults: 0 });
  });

  it('delete → the finalizer removes the directory from the cluster; serve answers 404', async () => {
    const uid = (await env.kube.get<DirectoryConnection>(DIRECTORY_CONNECTIONS, 'default', 'acme')).metadata.uid!;
    expect(await env.store.getDirectory(uid)).to.not.equal(null);
    await env.kube.delete(DIRECTORY_CONNECTIONS, 'default', 'acme');
    await collectGarbage(env.kube, 'default'); // no garbage collector in this test cluster: the test does its part
    await waitFor('the SCIM Secret to be gone', async () =>
      env.kube.get(SECRETS, 'default', 'acme-scim').then(
        () => false,
        (err: { status?: number }) => err.status === 404,
      ),
    );
    expect(await env.store.getDirectory(uid)).to.equal(null);
    expect((await manage(`/${uid}`)).status).to.equal(404);
  });
});
