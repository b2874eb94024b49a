// The Helm chart against a real kube-apiserver, with every Helm major helm.sh built: lint, schema, a matrix of
// renders applied with `kubectl apply --dry-run=server`, and installs the way the docs' Install with Helm page
// (docs/operating/helm.md) tells a user to. What a render holds, without the API server: chart-render.test.ts.
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { MATRIX, SENTINEL_CASE } from './chart-matrix.js';
import { startCluster, type Cluster } from './cluster.js';
import {
  CHART_DIR,
  REPO_DIR,
  find,
  type K8sObject,
  helmPageCommand,
  helmPageManifest,
  helms,
  kubectl,
  ok,
  parseObjects,
  REQUIRED_VALUES,
  run,
  setArgs,
  template,
} from './helm-tools.js';

const MONITORING_CRDS = new URL('./fixtures/monitoring.coreos.com-crds.yaml', import.meta.url).pathname;
const PRODUCTION_VALUES = fileURLToPath(new URL('../../deploy/values-production.yaml', import.meta.url));

/**
 * A command of the Install with Helm page, with the chart of this checkout (chart-release.test.ts installs the pushed
 * one).
 */
const docsCommand = (startsWith: string) => helmPageCommand(startsWith, { CHART: CHART_DIR });

describe('Helm chart (helm lint, template, install against a real kube-apiserver)', function () {
  this.timeout(300_000);
  let cluster: Cluster;
  let env: NodeJS.ProcessEnv;
  const k = (args: string[], input?: string) => ok(kubectl(), args, { env, ...(input !== undefined && { input }) });

  before(async function () {
    this.timeout(180_000);
    cluster = await startCluster();
    env = {
      KUBECONFIG: cluster.kubeconfigPath,
      HELM_CACHE_HOME: `${cluster.dir}/helm-cache`,
      HELM_CONFIG_HOME: `${cluster.dir}/helm-config`,
      HELM_DATA_HOME: `${cluster.dir}/helm-data`,
    };
    await k(['apply', '-f', MONITORING_CRDS]);
    for (const ns of ['dsync-system', 'tenant-a', 'tenant-b']) await k(['create', 'namespace', ns]);
    await k(['create', 'priorityclass', 'high', '--value=1000']);
    await k([
      'wait',
      '--for=condition=Established',
      '--timeout=60s',
      'crd/servicemonitors.monitoring.coreos.com',
      'crd/podmonitors.monitoring.coreos.com',
      'crd/prometheusrules.monitoring.coreos.com',
    ]);
  });

  after(async () => {
    await cluster?.stop();
  });

  for (const { name: helmName, bin: helm } of helms()) {
    describe(helmName, () => {
      it('passes helm lint --strict, with the defaults and with every option of the matrix on', async () => {
        // One store at a time: the Sentinel case is the alternative to the Cluster one, linted on its own.
        const { [SENTINEL_CASE]: sentinel, ...rest } = MATRIX;
        const everything = Object.assign({}, ...Object.values(rest)) as Record<string, unknown>;
        for (const values of [
          REQUIRED_VALUES,
          { ...REQUIRED_VALUES, ...everything },
          { ...REQUIRED_VALUES, ...sentinel },
        ]) {
          const out = await ok(helm, ['lint', '--strict', CHART_DIR, ...setArgs(values)]);
          expect(out).to.match(/0 chart\(s\) failed/);
        }
      });

      it('renders without --kube-version, and refuses a cluster older than kubeVersion', async () => {
        expect(parseObjects(await template(helm)).length).to.be.above(5);
        const old = await run(helm, [
          'template',
          'dsync',
          CHART_DIR,
          ...setArgs(REQUIRED_VALUES),
          '--kube-version',
          'v1.26.0',
        ]);
        expect(old.code).to.not.equal(0);
        expect(old.stderr).to.match(/kubeVersion|incompatible/i);
      });

      const accepted = async (objects: K8sObject[]) => {
        // Like `helm install`: objects without a namespace go to the release's; kubectl wants one -n per call.
        const byNamespace = new Map<string, K8sObject[]>();
        for (const o of objects) {
          const namespace = o.metadata.namespace ?? 'dsync-system';
          byNamespace.set(namespace, [...(byNamespace.get(namespace) ?? []), o]);
        }
        let applied = 0;
        for (const [namespace, group] of byNamespace) {
          const out = await k(
            ['apply', '--dry-run=server', '-n', namespace, '-f', '-'],
            group.map((o) => JSON.stringify(o)).join('\n'),
          );
          applied += out
            .trim()
            .split('\n')
            .filter((l) => l.endsWith('(server dry run)')).length;
        }
        expect(applied).to.equal(objects.length);
      };
      for (const [name, values] of Object.entries(MATRIX)) {
        it(`renders "${name}" and the API server accepts it (apply --dry-run=server)`, async () => {
          await accepted(parseObjects(await template(helm, values)));
        });
      }

      it('renders the production values of deploy/ (HA Redis, Ingress + TLS, ServiceMonitor, PDBs) and the API server accepts them', async () => {
        const rendered = await ok(helm, [
          'template',
          'dsync',
          CHART_DIR,
          '--namespace',
          'dsync-system',
          '-f',
          PRODUCTION_VALUES,
        ]);
        const objects = parseObjects(rendered);
        expect(objects.map((o) => o.kind)).to.include.members([
          'Ingress',
          'ServiceMonitor',
          'PrometheusRule',
          'PodDisruptionBudget',
          'HorizontalPodAutoscaler',
          'NetworkPolicy',
        ]);
        expect(objects.filter((o) => o.kind === 'PodDisruptionBudget')).to.have.length(2);
        expect((find(objects, 'Ingress', 'dsync') as any).spec.tls).to.deep.equal([
          { secretName: 'dsync-tls', hosts: ['dsync.example.com'] },
        ]);
        const env = Object.fromEntries(
          (
            (find(objects, 'Deployment', 'dsync-serve') as any).spec.template.spec.containers[0].env as Array<{
              name: string;
              value?: string;
            }>
          ).map((e) => [e.name, e.value]),
        );
        expect(env).to.include({ REDIS_SENTINEL_NAME: 'dsync', REDIS_TLS: 'true', DSYNC_REDIS_WAIT_REPLICAS: '1' });
        await accepted(objects);
      });

      it('rejects values of the wrong type or outside an enum, naming them (unknown keys: chart-values.test.ts)', async () => {
        const cases: Array<[Record<string, unknown>, RegExp]> = [
          [{ logLevel: 'loud' }, /logLevel/],
          [{ 'serve.replicas': 'two' }, /replicas/],
          [{ 'image.pullPolicy': 'Sometimes' }, /pullPolicy/],
          [{ 'operator.watchNamespaces': ['Not_A_Namespace'] }, /watchNamespaces/],
          [{ 'delivery.timeout': 'soon' }, /timeout/],
          [{ 'serve.service.type': 'Ingress' }, /type/],
          [{ 'image.repository': '' }, /repository/],
          [{ externalUrl: 'dsync.example.com' }, /externalUrl/],
          [{ 'rateLimits.plan': 'free' }, /rateLimits\/plan/],
          [{ 'rateLimits.environment': 'prod' }, /rateLimits\/environment/],
          [{ 'rateLimits.plan': 'growth', 'rateLimits.overrides': 'users=1/10' }, /rateLimits\/overrides/],
        ];
        for (const [values, message] of cases) {
          const r = await run(helm, ['template', 'dsync', CHART_DIR, ...setArgs({ ...REQUIRED_VALUES, ...values })]);
          expect(r.code, JSON.stringify(values)).to.not.equal(0);
          expect(r.stderr, JSON.stringify(values))
            .to.match(/schema/i)
            .and.to.match(message);
        }
      });

      it('tells what is missing: externalUrl, Redis, API keys; batch delivery without batch mode', async () => {
        const missing = await run(helm, ['template', 'dsync', CHART_DIR]);
        expect(missing.code).to.not.equal(0);
        expect(missing.stderr).to.match(/externalUrl is required/);
        const cron = await run(helm, [
          'template',
          'dsync',
          CHART_DIR,
          ...setArgs({ ...REQUIRED_VALUES, 'cron.processEvents.enabled': true }),
        ]);
        expect(cron.stderr).to.match(/delivery.batchSize/);
        const overrides = await run(helm, [
          'template',
          'dsync',
          CHART_DIR,
          ...setArgs({ ...REQUIRED_VALUES, 'rateLimits.overrides': 'scim=20/600' }),
        ]);
        expect(overrides.code).to.not.equal(0);
        expect(overrides.stderr).to.match(/rateLimits.overrides needs rateLimits.plan/);
      });
    });
  }

  it('installs the way the Install with Helm page says: its CRD command, then helm install; a second release in another namespace; upgrade; uninstall', async () => {
    const crdCommand = docsCommand('kubectl apply');
    expect(crdCommand.join(' ')).to.contain('crds/dsync.io_directoryconnections.yaml');
    await ok(kubectl(), crdCommand.slice(1), { env, cwd: REPO_DIR });
    const install = docsCommand('helm install');
    const namespaceAt = install.indexOf('-n') + 1;
    expect(namespaceAt, "the page's helm install names a namespace with -n").to.be.above(0);
    for (const [i, { bin: helm }] of helms().entries()) {
      for (const namespace of [`h${i}-dsync-system`, `h${i}-dsync-second`]) {
        await k(['create', 'namespace', namespace]);
        const args = install.slice(1).map((a, j) => (j + 1 === namespaceAt ? namespace : a));
        const out = await ok(helm, args, { env, cwd: REPO_DIR });
        expect(out).to.match(/STATUS: deployed/);
        expect(out, "NOTES give the page's CRD command").to.contain(crdCommand.join(' '));
        const deployments = await k(['get', 'deployments', '-n', namespace, '-o', 'name']);
        expect(deployments.trim().split('\n').sort()).to.deep.equal([
          'deployment.apps/dsync-operator',
          'deployment.apps/dsync-serve',
        ]);
        await k(['get', 'clusterrole', `dsync-${namespace}-operator`]);
      }
      const second = `h${i}-dsync-second`;
      const upgraded = await ok(
        helm,
        ['upgrade', 'dsync', CHART_DIR, '-n', second, '--reuse-values', '--set', 'serve.replicas=3'],
        { env },
      );
      expect(upgraded).to.match(/REVISION: 2/);
      expect(
        (await k(['get', 'deployment', 'dsync-serve', '-n', second, '-o', 'jsonpath={.spec.replicas}'])).trim(),
      ).to.equal('3');
      await ok(helm, ['uninstall', 'dsync', '-n', second], { env });
      expect((await run(kubectl(), ['get', 'clusterrole', `dsync-${second}-operator`], { env })).code).to.not.equal(0);
    }
    // The CRD applied by kubectl stays untouched by every release.
    const crd = JSON.parse(await k(['get', 'crd', 'directoryconnections.dsync.io', '-o', 'json'])) as {
      metadata: { labels?: Record<string, string> };
    };
    expect(crd.metadata.labels?.['app.kubernetes.io/managed-by']).to.not.equal('Helm');
  });

  it("accepts the page's throw-away Redis and its first DirectoryConnection (apply --dry-run=server)", async () => {
    await ok(kubectl(), docsCommand('kubectl apply --server-side').slice(1), { env, cwd: REPO_DIR });
    await k(['wait', '--for=condition=Established', '--timeout=60s', 'crd/directoryconnections.dsync.io']);
    for (const start of [
      'kubectl -n dsync-system create deployment redis',
      'kubectl -n dsync-system expose deployment redis',
    ]) {
      const command = docsCommand(start);
      if (start.includes('expose')) {
        // expose reads the Deployment, which a dry run did not create: create it for real first.
        await k(docsCommand('kubectl -n dsync-system create deployment redis').slice(1));
      }
      await k([...command.slice(1), '--dry-run=server']);
    }
    const secret = docsCommand('kubectl -n dsync-system create secret generic dsync-redis --from-literal=url=redis://');
    expect(secret.join(' ')).to.contain('url=redis://redis.dsync-system.svc:6379');
    const out = await k(['apply', '--dry-run=server', '-f', '-'], helmPageManifest());
    expect(out).to.contain('directoryconnection.dsync.io/acme-okta created (server dry run)');
  });

  it('adopts the kubectl-applied CRD into a release with crds.enabled after the adoption commands of the Install with Helm page', async () => {
    const [first] = helms();
    await k(['create', 'namespace', 'adopt']);
    const args = [
      'install',
      'dsync',
      CHART_DIR,
      '-n',
      'adopt',
      ...setArgs({ ...REQUIRED_VALUES, 'crds.enabled': true }),
    ];
    const refused = await run(first!.bin, args, { env });
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.match(/invalid ownership metadata|exists and cannot be imported/);
    for (const command of [docsCommand('kubectl label crd'), docsCommand('kubectl annotate crd')]) {
      await ok(
        kubectl(),
        command.slice(1).map((a) => a.replace('=dsync-system', '=adopt')),
        { env },
      );
    }
    expect(await ok(first!.bin, args, { env })).to.match(/STATUS: deployed/);
  });
});
