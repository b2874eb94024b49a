// Shared set-up for the operator tests: a real kube-apiserver (cluster.ts) with the committed CRD installed,
// a Redis store (logical db 8 of the test server unless told otherwise), and helpers to create resources and
// wait for the operator.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { parse, stringify } from 'yaml';
import { DirectoryService } from '../../src/core/directories.js';
import { CRD_FILE } from '../../scripts/generate/crd.js';
import { findCondition, READY } from '../../src/operator/conditions.js';
import { API_VERSION, DIRECTORY_CONNECTIONS, KIND, type DirectoryConnection } from '../../src/operator/crd-schema.js';
import { KubeClient, SECRETS, type KubeObject, type Secret } from '../../src/operator/kube.js';
import type { KubeConfigView } from '../../src/operator/kube-config/kube-credentials.js';
import { loadKubeConfig } from '../../src/operator/kube-config/load-kube-config.js';
import { runOperator, type Operator, type OperatorOptions } from '../../src/operator/main.js';
import type { RedisStore } from '../../src/store/redis/users-groups.js';
import { freshRedisStore } from '../support/services.js';
import { startCluster, type Cluster } from './cluster.js';

export const REDIS_DB = 8;
export const EXTERNAL_URL = 'https://dsync.example.com';
const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' };

export interface Env {
  cluster: Cluster;
  /** The admin kubeconfig, read by the operator's own loader. */
  kubeConfig: KubeConfigView;
  /** A client of the test itself (its writes are not the operator's). */
  kube: KubeClient;
  store: RedisStore;
  directories: DirectoryService;
  stop(): Promise<void>;
}

/** `openStore` picks the store the test (and an in-process operator) uses, emptied; default db 8. */
export async function startEnv(openStore: () => Promise<RedisStore> = () => freshRedisStore(REDIS_DB)): Promise<Env> {
  const cluster = await startCluster();
  try {
    const kubeConfig = await loadKubeConfig({ kubeconfig: cluster.kubeconfigPath });
    const kube = new KubeClient({ kubeConfig, userAgent: 'dsync-tests' });
    await installCrd(kube);
    const store = await openStore();
    const directories = new DirectoryService({ store, externalUrl: EXTERNAL_URL });
    return {
      cluster,
      kubeConfig,
      kube,
      store,
      directories,
      async stop() {
        kube.close();
        await store.close();
        await cluster.stop();
      },
    };
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}

interface KubeconfigDoc {
  clusters: Array<{ cluster: Record<string, unknown> }>;
  users: Array<{ user: Record<string, unknown> }>;
  contexts: Array<{ context: Record<string, unknown> }>;
}

/**
 * The admin kubeconfig with its server, its user's credentials or its context's namespace replaced, written as
 * `<name>.kubeconfig` in the
 * cluster's directory (returned as `path`) and read by the operator's loader.
 */
export async function variantKubeConfig(
  env: Env,
  name: string,
  change: { server?: string; user?: Record<string, unknown>; namespace?: string },
): Promise<{ kubeConfig: KubeConfigView; path: string }> {
  const doc = parse(readFileSync(env.cluster.kubeconfigPath, 'utf8')) as KubeconfigDoc;
  if (change.server) doc.clusters[0]!.cluster['server'] = change.server;
  if (change.user) doc.users[0]!.user = change.user;
  if (change.namespace) doc.contexts[0]!.context['namespace'] = change.namespace;
  const path = join(env.cluster.dir, `${name}.kubeconfig`);
  await writeFile(path, stringify(doc), { mode: 0o600 });
  return { kubeConfig: await loadKubeConfig({ kubeconfig: path }), path };
}

/** Installs the committed CRD YAML as a raw object (client-node's typed model would drop `x-kubernetes-*`). */
export async function installCrd(kube: KubeClient): Promise<void> {
  const crd = parse(readFileSync(CRD_FILE, 'utf8')) as KubeObject;
  await kube.create(CRDS, crd);
  await waitFor('CRD established', async () => {
    const got = await kube.get<{ status?: { conditions?: Array<{ type: string; status: string }> } }>(
      CRDS,
      '',
      crd.metadata.name,
    );
    return got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
  });
}

/**
 * What the operators of this process logged at warn or above, and how any of them stopped on its own (leadership
 * lost), newest last: a `waitFor` that times out names what came lately, so the one line CI keeps of a failure
 * says why the operator did not get there, not only `last: undefined`.
 */
const trouble: Array<{ at: number; text: string }> = [];
const TROUBLE_KEPT = 20;
function noteTrouble(text: string): void {
  trouble.push({ at: Date.now(), text: text.length > 200 ? `${text.slice(0, 200)}…` : text });
  if (trouble.length > TROUBLE_KEPT) trouble.shift();
}
const troubleLog = {
  write(line: string): void {
    const entry = JSON.parse(line) as { msg?: string; key?: string; err?: { message?: string } };
    noteTrouble(
      `operator: ${entry.msg ?? ''}${entry.key ? ` (${entry.key})` : ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`,
    );
  },
};

/** The trouble noted since `since`, ages in seconds, the last few on one line. */
function troubleSince(since: number): string {
  const now = Date.now();
  const recent = trouble.filter((t) => t.at >= since).slice(-4);
  return recent.map((t) => `[${((now - t.at) / 1000).toFixed(1)} s ago] ${t.text}`).join(' | ');
}

/**
 * Lease timings as in production (15 s / 10 s), retried every second: for tests not about leader election that load the
 * API server.
 */
export const STEADY_LEASES = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 1_000 };

