// What GitOps tools make of a DirectoryConnection: kstatus' own rules (sigs.k8s.io/cli-utils status.Compute,
// built by test/k8s/kstatus.sh) run on the real objects of the API server while the operator works. Current
// when Ready, Failed for each terminal reason, InProgress while reconciling (a stalled Redis included), and
// every case reaches its final verdict within a bound: never InProgress forever.
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { findCondition, RECONCILING, STALLED } from '../../src/operator/conditions.js';
import type { DirectoryConnection } from '../../src/operator/crd-schema.js';
import { SECRETS } from '../../src/operator/kube.js';
import type { Operator } from '../../src/operator/main.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { redisUrl } from '../support/services.js';
import { startStallProxy, type StallProxy } from '../support/stall-proxy.js';
import {
  connection,
  createConnection,
  getConnection,
  patchConnection,
  readyOf,
  REDIS_DB,
  startEnv,
  startOperator,
  waitFor,
  webhookSecret,
  type Env,
} from './operator-harness.js';

const KSTATUS = execFileSync('bash', ['test/k8s/kstatus.sh', 'bin'], { encoding: 'utf8' }).trim();
/** Bound for reaching a final verdict (a loaded machine: generous). */
const FINAL_MS = 20_000;

interface Verdict {
  status: 'Current' | 'InProgress' | 'Failed' | 'Terminating' | 'NotFound' | 'Unknown';
  message: string;
}

const kstatus = (cr: DirectoryConnection): Verdict =>
  JSON.parse(execFileSync(KSTATUS, { input: JSON.stringify(cr), encoding: 'utf8' })) as Verdict;

