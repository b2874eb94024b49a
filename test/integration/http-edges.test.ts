/** Through HTTP: WWW-Authenticate on every 401, webhook URLs with credentials. */
import { expect } from 'chai';
import {
  API_KEY,
  STORE_KINDS,
  openStore,
  startReceiver,
  startService,
  until,
  type Service,
} from '../support/harness.js';

for (const kind of STORE_KINDS) {
  describe(`HTTP edges (${kind} store)`, () => {
    let svc: Service;
    beforeEach(async () => {
      svc = await startService(await openStore(kind, 6));
    });
    afterEach(() => svc.close());

    describe('401 challenges', () => {
      it('SCIM: a bare Bearer challenge without a token, invalid_token with a wrong one, naming scim.secret', async () => {
        const dir = await svc.createDirectory();
        const none = await fetch(`${dir.scim.endpoint}/Users`);
        expect(none.status).to.equal(401);
        expect(none.headers.get('www-authenticate')).to.equal('Bearer realm="dsync"');
        expect(((await none.json()) as any).detail).to.match(/scim\.secret/);

        const wrong = await svc.scim({ ...dir, scim: { secret: 'not-the-secret' } }, 'GET', '/Users');
        expect(wrong.status).to.equal(401);
        expect(wrong.headers.get('www-authenticate')).to.equal('Bearer realm="dsync", error="invalid_token"');
        expect(wrong.body).to.deep.include({ status: '401' });
        expect(wrong.body.detail).to.match(/scim\.secret/);

        const apiKeyAsToken = await fetch(`${dir.scim.endpoint}/Users`, {
          headers: { authorization: `Api-Key ${API_KEY}` },
        });
        expect(apiKeyAsToken.headers.get('www-authenticate')).to.equal('Bearer realm="dsync"');
      });

      it('management API: an Api-Key challenge, invalid_token when a credential was sent', async () => {
        const none = await fetch(`${svc.url}/api/v1/directory-sync?tenant=a&product=b`);
        expect(none.status).to.equal(401);
        expect(none.headers.get('www-authenticate')).to.equal('Api-Key realm="dsync"');
        const wrong = await fetch(`${svc.url}/api/v1/directory-sync?tenant=a&product=b`, {
          headers: { authorization: 'Api-Key nope' },
        });
        expect(wrong.status).to.equal(401);
        expect(wrong.headers.get('www-authenticate')).to.equal('Api-Key realm="dsync", error="invalid_token"');
        const bearer = await fetch(`${svc.url}/api/v1/directory-sync?tenant=a&product=b`, {
          headers: { authorization: 'Bearer x' },
        });
        expect(bearer.headers.get('www-authenticate')).to.equal('Api-Key realm="dsync", error="invalid_token"');
        expect(((await bearer.json()) as any).error).to.deep.equal({
          message: 'Missing Authorization: Api-Key <key> header',
          code: 401,
        });
      });
    });

    describe('webhook URLs with credentials', () => {
      it('are refused at create and update with a 400 naming webhook_url', async () => {
        const created = await svc.api('POST', '/api/v1/directory-sync', {
          name: 'Acme',
          tenant: 'acme',
          product: 'app',
          type: 'generic-scim-v2',
          webhook_url: 'https://user:pass@hooks.example.com/x',
        });
        expect(created.status).to.equal(400);
        expect(created.body.error.message).to.match(/^webhook_url must not contain credentials/);
        const dir = await svc.createDirectory({ webhook_url: 'https://hooks.example.com/x' });
        for (const body of [
          { webhook_url: 'https://user@hooks.example.com/x' },
          { webhook: { endpoint: 'https://:pw@hooks.example.com/x' } },
        ]) {
          const updated = await svc.api('PATCH', `/api/v1/directory-sync/${dir.id}`, body);
          expect(updated.status, JSON.stringify(body)).to.equal(400);
          expect(updated.body.error.message).to.match(/must not contain credentials/);
        }
        expect((await svc.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.webhook.endpoint).to.equal(
          'https://hooks.example.com/x',
        );
      });

      it('a URL stored before the rule never shows its password in delivery logs', async () => {
        const hooks = await startReceiver();
        try {
          const dir = await svc.createDirectory({
            webhook_url: hooks.url,
            webhook_secret: hooks.secret,
            log_webhook_events: true,
          });
          // Written straight to the store: what an older version accepted.
          const stored = (await svc.dsync.store.getDirectory(dir.id))!;
          const withPassword = hooks.url.replace('http://', 'http://alice:hunter2-secret@');
          await svc.dsync.store.updateDirectory({ ...stored, webhook: { ...stored.webhook, endpoint: withPassword } });
          expect((await svc.scim(dir, 'POST', '/Users', { userName: 'ann@acme.io' })).status).to.equal(201);
          await hooks.waitForEvents(1);
          let logs: any[] = [];
          await until(
            async () =>
              (logs = (await svc.api('GET', `/api/v1/dsync/events?directoryId=${dir.id}`)).body.data).length === 1,
            'a delivery log',
          );
          const text =
            JSON.stringify(logs) + JSON.stringify((await svc.api('GET', `/api/v1/dsync/events/${logs[0].id}`)).body);
          expect(text).not.to.include('hunter2-secret');
          expect(text).not.to.include('alice');
          expect(logs[0].endpoint).to.equal(hooks.url);
        } finally {
          await hooks.close();
        }
      });
    });
  });
}
