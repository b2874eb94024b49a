// The DirectoryConnection reconciler against a real kube-apiserver and Redis: apply → Ready with Secret and
// stored directory, spec changes, the webhook Secret, token rotation, Secret conflicts, deletion. The role and
// attribute mappings' re-evaluation of users is operator-mappings.test.ts.
import { expect } from 'chai';
import { ForbiddenError } from '../../src/core/errors.js';
import { ScimTokens } from '../../src/core/scim-tokens.js';
import { SetupLinks } from '../../src/core/setup-links.js';
import { DIRECTORY_CONNECTIONS, type DirectoryConnection } from '../../src/operator/crd-schema.js';
import { findCondition, STALLED } from '../../src/operator/conditions.js';
import { EVENTS, SECRETS } from '../../src/operator/kube.js';
import { collectGarbage } from './cluster-controllers.js';
import type { Operator } from '../../src/operator/main.js';
import { DIRECTORY_ID_ANNOTATION, FINALIZER, ROTATE_ANNOTATION } from '../../src/operator/metadata-keys.js';
import {
  EXTERNAL_URL,
  connection,
  createConnection,
  getConnection,
  getSecret,
  patchConnection,
  readyOf,
  startEnv,
  startOperator,
  unb64,
  waitFor,
  waitForReady,
  webhookSecret,
  writes,
  type Env,
} from './operator-harness.js';

const hook = (secretName = 'hook') => ({
  url: 'https://hooks.example.com/dsync',
  secretRef: { name: secretName, key: 'secret' },
});

