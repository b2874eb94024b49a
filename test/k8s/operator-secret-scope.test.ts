// Which Secrets the operator holds: its own (`<name>-scim`, labelled) with their data; of all others only the
// metadata, so unrelated Secrets (Helm releases, TLS keys...) cost no memory and never reach the process'
// heap, while a change of a webhook Secret is still picked up at once.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import { SECRETS, type Resource, type Secret } from '../../src/operator/kube.js';
import type { Operator } from '../../src/operator/main.js';
import { MANAGED_BY_LABEL } from '../../src/operator/metadata-keys.js';
import {
  b64,
  connection,
  createConnection,
  getSecret,
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

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapUsed = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const NAMESPACES: Resource = { group: '', version: 'v1', plural: 'namespaces' };
const MANAGED_BY = 'app.kubernetes.io/managed-by';

// 36 MB of Secrets go through the API server here: the tests' 3 s lease could lapse on a loaded machine and stop
// the operator for the tests after it, so the leases are production's.
describe('the Secrets the operator caches (real kube-apiserver + Redis)', function () {
  this.timeout(120_000);
  let env: Env;
  let operator: Operator | undefined;

  before(async () => {
    env = await startEnv();
    operator = startOperator(env, { leaderElection: STEADY_LEASES });
  });

  after(async () => {
    await operator?.stop();
    await env?.stop();
  });

  it('30 unrelated Secrets of 0.9 MB in another namespace leave the heap flat', async () => {
    await createConnection(env, connection('c'));
    await waitForReady(env, 'c');
    await env.kube.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    // A probe in the same namespace: a webhook Secret referenced by a connection there. Its change, made after
    // the 30 Secrets, reaches the operator on the same ordered watch, so once the store follows it the watch has
    // delivered all 30 (a fixed sleep said nothing when the machine was slow).
    await env.kube.create(SECRETS, {
      ...webhookSecret('probe', 'whsec_before'),
      metadata: { name: 'probe', namespace: 'other' },
    });
    const probe = await createConnection(env, {
      ...connection('probe', {
        tenant: 'probe',
        webhook: { url: 'https://hooks.example.com', secretRef: { name: 'probe', key: 'secret' } },
      }),
      metadata: { name: 'probe', namespace: 'other' },
    });
    await waitFor(
      'the probe connection in the store',
      async () => (await env.directories.get(probe.metadata.uid!).catch(() => null))?.webhook.secret === 'whsec_before',
    );
    const before = heapUsed();
    const payload = Buffer.alloc(900_000, 7).toString('base64'); // like sh.helm.release.v1.* Secrets
    for (let i = 0; i < 30; i++) {
      await env.kube.create(SECRETS, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `sh.helm.release.v1.app${i}.v1`, namespace: 'other' },
        data: { release: payload },
      });
    }
    const probeSecret = await env.kube.get<Secret>(SECRETS, 'other', 'probe');
    await env.kube.replace(SECRETS, { ...probeSecret, data: { secret: b64('whsec_after') } });
    await waitFor(
      'the watch to deliver the 30 Secrets and the probe',
      async () => (await env.directories.get(probe.metadata.uid!)).webhook.secret === 'whsec_after',
      60_000,
    );
    const grownMb = (heapUsed() - before) / 1e6;
    // Caching their data costs ~26 MB here; the metadata of 30 Secrets is a few kB.
    expect(grownMb, 'MB of heap growth').to.be.below(5);
  });

  it('picks up a change of a webhook Secret it does not cache within moments', async () => {
    await env.kube.create(SECRETS, webhookSecret('hook', 'whsec_first'));
    const cr = await createConnection(
      env,
      connection('hooked', {
        tenant: 'hooked',
        webhook: { url: 'https://hooks.example.com', secretRef: { name: 'hook', key: 'secret' } },
      }),
    );
    await waitForReady(env, 'hooked');
    expect((await env.directories.get(cr.metadata.uid!)).webhook.secret).to.equal('whsec_first');
    await env.kube.replace(SECRETS, { ...(await getSecret(env, 'hook')), data: { secret: b64('whsec_second') } });
    // Through the watch: without it the change would wait for the 600 s resync.
    await waitFor(
      'the new value in the store',
      async () => (await env.directories.get(cr.metadata.uid!)).webhook.secret === 'whsec_second',
      15_000,
    );
  });

  it('labels a SCIM Secret of its own that an earlier version left unlabelled, keeping its token', async () => {
    const cr = await createConnection(env, connection('legacy', { tenant: 'legacy' }));
    await waitForReady(env, 'legacy');
    const secret = await getSecret(env, 'legacy-scim');
    expect(secret.metadata.labels).to.deep.include(MANAGED_BY_LABEL);
    const token = unb64(secret.data?.['token']);

    // As an earlier version would have left it: no label. A new operator process starts.
    await operator!.stop();
    await env.kube.mergePatch(SECRETS, 'default', 'legacy-scim', { metadata: { labels: { [MANAGED_BY]: null } } });
    operator = startOperator(env, { leaderElection: STEADY_LEASES });
    const restarted = operator;
    const relabelled = await waitFor('the label back', async () => {
      const got = await getSecret(env, 'legacy-scim');
      return got.metadata.labels?.[MANAGED_BY] === MANAGED_BY_LABEL[MANAGED_BY] && got;
    });
    expect(unb64(relabelled.data?.['token'])).to.equal(token);
    expect(relabelled.metadata.uid).to.equal(secret.metadata.uid); // updated in place, not recreated
    await restarted.idle();
    expect(await writes(restarted), 'writes: the one Secret update').to.equal(1);
    expect((await env.directories.get(cr.metadata.uid!)).scim.secret).to.equal(token);

    // The same while it runs (the Secret moves from one Secret watch to the other).
    await env.kube.mergePatch(SECRETS, 'default', 'legacy-scim', { metadata: { labels: { [MANAGED_BY]: null } } });
    const again = await waitFor('the label back again', async () => {
      const got = await getSecret(env, 'legacy-scim');
      return got.metadata.labels?.[MANAGED_BY] === MANAGED_BY_LABEL[MANAGED_BY] && got;
    });
    expect(unb64(again.data?.['token'])).to.equal(token);
    expect(again.metadata.uid).to.equal(secret.metadata.uid);
    await waitForReady(env, 'legacy');
  });
});
