/**
 * `dsync cron sync-google` as the CronJob runs it (a spawned CLI, real Redis, the fake Google): exit 0 when the
 * run worked, even with one customer's revoked token (reported per directory); non-zero only when the run could
 * not work. And `dsync serve` with DSYNC_GOOGLE_SYNC_INTERVAL syncing in-process; and the cron job on the shared
 * Redis Cluster (REDIS_CLUSTER_NODES).
 */
import { expect } from 'chai';
import { createDsync, type Dsync } from '../../src/service.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { run, waitHealthy } from '../support/cli.js';
import { FAKE_CLIENT, FakeGoogle } from '../support/fake-google.js';
import { until } from '../support/harness.js';
import { clusterNodes, freshReplicatedStore, redisUrl } from '../support/services.js';
import { freePort } from '../support/ports.js';

const DB = 13;

/** What the CronJob is given besides its store: the Google client and the fake Google's URLs. */
const googleEnv = (fake: FakeGoogle): Record<string, string> => ({
  METRICS_PORT: '0',
  LOG_LEVEL: 'warn',
  DSYNC_GOOGLE_CLIENT_ID: FAKE_CLIENT.id,
  DSYNC_GOOGLE_CLIENT_SECRET: FAKE_CLIENT.secret,
  DSYNC_GOOGLE_API_URL: fake.apiUrl,
  DSYNC_GOOGLE_TOKEN_URL: fake.tokenUrl,
  DSYNC_GOOGLE_AUTH_URL: fake.authUrl,
});

/** A Google directory connected with fresh tokens of the fake (tenant = name); returns its id and refresh token. */
async function googleDirectory(
  dsync: Dsync,
  fake: FakeGoogle,
  name: string,
): Promise<{ id: string; refreshToken: string }> {
  const tokens = fake.oauth.issueTokens();
  const d = await dsync.directories.create({
    name,
    tenant: name,
    product: 'app',
    type: 'google',
    google_access_token: tokens.access_token,
    google_refresh_token: tokens.refresh_token,
  });
  return { id: d.id, refreshToken: tokens.refresh_token };
}

const syncGoogle = (env: Record<string, string>) =>
  run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'cron', 'sync-google'], env);

describe('dsync cron sync-google (spawned CLI, real Redis, fake Google)', function () {
  this.timeout(60_000);
  let fake: FakeGoogle;
  let env: Record<string, string>;
  const ids: Record<string, string> = {};

  before(async () => {
    fake = await new FakeGoogle().start();
    fake.addUser({ primaryEmail: 'ann@example.com' });
    env = { REDIS_URL: `${redisUrl()}/${DB}`, ...googleEnv(fake) };
    const store = new RedisStore(env.REDIS_URL!);
    await store.redis.flushdb();
    const dsync = createDsync({ store, externalUrl: 'http://localhost' });
    for (const name of ['healthy', 'revoked']) {
      const d = await googleDirectory(dsync, fake, name);
      ids[name] = d.id;
      if (name === 'revoked') fake.oauth.revoke(d.refreshToken);
    }
    fake.oauth.expireAccessTokens();
    await dsync.close();
  });
  after(() => fake.close());

  it("exits 0 when one customer's token is revoked, and reports each directory", async () => {
    const cron = syncGoogle(env);
    expect(await cron.exited, cron.output()).to.equal(0);
    expect(cron.output()).to.contain(`sync-google: ${ids.healthy} (healthy/app) succeeded`);
    expect(cron.output()).to.match(
      new RegExp(`sync-google: ${ids.revoked} \\(revoked/app\\) invalid_credentials: Google refused`),
    );
    expect(cron.output()).to.contain('sync-google: 2 directories, 1 created, 0 updated, 0 deleted, 1 failed');
  });

  it('exits non-zero when the store cannot be reached, or the configuration is bad (naming the variable)', async () => {
    const down = syncGoogle({ ...env, REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    expect(await down.exited).to.not.equal(0);
    const bad = syncGoogle({ ...env, DSYNC_GOOGLE_MAX_DELETE_SHARE: 'lots' });
    expect(await bad.exited).to.equal(1);
    expect(bad.output()).to.contain('DSYNC_GOOGLE_MAX_DELETE_SHARE');
    const { DSYNC_GOOGLE_CLIENT_SECRET: _secret, ...noSecret } = env;
    const half = syncGoogle(noSecret);
    expect(await half.exited).to.equal(1);
    expect(half.output()).to.contain('set both DSYNC_GOOGLE_CLIENT_ID and DSYNC_GOOGLE_CLIENT_SECRET');
  });

  it('dsync serve with DSYNC_GOOGLE_SYNC_INTERVAL syncs in-process', async () => {
    const added = fake.addUser({ primaryEmail: 'bob@example.com' });
    const port = await freePort();
    const serve = run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      ...env,
      PORT: String(port),
      DSYNC_API_KEYS: 'k',
      DSYNC_GOOGLE_SYNC_INTERVAL: '1',
    });
    try {
      await waitHealthy(port, serve);
      const store = new RedisStore(env.REDIS_URL!);
      try {
        await until(
          async () => (await store.getUser(ids.healthy!, added.id)) !== null,
          'the interval sync to create bob',
          10_000,
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

describe('dsync cron sync-google on a Redis Cluster (spawned CLI, REDIS_CLUSTER_NODES, fake Google)', function () {
  this.timeout(60_000);

  it("lists every directory from the cluster's directory list and syncs each into its own slot", async () => {
    const fake = await new FakeGoogle().start();
    const store = await freshReplicatedStore('cluster');
    try {
      const ann = fake.addUser({ primaryEmail: 'ann@example.com' });
      const dsync = createDsync({ store, externalUrl: 'http://localhost' });
      // Each directory's keys share its own hash tag (slot); the list of all directories is one key elsewhere.
      const dirs = [];
      for (const name of ['acme', 'globex', 'initech']) dirs.push(await googleDirectory(dsync, fake, name));
      const cron = syncGoogle({ REDIS_CLUSTER_NODES: clusterNodes().join(','), ...googleEnv(fake) });
      expect(await cron.exited, cron.output()).to.equal(0);
      expect(cron.output()).to.contain('sync-google: 3 directories, 3 created, 0 updated, 0 deleted, 0 failed');
      for (const d of dirs)
        expect((await store.getUser(d.id, ann.id))?.body, d.id).to.deep.include({ userName: 'ann@example.com' });
    } finally {
      await store.close();
      await fake.close();
    }
  });
});
