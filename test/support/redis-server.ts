/**
 * A redis-server of a test's own, for the faults the shared one must not suffer: its own free port and
 * directory, AOF with fsync on every write, so it can be paused (SIGSTOP: connections stay, nothing answers),
 * killed (SIGKILL: connections refused) and started again on the same port with its data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { until } from './harness.js';
import { freePort } from './ports.js';

export class RedisServer {
  child?: ChildProcess;

  private constructor(
    readonly port: number,
    readonly dir: string,
    /** More `redis-server` arguments, e.g. `['--busy-reply-threshold', '100']`. */
    private readonly extra: string[],
  ) {}

  /** Starts one on a free port in a new temp directory. */
  static async start(extra: string[] = []): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), mkdtempSync(join(tmpdir(), 'dsync-redis-')), extra);
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts (again) on the same port and directory, and waits until it answers PING. */
  async start(): Promise<void> {
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      this.dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
    ];
    this.child = spawn('redis-server', [...args, ...this.extra], { stdio: 'ignore' });
    const probe = new Redis(this.port, '127.0.0.1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on('error', () => undefined);
    try {
      await until(
        async () =>
          (await probe
            .connect()
            .then(() => probe.ping())
            .catch(() => undefined)) === 'PONG',
        'redis-server to answer',
        10_000,
      );
    } finally {
      probe.disconnect();
    }
  }

  /** SIGSTOP: the server keeps its connections and answers nothing. */
  pause(): void {
    this.child!.kill('SIGSTOP');
  }

  resume(): void {
    this.child!.kill('SIGCONT');
  }

  /** SIGKILL, and waits for the exit: connections are refused until start(). */
  async kill(): Promise<void> {
    const child = this.child!;
    if (!this.running) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /** Kills it (paused or not) and removes its directory. */
  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
