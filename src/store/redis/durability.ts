/**
 * Durable acknowledgement of store writes, Kafka's `acks=all` with `min.insync.replicas`: after a write the caller
 * will answer 2xx for, `WAIT` for up to DSYNC_REDIS_WAIT_REPLICAS of the master's replicas that are connected and
 * in sync (replicas-in-sync.ts), and refuse the write (StoreNotDurableError, 503) only when fewer than
 * DSYNC_REDIS_MIN_REPLICAS confirmed it. A write confirmed by fewer than wanted but at least the minimum is
 * acknowledged and counted as degraded: a promoted replica with no replica of its own keeps its shard writable
 * (minimum 0), instead of refusing every write until a replica comes back.
 *
 * WAIT counts the replicas that have every write of *that connection* so far, so it goes to that node's own
 * connection: on a cluster, the master of the key's slot (a keyless `cluster.call('WAIT')` would go to any node
 * and prove nothing). A failed WAIT, or a connection re-established since the write, proves nothing about the
 * write: it is refused whatever the minimum (a failover may have lost it).
 *
 * Group commit: a WAIT blocks its connection until answered, so each node has at most one WAIT in flight; it
 * covers every write that completed before it was sent, and writes that complete meanwhile share the next one.
 * A WAIT holds up every command behind it on its connection (reads, readiness pings), so once a node's WAIT
 * fell short (a replica down or lagging) the next ones wait only DEGRADED_WAIT_MS, until one succeeds again.
 */
import { Command, type Redis } from 'ioredis';
import { StoreNotDurableError } from '../../core/errors.js';
import type { ShardReplication } from '../../core/store-port.js';
import { isCluster, type RedisClient } from './client.js';
import { nodeName, replicasInSync } from './replicas-in-sync.js';

export interface DurabilityOptions {
  /** Replicas (of those in sync) a write waits for before it is acknowledged; 0 (default) = no WAIT. */
  waitReplicas?: number;
  /** Fewest confirmations with which a write is still acknowledged (default 0); at most `waitReplicas`. */
  minReplicas?: number;
  /** How long a WAIT may take (ms, default 1000); the WAIT command itself gets this plus the command timeout. */
  waitTimeoutMs?: number;
  /** Told of every write refused as not durable (metrics). */
  onNotDurable?: () => void;
  /** Told of every write acknowledged with fewer confirmations than `waitReplicas` (metrics). */
  onDegraded?: () => void;
}

export const DEFAULT_WAIT_TIMEOUT_MS = 1000;

/** The WAIT timeout of a node whose last WAIT fell short: enough for a healthy replica's acknowledgement. */
export const DEGRADED_WAIT_MS = 50;

/** A node's count of replicas in sync is measured again after this long (one INFO per node and second at most). */
const IN_SYNC_TTL_MS = 1000;

/** The hash slot of a key, by ioredis' own routing (hash tags included). */
const slotOf = (key: string): number => new Command('get', [key]).getSlot();

type Stream = Redis['stream'];

/** What one node's WAIT established: the connection it went out on and the replicas that confirmed. */
interface Confirmation {
  stream: Stream;
  acked: number;
  /** How the count was reached, for the refusal's message. */
  detail: string;
}

interface WaitPolicy {
  wanted: number;
  minimum: number;
  timeoutMs: number;
  commandTimeoutMs: number;
}

/** One node's group commit and its count of replicas in sync. */
class NodeWaits {
  private inFlight: Promise<Confirmation> | null = null;
  private next: Promise<Confirmation> | null = null;
  /** The last WAIT fell short or failed: the next ones wait DEGRADED_WAIT_MS. */
  private degraded = false;
  /** Measured on one connection: a reconnect (a Sentinel failover) may have reached another master. */
  private inSync: { stream: Stream; at: number; count: Promise<number> } | null = null;

  constructor(
    private readonly node: Redis,
    private readonly policy: WaitPolicy,
  ) {}

  /** The replicas that confirmed every write of this node's connection so far, ours included. */
  async confirm(): Promise<Confirmation> {
    const wroteOn = this.node.stream;
    const confirmation = await this.batch();
    // A WAIT on a new connection counts only that connection's writes: it cannot vouch for ours.
    if (confirmation.stream !== wroteOn)
      throw new StoreNotDurableError('the connection to the master was re-established since the write');
    return confirmation;
  }

  private batch(): Promise<Confirmation> {
    if (!this.inFlight) return this.start();
    // This write completed after the WAIT in flight was sent: it shares the next one.
    this.next ??= this.inFlight.then(
      () => this.start(),
      () => this.start(),
    );
    return this.next;
  }

  private start(): Promise<Confirmation> {
    this.next = null;
    const run = this.confirmNow().finally(() => {
      if (this.inFlight === run) this.inFlight = null;
    });
    this.inFlight = run;
    return run;
  }

  private async confirmNow(): Promise<Confirmation> {
    const stream = this.node.stream;
    const { wanted, minimum } = this.policy;
    // Wait for the replicas there are (up to the wanted), and always for the minimum: a count measured a moment
    // ago must not let a write through below it.
    const target = Math.max(minimum, Math.min(wanted, await this.countInSync(stream)));
    if (target === 0) return { stream, acked: 0, detail: 'no replica is in sync' };
    const timeoutMs = this.degraded ? Math.min(DEGRADED_WAIT_MS, this.policy.timeoutMs) : this.policy.timeoutMs;
    try {
      const acked = await this.wait(target, timeoutMs);
      this.degraded = acked < target;
      if (this.degraded) this.inSync = null; // a replica fell behind: measure again
      return { stream, acked, detail: `${acked} of ${target} replicas confirmed it within ${timeoutMs} ms` };
    } catch (err) {
      this.degraded = true;
      this.inSync = null;
      throw err;
    }
  }

