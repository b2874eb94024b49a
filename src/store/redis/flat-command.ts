/**
 * Sends a command whose arguments are already one flat list of strings, without ioredis' `args.flat()` in its
 * `Command`, which is slow on Node.js 20 (docs/design/performance.md, "ioredis' `args.flat()` and a Set of keys:
 * a script call's own cost"). The command is made empty and given its list, which is what ioredis' constructor would
 * have made of it: strings need no
 * conversion, and these commands have no argument transformer. A cluster's commands keep ioredis' own path:
 * its auto-pipelining, which groups them per node, lives there.
 */
import { Command } from 'ioredis';
import { isCluster, type RedisClient } from './client.js';

export type FlatCommand = 'evalsha' | 'eval' | 'mget' | 'hmget';

const STRING_REPLY = { replyEncoding: 'utf8' } as const; // what ioredis' named commands ask for

export function sendFlat(redis: RedisClient, name: FlatCommand, args: string[]): Promise<unknown> {
  if (isCluster(redis)) return redis.call(name, ...args);
  const command = new Command(name, [], STRING_REPLY);
  command.args = args;
  return redis.sendCommand(command) as Promise<unknown>;
}
