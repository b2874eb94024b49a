/**
 * What each durability setting keeps and loses in a failover (the README's durability table): a real
 * `dsync serve` under the SCIM write load of the failover test (8 writers over 6 directories, users created and
 * added to a group), then SIGKILL of the master holding the first directory; on a Redis Cluster of 3 masters ×
 * 1 replica and behind Sentinel with one replica. Per setting, one line: how long that directory took no write
 * (until 10 writes in a row answered 2xx; "more than" the window: not within it), how many of its writes
 * answered 503 meanwhile (the others waited: failed over commands time out), the writes answered 2xx
 * in all, how many of those are gone afterwards, and how many were counted as degraded.
 *
 * Settings: WAIT off; WAIT 1 with the default minimum 0; WAIT 1 with a minimum of 1 (the behaviour before
 * writes waited only for the replicas in sync), with the dead node never returning and restarted 5 s after the kill (as
 * Kubernetes restarts a pod).
 * One topology per kind serves every setting: the killed node is restarted after each run and rejoins as a replica.
 *
 *   npx tsx test/bench/failover.bench.ts      # BENCH_FAILOVER_KINDS=cluster,sentinel BENCH_FAILOVER_WINDOW_MS=15000
 */
import { countInSync } from '../../src/store/redis/replicas-in-sync.js';
import {
  counter,
  dsyncEnv,
  dumpOutputs,
  kill,
  killAll,
  live,
  serve,
  type DsyncProc,
} from '../support/dsync-process.js';
import { FaultReceiver } from '../support/fault-receiver.js';
import { sleep, until } from '../support/harness.js';
import { startTopology, type RedisTopology } from '../support/redis-topology.js';
import { loadDirectories, lostAcknowledged, ScimWriteLoad } from '../support/scim-write-load.js';

const KINDS = (process.env.BENCH_FAILOVER_KINDS ?? 'cluster,sentinel').split(',') as Array<'cluster' | 'sentinel'>;
/** How long after the kill the load goes on. */
const WINDOW_MS = Number(process.env.BENCH_FAILOVER_WINDOW_MS ?? 15_000);
const RESTART_AFTER_MS = 5_000;

interface Setting {
  name: string;
  env: Record<string, string>;
  /** Restart the killed node this long after the kill; undefined = it never returns within the window. */
  restartAfterMs?: number;
}

const SETTINGS: Setting[] = [
  { name: 'WAIT off (DSYNC_REDIS_WAIT_REPLICAS=0)', env: { DSYNC_REDIS_WAIT_REPLICAS: '0' } },
  { name: 'WAIT 1, minimum 0 (the default)', env: { DSYNC_REDIS_WAIT_REPLICAS: '1' } },
  { name: 'WAIT 1, minimum 1', env: { DSYNC_REDIS_WAIT_REPLICAS: '1', DSYNC_REDIS_MIN_REPLICAS: '1' } },
  {
    name: 'WAIT 1, minimum 1, node back after 5 s',
    env: { DSYNC_REDIS_WAIT_REPLICAS: '1', DSYNC_REDIS_MIN_REPLICAS: '1' },
    restartAfterMs: RESTART_AFTER_MS,
  },
];

/** The masters now: from the first node that answers CLUSTER SLOTS, or the Sentinels' master. */
async function masters(topology: RedisTopology): Promise<string[]> {
  if (topology.kind === 'sentinel') return [await topology.masterOf('any')];
  for (const node of topology.nodes) {
    const admin = topology.connect(node);
    admin.on('error', () => undefined);
    try {
      const slots = await admin.cluster('SLOTS');
      return [...new Set(slots.map((range) => `${range[2]![0]}:${range[2]![1]}`))];
    } catch {
      // down: ask the next node
    } finally {
      admin.disconnect();
    }
  }
  throw new Error('no node answers CLUSTER SLOTS');
}

/** Until every master has a replica in sync again (a restarted node has finished its resync). */
async function healthy(topology: RedisTopology): Promise<void> {
  const inSync = async (master: string) => {
    const admin = topology.connect(master);
    admin.on('error', () => undefined);
    try {
      return countInSync(await admin.info('replication')) >= 1;
    } finally {
      admin.disconnect();
    }
  };
  await until(
    async () => (await Promise.all((await masters(topology)).map(inSync))).every(Boolean),
    'every master to have a replica in sync',
    60_000,
  );
}

/** A loaded machine starts a process slowly (its first store command may time out): a minute and three tries. */
async function startServe(topology: RedisTopology, setting: Setting): Promise<DsyncProc> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await serve(`serve(${setting.name})`, dsyncEnv(topology.env(), setting.env), {
        metrics: true,
        readyWithinMs: 60_000,
      });
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}

async function measure(
  topology: RedisTopology,
  receiver: FaultReceiver,
  setting: Setting,
  run: number,
): Promise<string> {
  const proc = await startServe(topology, setting);
  try {
    const dirs = await loadDirectories(proc, 6, receiver.url, `bench-failover-${run}`);
    const victim = dirs[0]!;
    const master = await topology.masterOf(`dsync:{${victim.id}}:dir`);
    const load = new ScimWriteLoad(proc, dirs, { writers: 8, pauseMs: 10 });
    load.start();
    await sleep(1500);
    const degradedBefore = await counter(proc, 'dsync_store_degraded_writes_total');
    await topology.signal(master, 'SIGKILL');
    const killedAt = load.now();
    if (setting.restartAfterMs !== undefined) setTimeout(() => void topology.restart(master), setting.restartAfterMs);
    await sleep(WINDOW_MS);
    await load.stop();
    const recovered = load.recoveredAt(victim.id, killedAt);
    const degraded = (await counter(proc, 'dsync_store_degraded_writes_total')) - degradedBefore;
    const acknowledged = [...load.users.values()].flat().length + load.members.size;
    const lost = await lostAcknowledged(proc, load, dirs);
    const refused = load.answersFor(victim.id, killedAt).filter((a) => a.status === 503).length;
    const window =
      recovered === undefined ? `more than ${WINDOW_MS / 1000} s` : `${((recovered - killedAt) / 1000).toFixed(1)} s`;
    if (setting.restartAfterMs === undefined) await topology.restart(master);
    return (
      `${topology.kind.padEnd(8)} ${setting.name.padEnd(40)} no 2xx for ${window.padEnd(16)} ${String(refused).padStart(5)} answered 503; ` +
      `${acknowledged} acknowledged, ${lost.users.length + lost.members.length} lost; ${degraded} degraded`
    );
  } finally {
    await kill(proc, 'SIGTERM');
  }
}

const receiver = await new FaultReceiver().open();
try {
  for (const kind of KINDS) {
    const topology = await startTopology(kind, { replicas: 1 });
    try {
      for (const [i, setting] of SETTINGS.entries()) {
        await healthy(topology);
        console.log(await measure(topology, receiver, setting, i));
      }
    } finally {
      await topology.stop();
    }
  }
} catch (err) {
  dumpOutputs(live);
  throw err;
} finally {
  await killAll();
  await receiver.close();
}
