// The Helm chart as rendered, without an API server: the dashboard and the alerts, the CRD, and what each
// process's objects get from the values (chart.test.ts applies and installs the chart against a real kube-apiserver).
import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { parse } from 'yaml';
import { CRD_FILE } from '../../scripts/generate/crd.js';
import { MATRIX } from './chart-matrix.js';
import { EXPECTED_METRIC_FAMILIES } from './metric-families.js';
import {
  CHART_DIR,
  find,
  type K8sObject,
  helms,
  parseObjects,
  promqlCheck,
  REQUIRED_VALUES,
  run,
  setArgs,
  template,
} from './helm-tools.js';

const DASHBOARD = readFileSync(new URL('../../charts/dsync/dashboards/dsync.json', import.meta.url), 'utf8');

/** Metric families a PromQL expression reads (histogram series mapped to their family). */
function familiesIn(expr: string): string[] {
  const names =
    expr.match(/\b(?:dsync|webhook|http|controller_runtime|workqueue|leader_election|rest_client)_[a-z_]+\b/g) ?? [];
  return names.map((n) => n.replace(/_(bucket|count|sum)$/, ''));
}

describe('Helm chart (helm lint, template, install against a real kube-apiserver)', function () {
  this.timeout(300_000);

  it('the dashboard and the alerts query only known metric families, and the ConfigMap ships the dashboard', async () => {
    const [first] = helms();
    const objects = parseObjects(
      await template(first!.bin, { 'metrics.prometheusRule.enabled': true, 'metrics.dashboard.enabled': true }),
    );
    const rule = find(objects, 'PrometheusRule', 'dsync') as unknown as {
      spec: { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> };
    };
    const alerts = rule.spec.groups.flatMap((g) => g.rules);
    const dashboard = JSON.parse(DASHBOARD) as {
      panels: Array<{ type: string; title: string; targets?: Array<{ expr: string }> }>;
    };
    const queries = [
      ...alerts.map((a) => a.expr),
      ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
    ];
    // kube-state-metrics' Job status: the CronJob's one-shot process is not scraped.
    const known = new Set<string>([...Object.values(EXPECTED_METRIC_FAMILIES).flat(), 'kube_job_status_failed']);
    for (const q of queries) for (const family of familiesIn(q)) expect(known, `${family} in ${q}`).to.include(family);
    // Prometheus' own parser (Grafana's variables replaced by what Grafana would put there).
    const grafana = (q: string) => q.replaceAll('$__rate_interval', '5m').replaceAll('$namespace', 'dsync-system');
    const parsed = await run(promqlCheck(), [], {
      input: queries.map((q) => JSON.stringify(grafana(q))).join('\n') + '\n',
    });
    expect(parsed.code, parsed.stdout).to.equal(0);
    expect(alerts.map((a) => a.alert)).to.include.members([
      'DsyncWebhookBacklogStale',
      'DsyncDeadLettersPending',
      'DsyncReconcileErrors',
      'DsyncCronRunsFailing',
      'DsyncWebhooksDisabled',
      'DsyncGoogleSyncFailing',
      'DsyncMicrosoftConsentRevoked',
      'DsyncMicrosoftSyncFailing',
      'DsyncMicrosoftNotificationsFailing',
      'DsyncStoreDegradedWrites',
    ]);
    for (const a of alerts) expect(a.expr, a.alert).to.contain('namespace="dsync-system"');
    expect(dashboard.panels.filter((p) => p.type !== 'row').every((p) => (p.targets ?? []).length > 0)).to.equal(true);
    const configMap = find(objects, 'ConfigMap', 'dsync-dashboard') as unknown as {
      metadata: { labels: Record<string, string> };
      data: Record<string, string>;
    };
    expect(configMap.metadata.labels['grafana_dashboard']).to.equal('1');
    expect(JSON.parse(configMap.data['dsync.json']!)).to.deep.equal(JSON.parse(DASHBOARD));
  });

  it("every alert links its runbook: <runbookBaseUrl>/<alert>/, the docs site's page of that alert", async () => {
    const [first] = helms();
    type Rule = { alert: string; annotations: Record<string, string> };
    const rulesOf = async (values: Record<string, unknown>) =>
      (
        find(
          parseObjects(await template(first!.bin, { 'metrics.prometheusRule.enabled': true, ...values })),
          'PrometheusRule',
          'dsync',
        ) as unknown as { spec: { groups: Array<{ rules: Rule[] }> } }
      ).spec.groups.flatMap((g) => g.rules);
    const site = /^site_url: (\S+)$/m.exec(readFileSync(new URL('../../mkdocs.yml', import.meta.url), 'utf8'))![1]!;
    const byDefault = await rulesOf({});
    expect(byDefault).to.have.length.above(10);
    for (const rule of byDefault) {
      expect(rule.annotations['runbook_url'], rule.alert).to.equal(`${site}operating/alerts/${rule.alert}/`);
      expect(
        existsSync(new URL(`../../docs/operating/alerts/${rule.alert}.md`, import.meta.url)),
        `docs/operating/alerts/${rule.alert}.md`,
      ).to.equal(true);
    }
    // A mirror of the docs elsewhere; a trailing slash or none gives the same URLs.
    for (const base of [
      'https://docs.internal.example/dsync/operating/alerts',
      'https://docs.internal.example/dsync/operating/alerts/',
    ]) {
      for (const rule of await rulesOf({ 'metrics.prometheusRule.runbookBaseUrl': base })) {
        expect(rule.annotations['runbook_url'], rule.alert).to.equal(
          `https://docs.internal.example/dsync/operating/alerts/${rule.alert}/`,
        );
      }
    }
  });

  it('the chart CRD (crds.enabled) is the crds/ file, so CRD changes flow through', async () => {
    const [first] = helms();
    const rendered = find(
      parseObjects(await template(first!.bin, { 'crds.enabled': true })),
      'CustomResourceDefinition',
      'directoryconnections.dsync.io',
    );
    const committed = parse(readFileSync(CRD_FILE, 'utf8')) as { metadata: object };
    const { labels, annotations, ...metadata } = rendered.metadata;
    expect(labels?.['app.kubernetes.io/managed-by']).to.equal('Helm');
    expect(annotations?.['helm.sh/resource-policy']).to.equal('keep');
    expect({ ...rendered, metadata }).to.deep.equal(committed);
  });

  it("cron gets serve's delivery settings and no API keys; cluster objects are named per release and namespace", async () => {
    const [first] = helms();
    const objects = parseObjects(
      await template(first!.bin, {
        'delivery.batchSize': 50,
        'cron.processEvents.enabled': true,
        'delivery.retrySchedule': '5s,1m',
        'delivery.timeout': '9s',
      }),
    );
    type Container = { env: Array<{ name: string; value?: string }> };
    const envOf = (c: Container) => Object.fromEntries(c.env.map((e) => [e.name, e.value ?? 'valueFrom']));
    const cronJob = find(objects, 'CronJob', 'dsync-process-events') as unknown as {
      spec: { jobTemplate: { spec: { template: { spec: { containers: Container[] } } } } };
    };
    const serve = find(objects, 'Deployment', 'dsync-serve') as unknown as {
      spec: { template: { spec: { containers: Container[] } } };
    };
    const cronEnv = envOf(cronJob.spec.jobTemplate.spec.template.spec.containers[0]!);
    const serveEnv = envOf(serve.spec.template.spec.containers[0]!);
    for (const name of [
      'REDIS_URL',
      'DSYNC_EXTERNAL_URL',
      'DSYNC_WEBHOOK_BATCH_SIZE',
      'DSYNC_WEBHOOK_RETRY_SCHEDULE',
      'DSYNC_WEBHOOK_TIMEOUT',
      'DSYNC_WEBHOOK_ALLOW_PRIVATE',
    ]) {
      expect(cronEnv[name], name).to.equal(serveEnv[name]).and.to.not.equal(undefined);
    }
    expect(cronEnv).to.not.have.property('DSYNC_API_KEYS');
    expect(
      Object.keys(serveEnv).filter((n) => n.startsWith('DSYNC_RATE_LIMIT_')),
      'rate limits are off by default',
    ).to.deep.equal([]);
    expect(objects.filter((o) => o.kind.startsWith('Cluster')).map((o) => o.metadata.name)).to.deep.equal([
      'dsync-dsync-system-operator',
      'dsync-dsync-system-operator',
    ]);
    const namespaced = parseObjects(
      await template(first!.bin, { 'operator.watchNamespaces': ['tenant-a', 'tenant-b'] }),
    );
    expect(namespaced.filter((o) => o.kind.startsWith('Cluster'))).to.deep.equal([]);
    expect(
      namespaced
        .filter((o) => o.kind === 'Role' && o.metadata.name === 'dsync-operator')
        .map((o) => o.metadata.namespace),
    ).to.deep.equal(['tenant-a', 'tenant-b']);
  });

  it('gives every process (serve, operator, both CronJobs) the same Redis Cluster / Sentinel env, and refuses mixed stores', async () => {
    const [first] = helms();
    const objects = parseObjects(
      await template(first!.bin, {
        ...MATRIX['Redis Cluster, ACL user, TLS with a CA, WAIT settings'],
        'delivery.batchSize': 10,
        'cron.processEvents.enabled': true,
      }),
    );
    type Spec = {
      containers: Array<{
        env: Array<{ name: string; value?: string }>;
        volumeMounts: Array<{ name: string; mountPath: string }>;
      }>;
      volumes: Array<{ name: string }>;
    };
    const specs: Spec[] = objects
      .filter((o) => o.kind === 'Deployment' || o.kind === 'CronJob')
      .map((o) =>
        o.kind === 'CronJob' ? (o as any).spec.jobTemplate.spec.template.spec : (o as any).spec.template.spec,
      );
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
      [
        { 'redis.clusterNodes': ['n1:6379'] },
        /set one of redis.url \/ redis.existingSecret, redis.clusterNodes or redis.sentinels/,
      ],
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

  it("renders the Google sync CronJob: every 2 hours, Forbid, history limits, a deadline, serve's store and the Google env", async () => {
    const [first] = helms();
    const objects = parseObjects(
      await template(first!.bin, {
        'cron.syncGoogle.enabled': true,
        extraEnv: [{ name: 'DSYNC_GOOGLE_CLIENT_ID', value: 'id.apps.googleusercontent.com' }],
      }),
    );
    type Container = { args: string[]; env: Array<{ name: string; value?: string }> };
    const cronJob = find(objects, 'CronJob', 'dsync-sync-google') as unknown as {
      spec: Record<string, unknown> & {
        jobTemplate: { spec: { activeDeadlineSeconds: number; template: { spec: { containers: Container[] } } } };
      };
    };
    expect(cronJob.spec).to.deep.include({
      schedule: '0 */2 * * *',
      concurrencyPolicy: 'Forbid',
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 3,
    });
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

  it("renders the Microsoft Entra ID sync CronJob: every 15 minutes (a delta is cheap), Forbid, serve's store and the Microsoft env", async () => {
    const [first] = helms();
    const objects = parseObjects(
      await template(first!.bin, {
        'cron.syncMicrosoft.enabled': true,
        extraEnv: [{ name: 'DSYNC_MICROSOFT_CLIENT_ID', value: 'app-id' }],
      }),
    );
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

  it('gives the operator its own Node.js options (a small young generation), serve the image\'s; "" keeps the image\'s', async () => {
    const [first] = helms();
    type Container = { env: Array<{ name: string; value?: string }> };
    const nodeOptionsOf = (objects: K8sObject[], name: string) =>
      ((find(objects, 'Deployment', name) as any).spec.template.spec.containers[0] as Container).env.find(
        (e) => e.name === 'NODE_OPTIONS',
      )?.value;
    const defaults = parseObjects(await template(first!.bin, {}));
    expect(nodeOptionsOf(defaults, 'dsync-operator')).to.equal('--max-semi-space-size=4');
    expect(nodeOptionsOf(defaults, 'dsync-serve')).to.equal(undefined);
    expect(
      nodeOptionsOf(parseObjects(await template(first!.bin, { 'operator.nodeOptions': '' })), 'dsync-operator'),
    ).to.equal(undefined);
  });

  it("stops serve the way a rolling update needs: a preStop sleep (the kubelet's from 1.30, the image's on 1.29), a grace period the drain fits in", async () => {
    const [first] = helms();
    type Pod = { terminationGracePeriodSeconds?: number; containers: Array<{ lifecycle?: unknown }> };
    const serveOf = async (values: Record<string, unknown>, extra: string[] = []) =>
      (find(parseObjects(await template(first!.bin, values, { extra })), 'Deployment', 'dsync-serve') as any).spec
        .template.spec as Pod;
    const pod = await serveOf({});
    expect(pod.terminationGracePeriodSeconds).to.equal(30);
    expect(pod.containers[0]!.lifecycle).to.deep.equal({ preStop: { sleep: { seconds: 5 } } });
    expect((await serveOf({}, ['--kube-version', 'v1.29.4'])).containers[0]!.lifecycle).to.deep.equal({
      preStop: { exec: { command: ['sleep', '5'] } },
    });
    expect((await serveOf({ 'serve.preStopSleepSeconds': 0 })).containers[0]!.lifecycle).to.equal(undefined);
    const short = await run(first!.bin, [
      'template',
      'dsync',
      CHART_DIR,
      ...setArgs({ ...REQUIRED_VALUES, 'serve.preStopSleepSeconds': 25 }),
    ]);
    expect(short.code).to.not.equal(0);
    expect(short.stderr).to.contain(
      'serve.terminationGracePeriodSeconds must be at least serve.preStopSleepSeconds + 10',
    );
  });

  it('passes the rate-limit values to serve alone (the operator and the CronJob need none)', async () => {
    const [first] = helms();
    const objects = parseObjects(
      await template(first!.bin, {
        'rateLimits.plan': 'scale',
        'rateLimits.overrides': 'scim=20/600',
        'delivery.batchSize': 50,
        'cron.processEvents.enabled': true,
      }),
    );
    type Container = { env: Array<{ name: string; value?: string }> };
    const podOf = (o: K8sObject) =>
      o.kind === 'CronJob' ? (o as any).spec.jobTemplate.spec.template.spec : (o as any).spec.template.spec;
    const limitsOf = (o: K8sObject) =>
      Object.fromEntries(
        (podOf(o).containers[0] as Container).env
          .filter((e) => e.name.startsWith('DSYNC_RATE_LIMIT_'))
          .map((e) => [e.name, e.value]),
      );
    expect(limitsOf(find(objects, 'Deployment', 'dsync-serve'))).to.deep.equal({
      DSYNC_RATE_LIMIT_PLAN: 'scale',
      DSYNC_RATE_LIMIT_ENV: 'production',
      DSYNC_RATE_LIMIT_OVERRIDES: 'scim=20/600',
    });
    expect(limitsOf(find(objects, 'Deployment', 'dsync-operator'))).to.deep.equal({});
    expect(limitsOf(find(objects, 'CronJob', 'dsync-process-events'))).to.deep.equal({});
  });
});