/**
 * An operator with test timings: short leases, a logger that writes to stdout only when DSYNC_TEST_LOG names a
 * level (its warnings are otherwise kept for `waitFor`'s timeout message).
 */
export function startOperator(env: Env, options: Partial<OperatorOptions> = {}): Operator {
  const level = process.env['DSYNC_TEST_LOG'];
  const operator = runOperator({
    kubeConfig: env.kubeConfig,
    store: env.store,
    externalUrl: EXTERNAL_URL,
    logger: level ? pino({ level }) : pino({ level: 'warn' }, troubleLog),
    requeueAfterMs: 2_000,
    ...options,
    leaderElection: { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 500, ...options.leaderElection },
  });
  operator.done.catch((err: unknown) =>
    noteTrouble(`an operator stopped on its own: ${err instanceof Error ? err.message : String(err)}`),
  );
  return operator;
}

export interface SpecInput {
  name?: string;
  tenant?: string;
  product?: string;
  type?: string;
  webhook?: { url: string; secretRef: { name: string; key: string } };
  [field: string]: unknown;
}

export function connection(
  name: string,
  spec: SpecInput = {},
  annotations?: Record<string, string>,
): DirectoryConnection {
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name, namespace: 'default', ...(annotations && { annotations }) },
    spec: { name: `Directory ${name}`, tenant: 'acme', product: 'app', type: 'okta-scim-v2', ...spec },
  };
}

export const createConnection = (env: Env, cr: DirectoryConnection): Promise<DirectoryConnection> =>
  env.kube.create(DIRECTORY_CONNECTIONS, cr);

export const getConnection = (env: Env, name: string): Promise<DirectoryConnection> =>
  env.kube.get(DIRECTORY_CONNECTIONS, 'default', name);

export const patchConnection = (env: Env, name: string, patch: unknown): Promise<DirectoryConnection> =>
  env.kube.mergePatch(DIRECTORY_CONNECTIONS, 'default', name, patch);

export function webhookSecret(name: string, value: string): Secret {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default' }, data: { secret: b64(value) } };
}

export const getSecret = (env: Env, name: string): Promise<Secret> => env.kube.get(SECRETS, 'default', name);

export const b64 = (text: string): string => Buffer.from(text).toString('base64');
export const unb64 = (text: string | undefined): string => Buffer.from(text ?? '', 'base64').toString('utf8');

export const readyOf = (cr: DirectoryConnection) => findCondition(cr.status?.conditions, READY);

/** Waits until the resource's Ready condition has this status and reason, and returns the resource. */
export function waitForReady(
  env: Env,
  name: string,
  status: 'True' | 'False' = 'True',
  reason?: string,
): Promise<DirectoryConnection> {
  return waitFor(`${name} Ready=${status}${reason ? ` (${reason})` : ''}`, async () => {
    const cr = await getConnection(env, name);
    const ready = readyOf(cr);
    if (ready?.status === status && (reason === undefined || ready.reason === reason)) return cr;
    // The timeout names the condition last seen (waitFor reports a thrown error as `last`).
    throw new Error(ready ? `Ready=${ready.status} (${ready.reason}): ${ready.message}` : 'no Ready condition yet');
  });
}

/** Polls `probe` until it returns a truthy value; fails with the last value seen after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false | null>,
  timeoutMs = 20_000,
): Promise<T> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      // Trouble from a little before the wait too: what stopped the operator may have come just before it.
      const lately = troubleSince(started - 30_000);
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}; last: ${String(last)}${lately ? `; lately: ${lately}` : ''}`,
      );
    }
    await sleep(100);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes the operator issued (leases excluded: they renew on their own). */
export const writes = (operator: Operator): Promise<number> => operator.metrics.writeCount(['leases']);

/** Number of reconciles that ended in success so far. */
export async function reconciles(operator: Operator): Promise<number> {
  const { values } = await operator.metrics.reconcileTotal.get();
  return values.filter((v) => v.labels.result === 'success').reduce((sum, v) => sum + v.value, 0);
}
