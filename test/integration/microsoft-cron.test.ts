/**
 * `dsync cron sync-microsoft` as the CronJob runs it (a spawned CLI, real Redis, the fake Entra over TLS —
 * trusted through the NODE_EXTRA_CA_CERTS the process inherits): exit 0 when the run worked, even with one
 * tenant's consent revoked (reported per directory); non-zero only when the run could not work. And `dsync
 * serve` with DSYNC_MICROSOFT_SYNC_INTERVAL syncing in-process.
 */
import { expect } from 'chai';
import { createDsync } from '../../src/service.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { run, waitHealthy } from '../support/cli.js';
import { FAKE_APP, FakeEntra } from '../support/fake-entra/index.js';
import { TENANT_A, TENANT_B } from '../support/entra-harness.js';
import { until } from '../support/harness.js';
import { redisUrl } from '../support/services.js';
import { freePort } from '../support/ports.js';

const DB = 12;
const syncMicrosoft = (env: Record<string, string>) =>
  run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'cron', 'sync-microsoft'], env);

describe('dsync cron sync-microsoft (spawned CLI, real Redis, fake Entra)', function () {
  this.timeout(60_000);
  let fake: FakeEntra;
  let env: Record<string, string>;
  const ids: Record<string, string> = {};

  before(async () => {
    fake = await new FakeEntra().start();
    fake.tenant(TENANT_A).addUser();
    fake.tenant(TENANT_B, undefined, false).addUser(); // its admin never consented (or revoked it)
    env = {
      REDIS_URL: `${redisUrl()}/${DB}`,
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      DSYNC_MICROSOFT_CLIENT_ID: FAKE_APP.clientId,
      DSYNC_MICROSOFT_CLIENT_SECRET: FAKE_APP.secret,
      DSYNC_MICROSOFT_AUTHORITY_URL: fake.url,
      DSYNC_MICROSOFT_GRAPH_URL: fake.url,
    };
    const store = new RedisStore(env.REDIS_URL!);
    await store.redis.flushdb();
    const dsync = createDsync({ store, externalUrl: 'http://localhost' });
    for (const [name, tenant] of [
      ['contoso', TENANT_A],
      ['fabrikam', TENANT_B],
    ] as const) {
      ids[name] = (
        await dsync.directories.create({
          name,
          tenant: name,
          product: 'app',
          type: 'microsoft-entra',
          microsoft_tenant_id: tenant,
        })
      ).id;
    }
    await dsync.close();
  });
  after(() => fake.close());

  it("exits 0 when one tenant's consent is revoked, and reports each directory", async () => {
    const cron = syncMicrosoft(env);
    expect(await cron.exited, cron.output()).to.equal(0);
    expect(cron.output()).to.contain(`sync-microsoft: ${ids.contoso} (contoso/app) succeeded`);
    expect(cron.output()).to.match(
      new RegExp(`sync-microsoft: ${ids.fabrikam} \\(fabrikam/app\\) invalid_credentials: Entra refused`),
    );
    expect(cron.output()).to.contain('sync-microsoft: 2 directories, 1 created, 0 updated, 0 deleted, 1 failed');
  });

  it('exits non-zero when the store cannot be reached, or the configuration is bad (naming the variable)', async () => {
    const down = syncMicrosoft({ ...env, REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    expect(await down.exited).to.not.equal(0);
    const http = syncMicrosoft({ ...env, DSYNC_MICROSOFT_AUTHORITY_URL: 'http://login.example.com' });
    expect(await http.exited).to.equal(1);
    expect(http.output()).to.contain('DSYNC_MICROSOFT_AUTHORITY_URL must be an https URL');
    const both = syncMicrosoft({ ...env, DSYNC_MICROSOFT_CERTIFICATE_FILE: '/nonexistent.pem' });
    expect(await both.exited).to.equal(1);
    expect(both.output()).to.contain('DSYNC_MICROSOFT_CLIENT_SECRET or DSYNC_MICROSOFT_CERTIFICATE_FILE, not both');
    const { DSYNC_MICROSOFT_CLIENT_SECRET: _s, ...noSecret } = env;
    const missing = syncMicrosoft({ ...noSecret, DSYNC_MICROSOFT_CERTIFICATE_FILE: '/nonexistent.pem' });
    expect(await missing.exited).to.equal(1);
    expect(missing.output()).to.contain('DSYNC_MICROSOFT_CERTIFICATE_FILE: no such file');
  });

  it('dsync serve with DSYNC_MICROSOFT_SYNC_INTERVAL syncs in-process', async () => {
    const added = fake.tenants.get(TENANT_A)!.addUser();
    const port = await freePort();
    const serve = run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      ...env,
      PORT: String(port),
      DSYNC_API_KEYS: 'k',
      DSYNC_MICROSOFT_SYNC_INTERVAL: '1',
    });
    try {
      await waitHealthy(port, serve);
      const store = new RedisStore(env.REDIS_URL!);
      try {
        await until(
          async () => (await store.getUser(ids.contoso!, added.id)) !== null,
          'the interval sync to create the new user',
          15_000,
        );
      } finally {
        await store.close();
      }
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });
});
