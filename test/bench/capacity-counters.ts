// What capacity.bench.ts reads from Redis and dsync to price an operation: Redis' counters (INFO commandstats,
// stats, cpu, memory), dsync's own count of the commands it sent, and a cluster's masters. Apart from the bench so
// that file holds the phases and the model.
import type { Redis } from 'ioredis';
import type { RedisTopology } from '../support/redis-topology.js';

export interface Counters {
  calls: Map<string, number>;
  bytesIn: number;
  bytesOut: number;
  cpu: number;
}

const IGNORED = /^(info|config\|resetstat|config|ping|cluster\|.*|client\|.*|hello)$/;

export async function counters(redis: Redis): Promise<Counters> {
  const [cmd, stats, cpu] = await Promise.all([redis.info('commandstats'), redis.info('stats'), redis.info('cpu')]);
  const calls = new Map<string, number>();
  for (const m of cmd.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
    if (!IGNORED.test(m[1]!)) calls.set(m[1]!, Number(m[2]));
  const num = (text: string, name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(text)?.[1] ?? 0);
  return {
    calls,
    bytesIn: num(stats, 'total_net_input_bytes'),
    bytesOut: num(stats, 'total_net_output_bytes'),
    cpu: num(cpu, 'used_cpu_user') + num(cpu, 'used_cpu_sys'),
  };
}

/** Counters summed over several servers (the masters of a cluster). */
export async function summed(nodes: Redis[]): Promise<Counters> {
  const all = await Promise.all(nodes.map(counters));
  const calls = new Map<string, number>();
  for (const c of all) for (const [k, v] of c.calls) calls.set(k, (calls.get(k) ?? 0) + v);
  return {
    calls,
    bytesIn: sum(all.map((c) => c.bytesIn)),
    bytesOut: sum(all.map((c) => c.bytesOut)),
    cpu: sum(all.map((c) => c.cpu)),
  };
}

export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
export const total = (c: Counters) => sum([...c.calls.values()]);

export function delta(after: Counters, before: Counters): Counters {
  const calls = new Map<string, number>();
  for (const [k, v] of after.calls)
    if (v - (before.calls.get(k) ?? 0) > 0) calls.set(k, v - (before.calls.get(k) ?? 0));
  return {
    calls,
    bytesIn: after.bytesIn - before.bytesIn,
    bytesOut: after.bytesOut - before.bytesOut,
    cpu: after.cpu - before.cpu,
  };
}

/** Commands dsync sent (its own metric, by command; a script counts once): the round trips of an operation. */
export async function sentCommands(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  let n = 0;
  for (const m of text.matchAll(/^dsync_store_command_duration_seconds_count\{command="([^"]+)"\} (\d+)/gm))
    if (m[1] !== 'ping') n += Number(m[2]);
  return n;
}

export async function usedMemory(nodes: Redis[]): Promise<number> {
  return sum(await Promise.all(nodes.map(async (r) => Number(/used_memory:(\d+)/.exec(await r.info('memory'))![1]))));
}

export async function clusterMasters(topology: RedisTopology): Promise<string[]> {
  const out = await topology.cli('-h', '127.0.0.1', '-p', topology.nodes[0]!.split(':')[1]!, 'cluster', 'nodes');
  return out
    .split('\n')
    .filter((l) => / master /.test(` ${l.split(' ')[2]?.replace(/,/g, ' ')} `) && !l.includes('fail'))
    .map((l) => l.split(' ')[1]!.split('@')[0]!);
}
