/**
 * The store on TLS-only Redis with an ACL user (the default user off): a Redis Cluster (3 masters,
 * TLS on the cluster bus, no replicas, so DSYNC_REDIS_WAIT_REPLICAS=0) reached through `rediss://user:pass@`
 * entries, and a Sentinel setup (TLS replication, Sentinels on TLS and behind the same user) reached through
 * REDIS_TLS / REDIS_TLS_CA_FILE / REDIS_USERNAME / REDIS_PASSWORD and their REDIS_SENTINEL_* twins. The
 * certificates are made with openssl by test/redis-topology.sh. A real `dsync serve` creates a directory and a
 * user there; with a wrong password it stops at once with an exit code and the server's WRONGPASS, not a hang.
 */
import { expect } from 'chai';
import { once } from 'node:events';
import {
  dsyncEnv,
  dumpOutputs,
  killAll,
  live,
  scimSecrets,
  serve,
  spawnDsync,
  USER_SCHEMA,
} from '../support/dsync-process.js';
import { FaultReceiver } from '../support/fault-receiver.js';
import { until } from '../support/harness.js';
import { startTopology, type RedisTopology } from '../support/redis-topology.js';
import { loadDirectories } from '../support/scim-write-load.js';
import { freePort } from '../support/ports.js';

const user = { username: 'dsync-app', password: 'tls-acl-secret' };

const setups = [
  {
    name: 'Redis Cluster, rediss:// entries with the user',
    start: () => startTopology('cluster', { masters: 3, replicas: 0, tls: true, user }),
    env: (t: RedisTopology, password = user.password) => ({
      REDIS_CLUSTER_NODES: t.nodes.map((n) => `rediss://${user.username}:${password}@${n}`).join(','),
      REDIS_TLS_CA_FILE: t.caFile!,
      DSYNC_REDIS_WAIT_REPLICAS: '0',
    }),
  },
  {
    name: 'Sentinel, REDIS_TLS + REDIS_USERNAME / REDIS_PASSWORD',
    start: () => startTopology('sentinel', { tls: true, user }),
    env: (t: RedisTopology, password = user.password) => ({
      ...t.env(),
      REDIS_PASSWORD: password,
      REDIS_SENTINEL_PASSWORD: password,
    }),
  },
];

for (const setup of setups) {
  describe(`Redis over TLS with an ACL user (${setup.name})`, function () {
    this.timeout(90_000);
    let topology: RedisTopology;
    let receiver: FaultReceiver;

    before(async () => {
      topology = await setup.start();
      receiver = await new FaultReceiver().open();
    });
    afterEach(async function () {
      if (this.currentTest?.state === 'failed') dumpOutputs(live);
      await killAll();
    });
    after(async () => {
      await receiver?.close();
      await topology?.stop();
    });

    it('dsync serve creates a directory and a user, and delivers the event', async () => {
      const proc = await serve('serve(tls)', dsyncEnv(setup.env(topology)));
      const [dir] = await loadDirectories(proc, 1, receiver.url, 'tls');
      const res = await fetch(`${proc.url}/api/scim/v2.0/${dir!.id}/Users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${scimSecrets.get(dir!.id)}`, 'content-type': 'application/scim+json' },
        body: JSON.stringify({ schemas: [USER_SCHEMA], userName: 'ann@tls.example.com' }),
      });
      const body = (await res.json()) as { id: string };
      expect(res.status, JSON.stringify(body)).to.equal(201);
      const read = await fetch(`${proc.url}/api/scim/v2.0/${dir!.id}/Users/${body.id}`, {
        headers: { authorization: `Bearer ${scimSecrets.get(dir!.id)}` },
      });
      expect(read.status).to.equal(200);
      await until(
        () => receiver.events().some(({ event }) => event.event === 'user.created' && event.data.id === body.id),
        'the signed user.created event',
        10_000,
      );
      expect(receiver.events().map(({ event }) => event.event)).to.include.members(['group.created', 'user.created']);
    });

    it('with a wrong password, stops at start with an exit code and the WRONGPASS error (no hang)', async () => {
      const proc = spawnDsync(
        'serve(wrong password)',
        ['serve'],
        dsyncEnv({ ...setup.env(topology, 'not-the-password'), PORT: String(await freePort()) }),
      );
      const t0 = Date.now();
      const timer = setTimeout(() => proc.child.kill('SIGKILL'), 30_000);
      const [code, signal] = (await once(proc.child, 'exit')) as [number | null, string | null];
      clearTimeout(timer);
      const output = proc.output.join('\n');
      expect(signal, `still running after 30 s; output:\n${output}`).to.equal(null);
      expect(code, output).to.be.a('number').and.not.equal(0);
      expect(output).to.match(/WRONGPASS/);
      console.log(`      exit code ${code} after ${Date.now() - t0} ms`);
    });
  });
}
