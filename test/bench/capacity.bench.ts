/**
 * Capacity benchmark: what one SCIM write and one delivered event cost Redis and dsync, the SCIM load
 * on one server beside a Redis Cluster in one run, and from these the capacity model of docs/operating/redis.md.
 *
 * 1. Per operation, on one redis-server, 16 requests at a time: commands dsync sent (round trips, from its own
 *    metrics), commands Redis ran by name (INFO commandstats, scripts' inner commands included), bytes in and
 *    out, Redis and dsync CPU, for a SCIM create, PUT, membership PATCH and a delivered event. Batch mode with
 *    batches of one keeps the writes free of delivery work; one process-events run then delivers them alone.
 * 2. Throughput, alternating rounds of the Okta create workload (lookup + POST, 32 concurrent, 8 directories,
 *    real-time delivery): one server; a 3-master cluster; one server + a replica with WAIT 1; 3 masters +
 *    3 replicas with WAIT off and on. Also Redis and dsync CPU and Redis memory per user under that load.
 * 3. The capacity model for a target load (BENCH_TARGET_*), from the figures above.
 *
 *   npx tsx test/bench/capacity.bench.ts      # BENCH_OPS=400 BENCH_USERS=3000 BENCH_ROUNDS=2 [BENCH_SETUPS=0,1]
 */
import { Redis } from 'ioredis';
import { startTopology } from '../support/redis-topology.js';
import { clusterMasters, counters, delta, sentCommands, summed, total, usedMemory } from './capacity-counters.js';
import { client, CountingReceiver, cpuSeconds, phase, startDsync, startRedis, type Proc } from './lib.js';
import { fmt, type OpCost, printCosts, printModel, printRuns, type Run } from './capacity-report.js';
import { check, createUsers, oktaUser } from './okta-workload.js';
import { freePort } from '../support/ports.js';

