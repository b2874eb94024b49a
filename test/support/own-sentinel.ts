/**
 * A master, two replicas and one Sentinel (quorum 1, a master is down after 1 s) on loopback, started by a test
 * that kills the master (the shared Sentinel setup of test/run.sh must not be disturbed). No persistence.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../bench/lib.js';
import { replicasInSync, startServer } from './replicated-redis.js';

export const MASTER_NAME = 'dsync';

export class OwnSentinel {
  private constructor(
    private readonly servers: Map<number, ChildProcess>,
    readonly masterPort: number,
    readonly sentinelPort: number,
    private readonly dir: string,
  ) {}

  static async start(): Promise<OwnSentinel> {
    const dir = mkdtempSync(join(tmpdir(), 'dsync-own-sentinel-'));
    const servers = new Map<number, ChildProcess>();
    const masterPort = await freePort();
    servers.set(masterPort, await startServer(masterPort, dir));
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      servers.set(port, await startServer(port, dir, ['--replicaof', '127.0.0.1', String(masterPort), '--dbfilename', `replica-${port}.rdb`]));
    }
    await replicasInSync(masterPort, 2);
    const sentinelPort = await freePort();
    const conf = join(dir, 'sentinel.conf');
    writeFileSync(
      conf,
      [
        `port ${sentinelPort}`,
        'bind 127.0.0.1',
        `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${masterPort} 1`,
        `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
        `sentinel failover-timeout ${MASTER_NAME} 5000`,
        '',
      ].join('\n'),
    );
    servers.set(sentinelPort, await startServer(sentinelPort, dir, [], [conf, '--sentinel']));
    return new OwnSentinel(servers, masterPort, sentinelPort, dir);
  }

  /** SIGKILL the first master: the Sentinel promotes one of the replicas. */
  async killMaster(): Promise<void> {
    const child = this.servers.get(this.masterPort)!;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    for (const child of this.servers.values()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
