/**
 * A directory whose hash slot moves to another master keeps working. A real `dsync serve` on its own
 * Redis Cluster (3 masters × 1 replica, default WAIT 1) takes a SCIM write load while
 * `redis-cli --cluster reshard` moves the slots of one master, up to and including the directory's slot, to
 * another master (keys are MIGRATEd while the writes go on). During the move every answer is a 2xx or a 503 with
 * a SCIM Error body; afterwards the directory takes writes on its new master, and every acknowledged write is
 * readable with its events delivered.
 */
import { expect } from 'chai';
import { dsyncEnv, dumpOutputs, killAll, live, serve, type DsyncProc } from '../support/dsync-process.js';
import { FaultReceiver } from '../support/fault-receiver.js';
import { sleep, until } from '../support/harness.js';
import { startTopology, type RedisTopology } from '../support/redis-topology.js';
import { loadDirectories, ScimWriteLoad, verifyAcknowledged, type LoadDirectory } from '../support/scim-write-load.js';

describe('resharding under SCIM writes: a directory slot moves to another master (own Redis Cluster)', function () {
  this.timeout(180_000);
  let topology: RedisTopology;
  let receiver: FaultReceiver;
  let proc: DsyncProc;

  before(async () => {
    topology = await startTopology('cluster');
    receiver = await new FaultReceiver().open();
    proc = await serve('serve(cluster)', dsyncEnv(topology.env()));
  });
  after(async function () {
    if (this.currentTest?.state === 'failed') dumpOutputs(live);
    await killAll();
    await receiver?.close();
    await topology?.stop();
  });

  /** The node's view of slots: each master's first slot, and a directory's slot and master. */
  async function slotMap(dirs: LoadDirectory[]): Promise<{
    ids: Map<string, string>;
    start: Map<string, number>;
    of: Map<string, { slot: number; master: string }>;
  }> {
    const admin = topology.connect(topology.nodes[0]!);
    try {
      const ids = new Map<string, string>();
      const start = new Map<string, number>();
      for (const [from, , [host, port, id]] of (await admin.cluster('SLOTS')) as unknown as Array<
        [number, number, [string, number, string]]
      >) {
        ids.set(`${host}:${port}`, id);
        start.set(`${host}:${port}`, Math.min(from, start.get(`${host}:${port}`) ?? from));
      }
      const of = new Map<string, { slot: number; master: string }>();
      for (const dir of dirs) {
        const key = `dsync:{${dir.id}}:dir`;
        of.set(dir.id, { slot: Number(await admin.cluster('KEYSLOT', key)), master: await topology.masterOf(key) });
      }
      return { ids, start, of };
    } finally {
      admin.disconnect();
    }
  }

  it('keeps answering 2xx or 503 with a body while the slot moves, takes writes on the new master, loses nothing', async () => {
    const dirs = await loadDirectories(proc, 8, receiver.url, 'reshard');
    const map = await slotMap(dirs);
    // The directory nearest the start of its master's slots: reshard moves a master's slots in order, so fewer move.
    const offset = (d: LoadDirectory) => map.of.get(d.id)!.slot - map.start.get(map.of.get(d.id)!.master)!;
    const victim = [...dirs].sort((a, b) => offset(a) - offset(b))[0]!;
    const from = map.of.get(victim.id)!.master;
    const to = [...map.ids.keys()].find((m) => m !== from)!;
    // At least 1000 slots, so the move lasts long enough (a second or more) for writes to land in the middle of it.
    const slots = Math.max(offset(victim) + 1, 1000);

    const load = new ScimWriteLoad(proc, dirs, { writers: 4, pauseMs: 10 });
    load.start();
    let startedAt = 0;
    let movedAt = 0;
    let recovered: number | undefined;
    try {
      await sleep(1000);
      startedAt = load.now();
      await topology.cli(
        '--cluster',
        'reshard',
        topology.nodes[0]!,
        '--cluster-from',
        map.ids.get(from)!,
        '--cluster-to',
        map.ids.get(to)!,
        '--cluster-slots',
        String(slots),
        '--cluster-yes',
      );
      movedAt = load.now();
      console.log(
        `      moved ${slots} slots (${victim.id}'s among them) from ${from} to ${to} in ${movedAt - startedAt} ms under load`,
      );
      await until(
        () => (recovered = load.recoveredAt(victim.id, movedAt)) !== undefined,
        () => `2xx writes to ${victim.id} after the move`,
        15_000,
      );
      await sleep(1000);
    } finally {
      await load.stop();
    }
    expect(
      await topology.masterOf(`dsync:{${victim.id}}:dir`),
      'the directory slot is served by the target master',
    ).to.equal(to);
    console.log(`      answers ${JSON.stringify(load.summary())}; 2xx again ${recovered! - movedAt} ms after the move`);
    const during = load.answersFor(victim.id, startedAt).filter((a) => a.at < movedAt);
    expect(during.length, 'writes to the directory while its slot moved').to.be.greaterThan(0);
    expect(proc.child.exitCode, 'dsync serve is still running').to.equal(null);
    await verifyAcknowledged(proc, receiver, load, dirs);
  });
});
