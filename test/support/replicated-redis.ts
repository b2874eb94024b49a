/**
 * A master and one replica on loopback, started by the test that needs to stop or pause the replica (the shared
 * servers of test/run.sh must not be disturbed). No persistence: these tests are about replication only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../bench/lib.js';
import { until } from './harness.js';

/**
 * A redis-server on loopback, answering PING when this resolves. `config`: a config file and flags that must
 * come first (a Sentinel: `[file, '--sentinel']`). Its own directory: a replica writes the RDB it receives to
 * disk (never into the checkout).
 */
export async function startServer(port: number, dir: string, extra: string[] = [], config: string[] = []): Promise<ChildProcess> {
  const args = [...config, '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extra];
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await until(async () => (await probe.connect().then(() => probe.ping()).catch(() => undefined)) === 'PONG', `redis-server on ${port}`, 10_000);
  } finally {
    probe.disconnect();
  }
  return child;
}

/** Until `replicas` replicas of the master on `port` confirm a write (online is not enough: they may not stream yet). */
export async function replicasInSync(port: number, replicas: number): Promise<void> {
  const master = new Redis(port, '127.0.0.1');
  try {
    const confirmed = async () => (await master.set('probe', '1'), Number(await master.call('wait', replicas, 500)) === replicas);
    await until(confirmed, `${replicas} replica(s) to confirm a write`, 15_000);
  } finally {
    master.disconnect();
  }
}

export class ReplicatedRedis {
  private constructor(
    readonly masterPort: number,
    readonly replicaPort: number,
    private readonly master: ChildProcess,
    private readonly replica: ChildProcess,
    private readonly dir: string,
  ) {}

  static async start(): Promise<ReplicatedRedis> {
    const dir = mkdtempSync(join(tmpdir(), 'dsync-replicated-'));
    const masterPort = await freePort();
    const master = await startServer(masterPort, dir);
    const replicaPort = await freePort();
    const replica = await startServer(replicaPort, dir, ['--replicaof', '127.0.0.1', String(masterPort)]);
    const servers = new ReplicatedRedis(masterPort, replicaPort, master, replica, dir);
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

  /** Until the replica confirms a write. */
  replicaInSync(): Promise<void> {
    return replicasInSync(this.masterPort, 1);
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
    rmSync(this.dir, { recursive: true, force: true });
  }
}
