/**
 * Durable acknowledgement of store writes (DSYNC_REDIS_WAIT_REPLICAS): after a write the caller will answer 2xx
 * for, `WAIT <replicas> <timeout>` on the connection of the master that took it. WAIT counts the replicas that
 * have every write of *that connection* so far, so it must go to that node's own connection: on a cluster, the
 * master of the key's slot (a keyless `cluster.call('WAIT')` would go to any node and prove nothing).
 *
 * Group commit: a WAIT blocks its connection until answered, so each node has at most one WAIT in flight; it
 * covers every write that completed before it was sent, and writes that complete meanwhile share the next one.
 * Fewer replicas than asked, a failed WAIT, or a connection re-established since the write → StoreNotDurableError.
 *
 * A WAIT holds up every command behind it on its connection (reads, readiness pings), so once a node's WAIT
 * fell short (a replica down or lagging) the next ones wait only DEGRADED_WAIT_MS, until one succeeds again:
 * writes keep answering 503 but at once, and the connection is not held a full timeout per batch.
 */
import { Command, type Redis } from 'ioredis';
import { StoreNotDurableError } from '../core/errors.js';
import { isCluster, type RedisClient } from './redis-client.js';

export interface DurabilityOptions {
  /** Replicas that must confirm a write before it is acknowledged; 0 (default) = no WAIT. */
  waitReplicas?: number;
  /** How long a WAIT may take (ms, default 1000); the WAIT command itself gets this plus the command timeout. */
  waitTimeoutMs?: number;
  /** Told of every write reported not durable (metrics). */
  onNotDurable?: () => void;
}

export const DEFAULT_WAIT_TIMEOUT_MS = 1000;

/** The WAIT timeout of a node whose last WAIT fell short: enough for a healthy replica's acknowledgement. */
export const DEGRADED_WAIT_MS = 50;

/** The hash slot of a key, by ioredis' own routing (hash tags included). */
const slotOf = (key: string): number => new Command('get', [key]).getSlot();

type Stream = Redis['stream'];

/** One node's group commit; resolves to the connection (stream) the WAIT went out on. */
class NodeWaits {
  private inFlight: Promise<Stream> | null = null;
  private next: Promise<Stream> | null = null;
  /** The last WAIT fell short or failed: the next ones wait DEGRADED_WAIT_MS. */
  private degraded = false;

  constructor(
    private readonly node: Redis,
    private readonly send: (node: Redis, degraded: boolean) => Promise<void>,
  ) {}

  async confirm(): Promise<void> {
    const wroteOn = this.node.stream;
    const sentOn = await this.batch();
    // A WAIT on a new connection counts only that connection's writes: it cannot vouch for ours.
    if (sentOn !== wroteOn) throw new StoreNotDurableError('the connection to the master was re-established since the write');
  }

  private batch(): Promise<Stream> {
    if (!this.inFlight) return this.start();
    // This write completed after the WAIT in flight was sent: it shares the next one.
    this.next ??= this.inFlight.then(
      () => this.start(),
      () => this.start(),
    );
    return this.next;
  }

  private start(): Promise<Stream> {
    this.next = null;
    const stream = this.node.stream;
    const run: Promise<Stream> = this.send(this.node, this.degraded)
      .then(
        () => ((this.degraded = false), stream),
        (err: unknown) => {
          this.degraded = true;
          throw err;
        },
      )
      .finally(() => {
        if (this.inFlight === run) this.inFlight = null;
      });
    this.inFlight = run;
    return run;
  }
}

export class Durability {
  readonly replicas: number;
  private readonly timeoutMs: number;
  private readonly nodes = new WeakMap<Redis, NodeWaits>();

  constructor(
    private readonly client: RedisClient,
    private readonly o: DurabilityOptions & { commandTimeoutMs: number },
  ) {
    this.replicas = o.waitReplicas ?? 0;
    this.timeoutMs = o.waitTimeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  }

  /** Waits until the masters holding `keys` have replicated every write so far; no-op when WAIT is off. */
  async confirm(keys: readonly string[]): Promise<void> {
    if (this.replicas === 0) return;
    try {
      const nodes = new Set(keys.map((key) => this.masterOf(key)));
      await Promise.all([...nodes].map((node) => this.waitsOf(node).confirm()));
    } catch (err) {
      this.o.onNotDurable?.();
      throw err instanceof StoreNotDurableError ? err : new StoreNotDurableError((err as Error).message.split('\n')[0]!, { cause: err });
    }
  }

  private waitsOf(node: Redis): NodeWaits {
    let waits = this.nodes.get(node);
    if (!waits) {
      const send = (n: Redis, degraded: boolean) => this.wait(n, degraded ? Math.min(DEGRADED_WAIT_MS, this.timeoutMs) : this.timeoutMs);
      this.nodes.set(node, (waits = new NodeWaits(node, send)));
    }
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

  private async wait(node: Redis, timeoutMs: number): Promise<void> {
    const command = new Command('wait', [this.replicas, timeoutMs], { replyEncoding: 'utf8' });
    // Set before sending, so the connection's shorter command timeout does not cut the WAIT short.
    command.setTimeout(timeoutMs + this.o.commandTimeoutMs);
    const acked = Number(await node.sendCommand(command));
    if (acked < this.replicas) {
      throw new StoreNotDurableError(`${acked} of ${this.replicas} replicas confirmed it within ${timeoutMs} ms`);
    }
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
