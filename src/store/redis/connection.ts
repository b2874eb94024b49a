/**
 * The Redis store's connection: fail-fast options, its small Lua commands (lua/leases.ts, lua/directory-record.ts),
 * command metrics, ping and close. The store's parts (delivery.ts, users-groups.ts) build on it.
 */
import type { RedisOptions } from 'ioredis';
import { StoreUnavailableError } from '../../core/errors.js';
import type { ShardReplication } from '../../core/store-port.js';
import { observeCommands, type CommandObserver } from './command-observer.js';
import { Durability, type DurabilityOptions } from './durability.js';
import { asStoreError, briefly, failFast } from './fail-fast.js';
import { createRedisClient, DEFAULT_COMMAND_TIMEOUT_MS, isCluster, type RedisClient } from './client.js';
import { DIRECTORY_COMMANDS } from './lua/directory-record.js';
import { LEASE_COMMANDS } from './lua/leases.js';
import type { RedisTarget } from './target.js';

/** ioredis' own options (e.g. `commandTimeout`) over the fail-fast defaults (client.ts), and durability. */
export type RedisStoreOptions = RedisOptions & DurabilityOptions;

/** How long after an end we did not ask for the client connects again. */
const RECONNECT_AFTER_END_MS = 200;

export class RedisConnection {
  readonly redis: RedisClient;
  /** close() was called: an end is ours, not a reason to reconnect. */
  private closing = false;
  /** Why the client is not connected (cleared once it is): what a failed ping reports instead of a bare timeout. */
  private connectionError: Error | undefined;
  /** WAIT after acknowledged writes (durability.ts); off unless `waitReplicas` > 0. */
  protected readonly durability: Durability;

  /** Connection events are logged by `logRedisConnection` (connection-log.ts). */
  constructor(target: string | RedisTarget, options: RedisStoreOptions = {}) {
    const { waitReplicas, minReplicas, waitTimeoutMs, onNotDurable, onDegraded, ...redisOptions } = options;
    this.redis = createRedisClient(target, redisOptions);
    // Queue commands only until the first connection: a service starting beside its Redis waits for it, while
    // an outage later fails each command at once (503) instead of piling requests up behind a reconnect.
    this.redis.once('ready', () => {
      this.redis.options.enableOfflineQueue = false;
    });
    this.redis.on('error', (err: Error) => (this.connectionError = err));
    this.redis.on('ready', () => (this.connectionError = undefined));
    this.reconnectAfterUnaskedEnd();
    this.defineCommands({ ...LEASE_COMMANDS, ...DIRECTORY_COMMANDS });
    this.durability = new Durability(this.redis, {
      ...(waitReplicas !== undefined && { waitReplicas }),
      ...(minReplicas !== undefined && { minReplicas }),
      ...(waitTimeoutMs !== undefined && { waitTimeoutMs }),
      ...(onNotDurable && { onNotDurable }),
      ...(onDegraded && { onDegraded }),
      commandTimeoutMs: redisOptions.commandTimeout ?? DEFAULT_COMMAND_TIMEOUT_MS,
    });
  }

  /** Reports every command (scripts as `evalsha`, pipelined ones included) to `observer` when it settles. */
  observeCommands(observer: CommandObserver): void {
    observeCommands(this.redis, observer);
  }

  /** Registers Lua commands on the client (the store's parts add their own). */
  protected defineCommands(commands: Record<string, { keys: number; lua: string }>): void {
    for (const [name, { keys, lua }] of Object.entries(commands))
      this.redis.defineCommand(name, { numberOfKeys: keys, lua });
  }

  protected command(name: string, ...args: Array<string | number>): Promise<unknown> {
    const fn = (this.redis as unknown as Record<string, (...a: Array<string | number>) => Promise<unknown>>)[name]!;
    return fn.call(this.redis, ...args);
  }

  /**
   * Readiness: the server answers; on a cluster, every master answers and the cluster reports its slots all
   * served (`cluster_state:ok`), so a lost shard shows as not ready rather than as some requests failing.
   */
  async ping(): Promise<void> {
    try {
      await this.pingEveryMaster();
    } catch (err) {
      // "Command timed out" says nothing of why: a refused connection or a wrong host does.
      const error = asStoreError(err);
      const why =
        error instanceof StoreUnavailableError && this.redis.status !== 'ready' ? this.connectionError : undefined;
      throw why ? new StoreUnavailableError(`not connected: ${briefly(why)}`, { cause: err }) : error;
    }
  }

  private async pingEveryMaster(): Promise<void> {
    const client = this.redis;
    await client.ping(); // before the first connection this waits for it (offline queue), as on one server
    if (!isCluster(client)) return;
    const masters = client.nodes('master');
    if (masters.length === 0) throw new Error('Connection is closed (no cluster master known)');
    await Promise.all(masters.map((node) => node.ping()));
    const info = await masters[0]!.cluster('INFO');
    if (!/^cluster_state:ok\b/m.test(info)) throw new Error('CLUSTERDOWN the cluster reports cluster_state:fail');
  }

  /** Each master's replicas in sync, against DSYNC_REDIS_WAIT_REPLICAS and DSYNC_REDIS_MIN_REPLICAS (readiness). */
  replication(): Promise<ShardReplication[]> {
    return this.durability.shards();
  }
  /**
   * ioredis ends a Sentinel client for good when the Sentinels' +switch-master arrives while it is asking them for
   * the master (the failover detector's disconnect makes that pending connect throw "Connection is closed.",
   * https://github.com/redis/ioredis/issues/1683): rare, but every request would then answer 503 until a restart. An
   * end nobody asked for is undone by connecting again (ioredis reconnects on its own in every other case).
   */
  private reconnectAfterUnaskedEnd(): void {
    const client = this.redis;
    if (isCluster(client)) return; // clusterRetryStrategy never gives up (client.ts)
    client.on('end', () => {
      if (this.closing) return;
      // Told to the error listeners (the log's warn, connection-log.ts), as ioredis tells its own connection errors.
      const err = new Error(
        'the connection ended without being closed (a failover seen mid-connect); connecting again',
      );
      if (client.listenerCount('error') > 0) client.emit('error', err);
      setTimeout(() => {
        if (!this.closing && client.status === 'end') client.connect().catch(() => undefined); // a failed attempt ends again and comes back here
      }, RECONNECT_AFTER_END_MS).unref();
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    try {
      // Only a ready connection can QUIT: one that is gone or reconnecting (a failover under way at shutdown)
      // would refuse it (no offline queue), and disconnect() below tears everything down anyway.
      if (this.redis.status === 'ready') await this.redis.quit();
    } finally {
      // QUIT ends the data connection only: behind Sentinel, the +switch-master subscriptions (failoverDetector)
      // stay open, keep the process alive and reconnect forever. disconnect() tears the connector down too.
      this.redis.disconnect();
    }
  }
}

failFast(RedisConnection.prototype);
