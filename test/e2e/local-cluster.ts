// test/k8s/cluster.sh for mocha: a single-node Kubernetes (kubelet, containerd) in a network namespace, the image
// built from the Dockerfile and loaded into the node, a Redis the pods reach. Needs root (the script's needs:
// docs/operating/helm.md, "Try it on a local cluster").
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { helmPageCommand, helms, kubectl, ok } from '../k8s/helm-tools.js';

const CLUSTER_SH = fileURLToPath(new URL('../k8s/cluster.sh', import.meta.url));

/** Runs `cluster.sh <args>`; resolves with its last line of output (its contract), its log goes to our stderr. */
export function clusterSh(args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'bash',
      [CLUSTER_SH, ...args],
      { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 },
      (err, stdout) => {
        if (err) reject(new Error(`cluster.sh ${args.join(' ')} failed: ${err.message}`));
        else resolve(stdout.trim().split('\n').at(-1) ?? '');
      },
    );
    child.stderr!.pipe(process.stderr, { end: false });
  });
}

/** The `NAME=value` of a printed line, or an error naming what was printed instead. */
export function printed(line: string, name: string): string {
  if (!line.startsWith(`${name}=`)) throw new Error(`cluster.sh printed "${line}", expected ${name}=...`);
  return line.slice(name.length + 1);
}

export interface LocalCluster {
  kubeconfig: string;
  redisUrl: string;
  /** A loopback address of this namespace forwarded to <host:port> inside the cluster's (a Service's ClusterIP). */
  forward(target: string): Promise<string>;
  down(): Promise<void>;
}

/** A fresh cluster (down first: a run never inherits another's objects), the image, Redis; timings are logged. */
export async function startLocalCluster(): Promise<LocalCluster> {
  if (process.getuid?.() !== 0)
    throw new Error('test/k8s/cluster.sh runs as root (network namespace, containerd, kubelet)');
  await clusterSh(['down'], 180_000);
  const kubeconfig = printed(await clusterSh(['up'], 30 * 60_000), 'KUBECONFIG');
  const image = await clusterSh(['image'], 20 * 60_000);
  if (image !== 'dsync:dev') throw new Error(`cluster.sh image printed "${image}", expected dsync:dev`);
  const redisUrl = printed(await clusterSh(['redis'], 60_000), 'REDIS_URL');
  return {
    kubeconfig,
    redisUrl,
    forward: (target) => clusterSh(['forward', target], 30_000),
    down: async () => {
      await clusterSh(['down'], 180_000);
    },
  };
}

/**
 * The chart installed on the cluster as docs/operating/helm.md says (the CRD, the namespace, the Secrets of the
 * Redis URL and the API keys, `helm install --wait`), `sets` added as `--set`; resolves with helm install's seconds.
 */
export async function installChart(
  cluster: Pick<LocalCluster, 'kubeconfig' | 'redisUrl'>,
  apiKey: string,
  sets: string[] = [],
): Promise<number> {
  const env = { KUBECONFIG: cluster.kubeconfig };
  const k = (args: string[]) => ok(kubectl(), args, { env });
  await k(helmPageCommand('kubectl apply --server-side -f crds/').slice(1));
  await k(helmPageCommand('kubectl create namespace').slice(1));
  const namespace = helmPageCommand('kubectl create namespace').at(-1)!;
  await k(['-n', namespace, 'create', 'secret', 'generic', 'dsync-redis', `--from-literal=url=${cluster.redisUrl}`]);
  await k(['-n', namespace, 'create', 'secret', 'generic', 'dsync-api-keys', `--from-literal=keys=${apiKey}`]);
  const install = helmPageCommand('helm install dsync charts/dsync');
  const t0 = Date.now();
  await ok(helms()[0]!.bin, [...install.slice(1), '--timeout', '180s', ...sets.flatMap((v) => ['--set', v])], { env });
  return (Date.now() - t0) / 1000;
}
