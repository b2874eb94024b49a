// The tables and the capacity model capacity.bench.ts prints from what it measured, with the model's target load
// (BENCH_TARGET_*) and planning limits. Apart from the bench so that file holds the measuring.

const TARGET = {
  directories: Number(process.env.BENCH_TARGET_DIRECTORIES ?? 10_000),
  users: Number(process.env.BENCH_TARGET_USERS ?? 10_000_000),
  writes: Number(process.env.BENCH_TARGET_WRITES ?? 2_000),
  events: Number(process.env.BENCH_TARGET_EVENTS ?? 5_000),
};
/** Planning headroom: a shard's core and a replica's core run at most at this share of what was measured. */
const UTILISATION = 0.5;
/** Memory a shard may hold (a 32 GB node with room for fork/copy-on-write, buffers and fragmentation). */
const SHARD_MEMORY_BYTES = 16 * 2 ** 30;

export interface OpCost {
  name: string;
  ops: number;
  /** Commands dsync sent (round trips; auto-pipelining may carry several in one), and commands Redis ran. */
  sent: number;
  commands: number;
  byName: Map<string, number>;
  bytesIn: number;
  bytesOut: number;
  /** dsync and Redis CPU seconds per operation. */
  dsyncCpu: number;
  redisCpu: number;
}

export interface Run {
  setup: string;
  rps: number;
  /** Redis CPU seconds (every master) per user created and its event delivered, under load. */
  redisCpuPerUser: number;
  dsyncCpuPerUser: number;
  memoryPerUser: number;
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** `concurrency`: the requests the per-operation phases ran at once. */
export function printCosts(costs: OpCost[], concurrency: number): void {
  console.log(`\n## Redis cost per operation (one server, ${concurrency} requests at a time)\n`);
  console.log(
    "| operation | commands sent (round trips) | commands run by Redis (scripts' included) | bytes to Redis | bytes from Redis | Redis CPU µs | dsync CPU µs |\n|---|---:|---|---:|---:|---:|---:|",
  );
  for (const c of costs) {
    const names = [...c.byName]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${fmt(v / c.ops, 2)}`)
      .join(', ');
    console.log(
      `| ${c.name} | ${fmt(c.sent, 2)} | ${fmt(c.commands, 2)}: ${names} | ${fmt(c.bytesIn)} | ${fmt(c.bytesOut)} | ${fmt(c.redisCpu * 1e6)} | ${fmt(c.dsyncCpu * 1e6)} |`,
    );
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** `load`: the workload's shape, for the heading. */
export function printRuns(runs: Run[], load: string): Map<string, Run> {
  console.log(`\n## SCIM create load (${load})\n`);
  console.log(
    '| setup | req/s by round | median req/s | vs one server | Redis CPU µs per user (+ its event) | dsync CPU µs per user (+ its event) | Redis bytes per user |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|');
  const medians = new Map<string, Run>();
  for (const name of new Set(runs.map((r) => r.setup))) {
    const mine = runs.filter((r) => r.setup === name);
    const m = (f: (r: Run) => number) => median(mine.map(f));
    medians.set(name, {
      setup: name,
      rps: m((r) => r.rps),
      redisCpuPerUser: m((r) => r.redisCpuPerUser),
      dsyncCpuPerUser: m((r) => r.dsyncCpuPerUser),
      memoryPerUser: m((r) => r.memoryPerUser),
    });
  }
  const base = [...medians.values()][0]!.rps;
  for (const [name, r] of medians) {
    const rounds = runs
      .filter((x) => x.setup === name)
      .map((x) => fmt(x.rps))
      .join(' / ');
    console.log(
      `| ${name} | ${rounds} | ${fmt(r.rps)} | ${fmt((r.rps / base) * 100)}% | ${fmt(r.redisCpuPerUser * 1e6)} | ${fmt(r.dsyncCpuPerUser * 1e6)} | ${fmt(r.memoryPerUser)} |`,
    );
  }
  return medians;
}

export function printModel(costs: OpCost[], one: Run): void {
  const [create, put, patch, event] = costs as [OpCost, OpCost, OpCost, OpCost];
  // A "write" of the target is a mix of the three SCIM writes measured; each is one IdP request.
  const write = (f: (c: OpCost) => number) => (f(create) + f(put) + f(patch)) / 3;
  const redisCores = TARGET.writes * write((c) => c.redisCpu) + TARGET.events * event.redisCpu;
  const shardsByCpu = Math.ceil(redisCores / UTILISATION);
  const memory = TARGET.users * one.memoryPerUser * 1.3; // + groups, memberships: 30% headroom
  const shardsByMemory = Math.ceil(memory / SHARD_MEMORY_BYTES);
  const shards = Math.max(3, shardsByCpu, shardsByMemory);
  const dsyncCores = TARGET.writes * write((c) => c.dsyncCpu) + TARGET.events * event.dsyncCpu;
  const replicas = Math.max(2, Math.ceil(dsyncCores / UTILISATION));
  const bytes = TARGET.writes * write((c) => c.bytesIn + c.bytesOut) + TARGET.events * (event.bytesIn + event.bytesOut);
  console.log(
    `\n## Capacity model: ${fmt(TARGET.directories)} directories, ${fmt(TARGET.users)} users, ${fmt(TARGET.writes)} SCIM writes/s, ${fmt(TARGET.events)} events/s\n`,
  );
  console.log(
    `- one shard (one Redis core) sustains about ${fmt(1 / one.redisCpuPerUser)} user creates/s with their events, measured under load (${fmt(one.redisCpuPerUser * 1e6)} µs each)`,
  );
  console.log(
    `- Redis CPU: ${fmt(TARGET.writes)} × ${fmt(write((c) => c.redisCpu) * 1e6)} µs + ${fmt(TARGET.events)} × ${fmt(event.redisCpu * 1e6)} µs = ${fmt(redisCores, 2)} cores → ${shardsByCpu} shard(s) at ${UTILISATION * 100}% of a core`,
  );
  console.log(
    `- Redis memory: ${fmt(TARGET.users)} users × ${fmt(one.memoryPerUser)} B × 1.3 = ${fmt(memory / 2 ** 30, 1)} GiB → ${shardsByMemory} shard(s) of ${SHARD_MEMORY_BYTES / 2 ** 30} GiB`,
  );
  console.log(
    `- Redis Cluster: ${shards} masters (at least 3 for the cluster's failover quorum), 1 replica each (WAIT 1): ${shards * 2} redis-server processes`,
  );
  console.log(
    `- dsync serve: ${fmt(TARGET.writes)} × ${fmt(write((c) => c.dsyncCpu) * 1e6)} µs + ${fmt(TARGET.events)} × ${fmt(event.dsyncCpu * 1e6)} µs = ${fmt(dsyncCores, 2)} cores → ${replicas} replicas of one core at ${UTILISATION * 100}% (at least 2 for availability)`,
  );
  console.log(`- network to and from Redis: ${fmt(bytes / 2 ** 20, 1)} MiB/s`);
}
