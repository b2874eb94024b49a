/**
 * A master is SIGKILLed under a SCIM write load, on a Redis Cluster of 3 masters × 1 replica
 * and behind Sentinel with one replica, and never comes back. A real `dsync serve` (DSYNC_REDIS_WAIT_REPLICAS=1,
 * DSYNC_REDIS_MIN_REPLICAS at its default 0) takes users and group additions from several writers in several
 * directories while a signed-webhook receiver collects the events. Every answer must be a 2xx or a 503 with a
 * SCIM Error body, the process must live on, the directory must take writes 2xx again within 2.5 s of the
 * replica's promotion (5 s of the kill on an idle machine) although the promoted replica has no replica of its own
 * (its writes counted as degraded), and every write that answered 2xx must be readable with its events delivered:
 * a write is acknowledged only once the replicas in sync have it, so the promoted replica does.
 *
 * A second `dsync serve` on the same topology runs with DSYNC_REDIS_MIN_REPLICAS=1: after the promotion it
 * refuses the writes of the shard left without a replica (as every process did before writes waited only for the
 * replicas in sync), and its
 * `/readyz` names that shard.
 */
import { expect } from 'chai';
import {
  counter,
  dsyncEnv,
  dumpOutputs,
  killAll,
  live,
  scimSecrets,
  serve,
  USER_SCHEMA,
  type DsyncProc,
} from '../support/dsync-process.js';
import { FaultReceiver } from '../support/fault-receiver.js';
import { sleep, until } from '../support/harness.js';
import { startTopology, type RedisTopology } from '../support/redis-topology.js';
import { loadDirectories, ScimWriteLoad, verifyAcknowledged, type LoadDirectory } from '../support/scim-write-load.js';

/**
 * dsync's part of a failover: from the moment the topology names the new master until the directory takes writes
 * 2xx. Redis's part, failure detection (node timeout / down-after 1 s) and an election, takes 1.5–2.5 s on a
 * machine with CPU to spare, which makes 5 s in all; its timers stretch with the machine's load, which dsync cannot
 * change (CI, three test processes on two cores, saw 7.5 s in all).
 */
const FOLLOW_BOUND_MS = 2_500;

/** Polls the topology until `key`'s master is no longer `killed`; resolves with when (on `clock`) it saw that. */
async function promotion(
  topology: RedisTopology,
  key: string,
  killed: string,
  clock: () => number,
  done: () => boolean,
): Promise<number | undefined> {
  while (!done()) {
    const master = await topology.masterOf(key).catch(() => killed);
    if (master !== killed) return clock();
    await sleep(50);
  }
  return undefined;
}

