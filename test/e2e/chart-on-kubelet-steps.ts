// The steps chart-on-kubelet.test.ts repeats against the cluster: kubectl with its kubeconfig, the release's pods,
// a helm upgrade under a looping SCIM client, and reading what the receiver pod was sent. Kept apart so the test
// file holds the tests alone.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { helms, kubectl, ok } from '../k8s/helm-tools.js';
import { until } from '../support/harness.js';
import { loopRequests, type LoopReport } from './request-loop.js';

export const NAMESPACE = 'dsync-system';

export interface Condition {
  type: string;
  status: string;
  lastTransitionTime: string;
}
export interface Pod {
  metadata: { name: string; creationTimestamp: string; labels: Record<string, string> };
  spec: {
    securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
    terminationGracePeriodSeconds?: number;
    containers: Array<{
      name: string;
      readinessProbe?: unknown;
      livenessProbe?: unknown;
      lifecycle?: { preStop?: { sleep?: { seconds: number } } };
      securityContext?: { readOnlyRootFilesystem?: boolean };
    }>;
  };
  status: {
    conditions?: Condition[];
    containerStatuses?: Array<{ ready: boolean; restartCount: number; state: { running?: { startedAt: string } } }>;
  };
}
/** One request the receiver pod printed. */
export interface Delivery {
  headers: Record<string, string>;
  body: string;
}
export type Kubectl = (args: string[], input?: string) => Promise<string>;

export const seconds = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / 1000;
/** until(), asking the API server at most every quarter second. */
export const poll = (check: () => Promise<boolean>, what: string, timeoutMs: number) =>
  until(async () => (await check()) || (await sleep(250), false), what, timeoutMs);

/** kubectl against the cluster `env` points at, `input` on its stdin. */
export const kubectlWith =
  (env: () => NodeJS.ProcessEnv): Kubectl =>
  (args, input) =>
    ok(kubectl(), args, { env: env(), ...(input !== undefined && { input }) });

export const releasePods = async (k: Kubectl): Promise<Pod[]> =>
  (
    JSON.parse(await k(['-n', NAMESPACE, 'get', 'pods', '-l', 'app.kubernetes.io/instance=dsync', '-o', 'json'])) as {
      items: Pod[];
    }
  ).items;

/**
 * helm upgrade --reuse-values with `sets`, --wait, and on until the serve pods it replaced are gone, while a
 * client loops SCIM requests through the Service from before the upgrade to the end: the rolling update must
 * fail none of them (the preStop sleep, then the drain on SIGTERM).
 */
export async function upgradeUnderLoad(
  k: Kubectl,
  env: NodeJS.ProcessEnv,
  scim: { base: string; headers: Record<string, string> },
  sets: string[],
): Promise<void> {
  const serve = async () =>
    (await releasePods(k))
      .filter((p) => p.metadata.labels['app.kubernetes.io/component'] === 'serve')
      .map((p) => p.metadata.name);
  const before = await serve();
  const client = loopRequests(`${scim.base}/Users?count=1`, scim.headers);
  let report: LoopReport;
  try {
    await sleep(1000); // answered before the rollout begins, too
    await ok(
      helms()[0]!.bin,
      [
        'upgrade',
        'dsync',
        'charts/dsync',
        '-n',
        NAMESPACE,
        '--reuse-values',
        '--wait',
        '--timeout',
        '180s',
        ...sets.flatMap((v) => ['--set', v]),
      ],
      { env },
    );
    await poll(async () => (await serve()).every((n) => !before.includes(n)), 'the replaced serve pods gone', 90_000);
  } finally {
    report = await client.stop();
  }
  console.log(
    `      rolling update (${sets.join(' ')}): ${report.requests} SCIM requests through the Service in ${report.seconds.toFixed(1)} s, ` +
      `${report.failed} failed, on ${report.connections} connections`,
  );
  expect(report.failed, `failed requests:\n${report.failures.join('\n')}`).to.equal(0);
  expect(report.requests, 'requests sent during the rollout').to.be.at.least(200);
  expect(report.connections, 'connections: the stopping pods sent the client elsewhere').to.be.above(4);
}

/** Waits until the receiver pod's log holds a request `matches` accepts, and returns it. */
export async function receivedDelivery(
  k: Kubectl,
  matches: (d: Delivery) => boolean,
  what: string,
  timeoutMs: number,
): Promise<Delivery> {
  let delivery: Delivery | undefined;
  await poll(
    async () => {
      const lines = (await k(['-n', 'default', 'logs', 'receiver'])).split('\n').filter((l) => l.startsWith('{'));
      delivery = lines.map((l) => JSON.parse(l) as Delivery).find(matches);
      return delivery !== undefined;
    },
    what,
    timeoutMs,
  );
  return delivery!;
}
