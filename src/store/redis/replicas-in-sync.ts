/**
 * Which replicas of a master count for durability: those connected and in sync, as the master itself reports
 * them (`INFO replication`). A replica still in its first sync (`wait_bgsave`, `send_bulk`) is not `online`; one
 * that stopped acknowledging (paused, partitioned) shows a growing `lag` (seconds since its last REPLCONF ACK,
 * sent every second). Kafka's in-sync replica set, on what Redis exposes.
 */
import type { Redis } from 'ioredis';

/**
 * A replica silent longer than this is out of sync (a healthy one acknowledges every second; 3 s absorbs a loaded
 * host).
 */
export const IN_SYNC_MAX_LAG_S = 3;

/** `slave0:ip=10.0.0.2,port=6380,state=online,offset=1234,lag=0` → whether it counts as in sync. */
function inSync(line: string): boolean {
  const fields = new Map(
    line
      .slice(line.indexOf(':') + 1)
      .split(',')
      .map((kv) => kv.split('=') as [string, string]),
  );
  return fields.get('state') === 'online' && Number(fields.get('lag') ?? Infinity) <= IN_SYNC_MAX_LAG_S;
}

/** Counts the replicas in sync from a master's `INFO replication` text. */
export function countInSync(info: string): number {
  return info.split(/\r?\n/).filter((line) => /^slave\d+:/.test(line) && inSync(line)).length;
}

/** Asks `node` (a master's own connection) how many of its replicas are in sync now. */
export async function replicasInSync(node: Redis): Promise<number> {
  return countInSync(await node.info('replication'));
}

/** How a node is named in readiness answers: the address its connection reached (a Sentinel client's master moves). */
export function nodeName(node: Redis): string {
  const s = node.stream as { remoteAddress?: string; remotePort?: number } | undefined;
  return s?.remoteAddress ? `${s.remoteAddress}:${s.remotePort}` : `${node.options.host}:${node.options.port}`;
}
