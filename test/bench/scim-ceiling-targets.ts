/**
 * The servers the SCIM ceiling benchmark (scim-ceiling.bench.ts) drives: dsync (this checkout or another tree,
 * on its own Redis) and the ceilings (ceiling-server.ts), each a Target the generator sends its phases to.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { client, cpuSeconds, imageNodeOptions, startDsync, startRedis, tscBuild, type Client } from './lib.js';
import { check } from './okta-workload.js';
import { freePort } from '../support/ports.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * Every server runs with the image's NODE_OPTIONS (its young generation: Node.js 22+ would size it by this
 * machine's memory), unless a tree names its own: the figures are what ships, on the same stack each side.
 */
export const IMAGE_NODE_OPTIONS = imageNodeOptions();
export interface Directory {
  base: string;
  scim: Client;
}

export interface Target {
  name: string;
  /** Its CPU profile's directory under BENCH_PROFILE. */
  profileDir: string;
  /** dsync targets are measured; the ceilings are what they are measured against. */
  dsync: boolean;
  /** Where its webhooks arrive, under the receiver's url. */
  hook: string;
  /** Events it has sent for all rounds so far (what the receiver must have before the next measurement). */
  expected: number;
  directory(round: number): Promise<Directory>;
  /** dsync's work so far: store commands it sent (its own metric) and CPU ms of it and its Redis (/proc). */
  work?(): Promise<Work>;
  stop(): Promise<void>;
}

export interface Work {
  commands: number;
  cpuMs: number;
  /** Its Redis' part of cpuMs (a store's costs move between the two). */
  redisCpuMs: number;
}

/** Store commands sent so far (requests and delivery; a script is one), from dsync's own histogram. */
async function storeCommands(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  let sum = 0;
  for (const m of text.matchAll(/^dsync_store_command_duration_seconds_count\{[^}]*\} (\d+)/gm)) sum += Number(m[1]);
  return sum;
}

export interface Tree {
  name: string;
  /** Its checkout; this one when undefined. */
  cwd?: string;
  /** Run src/cli.ts under tsx instead of tsc's build. */
  source: boolean;
  nodeOptions?: string | undefined;
}

export async function dsyncTarget(
  { name, cwd, source, nodeOptions }: Tree,
  receiverUrl: string,
  concurrency: number,
): Promise<Target> {
  const redis = await startRedis();
  const metricsPort = await freePort();
  const proc = await startDsync(
    {
      REDIS_URL: redis.url,
      DSYNC_WEBHOOK_ALLOW_PRIVATE: 'true',
      DSYNC_EVENT_RETENTION: '0s',
      METRICS_PORT: String(metricsPort),
      NODE_OPTIONS: nodeOptions ?? IMAGE_NODE_OPTIONS,
    },
    { ...(cwd && { cwd }), profileDir: name, source },
  );
  const api = client(proc.url, `Api-Key ${proc.apiKey}`, 2);
  const opened: Client[] = [];
  const hook = `/${name}`;
  return {
    name,
    profileDir: name,
    dsync: true,
    hook,
    expected: 0,
    async directory(round) {
      const res = await api.request('POST', '/api/v1/directory-sync', {
        name: `round ${round}`,
        tenant: `r${round}`,
        product: 'bench',
        type: 'okta-scim-v2',
        webhook_url: `${receiverUrl}${hook}`,
      });
      check(res.status, [201], `create directory ${JSON.stringify(res.body)}`);
      const scim = client(proc.url, `Bearer ${res.body.data.scim.secret}`, concurrency);
      opened.push(scim);
      return { base: res.body.data.scim.path as string, scim };
    },
    async work() {
      const redisCpuMs = cpuSeconds(redis.child.pid!) * 1000;
      return {
        commands: await storeCommands(`http://127.0.0.1:${metricsPort}/metrics`),
        cpuMs: cpuSeconds(proc.child.pid!) * 1000 + redisCpuMs,
        redisCpuMs,
      };
    },
    async stop() {
      await Promise.all(opened.map((c) => c.close()));
      await api.close();
      await proc.stop();
      await redis.stop();
    },
  };
}

export const CEILING_NAMES = { express: 'express', http: 'node:http', 'express-redis': 'express+Redis' } as const;

export async function ceilingTarget(
  kind: keyof typeof CEILING_NAMES,
  receiverUrl: string,
  concurrency: number,
  profile: string | undefined,
): Promise<Target> {
  const hook = `/${kind}`;
  const name = CEILING_NAMES[kind];
  const redis = kind === 'express-redis' ? await startRedis() : undefined;
  // Profiled like dsync, so the split per part reads against what the same stack costs without dsync's work.
  const profileArgs = profile ? ['--cpu-prof', `--cpu-prof-dir=${join(profile, kind)}`] : [];
  // Built by tsc as dsync is (startDsync), so neither side pays for tsx's transform.
  await tscBuild(ROOT, 'test/bench/tsconfig.ceiling.json');
  const child: ChildProcess = fork(
    join(ROOT, '.tmp/bench-build/test/bench/ceiling-server.js'),
    [kind, `${receiverUrl}${hook}`, ...(redis ? [redis.url] : [])],
    {
      execArgv: profileArgs,
      env: { ...process.env, NODE_OPTIONS: IMAGE_NODE_OPTIONS },
    },
  );
  const { port } = (await once(child, 'message'))[0] as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const opened: Client[] = [];
  return {
    name,
    profileDir: kind,
    dsync: false,
    hook,
    expected: 0,
    async directory(round) {
      const scim = client(url, 'Bearer ceiling', concurrency);
      opened.push(scim);
      return { base: `/api/scim/v2.0/ceiling-${round}`, scim };
    },
    async work() {
      const redisCpuMs = redis ? cpuSeconds(redis.child.pid!) * 1000 : 0;
      return { commands: 0, cpuMs: cpuSeconds(child.pid!) * 1000 + redisCpuMs, redisCpuMs };
    },
    async stop() {
      await Promise.all(opened.map((c) => c.close()));
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
      await redis?.stop();
    },
  };
}
