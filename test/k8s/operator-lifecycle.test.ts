// Operator lifecycle against a real kube-apiserver: restarts of the operator (tokens stable, no writes when
// nothing changed), the periodic resync, and kube-apiserver restarts under a running operator.
import { expect } from 'chai';
import type { OperatorError } from '../../src/operator/errors.js';
import { LEASES, SECRETS, type KubeObject } from '../../src/operator/kube.js';
import type { Operator } from '../../src/operator/main.js';
import type { RedisStore } from '../../src/store/redis/users-groups.js';
import {
  connection,
  createConnection,
  getConnection,
  getSecret,
  patchConnection,
  readyOf,
  reconciles,
  startEnv,
  startOperator,
  STEADY_LEASES,
  unb64,
  waitFor,
  waitForReady,
  webhookSecret,
  writes,
  type Env,
} from './operator-harness.js';

const NAMES = ['one', 'two', 'three', 'four', 'five'];

describe('operator lifecycle (real kube-apiserver + Redis)', function () {
  this.timeout(180_000);
  let env: Env;
  let operator: Operator | undefined;

  before(async () => {
    env = await startEnv();
    await env.kube.create(SECRETS, webhookSecret('hook', 'whsec_lifecycle'));
    operator = startOperator(env);
    for (const name of NAMES) {
      await createConnection(
        env,
        connection(name, {
          tenant: name,
          webhook: { url: 'https://hooks.example.com', secretRef: { name: 'hook', key: 'secret' } },
        }),
      );
    }
    for (const name of NAMES) await waitForReady(env, name);
  });

  afterEach(async () => {
    await operator?.stop();
    operator = undefined;
  });

  after(async () => {
    await env?.stop();
  });

  async function snapshot(): Promise<Record<string, { token: string; updatedAt: string; rv: string }>> {
    const out: Record<string, { token: string; updatedAt: string; rv: string }> = {};
    for (const name of NAMES) {
      const cr = await getConnection(env, name);
      const directory = await env.directories.get(cr.metadata.uid!);
      out[name] = {
        token: unb64((await getSecret(env, `${name}-scim`)).data?.['token']),
        updatedAt: directory.updated_at,
        rv: cr.metadata.resourceVersion!,
      };
    }
    return out;
  }

  it('operator restart → no token change, no write when nothing changed', async () => {
    const before = await snapshot();
    await operator!.stop();
    operator = startOperator(env);
    const restarted = operator;
    await waitFor(
      'every resource reconciled by the new process',
      async () => (await reconciles(restarted)) >= NAMES.length,
    );
    await restarted.idle();
    expect(await writes(restarted)).to.equal(0);
    expect(await snapshot()).to.deep.equal(before);
  });

  it('periodic resync reconciles everything again and writes nothing', async () => {
    operator = startOperator(env, { resyncIntervalMs: 500 });
    const running = operator;
    await waitFor('three rounds of resync', async () => (await reconciles(running)) >= NAMES.length * 4);
    await running.idle();
    expect(await writes(running)).to.equal(0);
  });

  it('a leader that cannot renew its Lease stops reconciling and reports it through done', async () => {
    operator = startOperator(env);
    const running = operator;
    await waitFor('the operator to lead', async () => running.isLeader());
    // Someone else holds the Lease now (as after a partition): renewals fail until the renew deadline (2 s).
    const lease = await env.kube.get<KubeObject & { spec: Record<string, unknown> }>(
      LEASES,
      'default',
      'dsync-operator',
    );
    const t0 = Date.now();
    await env.kube.replace(LEASES, {
      ...lease,
      spec: { ...lease.spec, holderIdentity: 'intruder', leaseDurationSeconds: 60 },
    });
    const err = await running.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as OperatorError).code).to.equal('DSYNC_LEADER_ELECTION_LOST');
    expect(Date.now() - t0).to.be.below(4_000);
    expect(running.isLeader()).to.equal(false);
    await env.kube.replace(LEASES, {
      ...(await env.kube.get<KubeObject>(LEASES, 'default', 'dsync-operator')),
      spec: { holderIdentity: '' },
    });
  });

  it('a leader that loses its Lease mid-reconcile makes no further write, to Kubernetes or the store', async () => {
    const known = new Set<string>();
    for (const name of NAMES) known.add((await getConnection(env, name)).metadata.uid!);
    // The store read of a new resource's reconcile waits here until the test lets it go on.
    let reached!: () => void;
    const reconciling = new Promise<void>((resolve) => (reached = resolve));
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    const store = new Proxy(env.store, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop === 'getDirectory') {
          return async (id: string) => {
            if (!known.has(id)) {
              reached();
              await gate;
            }
            return target.getDirectory(id);
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as RedisStore;
    operator = startOperator(env, { store });
    const running = operator;
    await waitFor(
      'the operator to lead and settle',
      async () => running.isLeader() && (await reconciles(running)) >= NAMES.length,
    );
    await running.idle();

    const cr = await createConnection(env, connection('fenced', { tenant: 'fenced' }));
    await reconciling; // finalizer and SCIM Secret written; about to create the stored directory
    const lease = await env.kube.get<KubeObject & { spec: Record<string, unknown> }>(
      LEASES,
      'default',
      'dsync-operator',
    );
    await env.kube.replace(LEASES, {
      ...lease,
      spec: { ...lease.spec, holderIdentity: 'intruder', leaseDurationSeconds: 60 },
    });
    await waitFor('the operator to step down', async () => !running.isLeader(), 5_000);
    const before = await writes(running);
    letGo();
    const err = await running.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as OperatorError).code).to.equal('DSYNC_LEADER_ELECTION_LOST');
    expect(await writes(running), 'writes after stepping down').to.equal(before);
    expect(await env.store.getDirectory(cr.metadata.uid!)).to.equal(null);
    // No status was written (the reconcile writes it once, at its end): still the CRD's default.
    expect(readyOf(await getConnection(env, 'fenced'))).to.equal(undefined);
    await env.kube.replace(LEASES, {
      ...(await env.kube.get<KubeObject>(LEASES, 'default', 'dsync-operator')),
      spec: { holderIdentity: '' },
    });

    // The next leader finishes the job.
    await running.stop();
    operator = startOperator(env);
    await waitForReady(env, 'fenced');
    expect(await env.store.getDirectory(cr.metadata.uid!)).to.not.equal(null);
  });

  for (const hard of [false, true]) {
    it(`kube-apiserver restarted mid-watch (${hard ? 'SIGKILL' : 'SIGTERM'}) → the operator recovers without a restart`, async () => {
      // Production lease timings: a ~3 s API server restart is within the renew deadline, so leadership holds.
      operator = startOperator(env, { leaderElection: STEADY_LEASES });
      const running = operator;
      await waitFor(
        'the operator to lead and settle',
        async () => running.isLeader() && (await reconciles(running)) >= NAMES.length,
      );
      await running.idle();

      await env.cluster.restartApiServer({ hard });

      const name = hard ? 'after-hard-restart' : 'after-restart';
      await createConnection(env, connection(name, { tenant: name }));
      await waitForReady(env, name);
      await patchConnection(env, 'one', { spec: { name: `renamed ${name}` } });
      const one = await waitFor('the change to be observed', async () => {
        const cr = await getConnection(env, 'one');
        return cr.status?.observedGeneration === cr.metadata.generation && cr;
      });
      expect((await env.directories.get(one.metadata.uid!)).name).to.equal(`renamed ${name}`);
      expect(running.isLeader()).to.equal(true);
    });
  }
});
