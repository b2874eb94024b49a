// Deletion against a real kube-apiserver and Redis: the finalizer is on the SCIM Secret, so the stored directory
// must go with the resource whichever way it goes (background, foreground, orphaning delete; with its namespace,
// Secrets first or resources first; while no operator runs), and only then; a Secret deleted by hand is made
// anew without losing the directory, even if the namespace starts to terminate meanwhile; resources made before
// the finalizer moved are migrated or deleted as they were. The garbage collector's and the namespace
// controller's parts are played by the test (cluster-controllers.ts), at the moment each would act.
import { expect } from 'chai';
import { DIRECTORY_CONNECTIONS, type DirectoryConnection } from '../../src/operator/crd-schema.js';
import { NAMESPACES, SECRETS, type KubeObject, type Resource, type Secret } from '../../src/operator/kube.js';
import type { Operator } from '../../src/operator/main.js';
import { DIRECTORY_ID_ANNOTATION, FINALIZER } from '../../src/operator/metadata-keys.js';
import { collectGarbage, deleteNamespaceContents, deleteWith, finalizeNamespace } from './cluster-controllers.js';
import {
  connection,
  readyOf,
  reconciles,
  startEnv,
  startOperator,
  unb64,
  waitFor,
  writes,
  type Env,
} from './operator-harness.js';

const POLICIES: Resource = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  plural: 'validatingadmissionpolicies',
};
const BINDINGS: Resource = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  plural: 'validatingadmissionpolicybindings',
};