describe('DirectoryConnection reconciler (real kube-apiserver + Redis)', function () {
  this.timeout(120_000);
  let env: Env;
  let operator: Operator;

  before(async () => {
    env = await startEnv();
    operator = startOperator(env);
  });

  after(async () => {
    await operator?.stop();
    await env?.stop();
  });

  it('apply → Ready, with the SCIM Secret and the stored directory', async () => {
    await env.kube.create(SECRETS, webhookSecret('hook', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'));
    const created = await createConnection(env, connection('acme', { name: 'Acme Inc', webhook: hook() }));
    const cr = await waitForReady(env, 'acme');
    const uid = created.metadata.uid!;
    // The finalizer is on the Secret, set in its create request: the resource itself carries none.
    expect(cr.metadata.finalizers ?? []).to.deep.equal([]);
    expect(cr.status).to.deep.include({
      directoryId: uid,
      scimEndpoint: `${EXTERNAL_URL}/api/scim/v2.0/${uid}`,
      secretName: 'acme-scim',
      observedGeneration: 1,
    });
    expect(readyOf(cr)).to.include({ reason: 'Reconciled', observedGeneration: 1 });

    const secret = await getSecret(env, 'acme-scim');
    expect(Object.keys(secret.data ?? {}).sort()).to.deep.equal(['endpoint', 'token']);
    expect(unb64(secret.data?.['endpoint'])).to.equal(cr.status?.scimEndpoint);
    expect(secret.metadata.ownerReferences).to.deep.equal([
      {
        apiVersion: 'dsync.io/v1alpha1',
        kind: 'DirectoryConnection',
        name: 'acme',
        uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(secret.metadata.finalizers).to.deep.equal([FINALIZER]);
    expect(secret.metadata.annotations?.[DIRECTORY_ID_ANNOTATION]).to.equal(uid);

    const directory = await env.directories.get(uid);
    expect(directory).to.deep.include({
      name: 'Acme Inc',
      tenant: 'acme',
      product: 'app',
      type: 'okta-scim-v2',
      managed_by: 'kubernetes:default/acme',
    });
    expect(directory.scim.secret).to.equal(unb64(secret.data?.['token']));
    expect(directory.webhook).to.deep.equal({
      endpoint: 'https://hooks.example.com/dsync',
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    });

    // The management API (DirectoryService without the operator's identity) refuses to change it: 403.
    const refused = await env.directories.update(uid, { name: 'Hijacked' }).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(ForbiddenError);
  });

  it('spec change → store updated, generation observed', async () => {
    const before = await getConnection(env, 'acme');
    const token = (await getSecret(env, 'acme-scim')).data?.['token'];
    await patchConnection(env, 'acme', { spec: { name: 'Acme Corp', deactivated: true, logWebhookEvents: true } });
    const cr = await waitFor('generation 2 observed', async () => {
      const got = await getConnection(env, 'acme');
      return got.status?.observedGeneration === 2 && got;
    });
    expect(readyOf(cr)).to.include({ status: 'True', observedGeneration: 2 });
    expect(readyOf(cr)?.lastTransitionTime).to.equal(readyOf(before)?.lastTransitionTime);
    const directory = await env.directories.get(cr.metadata.uid!);
    expect(directory).to.deep.include({ name: 'Acme Corp', deactivated: true, log_webhook_events: true });
    expect((await getSecret(env, 'acme-scim')).data?.['token']).to.equal(token);
  });

  it('follows a change of the webhook Secret', async () => {
    await env.kube.replace(SECRETS, {
      ...(await getSecret(env, 'hook')),
      data: { secret: Buffer.from('whsec_rotatedvalue').toString('base64') },
    });
    const uid = (await getConnection(env, 'acme')).metadata.uid!;
    await waitFor(
      'the new webhook secret in the store',
      async () => (await env.directories.get(uid)).webhook.secret === 'whsec_rotatedvalue',
    );
  });

  it('webhook Secret missing → SecretNotFound, then created → Ready', async () => {
    const created = await createConnection(
      env,
      connection('globex', { tenant: 'globex', webhook: hook('globex-hook') }),
    );
    const waiting = await waitForReady(env, 'globex', 'False', 'SecretNotFound');
    expect(readyOf(waiting)?.message).to.equal('Secret globex-hook not found (spec.webhook.secretRef)');
    // Terminal until the Secret appears: the generation is recorded and Stalled says so (kstatus: Failed).
    expect(waiting.status?.observedGeneration).to.equal(1);
    expect(findCondition(waiting.status?.conditions, STALLED)).to.include({ status: 'True', reason: 'SecretNotFound' });
    expect(await env.store.getDirectory(created.metadata.uid!)).to.equal(null);

    await env.kube.create(SECRETS, webhookSecret('globex-hook', 'whsec_globex'));
    const cr = await waitForReady(env, 'globex');
    expect(cr.status?.observedGeneration).to.equal(1);
    expect((await env.directories.get(created.metadata.uid!)).webhook.secret).to.equal('whsec_globex');
  });

  it('records Events on Ready transitions, not for a first outcome of Ready, without secret values', async () => {
    type Event = { reason: string; message: string; type: string; involvedObject: { name: string } };
    const eventsOf = async (name: string): Promise<Event[]> =>
      (await env.kube.list<Event>(EVENTS, 'default', {})).items.filter((e) => e.involvedObject.name === name);
    // acme was Ready at its first outcome: its status says so, no Event (one API write per resource less).
    expect((await eventsOf('acme')).map((e) => e.reason)).to.not.include('Reconciled');
    // globex went SecretNotFound → Ready: a Warning, then a Normal Event.
    const events = await waitFor('the Reconciled event of globex', async () => {
      const mine = await eventsOf('globex');
      return mine.some((e) => e.reason === 'Reconciled') && mine;
    });
    expect(events.find((e) => e.reason === 'SecretNotFound')?.type).to.equal('Warning');
    const token = unb64((await getSecret(env, 'globex-scim')).data?.['token']);
    for (const event of events) {
      expect(event.message).to.not.contain(token);
      expect(event.message).to.not.contain('whsec_');
    }
  });

  it('rotates the SCIM token once per new rotate-token annotation value', async () => {
    const uid = (await getConnection(env, 'acme')).metadata.uid!;
    const original = unb64((await getSecret(env, 'acme-scim')).data?.['token']);
    await patchConnection(env, 'acme', { metadata: { annotations: { [ROTATE_ANNOTATION]: '2026-01-01' } } });
    const rotated = await waitFor('a new token', async () => {
      const token = unb64((await getSecret(env, 'acme-scim')).data?.['token']);
      return token !== original && token;
    });
    await waitFor('the store to use it', async () => (await env.directories.get(uid)).scim.secret === rotated);
    // No gap: the replaced token keeps working beside the new one until the IdP is updated (7 days at most).
    const tokens = new ScimTokens({ store: env.store });
    expect((await tokens.authenticate(uid, rotated)).directory).to.not.equal(null);
    const previous = await tokens.authenticate(uid, original);
    expect(previous.directory && previous.tokenId).to.match(/^tok_/);
    const listed = await tokens.list(uid);
    const previousId = previous.directory && previous.tokenId;
    expect(listed.map((t) => t.id)).to.have.members([previousId, 'scim-secret']);
    expect(Date.parse(listed.find((t) => t.id === previousId)!.expires_at!) - Date.now()).to.be.greaterThan(
      6 * 86_400_000,
    );

    await operator.idle();
    const before = await writes(operator);
    operator.resync();
    await operator.idle();
    expect(unb64((await getSecret(env, 'acme-scim')).data?.['token'])).to.equal(rotated);
    expect(await writes(operator)).to.equal(before);
  });

  it('spec.setupLink: a working link in the Secret <name>-setup, renewed when it ends, revoked when disabled; never in status or events', async () => {
    const uid = (await getConnection(env, 'acme')).metadata.uid!;
    const links = new SetupLinks({ store: env.store, baseUrl: `${EXTERNAL_URL}/setup` });
    const refused = await patchConnection(env, 'acme', { spec: { setupLink: { expiresIn: '31d' } } }).catch(
      (e: unknown) => e,
    );
    expect(String((refused as { serverMessage?: string }).serverMessage ?? refused)).to.contain(
      'expiresIn must be at most 30d',
    );

    await patchConnection(env, 'acme', { spec: { setupLink: { enabled: true, expiresIn: '2d' } } });
    const secret = await waitFor('the setup Secret', async () => {
      const got = await getSecret(env, 'acme-setup').catch(() => undefined);
      return got?.data?.['url'] ? got : undefined;
    });
    const url = unb64(secret.data?.['url']);
    expect(url).to.match(new RegExp(`^${EXTERNAL_URL}/setup/[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(unb64(secret.data?.['expiresAt'])) - Date.now()).to.be.closeTo(2 * 86_400_000, 120_000);
    expect(secret.metadata.ownerReferences?.[0]?.uid).to.equal(uid);
    const resolved = await links.resolve(url.split('/').pop()!);
    expect(resolved.status === 'valid' && resolved.directory.id).to.equal(uid);
    const cr = await getConnection(env, 'acme');
    expect(JSON.stringify(cr.status)).not.to.contain(url.split('/').pop());
    const events = await env.kube.list<{ reason: string; message: string; involvedObject: { name: string } }>(
      EVENTS,
      'default',
      {},
    );
    expect(events.items.some((e) => e.involvedObject.name === 'acme' && e.reason === 'SetupLinkIssued')).to.equal(true);
    expect(JSON.stringify(events.items)).not.to.contain(url.split('/').pop());

    // Revoked through the API: the next reconcile issues a new one into the Secret.
    const [first] = await links.list(uid);
    await links.revoke(uid, first!.id);
    operator.resync();
    const renewed = await waitFor('a new link', async () => {
      const next = unb64((await getSecret(env, 'acme-setup')).data?.['url']);
      return next && next !== url && next;
    });
    expect((await links.resolve(renewed.split('/').pop()!)).status).to.equal('valid');
    await operator.idle();
    const before = await writes(operator);
    operator.resync();
    await operator.idle();
    expect(await writes(operator)).to.equal(before);

    // Disabled: the link stops working and the Secret is emptied.
    await patchConnection(env, 'acme', { spec: { setupLink: { enabled: false } } });
    await waitFor(
      'the link revoked',
      async () => (await links.resolve(renewed.split('/').pop()!)).status === 'revoked',
    );
    await waitFor(
      'the Secret emptied',
      async () => Object.keys((await getSecret(env, 'acme-setup')).data ?? {}).length === 0,
    );
  });

  it('never adopts a pre-existing Secret <name>-scim: SecretConflict until it is gone', async () => {
    const foreign = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'initech-scim', namespace: 'default' },
      data: { mine: 'eA==' },
    };
    await env.kube.create(SECRETS, foreign);
    await createConnection(env, connection('initech', { tenant: 'initech' }));
    const cr = await waitForReady(env, 'initech', 'False', 'SecretConflict');
    expect(readyOf(cr)?.message).to.contain('Secret initech-scim exists and is not owned by this DirectoryConnection');
    const untouched = await getSecret(env, 'initech-scim');
    expect(untouched.data).to.deep.equal({ mine: 'eA==' });
    expect(untouched.metadata.ownerReferences).to.equal(undefined);

    await env.kube.delete(SECRETS, 'default', 'initech-scim');
    const ready = await waitForReady(env, 'initech');
    expect(ready.status?.secretName).to.equal('initech-scim');
    expect((await getSecret(env, 'initech-scim')).metadata.ownerReferences?.[0]?.uid).to.equal(ready.metadata.uid);
  });

  it('repairs its SCIM Secret when someone deletes it (new token, store follows)', async () => {
    const uid = (await getConnection(env, 'initech')).metadata.uid!;
    const old = unb64((await getSecret(env, 'initech-scim')).data?.['token']);
    await env.kube.delete(SECRETS, 'default', 'initech-scim');
    const token = await waitFor('the Secret back', async () => {
      const t = unb64((await getSecret(env, 'initech-scim')).data?.['token']);
      return t && t !== old && t;
    });
    await waitFor('the store to use the new token', async () => (await env.directories.get(uid)).scim.secret === token);
  });

  it('reports InvalidSpec for what the CRD cannot see but the core refuses (a malformed webhook secret value)', async () => {
    await env.kube.create(SECRETS, webhookSecret('blank-hook', 'whsec_not base64!'));
    await createConnection(env, connection('blank', { tenant: 'blank', webhook: hook('blank-hook') }));
    const cr = await waitForReady(env, 'blank', 'False', 'InvalidSpec');
    expect(readyOf(cr)?.message).to.contain('a whsec_ secret must be base64 after the prefix');
    expect(cr.status?.observedGeneration).to.equal(1);
    await env.kube.replace(SECRETS, {
      ...(await getSecret(env, 'blank-hook')),
      data: { secret: Buffer.from('whsec_Zml4ZWQ=').toString('base64') },
    });
    expect((await waitForReady(env, 'blank')).status?.observedGeneration).to.equal(1);
  });

  it('CR delete → the resource goes; its Secret, deleted by the garbage collector, waits until the directory is deleted', async () => {
    const cr = await getConnection(env, 'globex');
    const uid = cr.metadata.uid!;
    expect(await env.store.getDirectory(uid)).to.not.equal(null);
    await env.kube.delete(DIRECTORY_CONNECTIONS, 'default', 'globex');
    const gone = (r: typeof SECRETS, name: string) => () =>
      env.kube.get(r, 'default', name).then(
        () => false,
        (err: { status?: number }) => err.status === 404,
      );
    expect(await gone(DIRECTORY_CONNECTIONS, 'globex')(), 'no finalizer on the resource').to.equal(true);
    await collectGarbage(env.kube, 'default'); // no GC runs in this test cluster: the test does its part
    await waitFor('the Secret to be gone', gone(SECRETS, 'globex-scim'));
    expect(await env.store.getDirectory(uid)).to.equal(null);
  });

  it('settles: a resync with nothing changed issues no writes', async () => {
    await operator.idle();
    const before = await writes(operator);
    operator.resync();
    await operator.idle();
    expect(await writes(operator)).to.equal(before);
    const list = await env.kube.list<DirectoryConnection>(DIRECTORY_CONNECTIONS, 'default', {});
    expect(list.items.map((c) => `${c.metadata.name}=${readyOf(c)?.status}`).sort()).to.deep.equal([
      'acme=True',
      'blank=True',
      'initech=True',
    ]);
  });
});
