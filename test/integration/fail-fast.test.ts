/**
 * Fail-fast store errors from real faults: each case breaks a redis-server of this file's own (paused, killed,
 * never started, busy in a script, a replica, a cluster node serving no slot, refusing writes after a failed
 * save) or points the store at a Cluster or Sentinels that are not there, calls the real RedisStore, and checks
 * that the error is StoreUnavailableError (503, Retry-After 1) caused by what the client really said. The
 * messages ioredis gives only in states these faults cannot call up on demand (a slot mid-migration, a
 * redirection loop, a cluster reconnecting) are kept in test/unit/store/fail-fast.test.ts.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { StoreUnavailableError } from '../../src/core/errors.js';
import { DirectoryService } from '../../src/core/directories.js';
import { logRedisConnection } from '../../src/store/redis/connection-log.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import type { RedisTarget } from '../../src/store/redis/target.js';
import { sleep, until } from '../support/harness.js';
import { RedisServer } from '../support/redis-server.js';
import { freePort } from '../support/ports.js';

const directory = { name: 'Acme', tenant: 'acme', product: 'app', type: 'okta-scim-v2' as const };

describe('fail-fast store errors from real faults (own redis-servers)', function () {
  this.timeout(30_000);
  const servers: RedisServer[] = [];
  const stores: RedisStore[] = [];
  const admins: Redis[] = [];

  const server = async (extra: string[] = []) => {
    const s = await RedisServer.start(extra);
    servers.push(s);
    return s;
  };
  /** A store as a process opens it: connection errors go to the (silent) log. */
  const storeOn = (target: string | RedisTarget) => {
    const store = new RedisStore(target);
    logRedisConnection(store, pino({ level: 'silent' }));
    stores.push(store);
    return store;
  };
  const admin = (s: RedisServer) => {
    // No ready check: it would wait behind a busy script.
    const a = new Redis(s.port, '127.0.0.1', { enableReadyCheck: false });
    a.on('error', () => undefined);
    admins.push(a);
    return a;
  };
  const newDirectory = (store: RedisStore) =>
    new DirectoryService({ store, externalUrl: 'http://x' }).create(directory);

  /**
   * The store call's rejection: StoreUnavailableError (503, Retry-After 1) naming `reason`, what the client or
   * the server really said (for a MULTI refused as a whole, the error inside it), and keeping it as the cause.
   */
  async function expectUnavailable(call: Promise<unknown>, reason: RegExp): Promise<void> {
    const err = await call.then(
      (value) => new Error(`the call succeeded: ${JSON.stringify(value)?.slice(0, 200)}`),
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(StoreUnavailableError);
    const unavailable = err as StoreUnavailableError;
    expect(unavailable).to.include({ code: 'STORE_UNAVAILABLE', status: 503, retryAfter: 1 });
    expect(unavailable.message).to.match(new RegExp(`^The data store is unavailable \\((${reason.source})`));
    expect(unavailable.cause).to.be.instanceOf(Error);
  }

  afterEach(async () => {
    for (const a of admins.splice(0)) a.disconnect();
    // A client that never connected, or lost its server, cannot QUIT: close() fails, disconnect() still ends it.
    for (const s of stores.splice(0)) await s.close().catch(() => s.redis.disconnect());
    for (const s of servers.splice(0)) {
      if (s.running) s.resume();
      await s.stop();
    }
  });

  it('a paused server (SIGSTOP): the command times out', async () => {
    const s = await server();
    const store = storeOn(s.url);
    await store.ping();
    s.pause();
    await expectUnavailable(store.getDirectory('d'), /Command timed out/);
  });

  it('a killed server: commands fail at once, not queued for a reconnect', async () => {
    const s = await server();
    const store = storeOn(s.url);
    await store.ping();
    await s.kill();
    await until(() => store.redis.status !== 'ready', 'the client to see the connection go');
    // Refused at once, not queued until a reconnect (which a timeout would then end).
    await expectUnavailable(store.getDirectory('d'), /Stream isn't writeable and enableOfflineQueue options is false/);
  });

  it('a server killed under a command in flight', async () => {
    const s = await server();
    const store = storeOn(s.url);
    await store.ping();
    s.pause(); // the command is sent and waits for an answer that never comes
    const inFlight = store.getDirectory('d');
    await sleep(100);
    await s.kill();
    await expectUnavailable(
      inFlight,
      /Reached the max retries per request limit|Connection is closed|Command timed out/,
    );
  });

  it('a server that is not there when the store starts (its first connection refused)', async () => {
    const s = await server();
    await s.kill();
    const store = storeOn(s.url);
    await expectUnavailable(store.getDirectory('d'), /Reached the max retries per request limit \(which is 1\)/);
  });

  it('a server busy in a long script (BUSY)', async () => {
    const s = await server(['--busy-reply-threshold', '100']);
    const store = storeOn(s.url);
    await store.ping();
    const busy = admin(s);
    const script = busy.eval('while true do end', 0).catch(() => undefined);
    await sleep(300); // past the 100 ms threshold, Redis answers BUSY
    await expectUnavailable(store.getDirectory('d'), /BUSY/);
    await admin(s).call('SCRIPT', 'KILL');
    await script;
  });

  it('a replica (a demoted master): a write in a MULTI and a write script both refused READONLY', async () => {
    const master = await server();
    const replica = await server(['--replicaof', '127.0.0.1', String(master.port)]);
    const dir = await newDirectory(storeOn(master.url));
    const store = storeOn(replica.url);
    await until(async () => (await store.getDirectory(dir.id)) !== null, 'the replica to have the directory', 30_000); // its first full sync, slow on a loaded machine
    // A MULTI that Redis refuses as a whole (EXECABORT) because of the READONLY write in it.
    await expectUnavailable(newDirectory(store), /READONLY/);
    const user = { id: 'u', body: { userName: 'u' }, created: 0, lastModified: 0, version: 1 };
    await expectUnavailable(store.createUser(dir.id, user, { userName: 'u', emails: [] }, []), /READONLY/);
  });

  it('a cluster node that serves no slot (CLUSTERDOWN)', async () => {
    const s = await server(['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf']);
    const store = storeOn(s.url);
    await expectUnavailable(store.getDirectory('d'), /CLUSTERDOWN/);
  });

  it('a Redis Cluster none of whose nodes is up', async () => {
    const store = storeOn({ kind: 'cluster', nodes: [`127.0.0.1:${await freePort()}`] });
    await expectUnavailable(store.getDirectory('d'), /None of startup nodes is available/);
  });

  it('Sentinels that are not there: the command times out while the client looks for them', async () => {
    const store = storeOn({ kind: 'sentinel', sentinels: [`127.0.0.1:${await freePort()}`], name: 'dsync' });
    await expectUnavailable(store.getDirectory('d'), /Command timed out/);
  });

  it('a server refusing writes after a failed save (MISCONF)', async () => {
    // Redis refuses writes after a failed save only when it has save points.
    const s = await server(['--appendonly', 'no', '--save', '3600 1', '--stop-writes-on-bgsave-error', 'yes']);
    const store = storeOn(s.url);
    await store.ping();
    rmSync(s.dir, { recursive: true, force: true }); // the snapshot has nowhere to go
    const a = admin(s);
    await a.bgsave();
    await until(async () => /rdb_last_bgsave_status:err/.test(await a.info('persistence')), 'the save to fail');
    await expectUnavailable(newDirectory(store), /MISCONF/);
  });
});
