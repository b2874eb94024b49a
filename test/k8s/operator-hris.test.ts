// A DirectoryConnection of an HRIS type under the operator (real kube-apiserver, real Redis, the fake BambooHR):
// its credentials come from the Secret spec.hris names (never in status or events), a new key in the Secret is
// picked up, and the last pull sync shows as the HrisSync condition.
import { expect } from 'chai';
import { findCondition } from '../../src/operator/conditions.js';
import { HRIS_SYNC } from '../../src/operator/hris-access.js';
import { EVENTS, SECRETS, type KubeObject } from '../../src/operator/kube.js';
import type { Operator } from '../../src/operator/main.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { FakeBambooHR } from '../support/fake-bamboohr.js';
import { startService, type Service } from '../support/harness.js';
import { redisUrl } from '../support/services.js';
import {
  REDIS_DB,
  b64,
  connection,
  createConnection,
  getConnection,
  startEnv,
  startOperator,
  waitFor,
  waitForReady,
  type Env,
} from './operator-harness.js';

describe('an HRIS DirectoryConnection under the operator (real kube-apiserver, fake BambooHR)', function () {
  this.timeout(120_000);
  let env: Env;
  let operator: Operator;
  let fake: FakeBambooHR;
  let serve: Service;

  before(async () => {
    env = await startEnv();
    operator = startOperator(env);
    fake = await new FakeBambooHR().start();
    fake.hire({ department: 'Sales' });
    serve = await startService(new RedisStore(`${redisUrl()}/${REDIS_DB}`), {
      hris: {
        apiUrls: { bamboohr: fake.url, hibob: fake.url, personio: fake.url },
        webhookDelayMs: 600_000,
        retry: { attempts: 2, baseMs: 2, maxMs: 10 },
      },
    });
  });
  after(async () => {
    await operator?.stop();
    await serve?.close();
    await fake?.close();
    await env?.stop();
  });

  const condition = (name: string, status: string, reason: string) => {
    operator.resync();
    return waitFor(`${name} HrisSync=${status} (${reason})`, async () => {
      const c = findCondition((await getConnection(env, name)).status?.conditions, HRIS_SYNC);
      return c?.status === status && c.reason === reason ? c : undefined;
    });
  };

  it("hands the Secret's credentials to the store, syncs with them, reports each sync as HrisSync, and takes a new key", async () => {
    const secret = (key: string) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'bamboo', namespace: 'default' },
      data: { 'credentials.json': b64(JSON.stringify({ subdomain: 'acme', api_key: key })) },
    });
    await env.kube.create(SECRETS, secret('bamboo-key-1'));
    const cr = await createConnection(
      env,
      connection('hr', {
        type: 'bamboohr',
        hris: { credentialsSecretRef: { name: 'bamboo', key: 'credentials.json' } },
      }),
    );
    const id = cr.metadata.uid!;
    await waitForReady(env, 'hr');
    expect(JSON.parse((await env.store.getSyncRecord(id, 'hris-credentials'))!).credentials).to.deep.equal({
      subdomain: 'acme',
      api_key: 'bamboo-key-1',
    });
    expect((await condition('hr', 'Unknown', 'Pending')).message).to.match(/Waiting for the first sync/);

    expect((await serve.dsync.hris.sync({ directoryId: id })).directories[0]!.state).to.equal('succeeded');
    expect((await condition('hr', 'True', 'Synced')).message).to.match(/\(full\): 1 employees read/);

    fake.keys.clear();
    expect((await serve.dsync.hris.sync({ directoryId: id })).directories[0]!.state).to.equal('invalid_credentials');
    expect((await condition('hr', 'False', 'InvalidCredentials')).message).to.contain(
      'BambooHR refused the credentials',
    );

    fake.keys.add('bamboo-key-2');
    const current = await env.kube.get<KubeObject>(SECRETS, 'default', 'bamboo');
    await env.kube.replace(SECRETS, { ...secret('bamboo-key-2'), metadata: current.metadata });
    await waitFor(
      'the new key in the store',
      async () =>
        JSON.parse((await env.store.getSyncRecord(id, 'hris-credentials'))!).credentials.api_key === 'bamboo-key-2' ||
        undefined,
    );
    await condition('hr', 'Unknown', 'Pending');
    const events = await env.kube.list<{ message?: string }>(EVENTS, 'default', {});
    expect(JSON.stringify([await getConnection(env, 'hr'), events.items])).to.not.contain('bamboo-key');
  });

  it("a Secret value that is not the type's credentials is InvalidSpec", async () => {
    await env.kube.create(SECRETS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'bob-bad', namespace: 'default' },
      data: { 'credentials.json': b64('{"subdomain":"acme"}') },
    });
    await createConnection(
      env,
      connection('bob', {
        type: 'hibob',
        tenant: 'bob',
        hris: { credentialsSecretRef: { name: 'bob-bad', key: 'credentials.json' } },
      }),
    );
    const bad = await waitForReady(env, 'bob', 'False', 'InvalidSpec');
    expect(findCondition(bad.status?.conditions, 'Ready')!.message).to.match(/spec\.hris\.credentialsSecretRef/);
  });
});
