/**
 * The setup page over real HTTP, without a browser: its security headers, the "no longer valid" pages, CSRF,
 * escaping of attacker-controlled text, one link = one directory, rate limits, and the token staying out of
 * logs, metrics, events and later page loads. (test/browser/ drives the same page in Chromium.)
 */
import { expect } from 'chai';
import { createLogger } from '../../src/logger.js';
import { createPageLimits } from '../../src/ratelimit/page-limits.js';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import { startReceiver, startService, until, type Receiver, type Service } from '../support/harness.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { freshRedisStore, redisUrl } from '../support/services.js';

const USER = (userName: string) => ({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName });
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

describe('setup page over HTTP', function () {
  this.timeout(20_000);
  let svc: Service;
  let receiver: Receiver;
  let dir: any;
  let link: string;
  const logs: string[] = [];

  const linkOf = async (d: any) =>
    (await svc.api('POST', `/api/v1/directory-sync/${d.id}/setup-links`, {})).body.data.url as string;
  const csrfOf = async (url: string) => /data-csrf="([^"]+)"/.exec(await (await fetch(url)).text())![1]!;
  const action = (url: string, name: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${url}/${name}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers },
      body: new URLSearchParams(fields).toString(),
    });

  beforeEach(async () => {
    logs.length = 0;
    const logger = createLogger('trace', { write: (line: string) => void logs.push(line) });
    receiver = await startReceiver();
    svc = await startService(
      new MemoryStore(),
      { logger },
      {
        logger,
        pageLimits: createPageLimits({ limits: { view: 1000 } }),
        authFailures: { limits: { perAddress: 100, total: 1000 } },
      },
    );
    dir = await svc.createDirectory({
      type: 'okta-scim-v2',
      webhook_url: receiver.url,
      webhook_secret: receiver.secret,
    });
    link = await linkOf(dir);
  });
  afterEach(async () => {
    await svc.close();
    await receiver.close();
  });

  it('sends the strict headers on the page, its status, its actions and its error pages', async () => {
    const csrf = await csrfOf(link);
    for (const res of [
      await fetch(link),
      await fetch(`${link}/status`, { headers: { accept: 'application/json' } }),
      await action(link, 'scim-tokens', { csrf }),
      await fetch(`${svc.url}/setup/${'x'.repeat(43)}`),
      await fetch(`${link}/nothing-here`),
    ]) {
      expect(res.headers.get('content-security-policy'), res.url).to.equal(CSP);
      expect(res.headers.get('x-frame-options')).to.equal('DENY');
      expect(res.headers.get('referrer-policy')).to.equal('no-referrer');
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    }
    const page = await (await fetch(link)).text();
    expect(page).not.to.match(/<script(?![^>]*\bsrc=)[^>]*>/); // every script has a src: nothing inline
    expect(page).not.to.match(/\son[a-z]+=/i); // no inline event handlers
    expect(page).to.contain('<meta name="referrer" content="no-referrer">');
  });

  it('an unknown, guessed, revoked or expired link, or one of a deleted directory, answers "no longer valid" (404/410), never a 500', async () => {
    const gone = async (url: string, status: number) => {
      const res = await fetch(url);
      expect(res.status, url).to.equal(status);
      expect(res.headers.get('content-type')).to.match(/^text\/html/);
      const text = await res.text();
      expect(text).to.contain('This setup link is no longer valid');
      expect(text).to.contain('Ask the person who sent it to you');
      const json = await fetch(`${url}/status`, { headers: { accept: 'application/json' } });
      expect(json.status).to.equal(status);
      expect(((await json.json()) as { error: object }).error).to.include({ gone: true });
    };
    await gone(`${svc.url}/setup/${'A'.repeat(43)}`, 404);
    await gone(`${svc.url}/setup/not-even-a-link`, 404);
    const listed = (await svc.api('GET', `/api/v1/directory-sync/${dir.id}/setup-links`)).body.data;
    await svc.api('DELETE', `/api/v1/directory-sync/${dir.id}/setup-links/${listed[0].id}`);
    await gone(link, 410);

    const expiring = await linkOf(dir);
    const stored = (await svc.dsync.store.listSetupLinks(dir.id)).find((l) => !l.revoked_at)!;
    await svc.dsync.store.putSetupLink(
      { ...stored, expires_at: new Date(Date.now() - 1).toISOString() },
      Date.now() + 60_000,
    );
    await gone(expiring, 410);

    const other = await svc.createDirectory({ name: 'Doomed', tenant: 'doomed' });
    const doomed = await linkOf(other);
    expect((await fetch(doomed)).status).to.equal(200);
    await svc.api('DELETE', `/api/v1/directory-sync/${other.id}`);
    await gone(doomed, 404);
  });

  it("refuses actions without the page's CSRF token, from another origin or another site", async () => {
    const csrf = await csrfOf(link);
    const count = async () => (await svc.api('GET', `/api/v1/directory-sync/${dir.id}/scim-tokens`)).body.data.length;
    expect((await action(link, 'scim-tokens', {})).status).to.equal(403);
    expect((await action(link, 'scim-tokens', { csrf: 'forged' })).status).to.equal(403);
    expect((await action(link, 'scim-tokens', { csrf }, { origin: 'https://evil.example' })).status).to.equal(403);
    expect((await action(link, 'scim-tokens', { csrf }, { 'sec-fetch-site': 'cross-site' })).status).to.equal(403);
    expect((await action(link, 'scim-tokens', { csrf: 'forged' }, { origin: 'null' })).status).to.equal(403);
    expect(
      (await action(link, 'scim-tokens', { csrf }, { origin: 'null', 'sec-fetch-site': 'cross-site' })).status,
    ).to.equal(403);
    expect(await count()).to.equal(1);
    expect((await fetch(`${link}/scim-tokens`)).status).to.equal(404); // a GET changes nothing
    const ok = await action(link, 'scim-tokens', { csrf }, { origin: svc.url, 'sec-fetch-site': 'same-origin' });
    expect(ok.status).to.equal(200);
    expect(await count()).to.equal(2);
    // Another link's CSRF token does not do either.
    const second = await linkOf(dir);
    expect((await action(second, 'scim-tokens/revoke', { csrf, token_id: 'scim-secret' })).status).to.equal(403);
  });

  it('answers a form it cannot read with 400 and logs no error, whether or not the link opens', async () => {
    const csrf = await csrfOf(link);
    const many = new URLSearchParams({ csrf });
    for (let i = 0; i < 30; i++) many.set(`f${i}`, 'x');
    const post = (url: string, body: string, type: string) =>
      fetch(`${url}/scim-tokens`, { method: 'POST', headers: { 'content-type': type }, body });
    for (const url of [link, `${svc.url}/setup/${'x'.repeat(43)}`]) {
      const answers = [
        await post(url, many.toString(), 'application/x-www-form-urlencoded'),
        await post(url, `csrf=${csrf}`, 'application/x-www-form-urlencoded; charset=x-unknown'),
        await post(url, `csrf=${csrf}`, 'application/x-www-form-urlencoded; charset=utf-16'),
        await post(url, `csrf=${csrf}&${'a'.repeat(5000)}=1`, 'application/x-www-form-urlencoded'),
      ];
      for (const res of answers) {
        expect(res.status, url).to.equal(400);
        expect(res.headers.get('content-security-policy')).to.equal(CSP);
        expect(await res.text()).to.contain('The request could not be read.');
      }
    }
    const errors = logs.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((l) => l.level >= 50);
    expect(errors, 'error log lines').to.deep.equal([]);
    expect(
      (await svc.api('GET', `/api/v1/directory-sync/${dir.id}/scim-tokens`)).body.data,
      'no token was made',
    ).to.have.length(1);
  });

  it('escapes a directory name and an IdP error text that carry HTML', async () => {
    const evil = await svc.createDirectory({
      name: '<script>alert(1)</script><img src=x onerror=alert(2)>',
      tenant: 'evil',
    });
    const evilLink = await linkOf(evil);
    const bad = '<img src=x onerror="window.__xss=1">';
    await svc.scim(evil, 'POST', '/Users', USER(bad));
    expect((await svc.scim(evil, 'POST', '/Users', USER(bad))).status).to.equal(409);
    const page = await (await fetch(evilLink)).text();
    expect(page).not.to.contain('<script>alert(1)');
    expect(page).not.to.contain('<img src=x');
    expect(page).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(page).to.contain('&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;');
  });

  it('a link reads and acts on its own directory only', async () => {
    const other = await svc.createDirectory({ name: 'Other Corp', tenant: 'other' });
    const otherToken = (await svc.api('POST', `/api/v1/directory-sync/${other.id}/scim-tokens`)).body.data;
    await svc.scim(other, 'POST', '/Users', USER('secret-person@other.example'));
    const csrf = await csrfOf(link);
    const revoke = await action(link, 'scim-tokens/revoke', { csrf, token_id: otherToken.id });
    expect(revoke.status).to.equal(404);
    expect((await svc.scim({ id: other.id, scim: { secret: otherToken.token } }, 'GET', '/Users')).status).to.equal(
      200,
    );
    const status = await (await fetch(`${link}/status`, { headers: { accept: 'application/json' } })).text();
    const page = await (await fetch(link)).text();
    for (const text of [status, page]) {
      for (const foreign of [other.id, 'Other Corp', otherToken.id, 'secret-person@other.example', other.scim.secret])
        expect(text).not.to.contain(foreign);
    }
    // Nothing of the management API opens with a link.
    const secret = link.split('/').pop()!;
    for (const auth of [`Api-Key ${secret}`, `Bearer ${secret}`]) {
      expect(
        (await fetch(`${svc.url}/api/v1/directory-sync/${dir.id}`, { headers: { authorization: auth } })).status,
      ).to.equal(401);
    }
    expect(
      (await fetch(`${svc.url}/api/scim/v2.0/${dir.id}/Users`, { headers: { authorization: `Bearer ${secret}` } }))
        .status,
    ).to.equal(401);
  });

  it('works without the script: a form POST answers the page with the new token, which a later load never shows', async () => {
    const csrf = await csrfOf(link);
    const res = await fetch(`${link}/scim-tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams({ csrf }).toString(),
    });
    expect(res.status).to.equal(200);
    const html = await res.text();
    const token = /id="new-token-value" type="text" readonly value="([^"]+)"/.exec(html)![1]!;
    expect(html).to.contain('href="../static/setup.css"'); // relative to this response's URL
    expect(
      (await svc.scim({ id: dir.id, scim: { secret: token } }, 'POST', '/Users', USER('ann@example.com'))).status,
    ).to.equal(201);
    await receiver.waitForEvents(1);
    await until(async () => (await (await fetch(link)).text()).includes('POST /Users'), 'the request on the page');

    const later = await (await fetch(link)).text();
    expect(later).not.to.contain(token);
    const statusJson = await (await fetch(`${link}/status`, { headers: { accept: 'application/json' } })).text();
    expect(statusJson).not.to.contain(token);
    const metrics = await svc.dsync.metrics.registry.metrics();
    await svc.dsync.activity.flush();
    for (const [what, text] of [
      ['logs', logs.join('\n')],
      ['metrics', metrics],
      ['events', JSON.stringify(receiver.events())],
      ['activity', JSON.stringify(await svc.api('GET', `/api/v1/directory-sync/${dir.id}/activity`))],
      ['token list', JSON.stringify(await svc.api('GET', `/api/v1/directory-sync/${dir.id}/scim-tokens`))],
    ]) {
      expect(text, what).not.to.contain(token);
      expect(text, what).not.to.contain(link.split('/').pop());
    }
    expect(logs.join('\n')).to.contain('setup page action');
  });

  it('counts a link that does not open as a failed authentication: past the limit, 429 before any lookup, even for a good link', async () => {
    await svc.close();
    svc = await startService(
      new MemoryStore(),
      {},
      {
        pageLimits: createPageLimits({ limits: { view: 40 } }),
        authFailures: { limits: { perAddress: 5, total: 100 } },
      },
    );
    dir = await svc.createDirectory({ type: 'okta-scim-v2' });
    link = await linkOf(dir);
    const revoked = await svc.api('POST', `/api/v1/directory-sync/${dir.id}/setup-links`, {});
    await svc.api('DELETE', `/api/v1/directory-sync/${dir.id}/setup-links/${revoked.body.data.id}`);
    const guesses = [];
    // Unknown, malformed and revoked links all count; the fifth blocks this address.
    for (const url of [
      ...[0, 1, 2].map((i) => `${svc.url}/setup/${String(i).repeat(43)}`),
      `${svc.url}/setup/short`,
      revoked.body.data.url,
      `${svc.url}/setup/${'7'.repeat(43)}`,
    ]) {
      guesses.push((await fetch(url)).status);
    }
    expect(guesses).to.deep.equal([404, 404, 404, 404, 410, 429]);
    for (const res of [await fetch(link), await fetch(`${link}/status`, { headers: { accept: 'application/json' } })]) {
      expect(res.status, res.url).to.equal(429);
      expect(Number(res.headers.get('retry-after'))).to.be.within(1, 60);
      expect(res.headers.get('content-security-policy')).to.equal(CSP);
    }
    const page = await fetch(`${svc.url}/setup/${'8'.repeat(43)}`);
    expect(await page.text())
      .to.contain('Too many requests')
      .and.contain('Too many failed authentication attempts; retry after');
    const families = (await svc.dsync.metrics.authFailures.get()).values.map((v) => [
      v.labels.api,
      v.labels.outcome,
      v.value,
    ]);
    expect(families).to.deep.include.members([
      ['setup', 'failed', 5],
      ['setup', 'refused', 4],
    ]);
    expect((await fetch(`${svc.url}/setup/static/setup.js`)).status, 'the static files are no credential').to.equal(
      200,
    );
  });

  it('limits views per link, whatever the spelling of its URL', async () => {
    await svc.close();
    svc = await startService(new MemoryStore(), {}, { pageLimits: createPageLimits({ limits: { view: 40 } }) });
    dir = await svc.createDirectory({ type: 'okta-scim-v2' });
    link = await linkOf(dir);
    const spelled = [`${link}/status`, `${link.replace('/setup/', '/SETUP/')}/Status`, `${link}/status/`];
    const views = [];
    for (let i = 0; i < 41; i++)
      views.push((await fetch(spelled[i % 3]!, { headers: { accept: 'application/json' } })).status);
    expect(
      views.slice(0, 40).every((s) => s === 200),
      views.join(' '),
    ).to.equal(true);
    expect(views[40]).to.equal(429);
    // Another link of the same directory has its own budget.
    expect((await fetch(await linkOf(dir))).status).to.equal(200);
  });

  it("counts the failures on the store's Redis when there is one (shared by replicas)", async () => {
    const store = await freshRedisStore(13);
    const other = new RedisStore(`${redisUrl()}/13`); // a second replica on the same Redis
    const authFailures = (redis: RedisStore['redis']) => ({ limits: { perAddress: 3, total: 100 }, redis });
    const one = await startService(store, {}, { authFailures: authFailures(store.redis) });
    const two = await startService(other, {}, { authFailures: authFailures(other.redis) });
    try {
      const statuses = [];
      for (const s of [one, two, one, two, two, one])
        statuses.push((await fetch(`${s.url}/setup/${'9'.repeat(43)}`)).status);
      // The third failure (on one) reaches the shared limit: one blocks at once; two blocks at its next failure.
      expect(statuses).to.deep.equal([404, 404, 404, 404, 429, 429]);
      expect(await store.redis.keys('dsync:authfail:address*')).to.have.length(1);
      expect(await store.redis.keys('dsync:rl:setup:*')).to.deep.equal([]);
    } finally {
      await two.close();
      await one.close();
    }
  });

  it('a Microsoft Entra ID directory gets the Connect button; its form may lead to the admin-consent page only', async () => {
    const entra = await svc.createDirectory({ type: 'microsoft-entra', name: 'Entra Co', tenant: 'entra' });
    const res = await fetch(await linkOf(entra));
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-security-policy')).to.contain(
      "form-action 'self' https://login.microsoftonline.com;",
    );
    const html = await res.text();
    expect(html).to.contain('Connect Microsoft Entra ID');
    expect(html).not.to.contain('Recent requests');
    expect(html).not.to.contain('Create token');
  });

  it('serves only its own two static files', async () => {
    expect((await fetch(`${svc.url}/setup/static/setup.js`)).headers.get('content-type')).to.match(/^text\/javascript/);
    expect((await fetch(`${svc.url}/setup/static/setup.css`)).headers.get('content-type')).to.match(/^text\/css/);
    for (const path of [
      '/setup/static/nope.js',
      '/setup/static/..%2F..%2Fpackage.json',
      '/setup/static/%2e%2e/%2e%2e/package.json',
    ]) {
      expect((await fetch(`${svc.url}${path}`)).status, path).to.equal(404);
    }
  });
});
