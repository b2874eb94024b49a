/** A 410 disables the webhook only if its URL is unchanged: a URL set at the same moment is never lost. */
import { expect } from 'chai';
import { openStore, sleep, startReceiver, startService, type Receiver, type Service } from '../support/harness.js';
import { hooked } from '../support/hooked-store.js';

for (const kind of ['memory', 'redis'] as const) {
  describe(`webhook disabled by a 410 while its URL changes (${kind} store)`, () => {
    let svc: Service;
    let gone: Receiver;
    let good: Receiver;
    afterEach(async () => {
      await svc.close();
      await gone.close();
      await good.close();
    });

    it('a webhook URL changed while the engine disables the old one (410) is not lost', async () => {
      gone = await startReceiver();
      gone.respond = () => 410;
      good = await startReceiver();
      const h = hooked(await openStore(kind, 3));
      svc = await startService(h.store);
      const dir = await svc.createDirectory({ webhook_url: gone.url, webhook_secret: gone.secret });
      h.before('disableWebhook', async () => {
        // the operator points the directory at the new receiver at the same moment
        const r = await svc.api('PATCH', `/api/v1/directory-sync/${dir.id}`, {
          webhook_url: good.url,
          webhook_secret: good.secret,
        });
        expect(r.status).to.equal(200);
      });
      await svc.scim(dir, 'POST', '/Users', { userName: 'u1' });
      await sleep(1500);
      const now = (await svc.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data;
      expect({ endpoint: now.webhook.endpoint, disabled: now.webhook_disabled_at ?? null }).to.deep.equal({
        endpoint: good.url,
        disabled: null,
      });
    });
  });
}
