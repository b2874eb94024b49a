// Kubernetes and store writes that fail in a reconcile are reported in the status, not lost: a Secret create
// refused by a ResourceQuota, a finalizer refused by an admission policy, a deletion the store cannot carry out
// (its redis-server, this file's own, paused with SIGSTOP: connected, answering nothing).
import { expect } from 'chai';
import { DIRECTORY_CONNECTIONS, type DirectoryConnection } from '../../src/operator/crd-schema.js';
import { FINALIZER } from '../../src/operator/metadata-keys.js';
import { collectGarbage } from './cluster-controllers.js';
import { EVENTS, SECRETS, type KubeObject, type Resource } from '../../src/operator/kube.js';
import type { Operator } from '../../src/operator/main.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
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
const POLICIES: Resource = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  plural: 'validatingadmissionpolicies',
};
/** Reconciles that ended in an error so far. */
const reconcileErrors = async (operator: Operator): Promise<number> =>
  (await operator.metrics.reconcileTotal.get()).values
    .filter((v) => v.labels.result === 'error')
    .reduce((sum, v) => sum + v.value, 0);
const BINDINGS: Resource = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  plural: 'validatingadmissionpolicybindings',
};

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
    const list = await env.kube.list<{
      reason: string;
      message: string;
      type: string;
      involvedObject: { name: string };
    }>(EVENTS, 'default', {});
    return list.items.filter((e) => e.involvedObject.name === name && e.type === 'Warning');
  }

  it('a SCIM Secret create refused by a ResourceQuota → Ready=False SecretWriteFailed with the reason, then recovers', async () => {
    const cr = await createConnection(env, connection('quota'));
    await waitForReady(env, 'quota');
    const oldToken = unb64((await getSecret(env, 'quota-scim')).data?.['token']);
    // The namespace is over its Secret quota (no quota controller runs here: the status is what it would write).
    const quota = await env.kube.create(QUOTAS, {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'secrets', namespace: 'default' },
      spec: { hard: { secrets: '1' } },
    } as KubeObject);
    try {
      await env.kube.replace(
        QUOTAS,
        { ...quota, status: { hard: { secrets: '1' }, used: { secrets: '5' } } } as KubeObject,
        'status',
      );
      await waitFor('the quota to refuse Secrets', async () => {
        const probe = await env.kube
          .create(SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'probe', namespace: 'default' } })
          .catch((e: { status?: number }) => e);
        if (!('status' in probe)) await env.kube.delete(SECRETS, 'default', 'probe');
        return (probe as { status?: number }).status === 403;
      });

      await env.kube.delete(SECRETS, 'default', 'quota-scim'); // the operator must create it again, and cannot
      const failed = await waitForReady(env, 'quota', 'False', 'SecretWriteFailed');
      expect(readyOf(failed)?.message).to.match(/^could not create Secret quota-scim: .*exceeded quota: secrets/);
      expect(failed.status?.observedGeneration).to.equal(1); // from the last success, not moved
      expect(
        failed.metadata.finalizers,
        'the resource holds the finalizer while its Secret cannot be made',
      ).to.deep.equal([FINALIZER]);
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
    await waitFor(
      'the store to use the new token',
      async () => (await env.directories.get(cr.metadata.uid!)).scim.secret === token,
    );
    await waitFor(
      'the finalizer back on the Secret alone',
      async () => ((await getConnection(env, 'quota')).metadata.finalizers ?? []).length === 0,
    );
    expect((await getSecret(env, 'quota-scim')).metadata.finalizers).to.deep.equal([FINALIZER]);
  });

  it('a finalizer refused by an admission policy → Ready=False SecretWriteFailed, and nothing is created', async () => {
    // A ValidatingAdmissionPolicy (in the API server, no webhook) refusing finalizers on the Secret `guarded-scim`;
    // creating the Secret `guarded-probe` is always refused, which tells when the policy is in force.
    await env.kube.create(POLICIES, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'no-finalizers' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['secrets'] },
          ],
        },
        validations: [
          { expression: "object.metadata.name != 'guarded-probe'", message: 'probe refused' },
          {
            expression: "object.metadata.name != 'guarded-scim' || !has(object.metadata.finalizers)",
            message: 'finalizers are not allowed on guarded-scim (test policy)',
          },
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
      const probe = await env.kube
        .create(SECRETS, { metadata: { name: 'guarded-probe', namespace: 'default' } })
        .catch((e: Error) => e);
      if (!(probe instanceof Error)) throw new Error('guarded-probe was created: the policy is not in force');
      return /probe refused/.test(probe.message);
    });

    const cr = await createConnection(env, connection('guarded'));
    const failed = await waitForReady(env, 'guarded', 'False', 'SecretWriteFailed');
    expect(readyOf(failed)?.message)
      .to.contain('could not create Secret guarded-scim')
      .and.contain('finalizers are not allowed on guarded-scim');
    expect(await env.store.getDirectory(cr.metadata.uid!)).to.equal(null); // no directory without the finalizer guarding it
    expect(await getSecret(env, 'guarded-scim').catch((e: { status?: number }) => e.status)).to.equal(404);
    await waitFor('a Warning Event', async () =>
      (await warningEvents('guarded')).some((e) => e.reason === 'SecretWriteFailed'),
    );

    await env.kube.delete(BINDINGS, '', 'no-finalizers');
    await env.kube.delete(POLICIES, '', 'no-finalizers');
    await waitForReady(env, 'guarded');
    expect((await getSecret(env, 'guarded-scim')).metadata.finalizers).to.deep.equal([FINALIZER]);
    expect(await env.store.getDirectory(cr.metadata.uid!)).to.not.equal(null);
  });

  it('deleted while the store is down → the Secret holds on with a Warning Event (DeletionBlocked), then it and the directory go', async () => {
    const cr = await createConnection(env, connection('doomed'));
    await waitForReady(env, 'doomed');
    redis.pause();
    try {
      await env.kube.delete(DIRECTORY_CONNECTIONS, 'default', 'doomed');
      await collectGarbage(env.kube, 'default'); // the resource is gone at once; the garbage collector's part
      await waitFor('a Warning Event on the Secret', async () =>
        (await warningEvents('doomed-scim')).some((e) => e.reason === 'DeletionBlocked'),
      );
      const event = (await warningEvents('doomed-scim')).find((e) => e.reason === 'DeletionBlocked');
      expect(event?.message).to.contain('the directory store could not be reached');
      const failures = await reconcileErrors(operator);
      await waitFor('a retry meanwhile', async () => (await reconcileErrors(operator)) > failures);
      const blocked = await getSecret(env, 'doomed-scim');
      expect(blocked.metadata.deletionTimestamp).to.be.a('string');
      expect(blocked.metadata.finalizers, 'the finalizer holds the Secret').to.deep.equal([FINALIZER]);
      expect(
        (await warningEvents('doomed-scim')).filter((e) => e.reason === 'DeletionBlocked'),
        'one Event, not one per retry',
      ).to.have.length(1);
    } finally {
      redis.resume();
    }
    await waitFor('the Secret to be gone', async () =>
      getSecret(env, 'doomed-scim').then(
        () => false,
        (err: { status?: number }) => err.status === 404,
      ),
    );
    expect(await env.store.getDirectory(cr.metadata.uid!)).to.equal(null);
  });
});
