// Operator scale benchmark: N DirectoryConnections applied at once against a real kube-apiserver, reconciled
// by two `dsync operator` replicas (a leader and a warm standby) into their own redis-server. The operator runs
// as the image runs it: `dist/cli.js` (built by `tsc -p tsconfig.build.json`, as `npm run build` does), on
// plain node. Each N gets a fresh API server, etcd and Redis.
//
//   npx tsx test/bench/operator-scale.bench.ts                                  # N = 1000, 5000, 10000
//   OPERATOR_BENCH_N=200,1000 npx tsx test/bench/operator-scale.bench.ts
//   OPERATOR_BENCH_FROM_SOURCE=1 npx tsx test/bench/operator-scale.bench.ts     # under tsx (~85 MB more RSS)
//   OPERATOR_BENCH_CPU_PROF=.tmp/prof npx tsx test/bench/operator-scale.bench.ts  # the leader's --cpu-prof
//   OPERATOR_BENCH_HEAP_SNAPSHOT=.tmp/heap npx tsx test/bench/operator-scale.bench.ts  # the leader's heap snapshot after Ready
//   OPERATOR_BENCH_APISERVER_PROF=.tmp/prof npx tsx test/bench/operator-scale.bench.ts  # kube-apiserver's pprof, 30 s from the first create
//   OPERATOR_BENCH_NODE_OPTIONS=--max-semi-space-size=16 npx tsx test/bench/operator-scale.bench.ts  # instead of the chart's
//   GOGC=400 npx tsx test/bench/operator-scale.bench.ts    # kube-apiserver and etcd (children) collect garbage less often
//
// Per N it prints: the time until every resource is Ready (from the first create, seen through a watch), the
// writes to converge (API server and store apart) and the API requests per resource, the leader's RSS, the
// writes of one full resync with nothing changed (must be 0), and a leader takeover: the leader stops (as in a
// rolling update), the standby takes the Lease and reconciles every resource; the time until it leads and
// until it has reconciled all N, and its writes (must be 0). Then how the time to Ready grows with N. On a shared
// machine the time to Ready is mostly the others' load: the CPU seconds of each process of the run, and their
// sum over the machine's cores (the least time to Ready that work allows on it, idle), tell the run's own cost.
// Targets (2-core machine): 10,000 Ready in < 60 s, <= 3 writes per resource, < 300 MB RSS.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../../src/operator/kube.js';
import { installCrd } from '../k8s/operator-harness.js';
import { startCluster } from '../k8s/cluster.js';
import { createConnections, createWebhookSecret, watchReady } from './directory-connections.js';
import { cpuSeconds, imageNodeOptions } from './lib.js';
import {
  apiServerProfile,
  clusterPids,
  type CpuSample,
  cpuSpent,
  machineCpu,
  memoryOf,
  type Scrape,
  scrape,
  serverLoad,
  loadSince,
  writes,
} from './operator-scale-probes.js';
import { report, type Result } from './operator-scale-report.js';

