// Kubernetes and store writes that fail in a reconcile are reported in the status, not lost: a Secret create
// refused by a ResourceQuota, a finalizer refused by an admission policy, a deletion the store cannot carry out
// (its redis-server, this file's own, paused with SIGSTOP: connected, answering nothing).
import { expect } from 'chai';
import { DIRECTORY_CONNECTIONS, type DirectoryConnection } from '../../src/operator/crd-schema.js';
import { FINALIZER } from '../../src/operator/scim-secret.js';
import { EVENTS, SECRETS, type KubeObject, type Resource } from '../../src/operator/kube.js';
import type { Operator } from '../../src/operator/main.js';
import { RedisStore } from '../../src/store/redis.js';
import { RedisServer } from '../support/redis-server.js';
import {
  connection,
  createConnection,
  getConnection,
  getSecret,
  readyOf,
  startEnv,
  startOperator,
  unb64,
  waitFor,
  waitForReady,
  type Env,
} from './operator-harness.js';

const QUOTAS: Resource = { group: '', version: 'v1', plural: 'resourcequotas' };
const POLICIES: Resource = { group: 'admissionregistration.k8s.io', version: 'v1', plural: 'validatingadmissionpolicies' };
/** Reconciles that ended in an error so far. */
const reconcileErrors = async (operator: Operator): Promise<number> =>
  (await operator.metrics.reconcileTotal.get()).values.filter((v) => v.labels.result === 'error').reduce((sum, v) => sum + v.value, 0);
const BINDINGS: Resource = { group: 'admissionregistration.k8s.io', version: 'v1', plural: 'validatingadmissionpolicybindings' };

