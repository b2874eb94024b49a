/**
 * The store behind Redis Sentinel on an own master + 2 replicas + 3 Sentinels: writes are
 * acknowledged once a replica has them (WAIT 1 on the master's connection); the master is killed under writes,
 * the Sentinel promotes a replica, and the service answers 2xx or 503 (with a body) meanwhile, recovers by itself
 * and keeps every acknowledged write.
 */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { startService, until, type Service } from '../support/harness.js';
import { startTopology, type RedisTopology } from '../support/redis-topology.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

describe('the store behind Redis Sentinel (own master, 2 replicas, 3 Sentinels): WAIT, failover, recovery', function () {
  this.timeout(90_000);
  let sentinel: RedisTopology;
  let svc: Service;
  let store: RedisStore;
  const commands: string[] = [];

  before(async () => {
    sentinel = await startTopology('sentinel', { replicas: 2 });
    // WAIT's default timeout (1 s): a replica of a loaded machine confirms within it, a paused one never.
    store = new RedisStore(
      { kind: 'sentinel', sentinels: sentinel.sentinels, name: sentinel.name },
      { waitReplicas: 1 },
    );
    store.observeCommands((name) => commands.push(name));
    store.redis.on('error', () => undefined); // connection errors while the master is away are expected here
    svc = await startService(store);
  });

  after(async () => {
    await svc?.close();
    await sentinel?.stop();
  });

  it('acknowledges writes after WAIT, answers 2xx or 503 through a master failover, recovers, and loses no acknowledged write', async () => {
    const dir = await svc.createDirectory({ tenant: 'sentinel' });
    expect(commands).to.include('wait');
    const acknowledged: string[] = [];
    const statuses = new Set<number>();
    let n = 0;
    const write = async () => {
      const userName = `u${n++}@acme.io`;
      const r = await svc.scim(dir, 'POST', '/Users', { schemas: [USER], userName });
      statuses.add(r.status);
      if (r.status === 201) acknowledged.push(r.body.id);
      else expect(r.status, JSON.stringify(r.body)).to.equal(503);
      if (r.status === 503) expect(r.body.detail).to.be.a('string').and.not.equal('');
      return r.status;
    };
    for (let i = 0; i < 5; i++) expect(await write()).to.equal(201);
    await sentinel.signal(sentinel.nodes[0]!, 'SIGKILL');
    await until(
      async () => (await write()) === 201 && (await write()) === 201,
      'writes to be acknowledged on the promoted master',
      30_000,
    );
    expect([...statuses].sort()).to.deep.equal([201, 503]);
    // The Sentinels' +switch-master may reach the client after writes already go through (late on a loaded
    // machine), and its reconnect answers 503 for a moment: a read may be refused, but each acknowledged write is
    // found (never a 404).
    for (const id of acknowledged) {
      await until(
        async () => {
          const { status } = await svc.scim(dir, 'GET', `/Users/${id}`);
          if (status !== 503) expect(status, id).to.equal(200);
          return status === 200;
        },
        `acknowledged user ${id} to be read back`,
        30_000,
      );
    }
  });

  it('connects again when a failover is announced while the client asks the Sentinels for the master (ioredis would end for good)', async () => {
    // The last failover's reconnect may still be under way (503 meanwhile): the directory is made once it is over.
    let dir: Awaited<ReturnType<Service['createDirectory']>> = null;
    await until(
      async () => {
        dir = await svc.createDirectory({ tenant: 'announced' }).catch((err: Error) => {
          if (!/\b503\b/.test(err.message)) throw err;
          return null;
        });
        return dir !== null;
      },
      'the store to take writes again',
      30_000,
    );
    const client = store.redis as Redis;
    const errors: string[] = [];
    client.on('error', (err: Error) => errors.push(err.message));
    // What ioredis' failover detector does on +switch-master, at the moment a reconnect is resolving the master:
    // its pending connect throws "Connection is closed." and the client goes to status end, for good unless undone.
    const connector = (client as unknown as { connector: { disconnect(): void } }).connector;
    const ended = new Promise((resolve) => client.once('end', resolve));
    client.once('connecting', () => connector.disconnect());
    client.disconnect(true);
    await ended;
    await until(
      async () =>
        (await svc.scim(dir, 'POST', '/Users', { schemas: [USER], userName: 'again@acme.io' })).status === 201,
      'writes to be acknowledged again',
      10_000,
    );
    expect(errors.join('\n')).to.match(/the connection ended without being closed/);
  });
});
