// The Helm chart against a real kube-apiserver, with every Helm major helm.sh built: lint, schema, a matrix of
// renders applied with `kubectl apply --dry-run=server`, and installs the way the docs' Install with Helm page
// (docs/operating/helm.md) tells a user to.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parse } from 'yaml';
import { CRD_FILE } from '../../scripts/generate/crd.js';
import { startCluster, type Cluster } from './cluster.js';
import { EXPECTED_METRIC_FAMILIES } from './metric-families.js';
import { CHART_DIR, REPO_DIR, find, type K8sObject, helmPageCommand, helmPageManifest, helms, kubectl, ok, parseObjects, promqlCheck, REQUIRED_VALUES, run, setArgs, template } from './helm-tools.js';

const MONITORING_CRDS = new URL('./fixtures/monitoring.coreos.com-crds.yaml', import.meta.url).pathname;
const PRODUCTION_VALUES = fileURLToPath(new URL('../../deploy/values-production.yaml', import.meta.url));
const DASHBOARD = readFileSync(new URL('../../charts/dsync/dashboards/dsync.json', import.meta.url), 'utf8');

/** Metric families a PromQL expression reads (histogram series mapped to their family). */
function familiesIn(expr: string): string[] {
  const names = expr.match(/\b(?:dsync|webhook|http|controller_runtime|workqueue|leader_election|rest_client)_[a-z_]+\b/g) ?? [];
  return names.map((n) => n.replace(/_(bucket|count|sum)$/, ''));
}

const SENTINEL_CASE = 'Redis Sentinel with its own auth and TLS';

/** The values of each render the issue names; each must be accepted by the API server as rendered. */
const MATRIX: Record<string, Record<string, unknown>> = {
  defaults: {},
  'batch mode': { 'delivery.batchSize': 100, 'cron.processEvents.enabled': true, 'delivery.retrySchedule': '5s,1m', 'delivery.timeout': '10s' },
  'Google sync CronJob': { 'cron.syncGoogle.enabled': true, extraEnv: [{ name: 'DSYNC_GOOGLE_CLIENT_SECRET', valueFrom: { secretKeyRef: { name: 'google', key: 'secret' } } }] },
  'Microsoft sync CronJob': { 'cron.syncMicrosoft.enabled': true, extraEnv: [{ name: 'DSYNC_MICROSOFT_CLIENT_SECRET', valueFrom: { secretKeyRef: { name: 'entra', key: 'secret' } } }] },
  'HRIS sync CronJob': { 'cron.syncHris.enabled': true },
  ingress: { 'ingress.enabled': true, 'ingress.className': 'nginx', 'ingress.tls': [{ secretName: 'dsync-tls', hosts: ['dsync.example.com'] }] },
  'ServiceMonitor + PrometheusRule': {
    'metrics.serviceMonitor.enabled': true,
    'metrics.prometheusRule.enabled': true,
    'metrics.podMonitor.enabled': true,
    'metrics.dashboard.enabled': true,
  },
  'PDB + HPA, hard anti-affinity': {
    'serve.podDisruptionBudget.enabled': true,
    'operator.podDisruptionBudget.enabled': true,
    'serve.autoscaling.enabled': true,
    'operator.podAntiAffinityPreset': 'hard',
  },
  NetworkPolicy: { 'networkPolicy.enabled': true, 'networkPolicy.metricsFrom': [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }] },
  'several watched namespaces': { 'operator.watchNamespaces': ['tenant-a', 'tenant-b'] },
  'external Redis from a Secret, extension points': {
    'redis.existingSecret': 'external-redis',
    'redis.existingSecretKey': 'uri',
    'global.imageRegistry': 'mirror.internal:5000',
    'global.imagePullSecrets': ['mirror-pull'],
    imagePullSecrets: [{ name: 'registry-pull' }],
    fullnameOverride: 'sync',
    podAnnotations: { 'example.com/owner': 'platform' },
    'serve.podLabels': { team: 'identity' },
    extraEnv: [{ name: 'DSYNC_GOOGLE_CLIENT_SECRET', valueFrom: { secretKeyRef: { name: 'google', key: 'secret' } } }],
    extraEnvFrom: [{ configMapRef: { name: 'dsync-extra' } }],
    priorityClassName: 'high',
    'serve.topologySpreadConstraints': [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { 'app.kubernetes.io/component': 'serve' } } }],
    'operator.affinity': { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { 'app.kubernetes.io/component': 'operator' } } } }] } },
  },
  'Helm-managed CRD': { 'crds.enabled': true },
  'serve only, no ServiceAccount created': { 'operator.enabled': false, 'serviceAccount.create': false },
  'rate limits': { 'rateLimits.plan': 'growth', 'rateLimits.environment': 'staging', 'rateLimits.overrides': 'scim=20/600,default=800/18000' },
  'Redis Cluster, ACL user, TLS with a CA, WAIT settings': {
    'redis.existingSecret': '',
    'redis.clusterNodes': ['redis-cluster-0.redis-cluster:6379', 'redis-cluster-1.redis-cluster:6379'],
    'redis.username': 'dsync',
    'redis.passwordSecret': { name: 'dsync-redis-acl', key: 'password' },
    'redis.tls': { enabled: true, caSecret: 'redis-ca' },
    'redis.waitReplicas': 1,
    'redis.minReplicas': 1,
    'redis.waitTimeout': '500ms',
    'cron.syncGoogle.enabled': true,
  },
  [SENTINEL_CASE]: {
    'redis.existingSecret': '',
    'redis.sentinels': ['sentinel-0.sentinel:26379', 'sentinel-1.sentinel:26379', 'sentinel-2.sentinel:26379'],
    'redis.sentinelName': 'dsync',
    'redis.sentinelPasswordSecret': { name: 'sentinel-auth', key: 'password' },
    'redis.tls': { sentinel: true },
    'redis.waitReplicas': 0,
  },
};