async function createUser(
  proc: DsyncProc,
  dir: LoadDirectory,
  userName: string,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${proc.url}/api/scim/v2.0/${dir.id}/Users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${scimSecrets.get(dir.id)}`, 'content-type': 'application/scim+json' },
    body: JSON.stringify({ schemas: [USER_SCHEMA], userName }),
  });
  return { status: res.status, body: await res.json() };
}

for (const kind of ['cluster', 'sentinel'] as const) {
  describe(`failover under SCIM writes: SIGKILL of a master that never returns (${kind === 'cluster' ? 'Redis Cluster, 3 masters × 1 replica' : 'Sentinel, master + 1 replica'})`, function () {
    this.timeout(120_000);
    let topology: RedisTopology;
    let receiver: FaultReceiver;
    let proc: DsyncProc;
    let strict: DsyncProc;
    let dirs: LoadDirectory[];
    let victim: LoadDirectory;

    before(async () => {
      topology = await startTopology(kind, { replicas: 1 });
      receiver = await new FaultReceiver().open();
      // One after the other: two processes starting at once on a loaded runner can each miss the 500 ms
      // command timeout of their first store command, and serve exits on that.
      proc = await serve(`serve(${kind})`, dsyncEnv(topology.env()), { metrics: true });
      strict = await serve(`serve(${kind}, min 1)`, dsyncEnv(topology.env(), { DSYNC_REDIS_MIN_REPLICAS: '1' }));
    });
    after(async function () {
      if (this.currentTest?.state === 'failed') dumpOutputs(live);
      await killAll();
      await receiver?.close();
      await topology?.stop();
    });

    it('answers 2xx again within 2.5 s of the promotion with no replica left, counts those writes as degraded, and loses no acknowledged write', async () => {
      dirs = await loadDirectories(proc, 6, receiver.url, `failover-${kind}`);
      victim = dirs[0]!;
      const key = `dsync:{${victim.id}}:dir`;
      const master = await topology.masterOf(key);
      const load = new ScimWriteLoad(proc, dirs, { writers: 8, pauseMs: 10 });
      load.start();
      let killedAt = 0;
      let recovered: number | undefined;
      let promoted: Promise<number | undefined> = Promise.resolve(undefined);
      let degradedAtKill = 0;
      try {
        await sleep(1500);
        degradedAtKill = await counter(proc, 'dsync_store_degraded_writes_total');
        await topology.signal(master, 'SIGKILL');
        killedAt = load.now();
        promoted = promotion(
          topology,
          key,
          master,
          () => load.now(),
          () => recovered !== undefined,
        );
        await until(
          () => (recovered = load.recoveredAt(victim.id, killedAt)) !== undefined,
          () => `a 2xx write to ${victim.id} after its master died (answers so far: ${JSON.stringify(load.summary())})`,
          20_000,
        );
        await sleep(1000); // keep writing on the promoted master
      } finally {
        await load.stop();
      }
      const recoveryMs = recovered! - killedAt;
      // The topology may name the new master only after dsync found it (polls 50 ms apart): dsync's part is then 0.
      const promotedMs = Math.min((await promoted) ?? recovered!, recovered!) - killedAt;
      console.log(
        `      ${kind}: master ${master} killed; promoted ${promotedMs} ms later; ${victim.id} took writes 2xx again ${recoveryMs} ms after the kill; answers ${JSON.stringify(load.summary())}`,
      );
      expect(proc.child.exitCode, 'dsync serve is still running').to.equal(null);
      expect(
        load.answersFor(victim.id, killedAt).some((a) => a.status === 503),
        'the dead master made some write answer 503',
      ).to.equal(true);
      expect(recoveryMs - promotedMs, 'ms from the promotion until the directory answers writes 2xx again').to.be.below(
        FOLLOW_BOUND_MS,
      );
      // Every 2xx write to the victim after the promotion was confirmed by no replica: each is counted.
      const acknowledgedSince = load
        .answersFor(victim.id, killedAt)
        .filter((a) => a.done >= recovered! && (a.status === 201 || a.status === 204)).length;
      const degraded = (await counter(proc, 'dsync_store_degraded_writes_total')) - degradedAtKill;
      expect(degraded, 'dsync_store_degraded_writes_total since the kill')
        .to.be.at.least(acknowledgedSince)
        .and.above(0);
      const { deliveredMs } = await verifyAcknowledged(proc, receiver, load, dirs);
      console.log(
        `      ${kind}: ${degraded} degraded writes counted; every acknowledged write's events delivered ${deliveredMs} ms after the load stopped`,
      );
    });

    it('with DSYNC_REDIS_MIN_REPLICAS=1 refuses the writes of the shard left without a replica, and /readyz names it', async () => {
      expect(victim, 'the failover test ran first').to.not.equal(undefined);
      const master = await topology.masterOf(`dsync:{${victim.id}}:dir`);
      let refused: { status: number; body: any } | undefined;
      // The first writes may still meet the old master's closed connection (503 unavailable) until the client
      // has the new topology; then every write is refused as not durable.
      await until(
        async () =>
          /at least 1 must/.test(
            (refused = await createUser(strict, victim, `strict-${Date.now()}@load.example.com`)).body.detail ?? '',
          ),
        () => `a write refused as not durable (last: ${JSON.stringify(refused)})`,
        15_000,
      );
      expect(refused!.status).to.equal(503);
      expect(refused!.body.detail).to.match(/0 of 1 replicas confirmed it within \d+ ms; at least 1 must/);
      expect(
        (await createUser(proc, victim, `lenient-${Date.now()}@load.example.com`)).status,
        'the default minimum takes it',
      ).to.equal(201);
      if (kind === 'cluster') {
        // Directory ids hash to random slots: all six may share the victim's shard (about 1 run in 250), so
        // make directories until one does not.
        let healthy: LoadDirectory | undefined;
        for (let made = 0; !healthy; made++) {
          if (made > 30) throw new Error(`no directory hashed to a shard other than ${master}`);
          const candidates =
            made === 0 ? dirs : await loadDirectories(proc, 1, receiver.url, `failover-${kind}-healthy`);
          const masters = await Promise.all(candidates.map((d) => topology.masterOf(`dsync:{${d.id}}:dir`)));
          healthy = candidates[masters.findIndex((m) => m !== master)];
        }
        expect(
          (await createUser(strict, healthy, `healthy-${Date.now()}@load.example.com`)).status,
          'a shard with its replica',
        ).to.equal(201);
      }
      const ready = await fetch(`${strict.url}/readyz`);
      const body = (await ready.json()) as {
        status: string;
        shards: Array<{ master: string; replicas_in_sync: number; min_replicas: number }>;
      };
      expect(ready.status).to.equal(503);
      expect(body.status).to.equal('below-min-replicas');
      expect(body.shards).to.deep.equal([{ master, replicas_in_sync: 0, wait_replicas: 1, min_replicas: 1 }]);
      const lenient = await fetch(`${proc.url}/readyz`);
      expect(lenient.status).to.equal(200);
      expect(((await lenient.json()) as { degraded: unknown[] }).degraded).to.deep.equal([
        { master, replicas_in_sync: 0, wait_replicas: 1, min_replicas: 0 },
      ]);
    });
  });
}
