/**
 * Issue 13: a master is SIGKILLed under a SCIM write load, on a Redis Cluster and behind Sentinel. A real
 * `dsync serve` (default DSYNC_REDIS_WAIT_REPLICAS=1) takes users and group additions from several writers in
 * several directories while a signed-webhook receiver collects the events; then the master serving a loaded
 * directory dies. Every answer must be a 2xx or a 503 with a SCIM Error body (no other 5xx, no reset
 * connection), the process must live on, the directory must take writes again by itself once a replica is
 * promoted (bound: RECOVERY_BOUND_MS), and every write that answered 2xx must be readable with its events
 * delivered: WAIT makes a 2xx mean a replica has it, so the promoted replica does.
 *
 * Each suite starts its own topology (test/support/redis-topology.ts) with two replicas per master: after the
 * promotion one replica is left to confirm writes, so durability resumes without anyone restarting the dead node.
 */
import { expect } from 'chai';
import { dsyncEnv, dumpOutputs, killAll, live, serve, type DsyncProc } from '../support/dsync-process.js';
import { FaultReceiver } from '../support/fault-receiver.js';
import { sleep, until } from '../support/harness.js';
import { startTopology, type RedisTopology } from '../support/redis-topology.js';
import { loadDirectories, ScimWriteLoad, verifyAcknowledged } from '../support/scim-write-load.js';

/** Promotion takes the failure detection (node timeout / down-after 1 s) plus an election; 15 s leaves room on 2 loaded cores. */
const RECOVERY_BOUND_MS = 15_000;

for (const kind of ['cluster', 'sentinel'] as const) {
  describe(`failover under SCIM writes: SIGKILL of a master (${kind === 'cluster' ? 'Redis Cluster, 3 masters × 2 replicas' : 'Sentinel, master + 2 replicas'})`, function () {
    this.timeout(120_000);
    let topology: RedisTopology;
    let receiver: FaultReceiver;
    let proc: DsyncProc;

    before(async () => {
      topology = await startTopology(kind, { replicas: 2 });
      receiver = await new FaultReceiver().open();
      proc = await serve(`serve(${kind})`, dsyncEnv(topology.env()));
    });
    after(async function () {
      if (this.currentTest?.state === 'failed') dumpOutputs(live);
      await killAll();
      await receiver?.close();
      await topology?.stop();
    });

    it('answers 2xx or 503 with a body, takes writes again by itself after the promotion, and loses no acknowledged write', async () => {
      const dirs = await loadDirectories(proc, 6, receiver.url, 'failover');
      const victim = dirs[0]!;
      const master = await topology.masterOf(`dsync:{${victim.id}}:dir`);
      const load = new ScimWriteLoad(proc, dirs, { writers: 6, pauseMs: 10 });
      load.start();
      let killedAt = 0;
      let recovered: number | undefined;
      try {
        await sleep(1500);
        await topology.signal(master, 'SIGKILL');
        killedAt = load.now();
        await until(
          () => (recovered = load.recoveredAt(victim.id, killedAt)) !== undefined,
          () => `a 2xx write to ${victim.id} after its master died (answers so far: ${JSON.stringify(load.summary())})`,
          RECOVERY_BOUND_MS + 5_000,
        );
        await sleep(2000); // keep writing on the promoted master
      } finally {
        await load.stop();
      }
      const recoveryMs = recovered! - killedAt;
      console.log(`      ${kind}: master ${master} killed; ${victim.id} took writes again ${recoveryMs} ms later; answers ${JSON.stringify(load.summary())}`);
      expect(proc.child.exitCode, 'dsync serve is still running').to.equal(null);
      expect(load.answersFor(victim.id, killedAt).some((a) => a.status === 503), 'the dead master made some write answer 503').to.equal(true);
      expect(recoveryMs, 'ms from the kill until the directory answers writes 2xx again').to.be.below(RECOVERY_BOUND_MS);
      const { deliveredMs } = await verifyAcknowledged(proc, receiver, load, dirs);
      console.log(`      ${kind}: every acknowledged write's events delivered ${deliveredMs} ms after the load stopped`);
    });
  });
}
