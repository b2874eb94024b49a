// DSYNC_OPERATOR_NAMESPACES: the operator watches a list of namespaces with one list+watch each, so Roles in
// those namespaces suffice (no ClusterRole, no cluster-wide Secret access). Run against an API server that
// enforces RBAC, as a ServiceAccount holding the chart's operator rules only as Roles in tenant-a and tenant-b:
// a cluster-wide list or watch would be refused and the caches would never sync.
import { expect } from 'chai';
import { DIRECTORY_CONNECTIONS, type DirectoryConnection } from '../../src/operator/crd-schema.js';
import { FINALIZER } from '../../src/operator/metadata-keys.js';
import { SECRETS, type Secret } from '../../src/operator/kube.js';
import type { Operator } from '../../src/operator/main.js';
import {
  connection,
  readyOf,
  sleep,
  startEnv,
  startOperator,
  waitFor,
  webhookSecret,
  type Env,
} from './operator-harness.js';
import { applyChartRbac, NAMESPACES, serviceAccountKubeConfig } from './rbac-harness.js';

const WATCHED = ['tenant-a', 'tenant-b'];
const OTHER = 'tenant-c';

describe('operator watching a list of namespaces (real kube-apiserver, RBAC enforced, Roles only)', function () {
  this.timeout(120_000);
  let env: Env;
  let operator: Operator | undefined;

  const inNamespace = <T extends { metadata: { namespace?: string } }>(obj: T, namespace: string): T => ({
    ...obj,
    metadata: { ...obj.metadata, namespace },
  });
  const get = (namespace: string, name: string) =>
    env.kube.get<DirectoryConnection>(DIRECTORY_CONNECTIONS, namespace, name);

  before(async () => {
    env = await startEnv();
    for (const name of ['dsync-system', ...WATCHED, OTHER]) await env.kube.create(NAMESPACES, { metadata: { name } });
    // The chart's own rendering for watched namespaces: a Role per namespace, no cluster-wide grant.
    const rbac = await applyChartRbac(env, { 'operator.watchNamespaces': WATCHED });
    expect(
      rbac.filter((o) => o.kind.startsWith('Cluster')),
      'cluster-wide RBAC',
    ).to.deep.equal([]);
    expect(
      rbac.filter((o) => o.kind === 'Role' && o.metadata.name === 'dsync-operator').map((o) => o.metadata.namespace),
    ).to.have.members(WATCHED);
    const kubeConfig = await serviceAccountKubeConfig(env, 'dsync-system', 'dsync');
    operator = startOperator({ ...env, kubeConfig }, { namespaces: WATCHED, retry: { maxDelayMs: 1_000 } });
  });

  after(async () => {
    await operator?.stop();
    await env?.stop();
  });

  it('reconciles the listed namespaces to Ready with namespaced Roles only, and leaves the others alone', async () => {
    for (const namespace of [...WATCHED, OTHER]) {
      await env.kube.create(
        SECRETS,
        inNamespace(webhookSecret('hook', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'), namespace),
      );
      const webhook = { url: 'https://hooks.example.com/in', secretRef: { name: 'hook', key: 'secret' } };
      await env.kube.create(DIRECTORY_CONNECTIONS, inNamespace(connection('acme', { webhook }), namespace));
    }
    for (const namespace of WATCHED) {
      const cr = await waitFor(`Ready in ${namespace}`, async () => {
        const got = await get(namespace, 'acme');
        return readyOf(got)?.status === 'True' && got;
      });
      expect(cr.status?.secretName).to.equal('acme-scim');
      expect(await env.directories.get(cr.metadata.uid!)).to.include({ tenant: 'acme' });
    }
    operator!.resync();
    await sleep(1_000);
    await operator!.idle();
    // Outside the list: nothing written (no finalizer, no status beyond the CRD's default, no SCIM Secret, no
    // directory).
    const other = await get(OTHER, 'acme');
    expect(other.metadata.finalizers ?? []).to.not.include(FINALIZER);
    expect(other.status).to.deep.equal({ observedGeneration: 0 });
    const scim = await env.kube.get(SECRETS, OTHER, 'acme-scim').catch((e: { status?: number }) => e.status);
    expect(scim).to.equal(404);
    expect(await env.store.getDirectory(other.metadata.uid!)).to.equal(null);
    // A Secret deleted by hand is made anew: the Role in its namespace lets the operator read that namespace.
    const old = await env.kube.get<Secret>(SECRETS, 'tenant-a', 'acme-scim');
    await env.kube.delete(SECRETS, 'tenant-a', 'acme-scim');
    await waitFor('a new Secret in tenant-a', async () => {
      const fresh = await env.kube.get<Secret>(SECRETS, 'tenant-a', 'acme-scim').catch(() => undefined);
      return (
        fresh &&
        fresh.metadata.uid !== old.metadata.uid &&
        (await get('tenant-a', 'acme')).metadata.finalizers === undefined
      );
    });
    const errors = await operator!.metrics.reconcileErrors.get();
    expect(
      errors.values.reduce((sum, v) => sum + v.value, 0),
      'reconcile errors (a 403 would count)',
    ).to.equal(0);
  });
});
