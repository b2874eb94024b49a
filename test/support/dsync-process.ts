/**
 * Real `dsync` processes for fault tests: `dsync serve` / `dsync cron process-events` spawned the way users run
 * them (node + tsx on src/cli.ts), their output kept for failure reports, and the management and SCIM calls
 * those tests make against them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { expect } from 'chai';
import { mapLimit } from '../../src/core/chunks.js';
import { READY_WITHIN_MS, sleep, until } from './harness.js';
import { freePort } from './ports.js';

export const API_KEY = 'faults-api-key';
export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
/** 12 retries over ≈8.5 s: a fault shorter than that must lose nothing. */
export const RETRY_SCHEDULE = '50ms,100ms,200ms,400ms,800ms,1s,1s,1s,1s,1s,1s,1s';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';

/** The environment of a test process: `store` says where its Redis is (REDIS_URL, REDIS_CLUSTER_NODES, ...). */
export function dsyncEnv(store: Record<string, string>, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...store,
    DSYNC_API_KEYS: API_KEY,
    DSYNC_WEBHOOK_ALLOW_PRIVATE: 'true',
    DSYNC_WEBHOOK_RETRY_SCHEDULE: RETRY_SCHEDULE,
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

export interface DsyncProc {
  name: string;
  url: string;
  /** `/metrics` of a process served with `serve(..., { metrics: true })`. */
  metricsUrl?: string;
  child: ChildProcess;
  output: string[];
}

export const live = new Set<DsyncProc>();

export function spawnDsync(name: string, args: string[], env: Record<string, string>): DsyncProc {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc: DsyncProc = { name, url: '', child, output: [] };
  // Always drain both pipes (a full pipe would block the child); keep a tail for failure reports.
  const keep = (chunk: Buffer) => {
    proc.output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (proc.output.length > 400) proc.output.splice(0, proc.output.length - 400);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  live.add(proc);
  child.once('exit', () => live.delete(proc));
  return proc;
}

/** `dsync serve` on a free port (and its metrics on another with `metrics`); resolves once /readyz answers. */
export async function serve(
  name: string,
  env: Record<string, string>,
  o: { metrics?: boolean; readyWithinMs?: number } = {},
): Promise<DsyncProc> {
  const port = await freePort();
  const metricsPort = o.metrics ? await freePort() : 0;
  const proc = spawnDsync(name, ['serve'], {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    METRICS_PORT: String(metricsPort),
  });
  proc.url = `http://127.0.0.1:${port}`;
  if (o.metrics) proc.metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  await until(
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`${name} exited early:\n${proc.output.join('\n')}`);
      return (await fetch(`${proc.url}/readyz`).catch(() => undefined))?.ok === true;
    },
    () => `${name} to be ready`,
    o.readyWithinMs ?? READY_WITHIN_MS,
  );
  return proc;
}

/**
 * The value of an unlabelled counter on a process served with `{ metrics: true }`. A scrape fails (500) while a
 * gauge cannot walk the store (a shard failing over): asked again until one succeeds.
 */
export async function counter(proc: DsyncProc, name: string): Promise<number> {
  let last = '';
  let value: number | undefined;
  await until(
    async () => {
      const res = await fetch(proc.metricsUrl!);
      const text = await res.text();
      last = `${res.status}: ${text.slice(0, 200)}`;
      value = valueOf(text, name);
      return res.ok;
    },
    () => `a scrape of ${proc.metricsUrl} (last: ${last})`,
    10_000,
  );
  if (value === undefined) throw new Error(`${name} is not on ${proc.metricsUrl}`);
  return value;
}

