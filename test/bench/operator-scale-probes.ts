/**
 * What the operator scale benchmark (operator-scale.bench.ts) reads off the machine and its processes: CPU
 * seconds and memory from /proc, a replica's metrics, the API server's request counts and its CPU profile.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request, type RequestOptions } from 'node:https';
import { dirname, join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { CLOCK_TICKS } from './lib.js';

/** The machine's busy and total CPU seconds so far (all cores), from /proc/stat. */
export function machineCpu(): { busy: number; total: number } {
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  const idle = ticks[3]! + (ticks[4] ?? 0);
  return { busy: (total - idle) / CLOCK_TICKS, total: total / CLOCK_TICKS };
}

/** The pids of a started cluster's kube-apiserver and etcd (apiserver.sh writes them to <dir>/env). */
export function clusterPids(dir: string): { apiserver: number; etcd: number } {
  const env = readFileSync(join(dir, 'env'), 'utf8');
  const pid = (name: string): number => Number(new RegExp(`^${name}=(\\d+)`, 'm').exec(env)?.[1]);
  return { apiserver: pid('APISERVER_PID'), etcd: pid('ETCD_PID') };
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

export interface Scrape {
  kubeWrites: number;
  storeWrites: number;
  /** API requests (leases excluded only from writes: reads of the Lease are few). */
  requests: Record<string, number>;
  throttled: number;
  reconciles: number;
  leader: boolean;
  /** CPU seconds the process used (user + system): unlike wall time, other processes' load does not inflate it. */
  cpuSeconds: number;
  /** V8 heap in use and reserved, and memory outside it (Buffers), MB: what RSS holds beyond the code. */
  heap: { used: number; total: number; external: number };
}

export async function scrape(port: number): Promise<Scrape> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const sum = (re: RegExp): number => [...text.matchAll(re)].reduce((s, m) => s + Number(m[1]), 0);
  const requests: Record<string, number> = {};
  for (const m of text.matchAll(/^rest_client_requests_total\{([^}]*)\} (\d+)/gm)) {
    const method = /method="([^"]+)"/.exec(m[1]!)?.[1] ?? '?';
    requests[method] = (requests[method] ?? 0) + Number(m[2]);
  }
  let kubeWrites = 0;
  let storeWrites = 0;
  for (const m of text.matchAll(/^dsync_operator_writes_total\{([^}]*)\} (\d+)/gm)) {
    if (m[1]!.includes('target="store"')) storeWrites += Number(m[2]);
    else if (!m[1]!.includes('resource="leases"')) kubeWrites += Number(m[2]);
  }
  return {
    kubeWrites,
    storeWrites,
    requests,
    throttled: sum(/^rest_client_requests_total\{[^}]*code="429"[^}]*\} (\d+)/gm),
    reconciles: sum(/^controller_runtime_reconcile_total\{[^}]*result="success"[^}]*\} (\d+)/gm),
    leader: sum(/^leader_election_master_status\{[^}]*\} (\d+)/gm) === 1,
    cpuSeconds: Number(/^process_cpu_seconds_total (\S+)/m.exec(text)?.[1] ?? NaN),
    heap: {
      used: sum(/^nodejs_heap_size_used_bytes (\d+)/gm) / 2 ** 20,
      total: sum(/^nodejs_heap_size_total_bytes (\d+)/gm) / 2 ** 20,
      external: sum(/^nodejs_external_memory_bytes (\d+)/gm) / 2 ** 20,
    },
  };
}

export const writes = (s: Scrape): number => s.kubeWrites + s.storeWrites;

/** The API server's own count of requests and of the time it spent on them, by verb (its /metrics). */
export type ServerLoad = Map<string, { count: number; seconds: number }>;

export async function serverLoad(kubeConfig: KubeConfig): Promise<ServerLoad> {
  const text = (await apiServerGet(kubeConfig, '/metrics')).toString('utf8');
  const load: ServerLoad = new Map();
  const entry = (verb: string) => load.get(verb) ?? load.set(verb, { count: 0, seconds: 0 }).get(verb)!;
  for (const m of text.matchAll(/^apiserver_request_total\{([^}]*)\} (\S+)/gm)) {
    if (/resource="(leases|events)"/.test(m[1]!) || !/resource="/.test(m[1]!)) continue;
    entry(/verb="([^"]+)"/.exec(m[1]!)![1]!).count += Number(m[2]);
  }
  for (const m of text.matchAll(/^apiserver_request_duration_seconds_sum\{([^}]*)\} (\S+)/gm)) {
    if (/resource="(leases|events)"/.test(m[1]!) || !/resource="/.test(m[1]!) || /verb="WATCH"/.test(m[1]!)) continue;
    entry(/verb="([^"]+)"/.exec(m[1]!)![1]!).seconds += Number(m[2]);
  }
  return load;
}

export function loadSince(after: ServerLoad, before: ServerLoad): ServerLoad {
  const diff: ServerLoad = new Map();
  for (const [verb, a] of after) {
    const b = before.get(verb) ?? { count: 0, seconds: 0 };
    if (a.count - b.count > 0) diff.set(verb, { count: a.count - b.count, seconds: a.seconds - b.seconds });
  }
  return diff;
}

/** CPU seconds per process; `other` is the rest of the machine's. */
export type CpuSeconds = Record<'apiserver' | 'etcd' | 'leader' | 'standby' | 'redis' | 'benchmark' | 'other', number>;

export type CpuSample = Record<'apiserver' | 'etcd' | 'leader' | 'standby' | 'redis' | 'benchmark', number> & {
  machine: { busy: number; total: number };
};

export function cpuSpent(start: CpuSample, end: CpuSample): { cpu: CpuSeconds; machineBusy: number } {
  const names = ['apiserver', 'etcd', 'leader', 'standby', 'redis', 'benchmark'] as const;
  const cpu = Object.fromEntries(names.map((k) => [k, end[k] - start[k]])) as CpuSeconds;
  const busy = end.machine.busy - start.machine.busy;
  cpu.other = Math.max(0, busy - names.reduce((sum, k) => sum + cpu[k], 0));
  return { cpu, machineBusy: busy / (end.machine.total - start.machine.total) };
}

/** A GET of the API server with the kubeconfig's credentials; the body. */
async function apiServerGet(kubeConfig: KubeConfig, path: string): Promise<Buffer> {
  const opts: RequestOptions & Record<string, unknown> = {};
  await kubeConfig.applyToHTTPSOptions(opts);
  const url = new URL(path, kubeConfig.getCurrentCluster()!.server);
  return new Promise<Buffer>((resolve, reject) => {
    request(url, { ...opts, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** kube-apiserver's CPU profile over 30 s (needs --profiling=true: set by the benchmark when asked for), to a file. */
export async function apiServerProfile(kubeConfig: KubeConfig, file: string): Promise<void> {
  const body = await apiServerGet(kubeConfig, '/debug/pprof/profile?seconds=30');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, body);
}