const SIZES = (process.env['OPERATOR_BENCH_N'] ?? '1000,5000,10000').split(',').map(Number);
const RESYNC = '60s'; // past convergence at 10,000 on a quiet machine; production's default is 10 min
const FROM_SOURCE = process.env['OPERATOR_BENCH_FROM_SOURCE'] === '1';
const CPU_PROF = process.env['OPERATOR_BENCH_CPU_PROF'];
const APISERVER_PROF = process.env['OPERATOR_BENCH_APISERVER_PROF'];
const HEAP_SNAPSHOT = process.env['OPERATOR_BENCH_HEAP_SNAPSHOT'];
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The replicas run with the NODE_OPTIONS the chart gives the operator (values.yaml `operator.nodeOptions`, else
 * the image's), so RSS is the deployed one; or with these, to compare.
 */
const NODE_OPTIONS = process.env['OPERATOR_BENCH_NODE_OPTIONS'] ?? chartOperatorNodeOptions();

function chartOperatorNodeOptions(): string {
  const values = parse(readFileSync(join(ROOT, 'charts/dsync/values.yaml'), 'utf8')) as {
    operator?: { nodeOptions?: string };
  };
  return values.operator?.nodeOptions || imageNodeOptions();
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startRedis(dir: string): Promise<{ url: string; pid: number; stop(): void }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    {
      stdio: 'ignore',
    },
  );
  await sleep(300);
  return { url: `redis://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

/**
 * The command line that starts `dsync operator`: `dist/cli.js` as the image runs it (built here with the
 * build script's own tsc invocation, so `dist/` keeps the layout the sources expect, e.g. `../package.json`),
 * unless asked to run the sources.
 */
function operatorCommand(): string[] {
  if (FROM_SOURCE) return ['--import', 'tsx', join(ROOT, 'src/cli.ts'), 'operator'];
  const out = join(ROOT, 'dist');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit', cwd: ROOT });
  } catch {
    // Type errors elsewhere still emit JavaScript; only a missing CLI stops the benchmark.
    if (!existsSync(join(out, 'cli.js'))) throw new Error('tsc did not emit dist/cli.js');
  }
  return [join(out, 'cli.js'), 'operator'];
}

interface Replica {
  process: ChildProcess;
  port: number;
  scrape(): Promise<Scrape>;
  stop(): Promise<void>;
}

async function startReplica(command: string[], env: Record<string, string>, profile: boolean): Promise<Replica> {
  const port = await freePort();
  const args = [
    ...(profile && CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF] : []),
    ...(profile && HEAP_SNAPSHOT ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${HEAP_SNAPSHOT}`] : []),
    ...command,
  ];
  if (profile && HEAP_SNAPSHOT) mkdirSync(HEAP_SNAPSHOT, { recursive: true });
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, NODE_OPTIONS, METRICS_PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let i = 0; ; i++) {
    if (
      await scrape(port).then(
        () => true,
        () => false,
      )
    )
      break;
    if (i > 150) throw new Error('the operator did not start');
    await sleep(100);
  }
  return {
    process: child,
    port,
    scrape: () => scrape(port),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Waits until `check` holds, polling every `everyMs`; fails after `limitMs`. */
async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  limitMs: number,
  everyMs = 100,
): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > limitMs) throw new Error(`${what}: not within ${limitMs / 1000} s`);
    await sleep(everyMs);
  }
}

