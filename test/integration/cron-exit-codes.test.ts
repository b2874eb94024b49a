// `dsync cron process-events` as a CronJob runs it (a spawned CLI): exit 0 when the job ran, even if a tenant's
// receiver is down (reported in the summary line; retried on the schedule), non-zero only when the job could
// not run (store unreachable, bad configuration). No API keys needed: the job serves no API.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { expect } from 'chai';
import { until } from '../support/harness.js';
import { createDsync } from '../../src/service.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { SECRET } from '../support/dsync-process.js';
import { FaultReceiver } from '../support/fault-receiver.js';
import { startTopology, type RedisTopology } from '../support/redis-topology.js';
import { redisUrl } from '../support/services.js';

const DB = 12;

async function cron(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'cron', 'process-events'], {
    env: {
      ...process.env,
      DSYNC_API_KEYS: '',
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      DSYNC_WEBHOOK_BATCH_SIZE: '10',
      DSYNC_WEBHOOK_ALLOW_PRIVATE: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** A port nothing listens on: a receiver (or a Redis) that is down. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

describe('dsync cron process-events exit codes (spawned CLI, real Redis)', function () {
  this.timeout(60_000);

  before(async () => {
    // One directory whose receiver is down, with a queued event.
    const store = new RedisStore(`${redisUrl()}/${DB}`);
    await store.redis.flushdb();
    const dsync = createDsync({ store, externalUrl: 'http://localhost', webhook: { batchSize: 10 } });
    const dir = await dsync.directories.create(
      {
        name: 'Down',
        tenant: 'down',
        product: 'app',
        type: 'generic-scim-v2',
        webhook_url: `http://127.0.0.1:${await closedPort()}/hooks`,
        webhook_secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      },
      {},
    );
    const res = await dsync.requests.handle({
      method: 'POST',
      directoryId: dir.id,
      resourceType: 'users',
      apiSecret: dir.scim.secret,
      body: {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'a@x.com',
        name: { givenName: 'A', familyName: 'B' },
      },
    } as never);
    expect(res.status).to.equal(201);
    await dsync.delivery.sweep(); // marks the directory due (the commit's own mark is fire-and-forget)
    await dsync.close();
  });

  it("exits 0 when a tenant's receiver is down, and says so in a summary line", async () => {
    const run = await cron({ REDIS_URL: `${redisUrl()}/${DB}` });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.contain(
      'process-events: 1 directories, 0 events delivered, 1 deliveries failed (receivers down or refusing; retried on the schedule)',
    );
  });

  it('exits non-zero when the store cannot be reached', async () => {
    const run = await cron({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    expect(run.code).to.not.equal(0);
    expect(run.stderr).to.match(/ECONNREFUSED|max retries/i);
  });

  it('exits 1 on a bad configuration, naming the variable', async () => {
    const run = await cron({ REDIS_URL: `${redisUrl()}/${DB}`, DSYNC_WEBHOOK_BATCH_SIZE: 'many' });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain('DSYNC_WEBHOOK_BATCH_SIZE');
  });
});

describe('dsync cron process-events whose Redis dies mid-run (spawned CLI, its own redis-server)', function () {
  this.timeout(60_000);
  let redis: RedisTopology;
  let receiver: FaultReceiver;

  before(async () => {
    redis = await startTopology('sentinel', { sentinels: 0, replicas: 0 }); // one server this test may kill
    receiver = await new FaultReceiver().open();
    const store = new RedisStore(`redis://${redis.nodes[0]}`);
    const dsync = createDsync({ store, externalUrl: 'http://localhost', webhook: { batchSize: 10 } });
    const dir = await dsync.directories.create(
      {
        name: 'Dies',
        tenant: 'dies',
        product: 'app',
        type: 'generic-scim-v2',
        webhook_url: receiver.url,
        webhook_secret: SECRET,
      },
      {},
    );
    const res = await dsync.requests.handle({
      method: 'POST',
      directoryId: dir.id,
      resourceType: 'users',
      apiSecret: dir.scim.secret,
      body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'a@x.com' },
    } as never);
    expect(res.status).to.equal(201);
    await dsync.delivery.sweep();
    await dsync.close();
  });
  after(async () => {
    await receiver?.close();
    await redis?.stop();
  });

  it('exits non-zero when Redis is killed during a delivery and restarted (empty) before the run ends', async () => {
    const node = redis.nodes[0]!;
    // The receiver kills Redis while it holds the delivery, and answers once a new, empty Redis is up: the run
    // can neither save its cursor nor find its work again, so it did not do what it was run for.
    receiver.answer = () => ({
      status: 200,
      until: (async () => {
        await redis.signal(node, 'SIGKILL');
        await redis.restart(node);
        await until(
          async () => (await redis.cli('-p', node.split(':')[1]!, 'ping').catch(() => '')).trim() === 'PONG',
          'Redis back',
          10_000,
        );
      })(),
    });
    const run = await cron({ REDIS_URL: `redis://${node}` });
    expect(receiver.seen, 'the delivery reached the receiver').to.have.length(1);
    expect(run.code, run.stdout).to.not.equal(0);
    // Whether its client is back on the new Redis when it saves its state (the lease is gone there) or not yet
    // (the save fails), the run could not do its work.
    expect(run.stderr).to.match(/StoreUnavailableError|unavailable|DeliveryLeaseLostError/);
  });
});
