/**
 * A small Redis Cluster (3 masters, 3 replicas) on loopback, started by a test that must pause or stop its
 * nodes (the shared cluster of test/run.sh must not be disturbed). No persistence.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Command, Redis } from 'ioredis';
import { freePort } from '../bench/lib.js';
import { until } from './harness.js';

const exec = promisify(execFile);

interface Node {
  port: number;
  child: ChildProcess;
}

export class OwnRedisCluster {
  private constructor(
    private readonly nodes: Node[],
    private readonly dir: string,
  ) {}

  static async start(): Promise<OwnRedisCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'dsync-own-cluster-'));
    const nodes: Node[] = [];
    for (let i = 0; i < 6; i++) {
      const port = await freePort();
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`];
      const child = spawn('redis-server', [...args, '--cluster-node-timeout', '5000', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
      nodes.push({ port, child });
    }
    const cluster = new OwnRedisCluster(nodes, dir);
    try {
      for (const { port } of nodes) await until(async () => (await cluster.info(port, 'ping').catch(() => '')) === 'PONG', `node ${port}`, 10_000);
      await exec('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes']);
      for (const { port } of nodes) {
        await until(async () => /cluster_state:ok/.test(await cluster.info(port, 'cluster', 'info')), `cluster state ok on ${port}`, 20_000);
      }
      // A replica reported online may not stream yet: wait until each master's replica confirms a write.
      for (const slot of [0, 8192, 16383]) { // one slot of each master (redis-cli splits the slots in three)
        const { master } = await cluster.shardOf(slot);
        await until(() => cluster.replicates(master, slot), `the replica of ${master} to confirm writes`, 20_000);
      }
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  get startupNodes(): string[] {
    return this.nodes.map((n) => `127.0.0.1:${n.port}`);
  }

  private async info(port: number, ...command: string[]): Promise<string> {
    const client = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return String(await client.call(command[0]!, ...command.slice(1)));
    } finally {
      client.disconnect();
    }
  }

  /** Whether a write to `slot` on its master `port` reaches a replica within 500 ms (WAIT 1). */
  private async replicates(port: number, slot: number): Promise<boolean> {
    let key = '';
    for (let i = 0; new Command('get', [key]).getSlot() !== slot; i++) key = `probe-${i}`;
    const client = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 0 });
    client.on('error', () => undefined);
    try {
      await client.set(key, '1');
      return Number(await client.call('wait', 1, 500)) === 1;
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  }

  /** The port of the master serving `slot`, and of its replica(s). */
  async shardOf(slot: number): Promise<{ master: number; replicas: number[] }> {
    const lines = (await this.info(this.nodes[0]!.port, 'cluster', 'nodes')).trim().split('\n').map((l) => l.split(' '));
    const portOf = (addr: string) => Number(addr.split('@')[0]!.split(':')[1]);
    const serves = (range: string): boolean => {
      const [from, to = from] = range.split('-');
      return !range.startsWith('[') && slot >= Number(from) && slot <= Number(to);
    };
    const master = lines.find((f) => f[2]!.includes('master') && f.slice(8).some(serves));
    if (!master) throw new Error(`no master serves slot ${slot}`);
    return { master: portOf(master[1]!), replicas: lines.filter((f) => f[3] === master[0]).map((f) => portOf(f[1]!)) };
  }

  /** SIGSTOP / SIGCONT one node. */
  signal(port: number, signal: 'SIGSTOP' | 'SIGCONT'): void {
    this.nodes.find((n) => n.port === port)!.child.kill(signal);
  }

  async stop(): Promise<void> {
    for (const { child } of this.nodes) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = once(child, 'exit');
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