function valueOf(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

/** `dsync cron process-events`: resolves with its exit code and the stats it logged (LOG_LEVEL=info). */
export async function cronRun(
  name: string,
  env: Record<string, string>,
): Promise<{ code: number | null; delivered: number; output: string[] }> {
  const proc = spawnDsync(name, ['cron', 'process-events'], { ...env, LOG_LEVEL: 'info' });
  const [code] = (await once(proc.child, 'exit')) as [number | null];
  const line = proc.output.find((l) => l.includes('processed queued events'));
  const delivered = line ? Number((JSON.parse(line) as { delivered: number }).delivered) : NaN;
  return { code, delivered, output: proc.output };
}

export async function kill(proc: DsyncProc, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  const exited = once(proc.child, 'exit');
  proc.child.kill(signal);
  await exited;
}

export async function killAll(): Promise<void> {
  await Promise.all([...live].map((p) => kill(p)));
}

export function dumpOutputs(procs: Iterable<DsyncProc>): void {
  for (const p of procs) {
    if (p.output.length)
      process.stderr.write(`\n--- last output of ${p.name} ---\n${p.output.slice(-15).join('\n')}\n`);
  }
}

export interface Dir {
  id: string;
}

export async function api(
  proc: DsyncProc,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${proc.url}${path}`, {
    method,
    headers: { authorization: `Api-Key ${API_KEY}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export const scimSecrets = new Map<string, string>();

export async function createDirectories(proc: DsyncProc, n: number, webhookUrl: string, tag: string): Promise<Dir[]> {
  const dirs: Dir[] = [];
  await mapLimit(
    Array.from({ length: n }, (_, i) => i),
    8,
    async (i) => {
      // A try that committed before its 503 leaves a directory no test writes to: nothing to deliver.
      const res = await creating(() =>
        api(proc, 'POST', '/api/v1/directory-sync', {
          name: `${tag} ${i}`,
          tenant: `${tag}-${i}`,
          product: 'faults',
          type: 'generic-scim-v2',
          webhook_url: webhookUrl,
          webhook_secret: SECRET,
        }),
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      scimSecrets.set(res.body.data.id, res.body.data.scim.secret);
      dirs[i] = { id: res.body.data.id };
    },
  );
  return dirs;
}

/**
 * Creates `perDir` users in each directory (one `user.created` event each), interleaving directories and,
 * with several processes, sending request i to procs[i % procs.length].
 */
export async function createUsers(
  procs: DsyncProc[],
  dirs: Dir[],
  perDir: number,
  tag: string,
  concurrency = 16,
): Promise<void> {
  const jobs = Array.from({ length: dirs.length * perDir }, (_, i) => ({
    dir: dirs[i % dirs.length]!,
    n: Math.floor(i / dirs.length),
  }));
  await mapLimit(jobs, concurrency, async ({ dir, n }, i) => {
    const proc = procs[i % procs.length]!;
    const res = await creating(async () => {
      const res = await fetch(`${proc.url}/api/scim/v2.0/${dir.id}/Users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${scimSecrets.get(dir.id)}`, 'content-type': 'application/scim+json' },
        body: JSON.stringify({ schemas: [USER_SCHEMA], userName: `${tag}-${n}@${dir.id}.example.com` }),
      });
      await res.arrayBuffer();
      return { status: res.status, body: undefined };
    });
    // A 409 on a later try: an earlier one committed, with its one event.
    if (res.status !== 201 && !(res.status === 409 && res.tries > 1))
      throw new Error(`SCIM create on ${proc.name} answered ${res.status} (try ${res.tries})`);
  });
}

const CREATE_TRIES = 5;

/**
 * Sends a create as an IdP or an operator does: a 503 (a store command slower than its timeout, on a loaded
 * machine) is tried again a second later, as its Retry-After says. The caller reads a 409 on a later try as an
 * earlier try that committed.
 */
export async function creating<T extends { status: number }>(send: () => Promise<T>): Promise<T & { tries: number }> {
  for (let tries = 1; ; tries++) {
    const res = await send();
    if (res.status !== 503 || tries === CREATE_TRIES) return { ...res, tries };
    await sleep(1000);
  }
}
