// The whole path a user takes, minus the kubelet: the Install with Helm page's CRD command, the rendered chart
// applied to a real kube-apiserver, `dsync operator` (as the chart's ServiceAccount) and `dsync serve` run with exactly
// the
// environment the rendered Deployments give their containers (Secrets and fieldRefs resolved as the kubelet
// would; only ports and the kubeconfig are local), the sample DirectoryConnection, a user provisioned through
// SCIM with the token from the generated Secret, the signed webhook, and /metrics of both processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { parse, stringify } from 'yaml';
import { READY_WITHIN_MS, startReceiver, until, type Receiver } from '../support/harness.js';
import { redisUrl } from '../support/services.js';
import { startCluster, type Cluster } from './cluster.js';
import { find, helms, kubectl, ok, parseObjects, REPO_DIR, template, type K8sObject } from './helm-tools.js';
import { EXPECTED_METRIC_FAMILIES, SERVE_ONLY_FAMILIES } from './metric-families.js';
import { freePort } from '../support/ports.js';

const NAMESPACE = 'dsync-system';
const REDIS_DB = 13;
const API_KEY = 'e2e-api-key-0123456789';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
}
interface Container {
  name: string;
  env: EnvVar[];
  envFrom?: unknown[];
}
type PodTemplate = { spec: { containers: Container[] } };

const containerOf = (o: K8sObject): Container =>
  (o.kind === 'CronJob'
    ? (o as unknown as { spec: { jobTemplate: { spec: { template: PodTemplate } } } }).spec.jobTemplate.spec.template
    : (o as unknown as { spec: { template: PodTemplate } }).spec.template
  ).spec.containers[0]!;

interface Proc {
  child: ChildProcess;
  output: string[];
}