/** A command of the Install with Helm page, with the chart of this checkout (chart-release.test.ts installs the pushed one). */
const docsCommand = (startsWith: string) => helmPageCommand(startsWith, { CHART: CHART_DIR });

describe('Helm chart (helm lint, template, install against a real kube-apiserver)', function () {
  this.timeout(300_000);
  let cluster: Cluster;
  let env: NodeJS.ProcessEnv;
  const k = (args: string[], input?: string) => ok(kubectl(), args, { env, ...(input !== undefined && { input }) });

  before(async function () {
    this.timeout(180_000);
    cluster = await startCluster();
    env = { KUBECONFIG: cluster.kubeconfigPath, HELM_CACHE_HOME: `${cluster.dir}/helm-cache`, HELM_CONFIG_HOME: `${cluster.dir}/helm-config`, HELM_DATA_HOME: `${cluster.dir}/helm-data` };
    await k(['apply', '-f', MONITORING_CRDS]);
    for (const ns of ['dsync-system', 'tenant-a', 'tenant-b']) await k(['create', 'namespace', ns]);
    await k(['create', 'priorityclass', 'high', '--value=1000']);
    await k(['wait', '--for=condition=Established', '--timeout=60s', 'crd/servicemonitors.monitoring.coreos.com', 'crd/podmonitors.monitoring.coreos.com', 'crd/prometheusrules.monitoring.coreos.com']);
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
        for (const values of [REQUIRED_VALUES, { ...REQUIRED_VALUES, ...everything }, { ...REQUIRED_VALUES, ...sentinel }]) {
          const out = await ok(helm, ['lint', '--strict', CHART_DIR, ...setArgs(values)]);
          expect(out).to.match(/0 chart\(s\) failed/);
        }
      });

      it('renders without --kube-version, and refuses a cluster older than kubeVersion', async () => {
        expect(parseObjects(await template(helm)).length).to.be.above(5);
        const old = await run(helm, ['template', 'dsync', CHART_DIR, ...setArgs(REQUIRED_VALUES), '--kube-version', 'v1.26.0']);
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
          const out = await k(['apply', '--dry-run=server', '-n', namespace, '-f', '-'], group.map((o) => JSON.stringify(o)).join('\n'));
          applied += out.trim().split('\n').filter((l) => l.endsWith('(server dry run)')).length;
        }
        expect(applied).to.equal(objects.length);
      };
      for (const [name, values] of Object.entries(MATRIX)) {
        it(`renders "${name}" and the API server accepts it (apply --dry-run=server)`, async () => {
          await accepted(parseObjects(await template(helm, values)));
        });
      }

      it('renders the production values of deploy/ (HA Redis, Ingress + TLS, ServiceMonitor, PDBs) and the API server accepts them', async () => {
        const rendered = await ok(helm, ['template', 'dsync', CHART_DIR, '--namespace', 'dsync-system', '-f', PRODUCTION_VALUES]);
        const objects = parseObjects(rendered);
        expect(objects.map((o) => o.kind)).to.include.members(['Ingress', 'ServiceMonitor', 'PrometheusRule', 'PodDisruptionBudget', 'HorizontalPodAutoscaler', 'NetworkPolicy']);
        expect(objects.filter((o) => o.kind === 'PodDisruptionBudget')).to.have.length(2);
        expect((find(objects, 'Ingress', 'dsync') as any).spec.tls).to.deep.equal([{ secretName: 'dsync-tls', hosts: ['dsync.example.com'] }]);
        const env = Object.fromEntries(((find(objects, 'Deployment', 'dsync-serve') as any).spec.template.spec.containers[0].env as Array<{ name: string; value?: string }>).map((e) => [e.name, e.value]));
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
          expect(r.stderr, JSON.stringify(values)).to.match(/schema/i).and.to.match(message);
        }
      });

      it('tells what is missing: externalUrl, Redis, API keys; batch delivery without batch mode', async () => {
        const missing = await run(helm, ['template', 'dsync', CHART_DIR]);
        expect(missing.code).to.not.equal(0);
        expect(missing.stderr).to.match(/externalUrl is required/);
        const cron = await run(helm, ['template', 'dsync', CHART_DIR, ...setArgs({ ...REQUIRED_VALUES, 'cron.processEvents.enabled': true })]);
        expect(cron.stderr).to.match(/delivery.batchSize/);
        const overrides = await run(helm, ['template', 'dsync', CHART_DIR, ...setArgs({ ...REQUIRED_VALUES, 'rateLimits.overrides': 'scim=20/600' })]);
        expect(overrides.code).to.not.equal(0);
        expect(overrides.stderr).to.match(/rateLimits.overrides needs rateLimits.plan/);
      });
    });
  }

  it('the dashboard and the alerts query only known metric families, and the ConfigMap ships the dashboard', async () => {
    const [first] = helms();
    const objects = parseObjects(await template(first!.bin, { 'metrics.prometheusRule.enabled': true, 'metrics.dashboard.enabled': true }));
    const rule = find(objects, 'PrometheusRule', 'dsync') as unknown as { spec: { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> } };
    const alerts = rule.spec.groups.flatMap((g) => g.rules);
    const dashboard = JSON.parse(DASHBOARD) as { panels: Array<{ type: string; title: string; targets?: Array<{ expr: string }> }> };
    const queries = [...alerts.map((a) => a.expr), ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr))];
    // kube-state-metrics' Job status: the CronJob's one-shot process is not scraped.
    const known = new Set<string>([...Object.values(EXPECTED_METRIC_FAMILIES).flat(), 'kube_job_status_failed']);
    for (const q of queries) for (const family of familiesIn(q)) expect(known, `${family} in ${q}`).to.include(family);
    // Prometheus' own parser (Grafana's variables replaced by what Grafana would put there).
    const grafana = (q: string) => q.replaceAll('$__rate_interval', '5m').replaceAll('$namespace', 'dsync-system');
    const parsed = await run(promqlCheck(), [], { input: queries.map((q) => JSON.stringify(grafana(q))).join('\n') + '\n' });
    expect(parsed.code, parsed.stdout).to.equal(0);
    expect(alerts.map((a) => a.alert)).to.include.members(['DsyncWebhookBacklogStale', 'DsyncDeadLettersPending', 'DsyncReconcileErrors', 'DsyncCronRunsFailing', 'DsyncWebhooksDisabled', 'DsyncGoogleSyncFailing', 'DsyncMicrosoftConsentRevoked', 'DsyncMicrosoftSyncFailing', 'DsyncMicrosoftNotificationsFailing', 'DsyncStoreDegradedWrites']);
    for (const a of alerts) expect(a.expr, a.alert).to.contain('namespace="dsync-system"');
    expect(dashboard.panels.filter((p) => p.type !== 'row').every((p) => (p.targets ?? []).length > 0)).to.equal(true);
    const configMap = find(objects, 'ConfigMap', 'dsync-dashboard') as unknown as { metadata: { labels: Record<string, string> }; data: Record<string, string> };
    expect(configMap.metadata.labels['grafana_dashboard']).to.equal('1');
    expect(JSON.parse(configMap.data['dsync.json']!)).to.deep.equal(JSON.parse(DASHBOARD));
  });

  it("every alert links its runbook: <runbookBaseUrl>/<alert>/, the docs site's page of that alert", async () => {
    const [first] = helms();
    type Rule = { alert: string; annotations: Record<string, string> };
    const rulesOf = async (values: Record<string, unknown>) =>
      (find(parseObjects(await template(first!.bin, { 'metrics.prometheusRule.enabled': true, ...values })), 'PrometheusRule', 'dsync') as unknown as { spec: { groups: Array<{ rules: Rule[] }> } }).spec.groups.flatMap((g) => g.rules);
    const site = /^site_url: (\S+)$/m.exec(readFileSync(new URL('../../mkdocs.yml', import.meta.url), 'utf8'))![1]!;
    const byDefault = await rulesOf({});
    expect(byDefault).to.have.length.above(10);
    for (const rule of byDefault) {
      expect(rule.annotations['runbook_url'], rule.alert).to.equal(`${site}operating/alerts/${rule.alert}/`);
      expect(existsSync(new URL(`../../docs/operating/alerts/${rule.alert}.md`, import.meta.url)), `docs/operating/alerts/${rule.alert}.md`).to.equal(true);
    }
    // A mirror of the docs elsewhere; a trailing slash or none gives the same URLs.
    for (const base of ['https://docs.internal.example/dsync/operating/alerts', 'https://docs.internal.example/dsync/operating/alerts/']) {
      for (const rule of await rulesOf({ 'metrics.prometheusRule.runbookBaseUrl': base })) {
        expect(rule.annotations['runbook_url'], rule.alert).to.equal(`https://docs.internal.example/dsync/operating/alerts/${rule.alert}/`);
      }
    }
  });

  it('the chart CRD (crds.enabled) is the crds/ file, so CRD changes flow through', async () => {
    const [first] = helms();
    const rendered = find(parseObjects(await template(first!.bin, { 'crds.enabled': true })), 'CustomResourceDefinition', 'directoryconnections.dsync.io');
    const committed = parse(readFileSync(CRD_FILE, 'utf8')) as { metadata: object };
    const { labels, annotations, ...metadata } = rendered.metadata;
    expect(labels?.['app.kubernetes.io/managed-by']).to.equal('Helm');
    expect(annotations?.['helm.sh/resource-policy']).to.equal('keep');
    expect({ ...rendered, metadata }).to.deep.equal(committed);
  });

  it('cron gets serve\'s delivery settings and no API keys; cluster objects are named per release and namespace', async () => {
    const [first] = helms();
    const objects = parseObjects(
      await template(first!.bin, { 'delivery.batchSize': 50, 'cron.processEvents.enabled': true, 'delivery.retrySchedule': '5s,1m', 'delivery.timeout': '9s' }),
    );
    type Container = { env: Array<{ name: string; value?: string }> };
    const envOf = (c: Container) => Object.fromEntries(c.env.map((e) => [e.name, e.value ?? 'valueFrom']));
    const cronJob = find(objects, 'CronJob', 'dsync-process-events') as unknown as { spec: { jobTemplate: { spec: { template: { spec: { containers: Container[] } } } } } };
    const serve = find(objects, 'Deployment', 'dsync-serve') as unknown as { spec: { template: { spec: { containers: Container[] } } } };
    const cronEnv = envOf(cronJob.spec.jobTemplate.spec.template.spec.containers[0]!);
    const serveEnv = envOf(serve.spec.template.spec.containers[0]!);
    for (const name of ['REDIS_URL', 'DSYNC_EXTERNAL_URL', 'DSYNC_WEBHOOK_BATCH_SIZE', 'DSYNC_WEBHOOK_RETRY_SCHEDULE', 'DSYNC_WEBHOOK_TIMEOUT', 'DSYNC_WEBHOOK_ALLOW_PRIVATE']) {
      expect(cronEnv[name], name).to.equal(serveEnv[name]).and.to.not.equal(undefined);
    }
    expect(cronEnv).to.not.have.property('DSYNC_API_KEYS');
    expect(Object.keys(serveEnv).filter((n) => n.startsWith('DSYNC_RATE_LIMIT_')), 'rate limits are off by default').to.deep.equal([]);
    expect(objects.filter((o) => o.kind.startsWith('Cluster')).map((o) => o.metadata.name)).to.deep.equal([
      'dsync-dsync-system-operator',
      'dsync-dsync-system-operator',
    ]);
    const namespaced = parseObjects(await template(first!.bin, { 'operator.watchNamespaces': ['tenant-a', 'tenant-b'] }));
    expect(namespaced.filter((o) => o.kind.startsWith('Cluster'))).to.deep.equal([]);
    expect(namespaced.filter((o) => o.kind === 'Role' && o.metadata.name === 'dsync-operator').map((o) => o.metadata.namespace)).to.deep.equal(['tenant-a', 'tenant-b']);
  });

  it('gives every process (serve, operator, both CronJobs) the same Redis Cluster / Sentinel env, and refuses mixed stores', async () => {
    const [first] = helms();
    const objects = parseObjects(
      await template(first!.bin, { ...MATRIX['Redis Cluster, ACL user, TLS with a CA, WAIT settings'], 'delivery.batchSize': 10, 'cron.processEvents.enabled': true }),
    );
    type Spec = { containers: Array<{ env: Array<{ name: string; value?: string }>; volumeMounts: Array<{ name: string; mountPath: string }> }>; volumes: Array<{ name: string }> };
    const specs: Spec[] = objects
      .filter((o) => o.kind === 'Deployment' || o.kind === 'CronJob')
      .map((o) => (o.kind === 'CronJob' ? (o as any).spec.jobTemplate.spec.template.spec : (o as any).spec.template.spec));
    expect(specs).to.have.length(4);
    for (const spec of specs) {
      const env = Object.fromEntries(spec.containers[0]!.env.map((e) => [e.name, e.value ?? 'valueFrom']));
      expect(env).to.include({
        REDIS_CLUSTER_NODES: 'redis-cluster-0.redis-cluster:6379,redis-cluster-1.redis-cluster:6379',
        REDIS_USERNAME: 'dsync',
        REDIS_PASSWORD: 'valueFrom',
        REDIS_TLS: 'true',
        REDIS_TLS_CA_FILE: '/etc/dsync/redis-ca/ca.crt',
        DSYNC_REDIS_WAIT_REPLICAS: '1',
        DSYNC_REDIS_MIN_REPLICAS: '1',
        DSYNC_REDIS_WAIT_TIMEOUT: '500ms',
      });
      expect(env).to.not.have.property('REDIS_URL');
      expect(spec.containers[0]!.volumeMounts.map((m) => m.mountPath)).to.include('/etc/dsync/redis-ca');
      expect(spec.volumes.map((v) => v.name)).to.include('redis-ca');
    }
    const refused: Array<[Record<string, unknown>, RegExp]> = [
      [{ 'redis.clusterNodes': ['n1:6379'] }, /set one of redis.url \/ redis.existingSecret, redis.clusterNodes or redis.sentinels/],
      [{ 'redis.existingSecret': '', 'redis.sentinels': ['s1:26379'] }, /redis.sentinelName is required/],
      [{ 'redis.username': 'dsync' }, /with one server put them in the URL/],
      [{ 'redis.existingSecret': '', 'redis.clusterNodes': ['n1'] }, /clusterNodes/],
    ];
    for (const [values, message] of refused) {
      const r = await run(first!.bin, ['template', 'dsync', CHART_DIR, ...setArgs({ ...REQUIRED_VALUES, ...values })]);
      expect(r.code, JSON.stringify(values)).to.not.equal(0);
      expect(r.stderr, JSON.stringify(values)).to.match(message);
    }
  });

  it('renders the Google sync CronJob: every 2 hours, Forbid, history limits, a deadline, serve\'s store and the Google env', async () => {
    const [first] = helms();
    const objects = parseObjects(
      await template(first!.bin, { 'cron.syncGoogle.enabled': true, extraEnv: [{ name: 'DSYNC_GOOGLE_CLIENT_ID', value: 'id.apps.googleusercontent.com' }] }),
    );
    type Container = { args: string[]; env: Array<{ name: string; value?: string }> };
    const cronJob = find(objects, 'CronJob', 'dsync-sync-google') as unknown as {
      spec: Record<string, unknown> & { jobTemplate: { spec: { activeDeadlineSeconds: number; template: { spec: { containers: Container[] } } } } };
    };
    expect(cronJob.spec).to.deep.include({ schedule: '0 */2 * * *', concurrencyPolicy: 'Forbid', successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 3 });
    expect(cronJob.spec.jobTemplate.spec.activeDeadlineSeconds).to.equal(5400);
    const [container] = cronJob.spec.jobTemplate.spec.template.spec.containers;
    expect(container!.args).to.deep.equal(['cron', 'sync-google']);
    const env = Object.fromEntries(container!.env.map((e) => [e.name, e.value]));
    expect(env).to.include({ DSYNC_GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com', METRICS_PORT: '0' });
    expect(env).to.have.property('REDIS_URL');
    expect(env).to.not.have.property('DSYNC_API_KEYS');
    const defaults = parseObjects(await template(first!.bin, {}));
    expect(defaults.filter((o) => o.kind === 'CronJob')).to.deep.equal([]);
  });

  it('renders the Microsoft Entra ID sync CronJob: every 15 minutes (a delta is cheap), Forbid, serve\'s store and the Microsoft env', async () => {
    const [first] = helms();
    const objects = parseObjects(await template(first!.bin, { 'cron.syncMicrosoft.enabled': true, extraEnv: [{ name: 'DSYNC_MICROSOFT_CLIENT_ID', value: 'app-id' }] }));
    type Container = { args: string[]; env: Array<{ name: string; value?: string }> };
    const cronJob = find(objects, 'CronJob', 'dsync-sync-microsoft') as unknown as {
      spec: Record<string, unknown> & { jobTemplate: { spec: { template: { spec: { containers: Container[] } } } } };
    };
    expect(cronJob.spec).to.deep.include({ schedule: '*/15 * * * *', concurrencyPolicy: 'Forbid' });
    const [container] = cronJob.spec.jobTemplate.spec.template.spec.containers;
    expect(container!.args).to.deep.equal(['cron', 'sync-microsoft']);
    const env = Object.fromEntries(container!.env.map((e) => [e.name, e.value]));
    expect(env).to.include({ DSYNC_MICROSOFT_CLIENT_ID: 'app-id', METRICS_PORT: '0' });
    expect(env).to.not.have.property('DSYNC_API_KEYS');
  });

  it("gives the operator its own Node.js options (a small young generation), serve the image's; \"\" keeps the image's", async () => {
    const [first] = helms();
    type Container = { env: Array<{ name: string; value?: string }> };
    const nodeOptionsOf = (objects: K8sObject[], name: string) =>
      ((find(objects, 'Deployment', name) as any).spec.template.spec.containers[0] as Container).env.find((e) => e.name === 'NODE_OPTIONS')?.value;
    const defaults = parseObjects(await template(first!.bin, {}));
    expect(nodeOptionsOf(defaults, 'dsync-operator')).to.equal('--max-semi-space-size=4');
    expect(nodeOptionsOf(defaults, 'dsync-serve')).to.equal(undefined);
    expect(nodeOptionsOf(parseObjects(await template(first!.bin, { 'operator.nodeOptions': '' })), 'dsync-operator')).to.equal(undefined);
  });

  it("stops serve the way a rolling update needs: a preStop sleep (the kubelet's from 1.30, the image's on 1.29), a grace period the drain fits in", async () => {
    const [first] = helms();
    type Pod = { terminationGracePeriodSeconds?: number; containers: Array<{ lifecycle?: unknown }> };
    const serveOf = async (values: Record<string, unknown>, extra: string[] = []) =>
      (find(parseObjects(await template(first!.bin, values, { extra })), 'Deployment', 'dsync-serve') as any).spec.template.spec as Pod;
    const pod = await serveOf({});
    expect(pod.terminationGracePeriodSeconds).to.equal(30);
    expect(pod.containers[0]!.lifecycle).to.deep.equal({ preStop: { sleep: { seconds: 5 } } });
    expect((await serveOf({}, ['--kube-version', 'v1.29.4'])).containers[0]!.lifecycle).to.deep.equal({ preStop: { exec: { command: ['sleep', '5'] } } });
    expect((await serveOf({ 'serve.preStopSleepSeconds': 0 })).containers[0]!.lifecycle).to.equal(undefined);
    const short = await run(first!.bin, ['template', 'dsync', CHART_DIR, ...setArgs({ ...REQUIRED_VALUES, 'serve.preStopSleepSeconds': 25 })]);
    expect(short.code).to.not.equal(0);
    expect(short.stderr).to.contain('serve.terminationGracePeriodSeconds must be at least serve.preStopSleepSeconds + 10');
  });

  it('passes the rate-limit values to serve alone (the operator and the CronJob need none)', async () => {
    const [first] = helms();
    const objects = parseObjects(
      await template(first!.bin, { 'rateLimits.plan': 'scale', 'rateLimits.overrides': 'scim=20/600', 'delivery.batchSize': 50, 'cron.processEvents.enabled': true }),
    );
    type Container = { env: Array<{ name: string; value?: string }> };
    const podOf = (o: K8sObject) => (o.kind === 'CronJob' ? (o as any).spec.jobTemplate.spec.template.spec : (o as any).spec.template.spec);
    const limitsOf = (o: K8sObject) =>
      Object.fromEntries((podOf(o).containers[0] as Container).env.filter((e) => e.name.startsWith('DSYNC_RATE_LIMIT_')).map((e) => [e.name, e.value]));
    expect(limitsOf(find(objects, 'Deployment', 'dsync-serve'))).to.deep.equal({
      DSYNC_RATE_LIMIT_PLAN: 'scale',
      DSYNC_RATE_LIMIT_ENV: 'production',
      DSYNC_RATE_LIMIT_OVERRIDES: 'scim=20/600',
    });
    expect(limitsOf(find(objects, 'Deployment', 'dsync-operator'))).to.deep.equal({});
    expect(limitsOf(find(objects, 'CronJob', 'dsync-process-events'))).to.deep.equal({});
  });

  it("installs the way the Install with Helm page says: its CRD command, then helm install; a second release in another namespace; upgrade; uninstall", async () => {
    const crdCommand = docsCommand('kubectl apply');
    expect(crdCommand.join(' ')).to.contain('crds/dsync.io_directoryconnections.yaml');
    await ok(kubectl(), crdCommand.slice(1), { env, cwd: REPO_DIR });
    const install = docsCommand('helm install');
    const namespaceAt = install.indexOf('-n') + 1;
    expect(namespaceAt, 'the page\'s helm install names a namespace with -n').to.be.above(0);
    for (const [i, { bin: helm }] of helms().entries()) {
      for (const namespace of [`h${i}-dsync-system`, `h${i}-dsync-second`]) {
        await k(['create', 'namespace', namespace]);
        const args = install.slice(1).map((a, j) => (j + 1 === namespaceAt ? namespace : a));
        const out = await ok(helm, args, { env, cwd: REPO_DIR });
        expect(out).to.match(/STATUS: deployed/);
        expect(out, "NOTES give the page's CRD command").to.contain(crdCommand.join(' '));
        const deployments = await k(['get', 'deployments', '-n', namespace, '-o', 'name']);
        expect(deployments.trim().split('\n').sort()).to.deep.equal(['deployment.apps/dsync-operator', 'deployment.apps/dsync-serve']);
        await k(['get', 'clusterrole', `dsync-${namespace}-operator`]);
      }
      const second = `h${i}-dsync-second`;
      const upgraded = await ok(helm, ['upgrade', 'dsync', CHART_DIR, '-n', second, '--reuse-values', '--set', 'serve.replicas=3'], { env });
      expect(upgraded).to.match(/REVISION: 2/);
      expect((await k(['get', 'deployment', 'dsync-serve', '-n', second, '-o', 'jsonpath={.spec.replicas}'])).trim()).to.equal('3');
      await ok(helm, ['uninstall', 'dsync', '-n', second], { env });
      expect((await run(kubectl(), ['get', 'clusterrole', `dsync-${second}-operator`], { env })).code).to.not.equal(0);
    }
    // The CRD applied by kubectl stays untouched by every release.
    const crd = JSON.parse(await k(['get', 'crd', 'directoryconnections.dsync.io', '-o', 'json'])) as { metadata: { labels?: Record<string, string> } };
    expect(crd.metadata.labels?.['app.kubernetes.io/managed-by']).to.not.equal('Helm');
  });

  it("accepts the page's throw-away Redis and its first DirectoryConnection (apply --dry-run=server)", async () => {
    await ok(kubectl(), docsCommand('kubectl apply --server-side').slice(1), { env, cwd: REPO_DIR });
    await k(['wait', '--for=condition=Established', '--timeout=60s', 'crd/directoryconnections.dsync.io']);
    for (const start of ['kubectl -n dsync-system create deployment redis', 'kubectl -n dsync-system expose deployment redis']) {
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
    const args = ['install', 'dsync', CHART_DIR, '-n', 'adopt', ...setArgs({ ...REQUIRED_VALUES, 'crds.enabled': true })];
    const refused = await run(first!.bin, args, { env });
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.match(/invalid ownership metadata|exists and cannot be imported/);
    for (const command of [docsCommand('kubectl label crd'), docsCommand('kubectl annotate crd')]) {
      await ok(kubectl(), command.slice(1).map((a) => a.replace('=dsync-system', '=adopt')), { env });
    }
    expect(await ok(first!.bin, args, { env })).to.match(/STATUS: deployed/);
  });
});
