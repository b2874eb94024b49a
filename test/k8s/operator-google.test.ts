// A DirectoryConnection of type google under the operator (real kube-apiserver, real Redis, the fake Google):
// its service account comes from the Secret spec.google names (the key never reaches status or events), nested
// groups from spec.google.nestedGroups, and the last pull sync shows as the GoogleSync condition.
import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { findCondition } from '../../src/operator/conditions.js';
import { GOOGLE_SYNC } from '../../src/operator/google-access.js';
import { EVENTS, SECRETS } from '../../src/operator/kube.js';
import type { Operator } from '../../src/operator/main.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { FakeGoogle } from '../support/fake-google.js';
import { googleOptionsFor } from '../support/google-harness.js';
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

describe('a google DirectoryConnection under the operator (real kube-apiserver, fake Google)', function () {
  this.timeout(120_000);
  let env: Env;
  let operator: Operator;
  let fake: FakeGoogle;
  let serve: Service;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const email = 'dsync@project.iam.gserviceaccount.com';
  const keyJson = JSON.stringify({
    type: 'service_account',
    client_email: email,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
  });

  before(async () => {
    env = await startEnv();
    operator = startOperator(env);
    fake = await new FakeGoogle().start();
    fake.addUser({ primaryEmail: 'admin@acme.com' });
    fake.oauth.addServiceAccount(email, publicKey.export({ type: 'spki', format: 'pem' }) as string, [
      'admin@acme.com',
    ]);
    serve = await startService(new RedisStore(`${redisUrl()}/${REDIS_DB}`), { google: googleOptionsFor(fake) });
  });
  after(async () => {
    await operator?.stop();
    await serve?.close();
    await fake?.close();
    await env?.stop();
  });

  const condition = (name: string, status: string, reason: string) => {
    operator.resync(); // the operator reads the sync status at its next reconcile
    return waitFor(`${name} GoogleSync=${status} (${reason})`, async () => {
      const c = findCondition((await getConnection(env, name)).status?.conditions, GOOGLE_SYNC);
      return c?.status === status && c.reason === reason ? c : undefined;
    });
  };

  it('hands the service account to the store, syncs with it, and reports each sync as the GoogleSync condition', async () => {
    await env.kube.create(SECRETS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'google-sa', namespace: 'default' },
      data: { 'key.json': b64(keyJson) },
    });
    const spec = {
      type: 'google',
      google: {
        domain: 'acme.com',
        nestedGroups: true,
        serviceAccount: { secretRef: { name: 'google-sa', key: 'key.json' }, adminEmail: 'admin@acme.com' },
      },
    };
    const cr = await createConnection(env, connection('gws', spec));
    const id = cr.metadata.uid!;
    await waitForReady(env, 'gws');
    expect(await env.store.getSyncRecord(id, 'google-service-account')).to.contain(email);
    expect((await env.directories.get(id)).google_nested_groups).to.equal(true);
    expect((await condition('gws', 'Unknown', 'Pending')).message).to.match(/Waiting for the first sync/);

    expect((await serve.dsync.google.sync({ directoryId: id })).directories[0]!.state).to.equal('succeeded');
    expect((await condition('gws', 'True', 'Synced')).message).to.match(/1 users and 0 groups/);

    fake.oauth.addServiceAccount(email, publicKey.export({ type: 'spki', format: 'pem' }) as string, []); // delegation withdrawn
    expect((await serve.dsync.google.sync({ directoryId: id })).directories[0]!.state).to.equal('invalid_credentials');
    await condition('gws', 'False', 'InvalidCredentials');
    // The operator records the Event after it writes the status: the condition can be seen first.
    const events = await waitFor('an InvalidCredentials Event', async () => {
      const listed = await env.kube.list<{ reason?: string; message?: string }>(EVENTS, 'default', {});
      return listed.items.some((e) => e.reason === 'InvalidCredentials') && listed.items;
    });
    const everything = JSON.stringify([await getConnection(env, 'gws'), events]);
    expect(everything).to.not.contain('PRIVATE KEY');
  });

  it('a missing service-account Secret is SecretNotFound; an invalid key is InvalidSpec', async () => {
    const sa = (name: string) => ({
      type: 'google',
      google: {
        domain: 'acme.com',
        serviceAccount: { secretRef: { name, key: 'key.json' }, adminEmail: 'admin@acme.com' },
      },
    });
    await createConnection(env, connection('gws-missing', { ...sa('nope'), tenant: 'missing' }));
    await waitForReady(env, 'gws-missing', 'False', 'SecretNotFound');
    await env.kube.create(SECRETS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'bad-sa', namespace: 'default' },
      data: { 'key.json': b64('{"type":"authorized_user"}') },
    });
    await createConnection(env, connection('gws-bad', { ...sa('bad-sa'), tenant: 'bad' }));
    const bad = await waitForReady(env, 'gws-bad', 'False', 'InvalidSpec');
    expect(findCondition(bad.status?.conditions, 'Ready')!.message).to.match(
      /key.type must be "service_account".*spec\.google\.serviceAccount\.secretRef/,
    );
  });
});
