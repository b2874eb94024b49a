/**
 * Durable acknowledgement on a Redis Cluster: WAIT goes to the master of the directory's slot
 * (WAIT has no key; on any other node it would prove nothing). With one shard's replica paused (and a minimum of
 * one replica), writes into directories of that shard answer 503 not durable, writes into the other shards 2xx;
 * resumed, all answer 2xx.
 */
import { expect } from 'chai';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { startService, until, type Service } from '../support/harness.js';
import { startTopology, type RedisTopology } from '../support/redis-topology.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const user = (userName: string) => ({ schemas: [USER], userName });

describe('durable writes on a Redis Cluster: WAIT on the master of the directory slot (own 3+3 cluster)', function () {
  this.timeout(90_000);
  let cluster: RedisTopology;
  let svc: Service;
  let store: RedisStore;
  const commands: string[] = [];
  const count = (name: string) => commands.filter((c) => c === name).length;

  before(async () => {
    cluster = await startTopology('cluster');
    // WAIT's default timeout (1 s): a replica of a loaded machine confirms within it, a paused one never.
    store = new RedisStore({ kind: 'cluster', nodes: cluster.nodes.slice(0, 2) }, { waitReplicas: 1, minReplicas: 1 });
    store.observeCommands((name) => commands.push(name));
    svc = await startService(store);
  });

  after(async () => {
    await svc?.close();
    await cluster?.stop();
  });

  it('reports each command once to the metrics, though the cluster routes it through a node connection', async () => {
    const before = count('get');
    await store.redis.get('dsync:{observed}:dir');
    await store.redis.multi().get('dsync:{observed}:dir').exec();
    expect(count('get') - before).to.equal(2);
  });

  it('refuses as not durable exactly the writes whose shard has its replica paused, and recovers', async () => {
    const dirs: any[] = [];
    for (let i = 0; i < 12; i++) dirs.push(await svc.createDirectory({ tenant: `shard-${i}` }));
    expect(count('wait'), 'directory creates WAIT too (sent to a node directly, still observed)').to.be.at.least(1);
    const masters = await Promise.all(dirs.map((d) => cluster.masterOf(`dsync:{${d.id}}:dir`)));
    const onPaused = masters.map((m) => m === masters[0]);
    expect(onPaused, 'the directories spread over more than one shard').to.include(false);
    const replicas = await cluster.replicasOf(masters[0]!);
    for (const replica of replicas) await cluster.signal(replica, 'SIGSTOP');
    try {
      const statuses = await Promise.all(
        dirs.map((d, i) => svc.scim(d, 'POST', '/Users', user(`u${i}@acme.io`)).then((r) => r.status)),
      );
      expect(statuses).to.deep.equal(onPaused.map((p) => (p ? 503 : 201)));
    } finally {
      for (const replica of replicas) await cluster.signal(replica, 'SIGCONT');
    }
    const dir = dirs[0]!;
    await until(
      async () => (await svc.scim(dir, 'POST', '/Users', user(`again-${Date.now()}@acme.io`))).status === 201,
      'writes to be acknowledged again',
      15_000,
    );
    expect((await svc.api('GET', '/api/v1/directory-sync?tenant=shard-3&product=app')).body.data).to.have.length(1);
  });
});
