/** Shared pieces of the benchmarks: real redis-server and dsync processes, a counting receiver, phase timing. */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'undici';
import { freePort } from '../support/ports.js';

/** Imports the first of `paths` (under `dir`) that exists: a module an older checkout keeps under an older path. */
export async function importFirst<T>(dir: string, paths: string[]): Promise<T> {
  const path = paths.map((p) => join(dir, p)).find((p) => existsSync(p));
  if (!path) throw new Error(`${dir} has none of ${paths.join(', ')}`);
  return (await import(path)) as T;
}

/** Clock ticks per second of /proc's CPU times. */
export const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU seconds (user + system) a process has used so far (Linux /proc); 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Proc {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

/** A throwaway redis-server (no persistence) on a free port. */
export async function startRedis(): Promise<Proc & { port: number }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'dsync-bench-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    {
      stdio: 'ignore',
    },
  );
  const url = `redis://127.0.0.1:${port}`;
  const { Redis } = await import('ioredis');
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  await waitFor(async () => (await probe.connect().then(() => probe.ping())) === 'PONG', 'redis-server');
  probe.disconnect();
  return { url, port, child, stop: stopper(child) };
}

const built = new Map<string, Promise<void>>();

/** `tsc -p <project>` in `cwd`, once per project and run. */
export function tscBuild(cwd: string, project: string): Promise<void> {
  const dir = resolve(cwd);
  const key = join(dir, project);
  let build = built.get(key);
  if (!build) {
    build = new Promise<void>((ok, fail) => {
      const tsc = spawn(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', project], {
        cwd: dir,
        stdio: 'inherit',
      });
      tsc.on('error', fail);
      tsc.on('exit', (code) =>
        code === 0 ? ok() : fail(new Error(`tsc -p ${project} in ${dir} exited with ${code}`)),
      );
    });
    built.set(key, build);
  }
  return build;
}

/**
 * `dsync serve` as its own process, exactly as users run it (tsc's output, `node dist/cli.js serve`, as in the
 * image; `source: true` runs src/cli.ts under tsx instead, as `npm start` does); `cwd`: the tree to run (another
 * commit's checkout, to measure before and after side by side), default this one. BENCH_PROFILE=<dir> writes a
 * CPU profile of each of its threads there (or in `<dir>/<profileDir>`) when it exits; the main thread's is
 * `CPU.<date>.<time>.<pid>.0.<n>.cpuprofile`. BENCH_NODE_ARGS: more flags for its node (`--trace-gc-nvp`,
 * `--single-threaded-gc`), to see where a phase's garbage collection goes.
 */
