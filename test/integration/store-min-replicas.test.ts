/**
 * A write waits for the replicas that are connected and in sync (up to DSYNC_REDIS_WAIT_REPLICAS) and
 * is refused only below DSYNC_REDIS_MIN_REPLICAS, on a real master + replica this file starts. With the default
 * minimum 0 a paused replica, or one still in its first sync (as in a brand-new cluster, where Redis' default
 * repl-diskless-sync-delay alone keeps replicas out for 5 s), leaves the master writable: its writes are
 * acknowledged and counted as degraded. With a minimum of 1 the same shard refuses writes and `/readyz` says
 * so (`below-min-replicas`), until the replica is in sync.
 */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { ProcessMetrics } from '../../src/metrics.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { startService, until, type Service } from '../support/harness.js';
import { startTopology, type RedisTopology } from '../support/redis-topology.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const user = (userName: string) => ({ schemas: [USER], userName });

async function serviceOn(url: string, minReplicas: number) {
  const commands: string[] = [];
  const metrics = new ProcessMetrics();
  // WAIT's default timeout (1 s): a replica of a loaded machine confirms within it, a paused one never.
  const store = new RedisStore(url, {
    waitReplicas: 1,
    minReplicas,
    onNotDurable: metrics.countNotDurable,
    onDegraded: metrics.countDegraded,
  });
  store.observeCommands((name) => commands.push(name));
  const svc = await startService(store);
  const value = async (c: { get(): Promise<{ values: Array<{ value: number }> }> }) =>
    (await c.get()).values[0]?.value ?? 0;
  return {
    svc,
    commands,
    dir: await svc.createDirectory({ tenant: `min-${minReplicas}` }),
    degraded: () => value(metrics.storeDegraded),
    notDurable: () => value(metrics.storeNotDurable),
  };
}

type Svc = Awaited<ReturnType<typeof serviceOn>>;

describe('writes wait for the replicas in sync and are refused only below DSYNC_REDIS_MIN_REPLICAS (real master + replica)', function () {
  this.timeout(60_000);
  let servers: RedisTopology;
  let master: Redis;
  let replica: Redis;
  let lenient: Svc;
  let strict: Svc;
  let n = 0;
  const create = (s: Svc) => s.svc.scim(s.dir, 'POST', '/Users', user(`u${n++}@acme.io`));
  const readyz = async (s: Svc) => {
    const res = await fetch(`${s.svc.url}/readyz`);
    return { status: res.status, body: (await res.json()) as any };
  };

  before(async () => {
    servers = await startTopology('sentinel', { sentinels: 0 }); // a master and one replica
    master = servers.connect(servers.nodes[0]!);
    replica = servers.connect(servers.nodes[1]!);
    [lenient, strict] = await Promise.all([
      serviceOn(`redis://${servers.nodes[0]}`, 0),
      serviceOn(`redis://${servers.nodes[0]}`, 1),
    ]);
  });

  after(async () => {
    await lenient?.svc.close();
    await strict?.svc.close();
    await master?.config('SET', 'repl-diskless-sync-delay', '0').catch(() => undefined);
    master?.disconnect();
    replica?.disconnect();
    await servers?.stop();
  });

  /** Until a write is confirmed by the replica again (not counted as degraded). */
  async function confirmedAgain(s: Svc): Promise<void> {
    await until(
      async () => {
        const before = await s.degraded();
        return (await create(s)).status === 201 && (await s.degraded()) === before;
      },
      'a write confirmed by the replica again',
      15_000,
    );
  }

  it('with the default minimum 0, a paused replica costs no write: each is acknowledged and counted as degraded', async () => {
    await confirmedAgain(lenient);
    const before = await lenient.degraded();
    await servers.signal(servers.nodes[1]!, 'SIGSTOP'); // connected, acknowledging nothing
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await create(lenient)).status);
      expect(statuses).to.deep.equal([201, 201, 201]);
      expect((await lenient.degraded()) - before).to.equal(3);
      expect(await lenient.notDurable()).to.equal(0);
      expect((await create(strict)).status, 'the same shard with a minimum of 1').to.equal(503);
    } finally {
      await servers.signal(servers.nodes[1]!, 'SIGCONT');
    }
    await confirmedAgain(lenient);
  });

  it('a replica in its first sync (a new cluster): writes taken at once without a WAIT; a minimum of 1 is not ready and refuses until it is in sync', async () => {
    // The master holds the replica's full sync back 30 s (Redis' default delay is 5 s): it stays in wait_bgsave.
    await master.config('SET', 'repl-diskless-sync', 'yes');
    await master.config('SET', 'repl-diskless-sync-delay', '30');
    await replica.replicaof('NO', 'ONE');
    const [host, port] = servers.nodes[0]!.split(':');
    await replica.replicaof(host!, Number(port));
    await until(
      async () => /^slave0:.*state=wait_bgsave/m.test(await master.info('replication')),
      'the replica to wait for its first sync',
      10_000,
    );

    expect((await create(lenient)).status).to.equal(201); // may still WAIT once on the count measured before
    const waits = lenient.commands.filter((c) => c === 'wait').length;
    const degraded = await lenient.degraded();
    expect((await create(lenient)).status).to.equal(201);
    expect(lenient.commands.filter((c) => c === 'wait').length, 'no WAIT for a replica not in sync').to.equal(waits);
    expect((await lenient.degraded()) - degraded).to.equal(1);
    const lenientReady = await readyz(lenient);
    expect(lenientReady.status).to.equal(200);
    expect(lenientReady.body).to.deep.equal({
      status: 'ready',
      store: 'redis',
      degraded: [{ master: servers.nodes[0], replicas_in_sync: 0, wait_replicas: 1, min_replicas: 0 }],
    });

    const strictReady = await readyz(strict);
    expect(strictReady.status).to.equal(503);
    expect(strictReady.body).to.deep.equal({
      status: 'below-min-replicas',
      store: 'redis',
      shards: [{ master: servers.nodes[0], replicas_in_sync: 0, wait_replicas: 1, min_replicas: 1 }],
    });
    const refused = await create(strict);
    expect(refused.status).to.equal(503);
    expect(refused.body.detail).to.match(/0 of 1 replicas confirmed it within \d+ ms; at least 1 must/);

    await master.config('SET', 'repl-diskless-sync-delay', '0'); // the sync starts at the master's next cron
    await until(
      async () => (await readyz(strict)).status === 200,
      'the strict service to be ready once the replica is in sync',
      15_000,
    );
    expect((await readyz(strict)).body).to.deep.equal({ status: 'ready', store: 'redis' });
    await until(async () => (await create(strict)).status === 201, 'writes to be taken with the minimum met', 10_000);
    await confirmedAgain(lenient);
  });
});