const OPS = Number(process.env.BENCH_OPS ?? 400);
const USERS = Number(process.env.BENCH_USERS ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONCURRENCY = 32;
/** The per-operation phases run this many requests at once: CPU figures under load, not per lone request. */
const OP_CONCURRENCY = 16;
const DIRECTORIES = 8;
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ENV = { DSYNC_WEBHOOK_ALLOW_PRIVATE: 'true', DSYNC_EVENT_RETENTION: '0s', DSYNC_REDIS_COMMAND_TIMEOUT: '10s' };

// ---- the service under test -------------------------------------------------------------------------------

interface Setup {
  name: string;
  env: Record<string, string>;
  /** Connections to the servers that take the writes (one server, or every master). */
  masters(): Redis[];
}

interface Directory {
  id: string;
  scim: { secret: string; path: string };
}

async function directories(
  dsync: Proc & { apiKey: string },
  n: number,
  tag: string,
  webhook?: string,
): Promise<Directory[]> {
  const api = client(dsync.url, `Api-Key ${dsync.apiKey}`, 4);
  try {
    const out: Directory[] = [];
    for (let i = 0; i < n; i++) {
      const res = await api.request('POST', '/api/v1/directory-sync', {
        name: `${tag}${i}`,
        tenant: `${tag}${i}`,
        product: 'bench',
        type: 'okta-scim-v2',
        ...(webhook && { webhook_url: webhook }),
      });
      check(res.status, [201], `create directory ${JSON.stringify(res.body)}`);
      out.push(res.body.data as Directory);
    }
    return out;
  } finally {
    await api.close();
  }
}

// ---- 1. per operation ----------------------------------------------------------------------------------------

/**
 * Batch mode with batches of one keeps the writes free of delivery work (queued only), then one
 * process-events run delivers them alone, one event per POST as in real time: each phase is counted by itself.
 */
async function perOperation(): Promise<OpCost[]> {
  const server = await startRedis();
  const receiver = await new CountingReceiver().start();
  const metricsPort = await freePort();
  const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
  const dsync = await startDsync({
    ...ENV,
    REDIS_URL: server.url,
    DSYNC_WEBHOOK_BATCH_SIZE: '1',
    METRICS_PORT: String(metricsPort),
  });
  const redis = new Redis(server.url);
  const costs: OpCost[] = [];
  const api = client(dsync.url, `Api-Key ${dsync.apiKey}`, 1);
  try {
    const [dir] = await directories(dsync, 1, 'ops', receiver.url);
    const scim = client(dsync.url, `Bearer ${dir!.scim.secret}`, OP_CONCURRENCY);
    const path = dir!.scim.path;
    const measure = async (name: string, ops: number, run: () => Promise<unknown>) => {
      await redis.config('RESETSTAT');
      const cpu = cpuSeconds(dsync.child.pid!);
      const sentBefore = await sentCommands(metrics);
      await run();
      const c = await counters(redis);
      const dsyncCpu = (cpuSeconds(dsync.child.pid!) - cpu) / ops;
      const sent = (await sentCommands(metrics)) - sentBefore;
      costs.push({
        name,
        ops,
        sent: sent / ops,
        commands: total(c) / ops,
        byName: c.calls,
        bytesIn: c.bytesIn / ops,
        bytesOut: c.bytesOut / ops,
        dsyncCpu,
        redisCpu: c.cpu / ops,
      });
    };
    const users: string[] = [];
    await measure('SCIM create (POST /Users)', OPS, () =>
      phase('create', OPS, OP_CONCURRENCY, async (i) => {
        const res = await scim.request('POST', `${path}/Users`, oktaUser('o', i));
        check(res.status, [201], 'create');
        users[i] = res.body.id;
      }),
    );
    await measure('SCIM PUT /Users/:id', OPS, () =>
      phase('put', OPS, OP_CONCURRENCY, async (i) => {
        const res = await scim.request('PUT', `${path}/Users/${users[i]}`, {
          ...oktaUser('o', i),
          displayName: `Renamed ${i}`,
        });
        check(res.status, [200], 'PUT');
      }),
    );
    const group = await scim.request('POST', `${path}/Groups`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'All',
      members: [],
    });
    check(group.status, [201], 'group create');
    await measure('SCIM membership PATCH (add 1 member)', OPS, () =>
      phase('patch', OPS, OP_CONCURRENCY, async (i) => {
        const res = await scim.request('PATCH', `${path}/Groups/${group.body.id}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'add', path: 'members', value: [{ value: users[i] }] }],
        });
        check(res.status, [204], 'member add');
      }),
    );
    const events = 3 * OPS + 1;
    await measure('delivered event (one per POST)', events, async () => {
      const res = await api.request('POST', '/api/v1/dsync/cron/process-events');
      check(res.status, [200], `process-events ${JSON.stringify(res.body)}`);
      await receiver.waitFor(events, 120_000);
    });
    await scim.close();
  } finally {
    await api.close();
    redis.disconnect();
    await dsync.stop();
    await receiver.stop();
    await server.stop();
  }
  return costs;
}

// ---- 2. throughput --------------------------------------------------------------------------------------------

async function throughput(setup: Setup, round: number): Promise<Run> {
  const receiver = await new CountingReceiver().start();
  const dsync = await startDsync({ ...ENV, ...setup.env });
  const masters = setup.masters();
  try {
    const dirs = await directories(dsync, DIRECTORIES, `r${round}x`, receiver.url);
    const clients = dirs.map((d) => client(dsync.url, `Bearer ${d.scim.secret}`, CONCURRENCY / DIRECTORIES));
    const workload = (tag: string, n: number) => {
      const creates = dirs.map((d, j) => createUsers(clients[j]!, d.scim.path, `${tag}${j}`, 0));
      return phase(`${setup.name} ${tag}`, n, CONCURRENCY, (i, timed) =>
        creates[i % DIRECTORIES]!(Math.floor(i / DIRECTORIES), timed),
      );
    };
    await workload('warm', 800); // JIT, pools, not counted
    await receiver.waitFor(800, 120_000);
    const memBefore = await usedMemory(masters);
    const before = await summed(masters);
    const cpu = cpuSeconds(dsync.child.pid!);
    const result = await workload('load', USERS);
    await receiver.waitFor(800 + USERS, 300_000);
    const after = await summed(masters);
    const dsyncCpuPerUser = (cpuSeconds(dsync.child.pid!) - cpu) / USERS;
    await new Promise((r) => setTimeout(r, 1500)); // delivered events are trimmed from the log
    const memAfter = await usedMemory(masters);
    for (const c of clients) await c.close();
    return {
      setup: setup.name,
      rps: result.rps,
      redisCpuPerUser: delta(after, before).cpu / USERS,
      dsyncCpuPerUser,
      memoryPerUser: (memAfter - memBefore) / USERS,
    };
  } finally {
    for (const r of masters) r.disconnect();
    await dsync.stop();
    await receiver.stop();
  }
}

// ---- main -------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const costs = await perOperation();
  printCosts(costs, OP_CONCURRENCY);

  const single = await startRedis();
  const pair = await startTopology('sentinel');
  const bare = await startTopology('cluster', { replicas: 0 });
  const cluster = await startTopology('cluster');
  const masterNodes = await clusterMasters(cluster);
  console.log(
    `\none server ${single.url}; server + replica ${pair.nodes.join(' → ')}; cluster masters ${masterNodes.join(', ')}`,
  );
  const setups: Setup[] = [
    { name: 'one server', env: { REDIS_URL: single.url }, masters: () => [new Redis(single.url)] },
    {
      name: '3-master cluster, no replicas',
      env: { ...bare.env(), DSYNC_REDIS_WAIT_REPLICAS: '0' },
      masters: () => bare.nodes.map((n) => bare.connect(n)),
    },
    {
      name: 'one server + replica, WAIT 1',
      env: { REDIS_URL: `redis://${pair.nodes[0]}`, DSYNC_REDIS_WAIT_REPLICAS: '1' },
      masters: () => [pair.connect(pair.nodes[0]!)],
    },
    {
      name: '3 masters + 3 replicas, WAIT off',
      env: { ...cluster.env(), DSYNC_REDIS_WAIT_REPLICAS: '0' },
      masters: () => masterNodes.map((n) => cluster.connect(n)),
    },
    {
      name: '3 masters + 3 replicas, WAIT 1',
      env: cluster.env(),
      masters: () => masterNodes.map((n) => cluster.connect(n)),
    },
  ];
  const only = process.env.BENCH_SETUPS?.split(',').map(Number); // e.g. 0,1: one server and the cluster only
  const chosen = only ? setups.filter((_, i) => only.includes(i)) : setups;
  const runs: Run[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const setup of chosen) {
        const run = await throughput(setup, round);
        console.log(`round ${round}: ${setup.name}: ${fmt(run.rps)} req/s`);
        runs.push(run);
      }
    }
  } finally {
    await single.stop();
    await pair.stop();
    await bare.stop();
    await cluster.stop();
  }
  const medians = printRuns(
    runs,
    `lookup + POST, ${CONCURRENCY} concurrent, ${DIRECTORIES} directories, ${USERS} users per round`,
  );
  const one = medians.get('one server');
  const ratio = (a: string, b: string) =>
    medians.has(a) && medians.has(b) ? fmt((medians.get(a)!.rps / medians.get(b)!.rps) * 100) : '(not run)';
  console.log(
    `\n3-master cluster / one server: ${ratio('3-master cluster, no replicas', 'one server')}% (acceptance: at least 80%)`,
  );
  console.log(
    `3 masters + 3 replicas, WAIT 1 / one server + replica, WAIT 1: ${ratio('3 masters + 3 replicas, WAIT 1', 'one server + replica, WAIT 1')}%`,
  );
  console.log(
    `cost of WAIT 1: one server + replica ${ratio('one server + replica, WAIT 1', 'one server')}% of one server; cluster ${ratio('3 masters + 3 replicas, WAIT 1', '3 masters + 3 replicas, WAIT off')}% of WAIT off`,
  );
  if (one) printModel(costs, one);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
