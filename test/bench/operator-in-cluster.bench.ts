// The operator in its pods: the chart on test/k8s/cluster.sh's kubelet (two operator replicas with the chart's
// settings, the resync at 1m so that full resyncs come within the run), N DirectoryConnections created through
// the API 50 at a time. Prints the time to create them and until all are Ready, and each operator pod's memory
// as the kubelet counts it (its cgroup's working set: usage less inactive file pages, which the memory limit and
// evictions go by) against the pod's request and limit: idle, after Ready, and after a couple of resyncs, with
// the most sampled every second. Needs root and a fresh cluster with the image and Redis:
//
//   bash test/k8s/cluster.sh down; bash test/k8s/cluster.sh up && bash test/k8s/cluster.sh image && bash test/k8s/cluster.sh redis
//   BENCH_N=10000 npx tsx test/bench/operator-in-cluster.bench.ts     # N defaults to 10000
//   bash test/k8s/cluster.sh down
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../../src/operator/kube.js';
import { clusterSh, installChart, printed } from '../e2e/local-cluster.js';
import { kubectl, ok } from '../k8s/helm-tools.js';
import { until } from '../support/harness.js';
import { createConnections, createWebhookSecret, watchReady } from './directory-connections.js';

const N = Number(process.env['BENCH_N'] ?? 10_000);
const RESYNC = '1m';
const RESYNC_S = 60; // RESYNC
const RESYNCS = 2.5; // intervals waited after Ready: two full resyncs, whatever the phase of the timer
const NAMESPACE = 'dsync-system';
const MB = 1e6;

interface OperatorPod {
  name: string;
  uid: string;
  request: string;
  limit: string;
}

/** The cgroup (v1, the kubelet's cgroupfs driver) of a pod by its UID, in whichever QoS class it falls. */
function cgroupOf(uid: string): string {
  const root = '/sys/fs/cgroup/memory/kubepods';
  const dir = [
    join(root, 'burstable', `pod${uid}`),
    join(root, 'besteffort', `pod${uid}`),
    join(root, `pod${uid}`),
  ].find((d) => existsSync(d));
  if (!dir) throw new Error(`no memory cgroup for pod ${uid} under ${root}`);
  return dir;
}

/** The pod's working set, bytes, as the kubelet computes it: usage less inactive file pages. */
function workingSet(cgroup: string): number {
  const usage = Number(readFileSync(join(cgroup, 'memory.usage_in_bytes'), 'utf8'));
  const inactive = Number(
    /^total_inactive_file (\d+)$/m.exec(readFileSync(join(cgroup, 'memory.stat'), 'utf8'))?.[1] ?? 0,
  );
  return Math.max(0, usage - inactive);
}

async function main(): Promise<void> {
  if (process.getuid?.() !== 0) throw new Error('run as root: it reads the cluster of test/k8s/cluster.sh');
  // Both idempotent: they print the running cluster's kubeconfig and Redis.
  const kubeconfig = printed(await clusterSh(['up'], 30 * 60_000), 'KUBECONFIG');
  const redisUrl = printed(await clusterSh(['redis'], 60_000), 'REDIS_URL');
  const env = { KUBECONFIG: kubeconfig };
  const k = (args: string[]) => ok(kubectl(), args, { env });

  const installS = await installChart({ kubeconfig, redisUrl }, 'bench-api-key-0123456789abcdef', [
    `operator.resync=${RESYNC}`,
  ]);
  const listed = JSON.parse(
    await k(['-n', NAMESPACE, 'get', 'pods', '-l', 'app.kubernetes.io/component=operator', '-o', 'json']),
  ) as {
    items: Array<{
      metadata: { name: string; uid: string };
      spec: { containers: Array<{ resources: { requests?: { memory?: string }; limits?: { memory?: string } } }> };
    }>;
  };
  const pods: OperatorPod[] = listed.items.map((p) => ({
    name: p.metadata.name,
    uid: p.metadata.uid,
    request: p.spec.containers[0]!.resources.requests?.memory ?? '-',
    limit: p.spec.containers[0]!.resources.limits?.memory ?? '-',
  }));
  const cgroups = new Map(pods.map((p) => [p.name, cgroupOf(p.uid)]));
  const holder = async () =>
    (await k(['-n', NAMESPACE, 'get', 'lease', 'dsync-operator', '-o', 'jsonpath={.spec.holderIdentity}'])).trim();
  await until(async () => (await holder()) !== '' || (await sleep(500), false), 'an operator replica leads', 60_000);

  // The most each pod's working set reached, sampled every second from here to the end.
  const most = new Map(pods.map((p) => [p.name, 0]));
  const sample = () => new Map(pods.map((p) => [p.name, workingSet(cgroups.get(p.name)!)]));
  const sampler = setInterval(() => {
    for (const [name, bytes] of sample()) most.set(name, Math.max(most.get(name)!, bytes));
  }, 1_000);

  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfig);
  const kube = new KubeClient({ kubeConfig, userAgent: 'dsync-bench' });
  const watch = await watchReady(kube);
  try {
    await createWebhookSecret(kube);
    await sleep(10_000); // the replicas settle after their start
    const idle = sample();
    const t0 = Date.now();
    await createConnections(kube, N);
    const createdMs = Date.now() - t0;
    await until(async () => watch.ready.size >= N || (await sleep(250), false), `all ${N} Ready`, 30 * 60_000);
    const readyMs = Date.now() - t0;
    const afterReady = sample();
    await sleep(RESYNCS * RESYNC_S * 1_000);
    const afterResyncs = sample();
    const leader = (await holder()).replace(/_[0-9a-f]{8}$/, '');

    const mb = (bytes: number): string => `${(bytes / MB).toFixed(0)} MB`;
    process.stdout.write(
      `\noperator in its pods (test/k8s/cluster.sh's kubelet, chart ${pods.length} replicas, operator.resync=${RESYNC}), ${N} DirectoryConnections\n` +
        `  helm install --wait: ${installS.toFixed(1)} s\n` +
        `  created (${N} API creates, 50 at a time): ${(createdMs / 1000).toFixed(1)} s\n` +
        `  all Ready (from the first create): ${(readyMs / 1000).toFixed(1)} s\n` +
        `  working set (cgroup usage less inactive file) of each operator pod: idle / after Ready / after ${RESYNCS} resync intervals / most sampled; request, limit\n`,
    );
    for (const p of pods) {
      const role = p.name === leader ? 'leader' : 'standby';
      process.stdout.write(
        `    ${p.name} (${role}): ${mb(idle.get(p.name)!)} / ${mb(afterReady.get(p.name)!)} / ${mb(afterResyncs.get(p.name)!)} / ${mb(most.get(p.name)!)}; ` +
          `request ${p.request}, limit ${p.limit}\n`,
      );
    }
    process.stdout.write(
      `  per resource (the leader's after Ready less idle): ${((afterReady.get(leader)! - idle.get(leader)!) / N / 1e3).toFixed(1)} KB\n`,
    );
  } finally {
    clearInterval(sampler);
    await watch.stop();
    kube.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