describe('operator deletion: the finalizer on the SCIM Secret (real kube-apiserver + Redis)', function () {
  this.timeout(120_000);
  let env: Env;
  let operator: Operator | undefined;

  before(async () => {
    env = await startEnv();
  });

  afterEach(async () => {
    await operator?.stop();
    operator = undefined;
  });

  after(async () => {
    await env?.stop();
  });

  const gone = (r: Resource, namespace: string, name: string) => async () =>
    env.kube.get(r, namespace, name).then(
      () => false,
      (err: { status?: number }) => err.status === 404,
    );
  const getCr = (namespace: string, name: string) =>
    env.kube.get<DirectoryConnection>(DIRECTORY_CONNECTIONS, namespace, name);
  const getScimSecret = (namespace: string, name: string) => env.kube.get<Secret>(SECRETS, namespace, `${name}-scim`);

  /** A namespace with one Ready resource `acme`; returns the resource as Ready. */
  async function readyIn(namespace: string, name = 'acme'): Promise<DirectoryConnection> {
    if (namespace !== 'default') await env.kube.create(NAMESPACES, { metadata: { name: namespace } });
    await env.kube.create(DIRECTORY_CONNECTIONS, {
      ...connection(name, { tenant: namespace }),
      metadata: { name, namespace },
    });
    return waitFor(`${namespace}/${name} Ready`, async () => {
      const cr = await getCr(namespace, name);
      return readyOf(cr)?.status === 'True' && cr;
    });
  }

  /** Runs `change`, then waits until the operator has finished a reconcile after it (and is idle). */
  async function reconciledAfter(running: Operator, what: string, change: () => Promise<unknown>): Promise<void> {
    const before = await reconciles(running);
    await change();
    await waitFor(what, async () => (await reconciles(running)) > before);
    await running.idle();
  }

  it('resource deleted → gone at once; the garbage collector deletes the Secret, which waits for the directory to go', async () => {
    operator = startOperator(env);
    const cr = await readyIn('bg');
    await env.kube.delete(DIRECTORY_CONNECTIONS, 'bg', 'acme');
    expect(await gone(DIRECTORY_CONNECTIONS, 'bg', 'acme')()).to.equal(true);
    expect(await env.store.getDirectory(cr.metadata.uid!), 'kept while the Secret lives').to.not.equal(null);
    await collectGarbage(env.kube, 'bg');
    await waitFor('the Secret gone', gone(SECRETS, 'bg', 'acme-scim'));
    expect(await env.store.getDirectory(cr.metadata.uid!)).to.equal(null);
  });

  it('foreground deletion → the resource waits for its Secret, which waits for the directory', async () => {
    operator = startOperator(env);
    const cr = await readyIn('fg');
    await deleteWith(env.kube, DIRECTORY_CONNECTIONS, 'fg', 'acme', { propagationPolicy: 'Foreground' });
    expect((await getCr('fg', 'acme')).metadata.finalizers).to.deep.equal(['foregroundDeletion']);
    await collectGarbage(env.kube, 'fg'); // deletes the blocking dependent
    await waitFor('the Secret gone', gone(SECRETS, 'fg', 'acme-scim'));
    expect(await env.store.getDirectory(cr.metadata.uid!)).to.equal(null);
    await collectGarbage(env.kube, 'fg'); // no dependent left: the owner goes
    expect(await gone(DIRECTORY_CONNECTIONS, 'fg', 'acme')()).to.equal(true);
  });

  it('orphaning delete → the directory lives as long as the orphaned Secret, and goes with it', async () => {
    operator = startOperator(env);
    const cr = await readyIn('orphan');
    await deleteWith(env.kube, DIRECTORY_CONNECTIONS, 'orphan', 'acme', { propagationPolicy: 'Orphan' });
    await reconciledAfter(operator, 'the orphaned Secret looked at', () => collectGarbage(env.kube, 'orphan'));
    expect(await gone(DIRECTORY_CONNECTIONS, 'orphan', 'acme')()).to.equal(true);
    expect((await getScimSecret('orphan', 'acme')).metadata.ownerReferences ?? []).to.deep.equal([]);
    expect(await env.store.getDirectory(cr.metadata.uid!), 'kept: the Secret was orphaned, not deleted').to.not.equal(
      null,
    );
    await env.kube.delete(SECRETS, 'orphan', 'acme-scim');
    await waitFor('the Secret gone', gone(SECRETS, 'orphan', 'acme-scim'));
    expect(await env.store.getDirectory(cr.metadata.uid!), 'found by the annotation, not the owner reference').to.equal(
      null,
    );
  });

  it('namespace deleted, Secrets first → the Secret holds on (nothing recreated, no finalizer added) until the resource goes', async () => {
    operator = startOperator(env);
    const cr = await readyIn('ns-secrets-first');
    await env.kube.delete(NAMESPACES, '', 'ns-secrets-first');
    const before = await writes(operator);
    await reconciledAfter(operator, 'the terminating Secret looked at', () =>
      deleteNamespaceContents(env.kube, 'ns-secrets-first', [SECRETS]),
    );
    const held = await getScimSecret('ns-secrets-first', 'acme');
    expect(held.metadata.deletionTimestamp).to.be.a('string');
    expect(held.metadata.finalizers).to.deep.equal([FINALIZER]);
    expect((await getCr('ns-secrets-first', 'acme')).metadata.finalizers ?? []).to.deep.equal([]);
    expect(await writes(operator), 'writes while the namespace terminates and the resource lives').to.equal(before);
    expect(await env.store.getDirectory(cr.metadata.uid!)).to.not.equal(null);

    await deleteNamespaceContents(env.kube, 'ns-secrets-first', [DIRECTORY_CONNECTIONS]);
    await waitFor('the Secret gone', gone(SECRETS, 'ns-secrets-first', 'acme-scim'));
    expect(await env.store.getDirectory(cr.metadata.uid!)).to.equal(null);
    await finalizeNamespace(env.kube, 'ns-secrets-first');
    await waitFor('the namespace gone', gone(NAMESPACES, '', 'ns-secrets-first'));
  });

  it('namespace deleted, resources first → the directory goes with them', async () => {
    operator = startOperator(env);
    const cr = await readyIn('ns-resources-first');
    await env.kube.delete(NAMESPACES, '', 'ns-resources-first');
    await deleteNamespaceContents(env.kube, 'ns-resources-first', [DIRECTORY_CONNECTIONS]);
    expect(await gone(DIRECTORY_CONNECTIONS, 'ns-resources-first', 'acme')()).to.equal(true);
    await deleteNamespaceContents(env.kube, 'ns-resources-first', [SECRETS]);
    await waitFor('the Secret gone', gone(SECRETS, 'ns-resources-first', 'acme-scim'));
    expect(await env.store.getDirectory(cr.metadata.uid!)).to.equal(null);
    await finalizeNamespace(env.kube, 'ns-resources-first');
    await waitFor('the namespace gone', gone(NAMESPACES, '', 'ns-resources-first'));
  });

  it('deleted while no operator runs → the operator that comes back finds the terminating Secret and finishes', async () => {
    operator = startOperator(env);
    const cr = await readyIn('down');
    await operator.stop();
    operator = undefined;
    await env.kube.delete(DIRECTORY_CONNECTIONS, 'down', 'acme');
    await collectGarbage(env.kube, 'down');
    expect((await getScimSecret('down', 'acme')).metadata.deletionTimestamp).to.be.a('string');
    expect(await env.store.getDirectory(cr.metadata.uid!)).to.not.equal(null);
    operator = startOperator(env);
    await waitFor('the Secret gone', gone(SECRETS, 'down', 'acme-scim'));
    expect(await env.store.getDirectory(cr.metadata.uid!)).to.equal(null);
  });

  it('Secret deleted by hand → made anew (new token) while the resource holds the finalizer; the directory stays', async () => {
    operator = startOperator(env);
    const cr = await readyIn('by-hand');
    const old = await getScimSecret('by-hand', 'acme');
    const created = (await env.directories.get(cr.metadata.uid!)).created_at;
    await env.kube.delete(SECRETS, 'by-hand', 'acme-scim');
    const fresh = await waitFor('a new Secret', async () => {
      const s = await getScimSecret('by-hand', 'acme').catch(() => undefined);
      return s && s.metadata.uid !== old.metadata.uid && s;
    });
    expect(fresh.metadata.finalizers).to.deep.equal([FINALIZER]);
    const token = unb64(fresh.data?.['token']);
    expect(token).to.not.equal(unb64(old.data?.['token']));
    await waitFor(
      'the resource without a finalizer again',
      async () => ((await getCr('by-hand', 'acme')).metadata.finalizers ?? []).length === 0,
    );
    await waitFor(
      'the store to use the new token',
      async () => (await env.directories.get(cr.metadata.uid!)).scim.secret === token,
    );
    expect((await env.directories.get(cr.metadata.uid!)).created_at, 'the same directory').to.equal(created);
    expect(readyOf(await getCr('by-hand', 'acme'))?.status).to.equal('True');
  });

  it('Secret deleted by hand and not made anew before the namespace goes → the resource holds the finalizer, the directory goes', async () => {
    // The window between releasing the old Secret and creating the new one, held open: creating it is refused.
    await env.kube.create(POLICIES, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'no-new-secret' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['secrets'] }],
        },
        validations: [
          { expression: "object.metadata.namespace != 'window'", message: 'no new Secrets in window (test policy)' },
        ],
      },
    } as KubeObject);
    try {
      operator = startOperator(env, { retry: { maxDelayMs: 1_000 } });
      const cr = await readyIn('window');
      await env.kube.create(BINDINGS, {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'no-new-secret' },
        spec: { policyName: 'no-new-secret', validationActions: ['Deny'] },
      } as KubeObject);
      await waitFor('the policy in force', async () => {
        const probe = await env.kube
          .create(SECRETS, { metadata: { name: 'probe', namespace: 'window' } })
          .catch((e: Error) => e);
        if (!(probe instanceof Error)) throw new Error('probe created: the policy is not in force');
        return /no new Secrets/.test(probe.message);
      });
      await env.kube.delete(SECRETS, 'window', 'acme-scim');
      const held = await waitFor('Ready=False SecretWriteFailed, the resource holding the finalizer', async () => {
        const got = await getCr('window', 'acme');
        return readyOf(got)?.reason === 'SecretWriteFailed' && got;
      });
      expect(held.metadata.finalizers).to.deep.equal([FINALIZER]);
      expect(await gone(SECRETS, 'window', 'acme-scim')()).to.equal(true);

      await env.kube.delete(NAMESPACES, '', 'window');
      await deleteNamespaceContents(env.kube, 'window', [SECRETS, DIRECTORY_CONNECTIONS]);
      await waitFor('the resource gone', gone(DIRECTORY_CONNECTIONS, 'window', 'acme'));
      expect(await env.store.getDirectory(cr.metadata.uid!)).to.equal(null);
      await finalizeNamespace(env.kube, 'window');
    } finally {
      await env.kube.delete(BINDINGS, '', 'no-new-secret').catch(() => undefined);
      await env.kube.delete(POLICIES, '', 'no-new-secret');
    }
  });

  describe('resources made before the finalizer moved to the Secret', () => {
    /** Turns a Ready resource into what an earlier version left: the finalizer on the resource, none on the Secret. */
    async function asBefore(namespace: string): Promise<DirectoryConnection> {
      const cr = await getCr(namespace, 'acme');
      await env.kube.mergePatch(DIRECTORY_CONNECTIONS, namespace, 'acme', { metadata: { finalizers: [FINALIZER] } });
      await env.kube.mergePatch(SECRETS, namespace, 'acme-scim', {
        metadata: { finalizers: null, annotations: { [DIRECTORY_ID_ANNOTATION]: null } },
      });
      return cr;
    }

    it('are migrated with two writes, once: the Secret takes the finalizer, the resource drops it; token unchanged', async () => {
      operator = startOperator(env);
      await readyIn('upgrade');
      await operator.stop();
      const cr = await asBefore('upgrade');
      const token = unb64((await getScimSecret('upgrade', 'acme')).data?.['token']);

      operator = startOperator(env, { namespaces: ['upgrade'] }); // its writes are this namespace's alone
      const upgraded = operator;
      await waitFor(
        'the finalizer moved',
        async () => ((await getCr('upgrade', 'acme')).metadata.finalizers ?? []).length === 0,
      );
      await upgraded.idle();
      const secret = await getScimSecret('upgrade', 'acme');
      expect(secret.metadata.finalizers).to.deep.equal([FINALIZER]);
      expect(secret.metadata.annotations?.[DIRECTORY_ID_ANNOTATION]).to.equal(cr.metadata.uid);
      expect(unb64(secret.data?.['token'])).to.equal(token);
      const { values } = await upgraded.metrics.writes.get();
      const counted = values
        .filter((v) => v.value > 0 && v.labels.resource !== 'leases')
        .map((v) => `${v.labels.target} ${v.labels.resource} ${v.labels.verb} ${v.value}`);
      expect(counted.sort()).to.deep.equal(['kubernetes directoryconnections patch 1', 'kubernetes secrets update 1']);

      upgraded.resync();
      await upgraded.idle();
      expect(await writes(upgraded), 'nothing more on a resync').to.equal(2);
      await env.kube.delete(DIRECTORY_CONNECTIONS, 'upgrade', 'acme');
      await collectGarbage(env.kube, 'upgrade');
      await waitFor('the Secret gone', gone(SECRETS, 'upgrade', 'acme-scim'));
      expect(await env.store.getDirectory(cr.metadata.uid!)).to.equal(null);
    });

    it('one deleted before the upgrade reached it is deleted as before, by its own finalizer', async () => {
      operator = startOperator(env);
      await readyIn('upgrade-deleted');
      await operator.stop();
      const cr = await asBefore('upgrade-deleted');
      await env.kube.delete(DIRECTORY_CONNECTIONS, 'upgrade-deleted', 'acme');
      expect((await getCr('upgrade-deleted', 'acme')).metadata.deletionTimestamp).to.be.a('string');

      operator = startOperator(env);
      await waitFor('the resource gone', gone(DIRECTORY_CONNECTIONS, 'upgrade-deleted', 'acme'));
      expect(await env.store.getDirectory(cr.metadata.uid!)).to.equal(null);
      await collectGarbage(env.kube, 'upgrade-deleted'); // its Secret, without a finalizer, just goes
      await waitFor('the Secret gone', gone(SECRETS, 'upgrade-deleted', 'acme-scim'));
    });
  });
});