describe('reconcile write failures are reported in the status (real kube-apiserver + Redis)', function () {
  this.timeout(120_000);
  let env: Env;
  let operator: Operator;
  let redis: RedisServer;

  before(async () => {
    redis = await RedisServer.start();
    env = await startEnv(async () => new RedisStore(redis.url));
    // Retries capped at 1 s so the recoveries below are quick.
    operator = startOperator(env, { retry: { maxDelayMs: 1_000 } });
  });

  after(async () => {
    if (redis?.running) redis.resume();
    await operator?.stop();
    await env?.stop();
    await redis?.stop();
  });

  async function warningEvents(name: string): Promise<Array<{ reason: string; message: string }>> {
    const list = await env.kube.list<{ reason: string; message: string; type: string; involvedObject: { name: string } }>(EVENTS, 'default', {});
    return list.items.filter((e) => e.involvedObject.name === name && e.type === 'Warning');
  }

  it('a SCIM Secret create refused by a ResourceQuota → Ready=False SecretWriteFailed with the reason, then recovers', async () => {
    const cr = await createConnection(env, connection('quota'));
    await waitForReady(env, 'quota');
    const oldToken = unb64((await getSecret(env, 'quota-scim')).data?.['token']);
    // The namespace is over its Secret quota (no quota controller runs here: the status is what it would write).
    const quota = await env.kube.create(QUOTAS, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'secrets', namespace: 'default' }, spec: { hard: { secrets: '1' } } } as KubeObject);
    try {
      await env.kube.replace(QUOTAS, { ...quota, status: { hard: { secrets: '1' }, used: { secrets: '5' } } } as KubeObject, 'status');
      await waitFor('the quota to refuse Secrets', async () => {
        const probe = await env.kube.create(SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'probe', namespace: 'default' } }).catch((e: { status?: number }) => e);
        if (!('status' in probe)) await env.kube.delete(SECRETS, 'default', 'probe');
        return (probe as { status?: number }).status === 403;
      });

      await env.kube.delete(SECRETS, 'default', 'quota-scim'); // the operator must create it again, and cannot
      const failed = await waitForReady(env, 'quota', 'False', 'SecretWriteFailed');
      expect(readyOf(failed)?.message).to.match(/^could not create Secret quota-scim: .*exceeded quota: secrets/);
      expect(failed.status?.observedGeneration).to.equal(1); // from the last success, not moved
      const events = await waitFor('a Warning Event', async () => {
        const list = await warningEvents('quota');
        return list.some((e) => e.reason === 'SecretWriteFailed') && list;
      });
      expect(events.find((e) => e.reason === 'SecretWriteFailed')?.message).to.contain('exceeded quota');
      expect((await env.directories.get(cr.metadata.uid!)).scim.secret).to.equal(oldToken); // the store is left alone
    } finally {
      await env.kube.delete(QUOTAS, 'default', 'secrets');
    }

    // Retried with backoff: back to Ready once Secrets can be created again, with a new token the store follows.
    await waitForReady(env, 'quota');
    const token = unb64((await getSecret(env, 'quota-scim')).data?.['token']);
    expect(token).to.not.equal(oldToken);
    await waitFor('the store to use the new token', async () => (await env.directories.get(cr.metadata.uid!)).scim.secret === token);
  });

  it('a finalizer refused by an admission policy → Ready=False FinalizerWriteFailed, and nothing is created', async () => {
    // A ValidatingAdmissionPolicy (in the API server, no webhook) refusing finalizers on `guarded`; creating
    // `guarded-probe` is always refused, which tells when the policy is in force.
    await env.kube.create(POLICIES, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'no-finalizers' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [{ apiGroups: ['dsync.io'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['directoryconnections'] }] },
        validations: [
          { expression: "object.metadata.name != 'guarded-probe'", message: 'probe refused' },
          { expression: "object.metadata.name != 'guarded' || !has(object.metadata.finalizers)", message: 'finalizers are not allowed on guarded (test policy)' },
        ],
      },
    } as KubeObject);
    await env.kube.create(BINDINGS, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'no-finalizers' },
      spec: { policyName: 'no-finalizers', validationActions: ['Deny'] },
    } as KubeObject);
    await waitFor('the policy to be in force', async () => {
      const probe = await createConnection(env, connection('guarded-probe')).catch((e: Error) => e);
      if (!(probe instanceof Error)) throw new Error('guarded-probe was created: the policy is not in force');
      return /probe refused/.test(probe.message);
    });

    const cr = await createConnection(env, connection('guarded'));
    const failed = await waitForReady(env, 'guarded', 'False', 'FinalizerWriteFailed');
    expect(readyOf(failed)?.message).to.contain(`could not add the finalizer ${FINALIZER}`).and.contain('finalizers are not allowed on guarded');
    expect(await env.store.getDirectory(cr.metadata.uid!)).to.equal(null); // no directory the resource could not clean up
    expect(await getSecret(env, 'guarded-scim').catch((e: { status?: number }) => e.status)).to.equal(404);
    await waitFor('a Warning Event', async () => (await warningEvents('guarded')).some((e) => e.reason === 'FinalizerWriteFailed'));

    await env.kube.delete(BINDINGS, '', 'no-finalizers');
    await env.kube.delete(POLICIES, '', 'no-finalizers');
    const ready = await waitForReady(env, 'guarded');
    expect(ready.metadata.finalizers).to.deep.equal([FINALIZER]);
    expect(await env.store.getDirectory(cr.metadata.uid!)).to.not.equal(null);
  });

  it('deleted while the store is down → Ready=False DeletionBlocked, then the directory and the resource go', async () => {
    const cr = await createConnection(env, connection('doomed'));
    await waitForReady(env, 'doomed');
    redis.pause();
    try {
      await env.kube.delete(DIRECTORY_CONNECTIONS, 'default', 'doomed');
      const blocked = await waitForReady(env, 'doomed', 'False', 'DeletionBlocked');
      expect(blocked.metadata.deletionTimestamp).to.be.a('string');
      expect(blocked.metadata.finalizers).to.deep.equal([FINALIZER]);
      expect(readyOf(blocked)?.message).to.contain('the directory store could not be reached');
      await waitFor('a Warning Event', async () => (await warningEvents('doomed')).some((e) => e.reason === 'DeletionBlocked'));
      const failures = await reconcileErrors(operator);
      await waitFor('a retry meanwhile', async () => (await reconcileErrors(operator)) > failures);
      const still = await getConnection(env, 'doomed');
      expect(readyOf(still)?.reason, 'still blocked after a retry').to.equal('DeletionBlocked');
      expect(still.metadata.finalizers, 'the finalizer holds the resource').to.deep.equal([FINALIZER]);
    } finally {
      redis.resume();
    }
    await waitFor('the resource to be gone', async () =>
      env.kube.get<DirectoryConnection>(DIRECTORY_CONNECTIONS, 'default', 'doomed').then(
        () => false,
        (err: { status?: number }) => err.status === 404,
      ),
    );
    expect(await env.store.getDirectory(cr.metadata.uid!)).to.equal(null);
  });
});
