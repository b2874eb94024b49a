// The operator runs as a ServiceAccount holding exactly the RBAC rules the Helm chart grants (as `helm template`
// renders them), against an API server that enforces RBAC: if the chart misses a permission, a reconcile step
// fails and the resource never gets Ready. Also checks the deploy/samples.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { KubeConfigView } from '../../src/operator/kube-config/kube-credentials.js';
import { expect } from 'chai';
import { parseAllDocuments } from 'yaml';
import { DIRECTORY_CONNECTIONS, type DirectoryConnection } from '../../src/operator/crd-schema.js';
import { KubeClient, SECRETS, type KubeObject, type Secret } from '../../src/operator/kube.js';
import { collectGarbage } from './cluster-controllers.js';
import type { Operator } from '../../src/operator/main.js';
import { find, helms, parseObjects, template } from './helm-tools.js';
import { startEnv, startOperator, waitFor, type Env } from './operator-harness.js';
import { applyChartRbac, NAMESPACES, serviceAccountKubeConfig } from './rbac-harness.js';

const SAMPLES = fileURLToPath(new URL('../../deploy/samples/', import.meta.url));

const load = (file: string): KubeObject =>
  parseAllDocuments(readFileSync(`${SAMPLES}${file}`, 'utf8'))[0]!.toJS() as KubeObject;

describe('operator with the chart RBAC (real kube-apiserver, RBAC enforced)', function () {
  this.timeout(120_000);
  let env: Env;
  let operator: Operator | undefined;
  let asServiceAccount: KubeConfigView;

  before(async () => {
    env = await startEnv();
    for (const name of ['dsync-system', 'tenant-a']) await env.kube.create(NAMESPACES, { metadata: { name } });
    const rbac = await applyChartRbac(env);
    const operatorRole = rbac.find((o) => o.kind === 'ClusterRole');
    const leaseRole = rbac.find((o) => o.kind === 'Role' && o.metadata.name === 'dsync-leader-election');
    expect(operatorRole?.rules, 'operator rules').to.have.length.above(3);
    expect(leaseRole?.rules, 'leader election rules').to.have.length(1);
    asServiceAccount = await serviceAccountKubeConfig(env, 'dsync-system', 'dsync');
  });

  after(async () => {
    await operator?.stop();
    await env?.stop();
  });

  it('the ServiceAccount is really restricted (cannot read ConfigMaps)', async () => {
    const client = new KubeClient({ kubeConfig: asServiceAccount });
    const err = await client
      .list({ group: '', version: 'v1', plural: 'configmaps' }, 'tenant-a', {})
      .catch((e: { status?: number }) => e);
    client.close();
    expect((err as { status?: number }).status).to.equal(403);
  });

  it('reconciles the samples to Ready, replaces a Secret deleted by hand and cleans up on delete with only those permissions', async () => {
    operator = startOperator({ ...env, kubeConfig: asServiceAccount });
    const secret = { ...load('webhook-secret.yaml'), metadata: { name: 'acme-webhook', namespace: 'tenant-a' } };
    const cr = {
      ...load('directoryconnection.yaml'),
      metadata: { name: 'acme-okta', namespace: 'tenant-a' },
    } as DirectoryConnection;
    await env.kube.create(SECRETS, secret);
    const created = await env.kube.create(DIRECTORY_CONNECTIONS, cr);
    const ready = await waitFor('the sample Ready', async () => {
      const got = await env.kube.get<DirectoryConnection>(DIRECTORY_CONNECTIONS, 'tenant-a', 'acme-okta');
      return got.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') && got;
    });
    expect(ready.status?.secretName).to.equal('acme-okta-scim');
    expect((await env.directories.get(created.metadata.uid!)).webhook.secret).to.equal(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    );
    const lease = await env.kube.get<{ spec: { holderIdentity: string } }>(
      { group: 'coordination.k8s.io', version: 'v1', plural: 'leases' },
      'dsync-system',
      'dsync-operator',
    );
    expect(lease.spec.holderIdentity).to.equal(operator.identity);

    // A Secret deleted by hand: the operator reads the resource and the namespace, holds the finalizer on the
    // resource, releases the Secret and makes a new one.
    const old = await env.kube.get<Secret>(SECRETS, 'tenant-a', 'acme-okta-scim');
    await env.kube.delete(SECRETS, 'tenant-a', 'acme-okta-scim');
    await waitFor('a new Secret holding the finalizer, the resource none', async () => {
      const fresh = await env.kube.get<Secret>(SECRETS, 'tenant-a', 'acme-okta-scim').catch(() => undefined);
      const cr = await env.kube.get<DirectoryConnection>(DIRECTORY_CONNECTIONS, 'tenant-a', 'acme-okta');
      return (
        fresh &&
        fresh.metadata.uid !== old.metadata.uid &&
        fresh.metadata.finalizers?.length === 1 &&
        (cr.metadata.finalizers ?? []).length === 0
      );
    });

    await env.kube.delete(DIRECTORY_CONNECTIONS, 'tenant-a', 'acme-okta');
    await collectGarbage(env.kube, 'tenant-a'); // no GC in this test cluster: the test does its part
    await waitFor('the Secret gone', () =>
      env.kube.get(SECRETS, 'tenant-a', 'acme-okta-scim').then(
        () => false,
        (e: { status?: number }) => e.status === 404,
      ),
    );
    expect(await env.store.getDirectory(created.metadata.uid!)).to.equal(null);
    expect(
      await operator.metrics.reconcileErrors.get().then((m) => m.values.reduce((s, v) => s + v.value, 0)),
    ).to.equal(0);
  });
});
