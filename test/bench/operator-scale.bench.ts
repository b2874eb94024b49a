// Operator scale benchmark: N DirectoryConnections applied at once against a real kube-apiserver, reconciled
// by a `dsync operator` process into its own redis-server. The operator runs as the container runs it:
// `dist/cli.js` (built by `tsc -p tsconfig.build.json`, as `npm run build` does), on plain node.
//
//   npx tsx test/bench/operator-scale.bench.ts                                  # N = 1000
//   OPERATOR_BENCH_N=200 npx tsx test/bench/operator-scale.bench.ts
//   OPERATOR_BENCH_FROM_SOURCE=1 npx tsx test/bench/operator-scale.bench.ts     # under tsx (~85 MB more RSS)
//
// Prints the time until every resource is Ready, the operator's RSS (current and peak), the writes it issued,
// and the writes of one full resync with nothing changed (must be 0). Targets (2-core machine): < 60 s to
// Ready, < 300 MB RSS.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { API_VERSION, DIRECTORY_CONNECTIONS, KIND, type DirectoryConnection } from '../../src/operator/crd-schema.js';
import { KubeClient, SECRETS } from '../../src/operator/kube.js';
import { installCrd } from '../k8s/operator-harness.js';
import { startCluster } from '../k8s/cluster.js';

const N = Number(process.env['OPERATOR_BENCH_N'] ?? 1000);
const CREATE_CONCURRENCY = 50;
const RESYNC = '20s';
const FROM_SOURCE = process.env['OPERATOR_BENCH_FROM_SOURCE'] === '1';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startRedis(dir: string): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: 'ignore',
  });
  await sleep(300);
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function scrape(port: number): Promise<{ writes: number; reconciles: number }> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const sum = (re: RegExp): number => [...text.matchAll(re)].reduce((s, m) => s + Number(m[1]), 0);
  return {
    writes: sum(/^dsync_operator_writes_total\{[^}]*resource="(?!leases")[^"]*"[^}]*\} (\d+)/gm),
    reconciles: sum(/^controller_runtime_reconcile_total\{[^}]*result="success"[^}]*\} (\d+)/gm),
  };
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

async function main(): Promise<void> {
  const command = operatorCommand();
  const dir = mkdtempSync(join(tmpdir(), 'dsync-operator-bench-'));
  const cluster = await startCluster();
  const redis = await startRedis(dir);
  let operator: ChildProcess | undefined;
  try {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(cluster.kubeconfigPath);
    const kube = new KubeClient({ kubeConfig, userAgent: 'dsync-bench' });
    await installCrd(kube);
    await kube.create(SECRETS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'hook', namespace: 'default' },
      data: { secret: Buffer.from('whsec_benchmark').toString('base64') },
    });

    const metricsPort = await freePort();
    operator = spawn(process.execPath, command, {
      env: {
        ...process.env,
        KUBECONFIG: cluster.kubeconfigPath,
        REDIS_URL: redis.url,
        DSYNC_EXTERNAL_URL: 'https://dsync.example.com',
        METRICS_PORT: String(metricsPort),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DSYNC_OPERATOR_RESYNC: RESYNC,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const pid = operator.pid!;
    for (let i = 0; ; i++) {
      if (await scrape(metricsPort).then(() => true, () => false)) break;
      if (i > 100) throw new Error('the operator did not start');
      await sleep(100);
    }
    await sleep(1_000); // let it take the lease and sync its (empty) caches
    const idle = memoryOf(pid);

    const t0 = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CREATE_CONCURRENCY }, async () => {
        while (next < N) {
          const i = next++;
          const cr: DirectoryConnection = {
            apiVersion: API_VERSION,
            kind: KIND,
            metadata: { name: `dc-${i}`, namespace: 'default' },
            spec: {
              name: `Directory ${i}`,
              tenant: `tenant-${i}`,
              product: 'bench',
              type: 'okta-scim-v2',
              webhook: { url: 'https://hooks.example.com/dsync', secretRef: { name: 'hook', key: 'secret' } },
            },
          };
          await kube.create(DIRECTORY_CONNECTIONS, cr);
        }
      }),
    );
    const appliedMs = Date.now() - t0;

    let peak = idle.peak;
    let ready = 0;
    while (ready < N) {
      await sleep(250);
      peak = Math.max(peak, memoryOf(pid).peak);
      const list = await kube.list<DirectoryConnection>(DIRECTORY_CONNECTIONS, 'default', {});
      ready = list.items.filter((cr) => cr.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
      if (Date.now() - t0 > 300_000) throw new Error(`only ${ready}/${N} Ready after 300 s`);
    }
    const readyMs = Date.now() - t0;
    const settled = memoryOf(pid);
    const converged = await scrape(metricsPort);

    // One full resync with nothing changed: every resource reconciled again, no write.
    await sleep(2_000); // trailing echoes
    const before = await scrape(metricsPort);
    const resyncStart = Date.now();
    let after = before;
    while (after.reconciles < before.reconciles + N) {
      await sleep(500);
      after = await scrape(metricsPort);
      if (Date.now() - resyncStart > 120_000) throw new Error('no full resync within 120 s');
    }
    await sleep(1_000);
    after = await scrape(metricsPort);
    const final = memoryOf(pid);

    const mb = (n: number): string => `${n.toFixed(0)} MB`;
    const rows: Array<[string, string]> = [
      ['DirectoryConnections', String(N)],
      ['applied (API creates, 50 in parallel)', `${(appliedMs / 1000).toFixed(1)} s`],
      ['all Ready (from first create)', `${(readyMs / 1000).toFixed(1)} s  (target < 60 s)`],
      ['operator RSS idle / after Ready / peak', `${mb(idle.rss)} / ${mb(settled.rss)} / ${mb(Math.max(peak, final.peak))}  (target < 300 MB)`],
      ['writes to converge (API server + store)', `${converged.writes}  (${(converged.writes / N).toFixed(2)} per resource)`],
      [`writes during a full resync (${after.reconciles - before.reconciles} reconciles)`, `${after.writes - before.writes}  (must be 0)`],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    const form = FROM_SOURCE ? 'sources under tsx' : 'compiled CLI';
    process.stdout.write(`\noperator scale benchmark (kube-apiserver v1.35.8, node ${process.version}, operator: ${form})\n`);
    for (const [k, v] of rows) process.stdout.write(`  ${k.padEnd(width)}  ${v}\n`);
    if (after.writes !== before.writes) process.exitCode = 1;
    kube.close();
  } finally {
    operator?.kill('SIGTERM');
    await new Promise((resolve) => (operator ? operator.once('exit', resolve) : resolve(undefined)));
    redis.stop();
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
