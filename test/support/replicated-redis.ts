/**
 * A master and one replica on loopback, started by the test that needs to stop or pause the replica (the shared
 * servers of test/run.sh must not be disturbed). No persistence: these tests are about replication only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { freePort } from '../bench/lib.js';
import { until } from './harness.js';

async function startServer(port: number, extra: string[] = []): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extra], { stdio: 'ignore' });
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await until(async () => (await probe.connect().then(() => probe.ping()).catch(() => undefined)) === 'PONG', `redis-server on ${port}`, 10_000);
  } finally {
    probe.disconnect();
  }
  return child;
}

export class ReplicatedRedis {
  private constructor(
    readonly masterPort: number,
    readonly replicaPort: number,
    private readonly master: ChildProcess,
    private readonly replica: ChildProcess,
  ) {}

  static async start(): Promise<ReplicatedRedis> {
    const masterPort = await freePort();
    const master = await startServer(masterPort);
    const replicaPort = await freePort();
    const replica = await startServer(replicaPort, ['--replicaof', '127.0.0.1', String(masterPort)]);
    const servers = new ReplicatedRedis(masterPort, replicaPort, master, replica);
    await servers.replicaInSync();
    return servers;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.masterPort}`;
  }

  /** A plain client on the replica (reads only), for checking what it already has. */
  replicaClient(): Redis {
    return new Redis(this.replicaPort, '127.0.0.1');
  }

  /** Until the master counts the replica as connected and online. */
  async replicaInSync(): Promise<void> {
    const master = new Redis(this.masterPort, '127.0.0.1');
    try {
      await until(async () => /slave0:.*state=online/.test(await master.info('replication')), 'the replica to be online', 15_000);
    } finally {
      master.disconnect();
    }
  }

  /** SIGSTOP / SIGCONT the replica: it keeps its connection but acknowledges nothing. */
  pauseReplica(): void {
    this.replica.kill('SIGSTOP');
  }
  resumeReplica(): void {
    this.replica.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    for (const child of [this.replica, this.master]) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = once(child, 'exit');
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
    }
  }
}
