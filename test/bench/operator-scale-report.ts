// The table operator-scale.bench.ts prints from each N's result, and how the time to Ready grows with N. Apart
// from the bench so that file holds the measuring.
import { availableParallelism } from 'node:os';
import { type CpuSeconds, type Scrape, type ServerLoad, writes } from './operator-scale-probes.js';

export interface Result {
  n: number;
  loadBefore: string;
  loadAfter: string;
  appliedMs: number;
  readyMs: number;
  rss: { idle: number; settled: number; peak: number };
  converged: Scrape;
  leaderCpuSeconds: number;
  /**
   * The API server's requests (leases and events aside) from the first create to all Ready, the bench's own included.
   */
  server: ServerLoad;
  /** CPU seconds per process from the first create to all Ready; `other` is the rest of the machine's. */
  cpu: CpuSeconds;
  /** The machine's busy share of all its cores over the same span. */
  machineBusy: number;
  resyncReconciles: number;
  resyncWrites: number;
  takeover: { leadsMs: number; reconciledMs: number; reconciles: number; writes: number };
}

/**
 * CPU seconds the run itself used to all Ready (API server, etcd, both replicas, Redis, the benchmark): spread
 * over every core of an otherwise idle machine, the least time to Ready its work allows, whatever the others
 * running beside it take.
 */
const stackCpu = (r: Result): number =>
  Object.entries(r.cpu).reduce((sum, [k, v]) => (k === 'other' ? sum : sum + v), 0);
const CORES = availableParallelism();

/** `operator`: how the replicas ran (the program and its NODE_OPTIONS), for the heading. */
export function report(results: Result[], operator: string): void {
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const mb = (x: number): string => `${x.toFixed(0)} MB`;
  const per = (x: number, n: number): string => (x / n).toFixed(2);
  const rows: Array<[string, (r: Result) => string]> = [
    ['machine load (1/5/15 min) before / after', (r) => `${r.loadBefore} / ${r.loadAfter}`],
    ['applied (API creates, 50 in parallel)', (r) => s(r.appliedMs)],
    ['all Ready (from the first create)', (r) => s(r.readyMs)],
    ['  per 1,000 resources', (r) => s((r.readyMs / r.n) * 1000)],
    [
      'writes per resource: API server + store',
      (r) =>
        `${per(r.converged.kubeWrites, r.n)} + ${per(r.converged.storeWrites, r.n)} = ${per(writes(r.converged), r.n)}`,
    ],
    [
      'API requests per resource (by method)',
      (r) =>
        Object.entries(r.converged.requests)
          .map(([m, c]) => `${m} ${per(c, r.n)}`)
          .join(', '),
    ],
    ['API answers 429 (retried after Retry-After)', (r) => String(r.converged.throttled)],
    [
      'API server: requests per resource by verb',
      (r) => [...r.server].map(([v, l]) => `${v} ${per(l.count, r.n)}`).join(', '),
    ],
    [
      'API server: busy seconds by verb',
      (r) => [...r.server].map(([v, l]) => `${v} ${l.seconds.toFixed(0)}`).join(', '),
    ],
    [
      'CPU seconds to all Ready: kube-apiserver, etcd',
      (r) => `${r.cpu.apiserver.toFixed(0)}, ${r.cpu.etcd.toFixed(0)}`,
    ],
    [
      '  leader, standby, redis, benchmark',
      (r) => [r.cpu.leader, r.cpu.standby, r.cpu.redis, r.cpu.benchmark].map((x) => x.toFixed(0)).join(', '),
    ],
    ['  other processes; machine busy', (r) => `${r.cpu.other.toFixed(0)}; ${(r.machineBusy * 100).toFixed(0)}%`],
    [`  floor on ${CORES} idle cores (this run's CPU / cores)`, (r) => s((stackCpu(r) / CORES) * 1000)],
    [
      'leader CPU seconds to converge, per 1,000',
      (r) => `${r.leaderCpuSeconds.toFixed(1)}, ${((r.leaderCpuSeconds / r.n) * 1000).toFixed(1)}`,
    ],
    ['leader RSS idle / after Ready / peak', (r) => `${mb(r.rss.idle)} / ${mb(r.rss.settled)} / ${mb(r.rss.peak)}`],
    [
      'leader V8 heap used / reserved, external',
      (r) => `${mb(r.converged.heap.used)} / ${mb(r.converged.heap.total)}, ${mb(r.converged.heap.external)}`,
    ],
    ['full resync: reconciles, writes (must be 0)', (r) => `${r.resyncReconciles}, ${r.resyncWrites}`],
    ['takeover: standby leads after', (r) => s(r.takeover.leadsMs)],
    ['takeover: all reconciled after', (r) => s(r.takeover.reconciledMs)],
    ['takeover: reconciles, writes (must be 0)', (r) => `${r.takeover.reconciles}, ${r.takeover.writes}`],
  ];
  const table = [
    ['DirectoryConnections', ...results.map((r) => String(r.n))],
    ...rows.map(([k, f]) => [k, ...results.map(f)]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  process.stdout.write(
    `\noperator scale benchmark (kube-apiserver v1.35.8, node ${process.version}, operator: ${operator}, 2 replicas, kube-apiserver and etcd at GOGC=${process.env['GOGC'] ?? '100'})\n`,
  );
  for (const row of table)
    process.stdout.write(
      `  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  |  ')}\n`,
    );
  const first = results[0]!;
  const last = results[results.length - 1]!;
  if (results.length > 1) {
    const ratio = last.readyMs / last.n / (first.readyMs / first.n);
    const cpuRatio = last.leaderCpuSeconds / last.n / (first.leaderCpuSeconds / first.n);
    process.stdout.write(
      `  growth from ${first.n} to ${last.n}: ${last.n / first.n}x the resources took ${(last.readyMs / first.readyMs).toFixed(2)}x the time; ` +
        `time per resource x${ratio.toFixed(2)}, leader CPU per resource x${cpuRatio.toFixed(2)} (<= 1: linear or better)\n`,
    );
  }
  if (results.some((r) => r.resyncWrites !== 0 || r.takeover.writes !== 0)) process.exitCode = 1;
}
