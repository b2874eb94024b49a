// A real kube-apiserver + etcd (envtest-style, no controllers) for mocha tests.
// Binaries come from `bash test/k8s/apiserver.sh build` (cached outside the checkout).
//
//   const cluster = await startCluster();            // ~5-15 s; use this.timeout(120_000) in before()
//   const kc = new KubeConfig(); kc.loadFromFile(cluster.kubeconfigPath);
//   await cluster.restartApiServer();                 // same port, certs and etcd
//   await cluster.stop();
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const apiServerScript = fileURLToPath(new URL('./apiserver.sh', import.meta.url));

export interface Cluster {
  kubeconfigPath: string;
  dir: string;
  /** Stops kube-apiserver (SIGTERM; SIGKILL with `hard`) and starts it again on the same port; resolves when ready. */
  restartApiServer(opts?: { hard?: boolean }): Promise<void>;
  /** Stops kube-apiserver and etcd and removes the temp dir (kept if DSYNC_K8S_KEEP=1). Idempotent. */
  stop(): Promise<void>;
}

function runScript(args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'bash',
      [apiServerScript, ...args],
      { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) {
          reject(new Error(`apiserver.sh ${args.join(' ')} failed: ${err.message}\n${stderr}`));
        } else {
          resolve(stdout);
        }
      },
    );
  });
}

/** True when the kube-apiserver/etcd binaries are built (tests can skip otherwise). */
export async function clusterBinariesAvailable(): Promise<boolean> {
  try {
    await runScript(['bin-dir'], 30_000);
    return true;
  } catch {
    return false;
  }
}

const keep = (): boolean => process.env['DSYNC_K8S_KEEP'] === '1';

export async function startCluster(): Promise<Cluster> {
  const dir = await mkdtemp(join(tmpdir(), 'dsync-k8s-'));
  // If the test process exits without calling stop(), don't leave etcd/kube-apiserver running.
  const onExit = (): void => {
    try {
      execFileSync('bash', [apiServerScript, 'stop', dir], { stdio: 'ignore', timeout: 60_000 });
      if (!keep()) rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort
    }
  };
  process.once('exit', onExit);

  try {
    await runScript(['start', dir], 120_000);
  } catch (err) {
    process.removeListener('exit', onExit);
    await runScript(['stop', dir], 60_000).catch(() => undefined);
    if (!keep()) await rm(dir, { recursive: true, force: true });
    throw err;
  }

  let stopped: Promise<void> | undefined;
  return {
    kubeconfigPath: join(dir, 'kubeconfig'),
    dir,
    async restartApiServer(opts?: { hard?: boolean }): Promise<void> {
      await runScript(['restart-apiserver', dir, ...(opts?.hard ? ['--hard'] : [])], 120_000);
    },
    stop(): Promise<void> {
      stopped ??= (async () => {
        process.removeListener('exit', onExit);
        await runScript(['stop', dir], 90_000);
        if (!keep()) await rm(dir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}