export async function startDsync(
  env: Record<string, string>,
  o: { cwd?: string; profileDir?: string; source?: boolean } = {},
): Promise<Proc & { port: number; apiKey: string }> {
  const port = await freePort();
  const apiKey = 'bench-key';
  const dir = process.env.BENCH_PROFILE && join(process.env.BENCH_PROFILE, o.profileDir ?? '');
  const profile = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  // What ships: tsc's build, as the image makes it. The sources under tsx pay for its transform (esbuild's keepNames
  // wraps every function a call creates in a naming call), which the image does not.
  if (!o.source) await tscBuild(o.cwd ?? '.', 'tsconfig.build.json');
  const program = o.source ? ['--import', 'tsx', 'src/cli.ts'] : ['dist/cli.js'];
  const child = spawn(process.execPath, [...nodeArgs, ...profile, ...program, 'serve'], {
    ...(o.cwd && { cwd: o.cwd }),
    env: { ...process.env, PORT: String(port), DSYNC_API_KEYS: apiKey, LOG_LEVEL: 'warn', METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/readyz`)).ok, 'dsync serve');
  return { url, port, apiKey, child, stop: stopper(child) };
}

/** A POST as the resource-order checker takes it: the events' ids and resources, arrival and 2xx ticks. */
export interface RecordedPost {
  events: Array<{ id: string; event: string; directory_id: string; data: { id: string; group?: { id: string } } }>;
  arrived: number;
  acked?: number;
}

/**
 * Counts deliveries answered 2xx (in all and per path) and measures lag (event created_at → arrival). Answers 204
 * at once, or after `delayMs` (a receiver across a network); `fails` refuses (500) the POSTs holding an event it
 * names. Tracks POSTs in flight (the most at once, and the mean over arrivals); `record` keeps every POST for the
 * resource-order checker.
 */
export class CountingReceiver {
  events = 0;
  posts = 0;
  lags: number[] = [];
  /** Lags of the events `selected` accepts. */
  selectedLags: number[] = [];
  selected: ((event: any) => boolean) | undefined;
  inFlight = 0;
  maxInFlight = 0;
  private inFlightSum = 0;
  private arrivals = 0;
  delayMs = 0;
  fails: ((event: any) => boolean) | undefined;
  recorded: RecordedPost[] | undefined;
  private tick = 0;
  /** Events received per request path (several senders, one receiver: each its own path under `url`). */
  readonly byPath = new Map<string, number>();
  private server!: Server;
  url = '';

  get meanInFlight(): number {
    return this.arrivals === 0 ? 0 : this.inFlightSum / this.arrivals;
  }

  resetInFlight(): void {
    this.maxInFlight = 0;
    this.inFlightSum = 0;
    this.arrivals = 0;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const now = Date.now();
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as any;
        const list: any[] = Array.isArray(body) ? body : [body];
        this.inFlight++;
        this.arrivals++;
        this.inFlightSum += this.inFlight;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        const refused = this.fails !== undefined && list.some((e) => this.fails!(e));
        const post: RecordedPost | undefined = this.recorded && {
          events: list.map((e) => ({
            id: e.id,
            event: e.event,
            directory_id: e.directory_id,
            data: { id: e.data.id, ...(e.data.group && { group: { id: e.data.group.id } }) },
          })),
          arrived: ++this.tick,
        };
        if (post) this.recorded!.push(post);
        const answer = () => {
          this.inFlight--;
          if (refused) return void res.writeHead(500).end();
          this.posts++;
          this.events += list.length;
          if (post) post.acked = ++this.tick;
          this.byPath.set(req.url ?? '', (this.byPath.get(req.url ?? '') ?? 0) + list.length);
          for (const e of list) {
            const lag = now - Date.parse(e.created_at);
            this.lags.push(lag);
            if (this.selected?.(e)) this.selectedLags.push(lag);
          }
          res.writeHead(204).end();
        };
        if (this.delayMs > 0) setTimeout(answer, this.delayMs);
        else answer();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  async waitFor(n: number, timeoutMs = 120_000): Promise<number> {
    const started = Date.now();
    await waitFor(async () => this.events >= n, `${n} webhook events (got ${this.events})`, timeoutMs);
    return Date.now() - started;
  }

  /** Waits until `n` events arrived at `url` + `path`. */
  async waitForPath(path: string, n: number, timeoutMs = 120_000): Promise<void> {
    const at = new URL(this.url).pathname + path;
    await waitFor(
      async () => (this.byPath.get(at) ?? 0) >= n,
      `${n} webhook events at ${at} (got ${this.byPath.get(at) ?? 0})`,
      timeoutMs,
    );
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export interface PhaseResult {
  name: string;
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** Every request's latency (ms), sorted. */
  latencies: number[];
}

/**
 * Runs `total` tasks with `concurrency` workers; each task may make several requests, each timed.
 * `timed` wraps one request.
 */
export async function phase(
  name: string,
  total: number,
  concurrency: number,
  task: (i: number, timed: <T>(fn: () => Promise<T>) => Promise<T>) => Promise<void>,
): Promise<PhaseResult> {
  const latencies: number[] = [];
  const timed = async <T>(fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const out = await fn();
    latencies.push(performance.now() - t);
    return out;
  };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await task(next++, timed);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    latencies,
  };
}

export function printPhases(results: PhaseResult[]): void {
  console.log('\n| phase | requests | req/s | p50 ms | p99 ms |\n|---|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.name} | ${r.requests} | ${Math.round(r.rps)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`);
  }
}

export interface Client {
  request(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export function client(base: string, auth: string, connections = 32): Client {
  const pool = new Pool(base, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  return {
    async request(method, path, body, headers = {}) {
      const res = await pool.request({
        method: method as 'GET',
        path,
        headers: { authorization: auth, 'content-type': 'application/scim+json', ...headers },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
    },
    close: () => pool.close(),
  };
}

/** A helper process of a benchmark (a fake, so the RSS measured is the sync's alone), driven by IPC messages. */
export async function forkHelper<R>(
  file: URL,
): Promise<{ child: ChildProcess; ready: R; ask<T>(message: object): Promise<T> }> {
  const child = fork(fileURLToPath(file), [], { execArgv: ['--import', 'tsx'] });
  const ready = (await once(child, 'message'))[0] as R;
  return {
    child,
    ready,
    async ask<T>(message: object): Promise<T> {
      const answer = once(child, 'message');
      child.send(message);
      return (await answer)[0] as T;
    },
  };
}

/**
 * The NODE_OPTIONS the image runs with (the Dockerfile's `ENV NODE_OPTIONS=`), so a benchmark measures memory as
 * deployed.
 */
export function imageNodeOptions(): string {
  const dockerfile = readFileSync(fileURLToPath(new URL('../../Dockerfile', import.meta.url)), 'utf8');
  return /^ENV NODE_OPTIONS=(.+)$/m.exec(dockerfile)?.[1]?.trim() ?? '';
}
