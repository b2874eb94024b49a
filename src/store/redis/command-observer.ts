/**
 * Store command metrics: one seam, at ioredis' sendCommand, for every command (scripts as `evalsha`, pipelined ones
 * too).
 */
import type { Redis } from 'ioredis';
import { isCluster, type RedisClient } from './client.js';

/** Told about every store command once it settles (metrics); the name is the command's, never its arguments. */
export type CommandObserver = (command: string, seconds: number, failed: boolean) => void;

type Sent = { name: string; promise: Promise<unknown> };

/**
 * NOSCRIPT is how Redis says "load the script first" (after a restart, a failover or SCRIPT FLUSH): the caller
 * sends it again with EVAL (ioredis' commands and the write scripts alike), so it is an answer, not an error.
 */
const isFailure = (err: unknown): boolean => !/^NOSCRIPT\b/.test((err as Error | undefined)?.message ?? '');

/** Wraps one connection's sendCommand; a command seen before (re-sent after MOVED or a failover) is reported once. */
function observeConnection(redis: RedisClient, observer: CommandObserver, seen: WeakSet<Sent>): void {
  const conn = redis as unknown as { sendCommand(command: Sent, ...rest: unknown[]): unknown };
  const send = conn.sendCommand.bind(conn);
  conn.sendCommand = (command: Sent, ...rest: unknown[]) => {
    if (!seen.has(command)) {
      seen.add(command);
      const started = performance.now();
      const seconds = (): number => (performance.now() - started) / 1000;
      const name = command.name.toLowerCase(); // `call('GET')` and `get()` are one command
      command.promise.then(
        () => observer(name, seconds(), false),
        (err: unknown) => observer(name, seconds(), isFailure(err)),
      );
    }
    return send(command, ...rest);
  };
}

/**
 * Reports every command of `client` to `observer` when it settles. A cluster routes a command to a node
 * connection (again after MOVED or a failover): it is timed from the cluster's sendCommand, failures before any
 * node took it included. Node connections are made and replaced as the topology changes: each is wrapped as it
 * joins (`+node`), so commands sent to a node directly (WAIT, slot refreshes) are seen too.
 */
export function observeCommands(client: RedisClient, observer: CommandObserver): void {
  const seen = new WeakSet<Sent>();
  observeConnection(client, observer, seen);
  if (!isCluster(client)) return;
  const wrapped = new WeakSet<Redis>();
  const join = (node: Redis): void => {
    if (wrapped.has(node)) return;
    wrapped.add(node);
    observeConnection(node, observer, seen);
  };
  client.nodes().forEach(join);
  client.on('+node', join);
}