describe('the chart end to end, minus the kubelet (helm template → dsync operator + serve → SCIM → webhook)', function () {
  this.timeout(240_000);
  let cluster: Cluster;
  let kenv: NodeJS.ProcessEnv;
  let receiver: Receiver;
  const procs: Proc[] = [];
  const k = (args: string[], input?: string) =>
    ok(kubectl(), args, { env: kenv, ...(input !== undefined && { input }) });

  /** The container's environment as the kubelet would give it: Secrets read from the API server, fieldRefs. */
  async function resolveEnv(container: Container): Promise<Record<string, string>> {
    expect(container.envFrom ?? [], 'envFrom is not resolved by this test').to.deep.equal([]);
    const out: Record<string, string> = {};
    for (const e of container.env) {
      if (e.value !== undefined) out[e.name] = e.value;
      else if (e.valueFrom?.secretKeyRef) {
        const { name, key } = e.valueFrom.secretKeyRef;
        out[e.name] = Buffer.from(
          await k(['get', 'secret', name, '-n', NAMESPACE, '-o', `jsonpath={.data.${key}}`]),
          'base64',
        ).toString('utf8');
      } else if (e.valueFrom?.fieldRef?.fieldPath === 'metadata.namespace') out[e.name] = NAMESPACE;
      else throw new Error(`cannot resolve env ${JSON.stringify(e)}`);
    }
    return out;
  }

  function start(args: string[], env: Record<string, string>): Proc {
    // Only the chart's environment plus what a node process needs to run here (PATH, HOME).
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      cwd: REPO_DIR,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc: Proc = { child, output: [] };
    const keep = (chunk: Buffer) => proc.output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    procs.push(proc);
    return proc;
  }

  /** A kubeconfig holding a token of the chart's ServiceAccount: the operator gets exactly the chart's RBAC. */
  async function serviceAccountKubeconfig(serviceAccount: string): Promise<string> {
    const token = (await k(['create', 'token', serviceAccount, '-n', NAMESPACE, '--duration=1h'])).trim();
    const admin = parse(readFileSync(cluster.kubeconfigPath, 'utf8')) as {
      users: Array<{ name: string; user: object }>;
      contexts: Array<{ context: object }>;
    };
    admin.users = [{ name: 'admin', user: { token } }];
    admin.contexts[0]!.context = { ...admin.contexts[0]!.context, namespace: NAMESPACE };
    const file = join(cluster.dir, 'operator-kubeconfig');
    writeFileSync(file, stringify(admin), { mode: 0o600 });
    return file;
  }

  async function metricFamilies(port: number): Promise<string[]> {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    return [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!);
  }

  let servePort: number;
  let rendered: K8sObject[];

  before(async function () {
    this.timeout(180_000);
    cluster = await startCluster();
    kenv = { KUBECONFIG: cluster.kubeconfigPath };
    receiver = await startReceiver(); // its secret is the one of deploy/samples/webhook-secret.yaml
    const redis = new Redis(`${redisUrl()}/${REDIS_DB}`);
    await redis.flushdb();
    redis.disconnect();
    servePort = await freePort();
  });

  after(async () => {
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await receiver?.close();
    await cluster?.stop();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed')
      for (const p of procs) process.stderr.write(`${p.output.slice(-60).join('\n')}\n`);
  });

  it('installs: the CRD from crds/, the Secrets the Install with Helm page names, the rendered chart', async () => {
    await k(['apply', '--server-side', '-f', 'crds/dsync.io_directoryconnections.yaml']);
    await k(['create', 'namespace', NAMESPACE]);
    await k([
      '-n',
      NAMESPACE,
      'create',
      'secret',
      'generic',
      'dsync-redis',
      `--from-literal=url=${redisUrl()}/${REDIS_DB}`,
    ]);
    await k(['-n', NAMESPACE, 'create', 'secret', 'generic', 'dsync-api-keys', `--from-literal=keys=${API_KEY}`]);
    await k(['wait', '--for=condition=Established', '--timeout=60s', 'crd/directoryconnections.dsync.io']);
    const yaml = await template(helms()[0]!.bin, {
      externalUrl: `http://127.0.0.1:${servePort}`,
      'delivery.allowPrivate': true, // the receiver is on loopback
      'delivery.batchSize': 0,
    });
    rendered = parseObjects(yaml);
    await k(['apply', '-n', NAMESPACE, '-f', '-'], yaml);
  });

  it("runs dsync operator and dsync serve with the Deployments' environment; a sample DirectoryConnection gets Ready", async () => {
    const operatorEnv = await resolveEnv(containerOf(find(rendered, 'Deployment', 'dsync-operator')));
    const serveEnv = await resolveEnv(containerOf(find(rendered, 'Deployment', 'dsync-serve')));
    expect(serveEnv['DSYNC_API_KEYS']).to.equal(API_KEY);
    expect(operatorEnv['REDIS_URL']).to.equal(`${redisUrl()}/${REDIS_DB}`);
    const serviceAccount = (
      find(rendered, 'Deployment', 'dsync-operator') as unknown as {
        spec: { template: { spec: { serviceAccountName: string } } };
      }
    ).spec.template.spec.serviceAccountName;
    // Local overrides only: ports (no pod network) and the kubeconfig (no in-cluster ServiceAccount mount).
    const [operatorMetrics, serveMetrics] = [await freePort(), await freePort()];
    const operator = start(['operator'], {
      ...operatorEnv,
      METRICS_PORT: String(operatorMetrics),
      HOST: '127.0.0.1',
      KUBECONFIG: await serviceAccountKubeconfig(serviceAccount),
    });
    const serve = start(['serve'], {
      ...serveEnv,
      PORT: String(servePort),
      METRICS_PORT: String(serveMetrics),
      HOST: '127.0.0.1',
    });
    for (const [name, proc, url] of [
      ['serve', serve, `http://127.0.0.1:${servePort}/readyz`],
      ['operator', operator, `http://127.0.0.1:${operatorMetrics}/metrics`],
    ] as const) {
      await until(
        async () => {
          if (proc.child.exitCode !== null) throw new Error(`${name} exited:\n${proc.output.join('\n')}`);
          return (await fetch(url).catch(() => undefined))?.ok === true;
        },
        `${name} to answer ${url}`,
        READY_WITHIN_MS,
      );
    }

    await k(['apply', '-f', 'deploy/samples/webhook-secret.yaml']);
    const sample = parse(readFileSync(join(REPO_DIR, 'deploy/samples/directoryconnection.yaml'), 'utf8')) as {
      spec: { webhook: { url: string } };
    };
    sample.spec.webhook.url = receiver.url;
    await k(['apply', '-f', '-'], stringify(sample));
    await k(['wait', '--for=condition=Ready', '--timeout=90s', 'directoryconnection/acme-okta', '-n', 'default']);

    // The IdP's side: the endpoint and token from the generated Secret.
    const secret = JSON.parse(await k(['get', 'secret', 'acme-okta-scim', '-n', 'default', '-o', 'json'])) as {
      data: Record<string, string>;
    };
    const field = (key: string) => Buffer.from(secret.data[key]!, 'base64').toString('utf8');
    expect(field('endpoint')).to.match(new RegExp(`^http://127\\.0\\.0\\.1:${servePort}/api/scim/v2\\.0/`));
    const created = await fetch(`${field('endpoint')}/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${field('token')}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'ada@acme.example',
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        active: true,
      }),
    });
    expect(created.status, await created.clone().text()).to.equal(201);

    // The receiver verified the Standard Webhooks signature with the sample's secret before accepting it.
    const [event] = await receiver.waitForEvents(1, 30_000);
    expect(event).to.include({ event: 'user.created', tenant: 'acme', product: 'my-saas' });
    expect(receiver.deliveries[0]!.headers['webhook-signature']).to.match(/^v1,/);

    await until(
      async () => (await metricFamilies(serveMetrics)).includes('webhook_events_delivered_total'),
      'serve metrics',
      10_000,
    );
    expect(await metricFamilies(serveMetrics)).to.include.members([...EXPECTED_METRIC_FAMILIES.serve]);
    const operatorFamilies = await metricFamilies(operatorMetrics);
    expect(operatorFamilies).to.include.members([...EXPECTED_METRIC_FAMILIES.operator]);
    expect(
      operatorFamilies.filter((f) => (SERVE_ONLY_FAMILIES as readonly string[]).includes(f)),
      'serve-only families on the operator',
    ).to.deep.equal([]);
  });

  it("helm test's pod script, run against serve, passes (and fails when nothing answers)", async () => {
    const pod = find(rendered, 'Pod', 'dsync-test-healthz') as unknown as {
      spec: { containers: Array<{ command: string[]; args: string[]; env: EnvVar[] }> };
    };
    const [container] = pod.spec.containers;
    expect(container!.command).to.deep.equal(['node', '-e']);
    expect(container!.env.find((e) => e.name === 'URL')?.value).to.equal(`http://dsync.${NAMESPACE}.svc:80/healthz`);
    const runScript = async (url: string) => {
      const proc = spawn(process.execPath, ['-e', container!.args[0]!], { env: { URL: url }, stdio: 'ignore' });
      return ((await once(proc, 'exit')) as [number | null])[0];
    };
    // The Service's DNS name needs a cluster; the serve process behind it is local.
    expect(await runScript(`http://127.0.0.1:${servePort}/healthz`)).to.equal(0);
    expect(await runScript(`http://127.0.0.1:${await freePort()}/healthz`)).to.equal(1);
  });

  it("runs dsync cron process-events with the CronJob's environment (batch mode, no API keys): it exits 0", async () => {
    const cronJob = find(
      parseObjects(
        await template(helms()[0]!.bin, {
          externalUrl: `http://127.0.0.1:${servePort}`,
          'delivery.batchSize': 100,
          'cron.processEvents.enabled': true,
        }),
      ),
      'CronJob',
      'dsync-process-events',
    );
    const env = await resolveEnv(containerOf(cronJob));
    expect(env).to.not.have.property('DSYNC_API_KEYS');
    const cron = start(['cron', 'process-events'], env);
    const [code] = (await once(cron.child, 'exit')) as [number | null];
    expect(code, cron.output.join('\n')).to.equal(0);
    expect(cron.output.join('\n')).to.contain('processed queued events');
  });
});