async function measure(n: number, command: string[]): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), 'dsync-operator-bench-'));
  const loadBefore = load();
  const cluster = await startCluster();
  const redis = await startRedis(dir);
  const replicas: Replica[] = [];
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(cluster.kubeconfigPath);
  const kube = new KubeClient({ kubeConfig, userAgent: 'dsync-bench' });
  let watch: Awaited<ReturnType<typeof watchReady>> | undefined;
  try {
    await installCrd(kube);
    await createWebhookSecret(kube);
    watch = await watchReady(kube);
    const { ready } = watch;

    const env = {
      KUBECONFIG: cluster.kubeconfigPath,
      REDIS_URL: redis.url,
      DSYNC_EXTERNAL_URL: 'https://dsync.example.com',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DSYNC_OPERATOR_RESYNC: RESYNC,
    };
    const leader = await startReplica(command, env, true);
    replicas.push(leader);
    await until('the first replica leads', async () => (await leader.scrape()).leader, 30_000);
    const standby = await startReplica(command, env, false);
    replicas.push(standby);
    await sleep(1_000); // the standby's (empty) caches sync
    const pid = leader.process.pid!;
    const idle = memoryOf(pid);

    const serverBefore = await serverLoad(kubeConfig);
    const cpuBefore = (await leader.scrape()).cpuSeconds;
    const pids = { ...clusterPids(cluster.dir), leader: pid, standby: standby.process.pid!, redis: redis.pid };
    const sample = (): CpuSample => {
      const { user, system } = process.cpuUsage();
      return {
        ...(Object.fromEntries(Object.entries(pids).map(([name, p]) => [name, cpuSeconds(p)])) as Record<
          keyof typeof pids,
          number
        >),
        benchmark: (user + system) / 1e6,
        machine: machineCpu(),
      };
    };
    const cpuAtStart = sample();
    const t0 = Date.now();
    const profiled = APISERVER_PROF
      ? apiServerProfile(kubeConfig, join(APISERVER_PROF, `kube-apiserver-${n}.pprof`))
      : undefined;
    await createConnections(kube, n);
    const appliedMs = Date.now() - t0;

    let peak = idle.peak;
    await until(
      `all ${n} Ready`,
      () => {
        peak = Math.max(peak, memoryOf(pid).peak);
        return ready.size >= n;
      },
      600_000,
    );
    const readyMs = Date.now() - t0;
    const cpuAtReady = sample();
    await profiled;
    const settled = memoryOf(pid);
    await sleep(2_000); // trailing echoes
    const converged = await leader.scrape();
    if (HEAP_SNAPSHOT) {
      leader.process.kill('SIGUSR2'); // written while the process pauses; the resync below waits for it
      await sleep(5_000);
    }
    const server = loadSince(await serverLoad(kubeConfig), serverBefore);

    // One full resync with nothing changed: every resource reconciled again, no write.
    const before = converged;
    let after = before;
    await until(
      'a full resync',
      async () => {
        after = await leader.scrape();
        return after.reconciles >= before.reconciles + n;
      },
      180_000,
      500,
    );
    await sleep(1_000);
    after = await leader.scrape();
    peak = Math.max(peak, memoryOf(pid).peak);

    // Takeover: the leader stops (SIGTERM frees the Lease, as in a rolling update); the warm standby leads and
    // reconciles every resource it has cached.
    const standbyBefore = await standby.scrape();
    const stopAt = Date.now();
    const stopped = leader.stop();
    await until('the standby leads', async () => (await standby.scrape()).leader, 60_000, 50);
    const leadsMs = Date.now() - stopAt;
    let standbyAfter = standbyBefore;
    await until(
      'the standby reconciled everything',
      async () => {
        standbyAfter = await standby.scrape();
        return standbyAfter.reconciles >= standbyBefore.reconciles + n;
      },
      300_000,
      100,
    );
    const reconciledMs = Date.now() - stopAt;
    await stopped;
    await sleep(1_000);
    standbyAfter = await standby.scrape();

    return {
      n,
      loadBefore,
      loadAfter: load(),
      appliedMs,
      readyMs,
      rss: { idle: idle.rss, settled: settled.rss, peak },
      converged,
      leaderCpuSeconds: converged.cpuSeconds - cpuBefore,
      server,
      ...cpuSpent(cpuAtStart, cpuAtReady),
      resyncReconciles: after.reconciles - before.reconciles,
      resyncWrites: writes(after) - writes(before),
      takeover: {
        leadsMs,
        reconciledMs,
        reconciles: standbyAfter.reconciles - standbyBefore.reconciles,
        writes: writes(standbyAfter) - writes(standbyBefore),
      },
    };
  } finally {
    await watch?.stop();
    kube.close();
    await Promise.all(replicas.map((r) => r.stop()));
    redis.stop();
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (APISERVER_PROF)
    process.env['DSYNC_K8S_APISERVER_ARGS'] = `${process.env['DSYNC_K8S_APISERVER_ARGS'] ?? ''} --profiling=true`;
  const command = operatorCommand();
  const results: Result[] = [];
  for (const n of SIZES) {
    results.push(await measure(n, command));
    process.stdout.write(`N=${n}: all Ready in ${(results.at(-1)!.readyMs / 1000).toFixed(1)} s\n`);
  }
  const form = FROM_SOURCE ? 'sources under tsx' : 'dist/cli.js';
  report(results, `${form} with NODE_OPTIONS ${NODE_OPTIONS || '(none)'}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
