// A webhook that a 410 Gone disabled, under the operator (the management API refuses managed directories):
// reported as the WebhookDisabled condition, resumed by a new spec.webhook or by the reenable-webhook
// annotation (once per value), and the events kept meanwhile are then delivered by the real delivery engine.
import { expect } from 'chai';
import { findCondition, WEBHOOK_DISABLED } from '../../src/operator/conditions.js';
import { EVENTS, SECRETS } from '../../src/operator/kube.js';
import type { Operator } from '../../src/operator/main.js';
import { REENABLE_WEBHOOK_ANNOTATION, REENABLED_WEBHOOK_ANNOTATION } from '../../src/operator/metadata-keys.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { startReceiver, startService, type Receiver, type Service } from '../support/harness.js';
import { redisUrl } from '../support/services.js';
import {
  REDIS_DB,
  connection,
  createConnection,
  getConnection,
  getSecret,
  patchConnection,
  readyOf,
  sleep,
  startEnv,
  startOperator,
  unb64,
  waitFor,
  waitForReady,
  webhookSecret,
  writes,
  type Env,
} from './operator-harness.js';

/** The delivery engine's crash-repair sweep (30 s in production) is what resumes a re-enabled directory. */
const SWEEP_MS = 1_000;

describe('a webhook disabled by a 410 Gone, under the operator (real kube-apiserver + delivery engine)', function () {
  this.timeout(120_000);
  let env: Env;
  let operator: Operator;
  let delivery: Service;
  const receivers: Receiver[] = [];

  before(async () => {
    env = await startEnv();
    operator = startOperator(env);
    // `dsync serve`'s delivery engine on the store the operator writes (its own connection: it closes it).
    delivery = await startService(new RedisStore(`${redisUrl()}/${REDIS_DB}`), {
      delivery: { sweepIntervalMs: SWEEP_MS },
    });
  });

  after(async () => {
    await operator?.stop();
    await delivery?.close();
    for (const r of receivers) await r.close();
    await env?.stop();
  });

  async function receiver(status: number): Promise<Receiver> {
    const r = await startReceiver();
    r.respond = () => status;
    receivers.push(r);
    return r;
  }

  /** A connection whose webhook is `url`, Ready, and what SCIM calls need. */
  async function connect(name: string, url: string): Promise<{ id: string; scim: { secret: string } }> {
    const secretName = `${name}-hook`;
    await env.kube.create(SECRETS, webhookSecret(secretName, receivers[0]!.secret));
    const cr = await createConnection(
      env,
      connection(name, { tenant: name, webhook: { url, secretRef: { name: secretName, key: 'secret' } } }),
    );
    await waitForReady(env, name);
    return { id: cr.metadata.uid!, scim: { secret: unb64((await getSecret(env, `${name}-scim`)).data?.['token']) } };
  }

  const addUser = async (dir: { id: string; scim: { secret: string } }, userName: string): Promise<void> => {
    expect((await delivery.scim(dir, 'POST', '/Users', { userName })).status).to.equal(201);
  };

  const disabledAt = async (id: string): Promise<string | undefined> =>
    (await env.directories.get(id)).webhook_disabled_at;

  async function webhookCondition(name: string, status: 'True' | 'False') {
    operator.resync(); // the operator learns of the 410 at its next reconcile (resync: 10 min by default)
    return waitFor(`${name} WebhookDisabled=${status}`, async () => {
      const cr = await getConnection(env, name);
      const condition = findCondition(cr.status?.conditions, WEBHOOK_DISABLED);
      return condition?.status === status && { cr, condition };
    });
  }

  /** `event:userName` of every event the receiver accepted, in order. */
  const received = (r: Receiver): string[] =>
    r.events().map((e: { event: string; data: { raw: { userName: string } } }) => `${e.event}:${e.data.raw.userName}`);

  it('is reported as WebhookDisabled (Ready stays True); a new spec.webhook.url resumes it, kept events first', async () => {
    const gone = await receiver(410);
    const next = await receiver(200);
    const dir = await connect('moved', gone.url);
    await addUser(dir, 'u1@acme.io');
    await waitFor('the 410 to disable the webhook', async () => Boolean(await disabledAt(dir.id)));

    const { cr, condition } = await webhookCondition('moved', 'True');
    expect(condition).to.include({ reason: 'ReceiverGone' });
    expect(condition.message).to.contain('webhook delivery is stopped').and.contain(REENABLE_WEBHOOK_ANNOTATION);
    expect(readyOf(cr)).to.include({ status: 'True', reason: 'Reconciled' });
    // The operator records the Event after it writes the status: the condition can be seen first.
    await waitFor('a WebhookDisabled Warning Event', async () => {
      const events = await env.kube.list<{ reason: string; type: string; involvedObject: { name: string } }>(
        EVENTS,
        'default',
        {},
      );
      return events.items.some(
        (e) => e.involvedObject.name === 'moved' && e.reason === 'WebhookDisabled' && e.type === 'Warning',
      );
    });

    await addUser(dir, 'u2@acme.io'); // kept while disabled
    await sleep(SWEEP_MS * 1.5);
    expect(gone.events()).to.have.length(0);

    await patchConnection(env, 'moved', { spec: { webhook: { url: next.url } } });
    await waitFor('the store to follow the new url, enabled', async () => {
      const d = await env.directories.get(dir.id);
      return d.webhook.endpoint === next.url && d.webhook_disabled_at === undefined;
    });
    await next.waitForEvents(2, 10_000);
    expect(received(next)).to.deep.equal(['user.created:u1@acme.io', 'user.created:u2@acme.io']);
    expect((await webhookCondition('moved', 'False')).condition).to.include({ reason: 'Reenabled' });
  });

  it('the reenable-webhook annotation resumes the same receiver, once per value', async () => {
    const flaky = await receiver(410);
    const dir = await connect('flaky', flaky.url);
    await addUser(dir, 'a@acme.io');
    await waitFor('the 410 to disable the webhook', async () => Boolean(await disabledAt(dir.id)));
    await webhookCondition('flaky', 'True');

    flaky.respond = () => 200; // the receiver works again; nothing resumes delivery on its own
    await sleep(SWEEP_MS * 1.5);
    expect(flaky.events()).to.have.length(0);

    await patchConnection(env, 'flaky', { metadata: { annotations: { [REENABLE_WEBHOOK_ANNOTATION]: 'first' } } });
    await flaky.waitForEvents(1, 10_000);
    expect(received(flaky)).to.deep.equal(['user.created:a@acme.io']);
    expect(await disabledAt(dir.id)).to.equal(undefined);
    expect((await getSecret(env, 'flaky-scim')).metadata.annotations?.[REENABLED_WEBHOOK_ANNOTATION]).to.equal('first');
    await webhookCondition('flaky', 'False');

    // Gone again: the value already handled does not re-enable it a second time.
    flaky.respond = () => 410;
    await addUser(dir, 'b@acme.io');
    await waitFor('the 410 to disable the webhook again', async () => Boolean(await disabledAt(dir.id)));
    await webhookCondition('flaky', 'True');
    await operator.idle();
    const before = await writes(operator);
    operator.resync();
    await operator.idle();
    expect(await writes(operator), 'writes of a resync with nothing new').to.equal(before);
    expect(await disabledAt(dir.id)).to.not.equal(undefined);

    flaky.respond = () => 200;
    await patchConnection(env, 'flaky', { metadata: { annotations: { [REENABLE_WEBHOOK_ANNOTATION]: 'second' } } });
    await flaky.waitForEvents(2, 10_000);
    expect(received(flaky)).to.deep.equal(['user.created:a@acme.io', 'user.created:b@acme.io']);
    await webhookCondition('flaky', 'False');
  });
});