  private countInSync(stream: Stream): Promise<number> {
    const now = Date.now();
    if (this.inSync?.stream !== stream || now - this.inSync.at > IN_SYNC_TTL_MS) {
      const count = replicasInSync(this.node);
      count.catch(() => (this.inSync = null)); // a failed measurement is not kept
      this.inSync = { stream, at: now, count };
    }
    return this.inSync.count;
  }

  private async wait(replicas: number, timeoutMs: number): Promise<number> {
    const command = new Command('wait', [replicas, timeoutMs], { replyEncoding: 'utf8' });
    // Set before sending, so the connection's shorter command timeout does not cut the WAIT short.
    command.setTimeout(timeoutMs + this.policy.commandTimeoutMs);
    return Number(await this.node.sendCommand(command));
  }
}

export class Durability {
  readonly replicas: number;
  private readonly policy: WaitPolicy;
  private readonly nodes = new WeakMap<Redis, NodeWaits>();

  constructor(
    private readonly client: RedisClient,
    private readonly o: DurabilityOptions & { commandTimeoutMs: number },
  ) {
    this.replicas = o.waitReplicas ?? 0;
    const minimum = o.minReplicas ?? 0;
    if (minimum > this.replicas)
      throw new RangeError(`minReplicas (${minimum}) must not exceed waitReplicas (${this.replicas})`);
    this.policy = {
      wanted: this.replicas,
      minimum,
      timeoutMs: o.waitTimeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS,
      commandTimeoutMs: o.commandTimeoutMs,
    };
  }

  /**
   * Waits until the masters holding `keys` have replicated every write so far to their replicas in sync (up to
   * the wanted number); refuses below the minimum; no-op when WAIT is off.
   */
  async confirm(keys: readonly string[]): Promise<void> {
    if (this.replicas === 0) return;
    let weakest: Confirmation;
    try {
      const nodes = new Set(keys.map((key) => this.masterOf(key)));
      const confirmations = await Promise.all([...nodes].map((node) => this.waitsOf(node).confirm()));
      weakest = confirmations.reduce((a, b) => (b.acked < a.acked ? b : a));
    } catch (err) {
      this.o.onNotDurable?.();
      throw err instanceof StoreNotDurableError
        ? err
        : new StoreNotDurableError((err as Error).message.split('\n')[0]!, { cause: err });
    }
    if (weakest.acked < this.policy.minimum) {
      this.o.onNotDurable?.();
      throw new StoreNotDurableError(`${weakest.detail}; at least ${this.policy.minimum} must`);
    }
    if (weakest.acked < this.replicas) this.o.onDegraded?.();
  }

  /**
   * Each master's replicas in sync, measured now, against the wanted and the minimum (readiness); [] when WAIT is off.
   */
  async shards(): Promise<ShardReplication[]> {
    if (this.replicas === 0) return [];
    const client = this.client;
    const masters = isCluster(client) ? client.nodes('master') : [client];
    const { wanted, minimum } = this.policy;
    return Promise.all(
      masters.map(async (node) => ({ master: nodeName(node), inSync: await replicasInSync(node), wanted, minimum })),
    );
  }

  private waitsOf(node: Redis): NodeWaits {
    let waits = this.nodes.get(node);
    if (!waits) this.nodes.set(node, (waits = new NodeWaits(node, this.policy)));
    return waits;
  }

  /** The connection of the master that serves `key`: the client itself unless it is a cluster. */
  private masterOf(key: string): Redis {
    const client = this.client;
    if (!isCluster(client)) return client;
    const slot = slotOf(key);
    const nodeKey = client.slots[slot]?.[0];
    const node = client.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === nodeKey);
    if (!node) throw new StoreNotDurableError(`no master is known for slot ${slot}`);
    return node;
  }
}

/** The keys an acknowledged write touched, from the method's arguments: WAIT goes to the masters holding them. */
export type WrittenKeys = (...args: never[]) => readonly string[];

/**
 * Wraps the write methods of a store class (on the prototype, like failFast) so each confirms durability before
 * it resolves. A write answering a status other than `ok` (stale, conflict, missing) wrote nothing to confirm.
 */
export function durableWrites(proto: object, written: Record<string, WrittenKeys>): void {
  for (const [name, keysOf] of Object.entries(written)) {
    const original = (proto as Record<string, (...args: unknown[]) => Promise<unknown>>)[name];
    if (typeof original !== 'function') throw new Error(`durableWrites: no method ${name}`);
    Object.defineProperty(proto, name, {
      configurable: true,
      writable: true,
      value: async function (this: { durability: Durability }, ...args: unknown[]) {
        const result = await original.apply(this, args);
        if (((result as { status?: string } | null)?.status ?? 'ok') !== 'ok') return result;
        await this.durability.confirm((keysOf as (...a: unknown[]) => readonly string[])(...args));
        return result;
      },
    });
  }
}
