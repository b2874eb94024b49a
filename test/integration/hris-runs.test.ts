/**
 * How HRIS syncs run (on the fake BambooHR, over real HTTP): concurrent syncs of one directory (one does the work,
 * each change emitted once), background runs (`Prefer: respond-async`), provider webhooks as hints (signature
 * checked, a burst coalesced into one sync within seconds, the payload never trusted), a new connection's first
 * sync, and `dsync cron sync-hris` as the CronJob runs it (a spawned CLI, real Redis).
 */
import { expect } from 'chai';
import { createDsync } from '../../src/service.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { run } from '../support/cli.js';
import { FakeBambooHR } from '../support/fake-bamboohr.js';
import { labels } from '../support/google-harness.js';
import { openStore, until } from '../support/harness.js';
import { bambooCredentials, startHrisTest, type HrisTest } from '../support/hris-harness.js';
import { redisUrl } from '../support/services.js';

const post = (url: string, body: string, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', body, headers });

describe('HRIS sync runs (redis store, fake BambooHR)', function () {
  this.timeout(30_000);
  let t: HrisTest;
  let dir: any;

  beforeEach(async () => {
    t = await startHrisTest(await openStore('redis', 8), { webhookDelayMs: 100 });
    for (let i = 0; i < 12; i++) t.bamboo.hire({ department: i % 2 ? 'Sales' : 'Engineering' });
    t.bamboo.age();
    dir = await t.directory('bamboohr', {}, bambooCredentials(t.bamboo, { webhook_secret: 'bamboo-webhook-key' }));
    // The connection's own first sync (after the webhook delay).
    await until(async () => (await t.status(dir.id)).state === 'succeeded', 'the first sync after connecting', 5000);
    await t.newEvents(dir.id);
    t.bamboo.age();
    t.bamboo.resetCalls();
  });
  afterEach(() => t.close());

  it('a new connection syncs by itself within seconds', async () => {
    expect(await t.service.dsync.store.countUsers(dir.id)).to.equal(12);
  });

  it('concurrent syncs of one directory: one does the work, the other is skipped; each change is emitted once', async () => {
    const e = t.bamboo.hire({ department: 'Sales' });
    t.bamboo.fail('employee', 503, 1, '1'); // holds the first run for a second
    const [a, b] = await Promise.all([t.sync(dir.id), t.sync(dir.id)]);
    const states = [a.directories[0].state, b.directories[0].state].sort();
    expect(states).to.deep.equal(['skipped', 'succeeded']);
    const skipped = [a, b].find((r) => r.directories[0].state === 'skipped');
    expect(skipped.directories[0].error.code).to.equal('DSYNC_HRIS_SYNC_BUSY');
    expect(labels(await t.newEvents(dir.id))).to.deep.equal([
      `user.created:${e.workEmail}`,
      `group.user_added:Sales/${e.workEmail}`,
    ]);
  });

  it('Prefer: respond-async: 202 with the run to read; a second request joins it', async () => {
    t.bamboo.hire();
    t.bamboo.fail('changed', 503, 1, '1');
    const headers = { authorization: 'Api-Key test-api-key', prefer: 'respond-async' };
    const r1 = await fetch(`${t.service.url}/api/v1/dsync/cron/sync-hris?directoryId=${dir.id}`, {
      method: 'POST',
      headers,
    });
    const r2 = await fetch(`${t.service.url}/api/v1/dsync/cron/sync-hris?directoryId=${dir.id}`, {
      method: 'POST',
      headers,
    });
    expect([r1.status, r2.status]).to.deep.equal([202, 202]);
    expect(r1.headers.get('preference-applied')).to.equal('respond-async');
    const location = r1.headers.get('location')!;
    expect(location).to.match(/^\/api\/v1\/dsync\/cron\/sync-hris\/[0-9a-f-]{36}$/);
    expect(r2.headers.get('location')).to.equal(location);
    let runState: any;
    await until(async () => {
      runState = (await t.service.api('GET', location)).body.data;
      return runState.state !== 'running';
    }, 'the background run to finish');
    expect(runState).to.deep.include({
      provider: 'hris',
      state: 'succeeded',
      directory_id: dir.id,
      created: 1,
      failed: 0,
    });
    expect(runState.directories[0]).to.deep.include({ id: dir.id, state: 'succeeded' });
  });

  it('a signed webhook starts a sync of the directory within seconds; a burst is one sync; the payload is not trusted', async () => {
    const moved = [...t.bamboo.employees.values()][0]!;
    t.bamboo.change(moved.id, { department: 'Research' });
    const url = `${t.service.url}/api/v1/dsync/hris/webhooks/${dir.id}`;
    // The payload names another employee: the sync reads what changed from BambooHR's feed, not from it.
    // Sent at once: one after the other, a loaded machine spread them past the 100 ms the first one waits.
    const calls = Array.from({ length: 3 }, () => t.bamboo.signedWebhook('bamboo-webhook-key', ['999999']));
    const answers = await Promise.all(calls.map((call) => post(url, call.body, call.headers)));
    expect(answers.map((a) => a.status)).to.deep.equal([202, 202, 202]);
    await until(
      async () => t.bamboo.calls.changed > 0 && t.service.dsync.hris.idle,
      'the webhook-triggered sync',
      5000,
    );
    expect(t.bamboo.calls).to.deep.equal({ employee: 1, report: 0, changed: 1, directory: 0 });
    expect(labels(await t.newEvents(dir.id))).to.deep.equal([
      `user.updated:${moved.workEmail}`,
      'group.created:Research',
      `group.user_added:Research/${moved.workEmail}`,
      `group.user_removed:Engineering/${moved.workEmail}`,
    ]);
  });

  it('two syncs a webhook starts are at least the minimum interval apart', async () => {
    await t.close();
    // The interval counts from the first sync's start: long enough that the steps below fit in it on a loaded machine.
    t = await startHrisTest(await openStore('redis', 8), { webhookDelayMs: 20, webhookMinIntervalMs: 5000 });
    t.fakes.hibob.hire();
    const bob = await t.directory('hibob');
    await until(
      async () => t.service.dsync.hris.idle && (await t.status(bob.id)).state === 'succeeded',
      'the first sync after connecting',
    );
    t.bob.resetCalls();
    const url = `${t.service.url}/api/v1/dsync/hris/webhooks/${bob.id}`;
    const hint = t.fakes.hibob.webhook('1');
    expect((await post(url, hint.body, hint.headers)).status).to.equal(202);
    await new Promise((r) => setTimeout(r, 300));
    expect(t.bob.calls.search, 'no second sync within the interval').to.equal(0);
    await until(() => t.bob.calls.search === 1 && t.service.dsync.hris.idle, 'the held-back sync', 15_000);
  });

  it('webhook calls that do not check out are refused (401) and sync nothing', async () => {
    const url = `${t.service.url}/api/v1/dsync/hris/webhooks/${dir.id}`;
    const good = t.bamboo.signedWebhook('bamboo-webhook-key', ['1']);
    const refusals = [
      await post(url, good.body, { ...good.headers, 'X-BambooHR-Signature': '00'.repeat(32) }),
      await post(url, good.body + ' ', good.headers),
      await post(url, good.body, { 'Content-Type': 'application/json' }),
      await (async () => {
        const stale = t.bamboo.signedWebhook('bamboo-webhook-key', ['1'], Math.floor(Date.now() / 1000) - 3600);
        return post(url, stale.body, stale.headers);
      })(),
      await (async () => {
        const other = t.bamboo.signedWebhook('another-key', ['1']);
        return post(url, other.body, other.headers);
      })(),
    ];
    expect(refusals.map((r) => r.status)).to.deep.equal([401, 401, 401, 401, 401]);
    const body = (await refusals[0]!.json()) as any;
    expect(body.error.message).to.equal('Webhook refused: X-BambooHR-Signature does not match');
    // Without a private key in the credentials, every call is refused.
    const unsigned = await t.directory('bamboohr', { name: 'No webhook key' }, bambooCredentials(t.bamboo));
    const res = await post(`${t.service.url}/api/v1/dsync/hris/webhooks/${unsigned.id}`, good.body, good.headers);
    expect(res.status).to.equal(401);
    expect(((await res.json()) as any).error.message).to.match(/no webhook private key is set/);
    expect(
      (await post(`${t.service.url}/api/v1/dsync/hris/webhooks/unknown-dir`, good.body, good.headers)).status,
    ).to.equal(404);
    expect((await fetch(url)).status).to.equal(405);
    // A body past a megabyte is refused before anything reads it; an id no directory has is a 404.
    expect((await post(url, 'x'.repeat(1024 * 1024 + 1), good.headers)).status).to.equal(413);
    expect(
      (await post(`${t.service.url}/api/v1/dsync/hris/webhooks/${'z'.repeat(5000)}`, good.body, good.headers)).status,
    ).to.equal(404);
    await new Promise((r) => setTimeout(r, 300));
    expect(t.bamboo.calls.changed).to.equal(0);
  });
});

describe('dsync cron sync-hris (spawned CLI, real Redis, fake BambooHR)', function () {
  this.timeout(60_000);
  const DB = 13;
  let fake: FakeBambooHR;
  let env: Record<string, string>;
  const ids: Record<string, string> = {};

  before(async () => {
    fake = await new FakeBambooHR().start();
    fake.hire();
    env = { REDIS_URL: `${redisUrl()}/${DB}`, METRICS_PORT: '0', LOG_LEVEL: 'warn', DSYNC_BAMBOOHR_API_URL: fake.url };
    const store = new RedisStore(env.REDIS_URL!);
    await store.redis.flushdb();
    const dsync = createDsync({
      store,
      externalUrl: 'http://localhost',
      hris: { apiUrls: { bamboohr: fake.url, hibob: fake.url, personio: fake.url }, webhookDelayMs: 600_000 },
    });
    for (const name of ['good', 'revoked']) {
      ids[name] = (await dsync.directories.create({ name, tenant: name, product: 'app', type: 'bamboohr' })).id;
      await dsync.hris.setCredentials(ids[name]!, bambooCredentials(fake));
    }
    // The second directory's key is revoked after connecting.
    await dsync.store.putSyncRecord(
      ids.revoked!,
      'hris-credentials',
      JSON.stringify({
        credentials: { subdomain: fake.subdomain, api_key: 'revoked' },
        connected_at: new Date().toISOString(),
      }),
    );
    await dsync.close();
  });
  after(() => fake.close());

  it('exits 0 when one key is revoked, and reports each directory', async () => {
    const cron = run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'cron', 'sync-hris'], env);
    expect(await cron.exited, cron.output()).to.equal(0);
    expect(cron.output()).to.contain(`sync-hris: ${ids.good} (good/app) succeeded`);
    expect(cron.output()).to.match(
      new RegExp(`sync-hris: ${ids.revoked} \\(revoked/app\\) invalid_credentials: BambooHR refused`),
    );
    expect(cron.output(), cron.output()).to.contain(
      'sync-hris: 2 directories, 2 created, 0 updated, 0 deleted, 1 failed',
    );
  });
});