describe('GitOps health: kstatus on real DirectoryConnections (real kube-apiserver + Redis)', function () {
  this.timeout(60_000);
  let env: Env;
  let operator: Operator;
  let proxy: StallProxy;
  let store: RedisStore;

  before(async () => {
    execFileSync('bash', ['test/k8s/kstatus.sh', 'build'], { stdio: 'inherit' });
    env = await startEnv();
    // The operator reaches Redis through a proxy the test can stall (a frozen Redis behind a live socket).
    const target = new URL(redisUrl());
    proxy = await startStallProxy({ host: target.hostname, port: Number(target.port) });
    store = new RedisStore(`redis://${proxy.address}/${REDIS_DB}`);
    operator = startOperator(env, { store, storeTimeoutMs: 1_000, retry: { maxDelayMs: 1_000 } });
  });

  after(async () => {
    await operator?.stop();
    proxy?.resume();
    await store?.close();
    await proxy?.close();
    await env?.stop();
  });

  /** Waits for kstatus' verdict on the live object; returns the object. */
  const verdict = (name: string, status: Verdict['status'], timeoutMs = FINAL_MS): Promise<DirectoryConnection> =>
    waitFor(
      `kstatus ${status} for ${name}`,
      async () => {
        const cr = await getConnection(env, name);
        return kstatus(cr).status === status ? cr : undefined;
      },
      timeoutMs,
    );

  it('Current when Ready, with observedGeneration = generation', async () => {
    await createConnection(env, connection('healthy'));
    const cr = await verdict('healthy', 'Current');
    expect(readyOf(cr)?.status).to.equal('True');
    expect(cr.status?.observedGeneration).to.equal(cr.metadata.generation);
    expect(findCondition(cr.status?.conditions, STALLED)?.status).to.equal('False');
    expect(findCondition(cr.status?.conditions, RECONCILING)?.status).to.equal('False');
  });

  const failures: Array<[string, string, () => Promise<void>]> = [
    [
      'InvalidSpec',
      'bad-secret-value',
      async () => {
        // Passes the CRD (the API server cannot see a Secret's value) but not the core's rules.
        await env.kube.create(SECRETS, webhookSecret('bad-hook', 'whsec_not base64!'));
        const webhook = { url: 'https://hooks.example.com/in', secretRef: { name: 'bad-hook', key: 'secret' } };
        await createConnection(env, connection('bad-secret-value', { webhook }));
      },
    ],
    [
      'SecretConflict',
      'taken',
      async () => {
        await env.kube.create(SECRETS, {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'taken-scim', namespace: 'default' },
        });
        await createConnection(env, connection('taken'));
      },
    ],
    [
      'SecretNotFound',
      'no-hook',
      async () => {
        const webhook = { url: 'https://hooks.example.com/in', secretRef: { name: 'missing', key: 'secret' } };
        await createConnection(env, connection('no-hook', { webhook }));
      },
    ],
  ];

  for (const [reason, name, setUp] of failures) {
    it(`Failed for ${reason}, within ${FINAL_MS / 1000} s, and again after a spec edit`, async () => {
      await setUp();
      let cr = await verdict(name, 'Failed');
      expect(readyOf(cr)).to.include({ status: 'False', reason });
      expect(findCondition(cr.status?.conditions, STALLED)).to.include({ status: 'True', reason });
      expect(cr.status?.observedGeneration).to.equal(cr.metadata.generation);
      // A new generation is InProgress until observed, then Failed again: never InProgress forever.
      await patchConnection(env, name, { spec: { name: `Renamed ${name}` } });
      cr = await verdict(name, 'Failed');
      expect(cr.metadata.generation).to.equal(2);
      expect(cr.status?.observedGeneration).to.equal(2);
    });
  }

  it('SecretNotFound recovers to Current once the Secret exists', async () => {
    await env.kube.create(SECRETS, webhookSecret('missing', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'));
    const cr = await verdict('no-hook', 'Current');
    expect(findCondition(cr.status?.conditions, STALLED)?.status).to.equal('False');
  });

  it('InProgress at once while the store does not answer (StoreUnavailable), Current once it does', async () => {
    proxy.stall();
    try {
      const started = Date.now();
      await createConnection(env, connection('stalled'));
      // The first status comes within the store-call bound, and says InProgress, as the defaulted one did before.
      let cr = await waitFor('a first status', async () => {
        const got = await getConnection(env, 'stalled');
        return got.status?.conditions?.length ? got : undefined;
      });
      expect(kstatus(cr).status).to.equal('InProgress');
      // The worker does not hang: the bounded store call reports StoreUnavailable promptly.
      cr = await waitFor(
        'Ready=False StoreUnavailable',
        async () => {
          const got = await getConnection(env, 'stalled');
          return readyOf(got)?.reason === 'StoreUnavailable' ? got : undefined;
        },
        10_000,
      );
      expect(Date.now() - started).to.be.below(10_000);
      expect(readyOf(cr)?.status).to.equal('False');
      expect(findCondition(cr.status?.conditions, RECONCILING)).to.include({
        status: 'True',
        reason: 'StoreUnavailable',
      });
      expect(cr.status?.observedGeneration).to.equal(cr.metadata.generation);
      expect(kstatus(cr).status).to.equal('InProgress');
    } finally {
      proxy.resume();
    }
    const cr = await verdict('stalled', 'Current');
    expect(readyOf(cr)?.status).to.equal('True');
  });

  it('InProgress from the moment it is created, before the operator has seen it (defaulted status)', async () => {
    // kstatus calls a status-less object Current; the CRD's status default (observedGeneration 0) prevents it.
    const bare = { ...connection('bare'), metadata: { name: 'bare', namespace: 'default', generation: 1 } };
    expect(kstatus(bare).status).to.equal('Current');
    await operator.stop();
    try {
      const created = await createConnection(env, connection('unseen'));
      expect(created.status).to.deep.equal({ observedGeneration: 0 });
      expect(kstatus(created).status).to.equal('InProgress');
      expect(kstatus(await getConnection(env, 'unseen')).status).to.equal('InProgress');
    } finally {
      operator = startOperator(env, { store, storeTimeoutMs: 1_000, retry: { maxDelayMs: 1_000 } });
    }
    await verdict('unseen', 'Current');
  });
});
