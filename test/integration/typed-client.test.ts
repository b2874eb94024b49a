/**
 * `dsync-service/client` against a running service: the typed client's calls (typed by the generated types, so
 * this file compiling is half the test) and `verifyWebhook` on real deliveries, real-time and batch, with a
 * whsec_ secret and a raw one; a forged or replayed delivery is refused.
 */
import { expect } from 'chai';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sign } from '../../src/delivery/signer.js';
import {
  createDsyncClient,
  sortBySequence,
  verifyWebhook,
  WebhookVerificationError,
  type DirectorySyncEvent,
} from '../../src/client/index.js';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import { API_KEY, startService, until, type Service } from '../support/harness.js';

/** A receiver that verifies each delivery with verifyWebhook (the secret set once the directory exists). */
async function receiver() {
  const events: DirectorySyncEvent[] = [];
  const refused: string[] = [];
  const state = { secret: '' };
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => {
        try {
          events.push(...verifyWebhook(state.secret, Buffer.concat(chunks), req.headers));
          res.writeHead(204).end();
        } catch (err) {
          refused.push((err as Error).message);
          res.writeHead(401).end();
        }
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, events, refused, state, close: () => new Promise((r) => server.close(r)) };
}

describe('dsync-service/client: the typed client and verifyWebhook', function () {
  this.timeout(30_000);
  let svc: Service | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });

  it('creates a directory, lists users and reads typed events; errors come back as the error envelope', async () => {
    svc = await startService(new MemoryStore());
    const dsync = createDsyncClient({ baseUrl: `${svc.url}/`, apiKey: API_KEY });
    const created = await dsync.POST('/api/v1/directory-sync', {
      body: { name: 'Acme', tenant: 'acme', product: 'app', type: 'okta-scim-v2' },
    });
    expect(created.response.status).to.equal(201);
    const directory = created.data!.data;
    const ann = await svc.scim(directory, 'POST', '/Users', {
      userName: 'ann@acme.io',
      emails: [{ value: 'ann@acme.io', primary: true }],
    });
    await svc.scim(directory, 'POST', '/Groups', { displayName: 'Eng', members: [{ value: ann.body.id }] });

    const users = await dsync.GET('/api/v1/directory-sync/users', { params: { query: { directoryId: directory.id } } });
    expect(users.data!.data.map((u) => u.email)).to.deep.equal(['ann@acme.io']);
    const page = await dsync.GET('/api/v1/directory-sync/{id}/events', {
      params: { path: { id: directory.id }, query: { limit: 10 } },
    });
    const added = page.data!.data.events.flatMap((e) =>
      e.event === 'group.user_added' ? [`${e.data.email} in ${e.data.group.name}`] : [],
    );
    expect(added).to.deep.equal(['ann@acme.io in Eng']);

    const missing = await dsync.GET('/api/v1/directory-sync/{id}', { params: { path: { id: 'nope' } } });
    expect(missing.data).to.equal(undefined);
    expect(missing.error).to.deep.equal({ data: null, error: { message: 'Directory nope not found', code: 404 } });
    const wrongKey = await createDsyncClient({ baseUrl: svc.url, apiKey: 'wrong' }).GET('/api/v1/directory-sync/{id}', {
      params: { path: { id: directory.id } },
    });
    expect(wrongKey.response.status).to.equal(401);
  });

  for (const [mode, secret] of [
    ['real-time, whsec_ secret', undefined],
    ['batch, raw secret', 'a raw secret string'],
  ] as const) {
    it(`verifyWebhook returns the typed events of real deliveries (${mode})`, async () => {
      const batch = mode.startsWith('batch');
      svc = await startService(new MemoryStore(), batch ? { webhook: { batchSize: 10 } } : {});
      const hook = await receiver();
      try {
        const directory = await svc.createDirectory({
          webhook_url: hook.url,
          ...(secret && { webhook_secret: secret }),
        });
        hook.state.secret = directory.webhook.secret;
        const ann = await svc.scim(directory, 'POST', '/Users', { userName: 'ann@acme.io' });
        await svc.scim(directory, 'POST', '/Groups', { displayName: 'Eng', members: [{ value: ann.body.id }] });
        if (batch) expect((await svc.api('POST', '/api/v1/dsync/cron/process-events')).body.data.delivered).to.equal(3);
        await until(
          () => hook.events.length === 3,
          () => `3 events, got ${hook.events.length} (refused: ${hook.refused.join('; ')})`,
        );
        // The user and the group are unrelated (they may arrive either way round); the membership comes after both.
        expect(hook.events[2]!.event).to.equal('group.user_added');
        const ordered = sortBySequence(hook.events);
        expect(ordered.map((e) => [e.event, e.sequence])).to.deep.equal([
          ['user.created', 1],
          ['group.created', 2],
          ['group.user_added', 3],
        ]);
        const membership = ordered[2]!;
        if (membership.event !== 'group.user_added') throw new Error('narrowing');
        expect(membership.data.group.name).to.equal('Eng');
        expect(hook.refused).to.deep.equal([]);
      } finally {
        await hook.close();
      }
    });
  }

  it('sortBySequence puts each directory in sequence order, directories as they first appear, ties kept', () => {
    const e = (directory_id: string, sequence: number, tag: string) => ({ directory_id, sequence, tag });
    const got = sortBySequence([
      e('b', 9, 'b9'),
      e('a', 3, 'a3'),
      e('b', 2, 'b2'),
      e('a', 1, 'a1'),
      e('a', 3, 'a3 again'),
    ]);
    expect(got.map((x) => x.tag)).to.deep.equal(['b2', 'b9', 'a1', 'a3', 'a3 again']);
  });

  it('verifyWebhook refuses a wrong secret, a changed body, a stale timestamp, missing headers and a body that is not an event', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const event = {
      id: 'evt_1',
      event: 'group.created',
      created_at: '2026-11-21T08:49:27.648Z',
      directory_id: 'd',
      tenant: 't',
      product: 'p',
      data: { id: 'g', name: 'Eng', raw: {} },
      sequence: 7,
    };
    const body = JSON.stringify(event);
    const headers = sign(secret, 'evt_1', body);
    const [verified] = verifyWebhook(secret, body, new Headers({ ...headers }));
    expect(verified).to.deep.equal(event);
    expect(() => verifyWebhook('whsec_QUJDREVGR0hJSktMTU5PUA==', body, headers)).to.throw(WebhookVerificationError);
    expect(() => verifyWebhook(secret, body.replace('Eng', 'Ops'), headers)).to.throw(WebhookVerificationError);
    expect(() => verifyWebhook(secret, body, sign(secret, 'evt_1', body, new Date(Date.now() - 3_600_000)))).to.throw(
      WebhookVerificationError,
    );
    expect(() => verifyWebhook(secret, body, { 'webhook-id': 'evt_1' })).to.throw(
      WebhookVerificationError,
      /webhook-timestamp/,
    );
    const notAnEvent = JSON.stringify({ hello: 'world' });
    expect(() => verifyWebhook(secret, notAnEvent, sign(secret, 'x', notAnEvent))).to.throw(/event/);
  });
});
