// The chart on a real node: the image built from the Dockerfile runs as the chart's pods on a kubelet
// (test/k8s/cluster.sh), installed as docs/operating/helm.md's "Try it on a local cluster" says; the pods get
// Ready through their own probes, with the chart's securityContext, and pass `helm test` (cluster DNS); a
// DirectoryConnection gets Ready and an identity provider's SCIM request reaches serve through the Service; its
// event reaches a receiver pod, signed, in real time and in batches from a Job of the process-events CronJob
// (every CronJob runs as a Job to completion); each `helm upgrade` rolls serve over without failing one request
// of a client looping through the Service; the operator fails over to its other replica; `helm uninstall` leaves
// the CRD and the resources. Prints the image's size, its user, how long its pods take to start, and each
// rolling update's requests and failures.
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { helmPageCommand, helmPageManifest, helms, ok } from '../k8s/helm-tools.js';
import { until } from '../support/harness.js';
import {
  type Condition,
  kubectlWith,
  NAMESPACE,
  poll,
  receivedDelivery,
  releasePods,
  seconds,
  upgradeUnderLoad,
} from './chart-on-kubelet-steps.js';
import { installChart, startLocalCluster, type LocalCluster } from './local-cluster.js';

const API_KEY = 'e2e-api-key-0123456789abcdef';
const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('the chart on a kubelet (test/k8s/cluster.sh): the image, helm install, pods Ready, a DirectoryConnection, SCIM through the Service, a webhook to a pod, the CronJobs, failover, uninstall', function () {
  this.timeout(300_000);
  let cluster: LocalCluster;
  let env: NodeJS.ProcessEnv;
  /** The SCIM endpoint of the first DirectoryConnection through the Service, and its bearer token's headers. */
  let base: string;
  let headers: Record<string, string>;
  const k = kubectlWith(() => env);
  const pods = () => releasePods(k);
  const upgrade = (sets: string[]) => upgradeUnderLoad(k, env, { base, headers }, sets);

  before(async function () {
    this.timeout(45 * 60_000); // a cold machine builds the Kubernetes components and the image first
    cluster = await startLocalCluster();
    env = { KUBECONFIG: cluster.kubeconfig };
  });

  after(async function () {
    this.timeout(240_000);
    await cluster?.down();
  });

  it('installs the chart as the page says: serve and operator pods Ready through their own probes, as non-root with a read-only root filesystem', async () => {
    console.log(`      helm install --wait: ${(await installChart(cluster, API_KEY)).toFixed(1)} s`);
    // the chart's own test: a pod asks the Service for /healthz by its DNS name
    await ok(helms()[0]!.bin, helmPageCommand('helm test').slice(1), { env });

    const all = await pods();
    const components = all.map((p) => p.metadata.labels['app.kubernetes.io/component']).sort();
    expect(components).to.deep.equal(['operator', 'operator', 'serve', 'serve']);
    for (const pod of all) {
      const ready = pod.status.conditions?.find((c) => c.type === 'Ready');
      expect(ready?.status, `${pod.metadata.name} Ready`).to.equal('True');
      const [status] = pod.status.containerStatuses ?? [];
      expect(status?.ready, `${pod.metadata.name}'s container ready`).to.equal(true);
      expect(status?.restartCount, `${pod.metadata.name} restarts`).to.equal(0);
      const [container] = pod.spec.containers;
      expect(container?.readinessProbe, `${pod.metadata.name} has a readiness probe`).to.not.equal(undefined);
      expect(container?.livenessProbe, `${pod.metadata.name} has a liveness probe`).to.not.equal(undefined);
      expect(pod.spec.securityContext).to.include({ runAsNonRoot: true, runAsUser: 1000 });
      expect(container?.securityContext?.readOnlyRootFilesystem).to.equal(true);
      if (pod.metadata.labels['app.kubernetes.io/component'] === 'serve') {
        // the kubelet's own sleep before SIGTERM, and time for the drain after it
        expect(container?.lifecycle?.preStop?.sleep?.seconds).to.equal(5);
        expect(pod.spec.terminationGracePeriodSeconds).to.equal(30);
      }
      const started = status!.state.running!.startedAt;
      console.log(
        `      ${pod.metadata.name}: container started ${seconds(pod.metadata.creationTimestamp, started).toFixed(0)} s after the pod was created, ` +
          `Ready ${seconds(started, ready!.lastTransitionTime).toFixed(0)} s after it started`,
      );
    }
  });

  it('runs the image as its user, node (uid 1000), and prints its size as the node reports it', async () => {
    const serve = (await pods()).find((p) => p.metadata.labels['app.kubernetes.io/component'] === 'serve')!;
    const who = await k([
      '-n',
      NAMESPACE,
      'exec',
      serve.metadata.name,
      '--',
      'node',
      '-e',
      'console.log(process.getuid(), require("os").userInfo().username)',
    ]);
    expect(who.trim()).to.equal('1000 node');
    // the kubelet lists the node's images in its status every few seconds
    let image: { names: string[]; sizeBytes: number } | undefined;
    await poll(
      async () => {
        const node = JSON.parse(await k(['get', 'nodes', '-o', 'json'])) as {
          items: Array<{ status: { images?: Array<{ names: string[]; sizeBytes: number }> } }>;
        };
        image = node.items[0]!.status.images?.find((i) => i.names.includes('docker.io/library/dsync:dev'));
        return image !== undefined;
      },
      'docker.io/library/dsync:dev in the node status',
      60_000,
    );
    console.log(
      `      image docker.io/library/dsync:dev: ${(image!.sizeBytes / 1e6).toFixed(0)} MB (as the node reports it); user: ${who.trim()}`,
    );
  });

  it('gets a DirectoryConnection Ready and provisions a user through the Service with the endpoint and token of its Secret', async () => {
    await k([
      '-n',
      'default',
      'create',
      'secret',
      'generic',
      'acme-webhook',
      `--from-literal=secret=${WEBHOOK_SECRET}`,
    ]);
    // The page's resource, its webhook pointed at a name that never resolves: nothing outside the machine is addressed.
    const manifest = helmPageManifest().replace(/url: \S+/, 'url: https://receiver.invalid/webhooks/dsync');
    await k(['apply', '-f', '-'], manifest);
    await k(['-n', 'default', 'wait', 'directoryconnection/acme-okta', '--for=condition=Ready', '--timeout=60s']);
    const secret = JSON.parse(await k(['-n', 'default', 'get', 'secret', 'acme-okta-scim', '-o', 'json'])) as {
      data: Record<string, string>;
    };
    const endpoint = Buffer.from(secret.data['endpoint']!, 'base64').toString();
    const token = Buffer.from(secret.data['token']!, 'base64').toString();
    expect(endpoint).to.match(/^http:\/\/dsync\.example\.test\/api\/scim\/v2\.0\/[0-9a-f-]{36}$/);

    const clusterIp = (
      await k(['-n', NAMESPACE, 'get', 'service', 'dsync', '-o', 'jsonpath={.spec.clusterIP}'])
    ).trim();
    base = `http://${await cluster.forward(`${clusterIp}:80`)}${new URL(endpoint).pathname}`;
    headers = { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' };
    const user = {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'ada@acme.test',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      emails: [{ value: 'ada@acme.test', primary: true }],
      active: true,
    };
    const created = await fetch(`${base}/Users`, { method: 'POST', headers, body: JSON.stringify(user) });
    expect(created.status, await created.clone().text()).to.equal(201);
    const { id } = (await created.json()) as { id: string };
    let found: { totalResults: number; Resources: Array<{ id: string }> } | undefined;
    await until(
      async () => {
        const r = await fetch(`${base}/Users?filter=${encodeURIComponent('userName eq "ada@acme.test"')}`, { headers });
        found = (await r.json()) as typeof found;
        return r.status === 200 && found!.totalResults === 1;
      },
      'the user listed by either serve replica',
      10_000,
    );
    expect(found!.Resources[0]!.id).to.equal(id);
  });

  it('rolls serve over with helm upgrade three times, failing none of the SCIM requests a client loops through the Service', async function () {
    this.timeout(600_000);
    for (const rollout of ['r1', 'r2', 'r3']) await upgrade([`serve.podAnnotations.e2e-rollout=${rollout}`]);
  });

  it('delivers the signed webhook to a receiver pod once a helm upgrade allows private addresses', async () => {
    // The receiver: the dsync image's node, printing each request it gets as one JSON line.
    const server = `require('http').createServer((req, res) => { let body = ''; req.on('data', (c) => (body += c));
      req.on('end', () => { console.log(JSON.stringify({ headers: req.headers, body })); res.end(); }); }).listen(8080);`;
    await k([
      '-n',
      'default',
      'run',
      'receiver',
      '--image=dsync:dev',
      '--image-pull-policy=Never',
      '--labels=app=receiver',
      '--port=8080',
      '--expose',
      '--command',
      '--',
      'node',
      '-e',
      server,
    ]);
    await k(['-n', 'default', 'wait', 'pod/receiver', '--for=condition=Ready', '--timeout=60s']);
    await upgrade(['delivery.allowPrivate=true']);
    await k([
      '-n',
      'default',
      'patch',
      'directoryconnection',
      'acme-okta',
      '--type=merge',
      '-p',
      JSON.stringify({ spec: { webhook: { url: 'http://receiver.default.svc:8080/webhooks/dsync' } } }),
    ]);
    await poll(
      async () => {
        const dc = JSON.parse(await k(['-n', 'default', 'get', 'directoryconnection', 'acme-okta', '-o', 'json'])) as {
          metadata: { generation: number };
          status?: { observedGeneration?: number; conditions?: Condition[] };
        };
        return (
          dc.status?.observedGeneration === dc.metadata.generation &&
          dc.status.conditions?.find((c) => c.type === 'Ready')?.status === 'True'
        );
      },
      'the DirectoryConnection reconciled with the receiver as its webhook',
      60_000,
    );

    const created = await fetch(`${base}/Users`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'grace@acme.test',
        active: true,
      }),
    });
    expect(created.status).to.equal(201);
    const delivery = await receivedDelivery(
      k,
      (d) => d.body.includes('grace@acme.test'),
      'the event delivered to the receiver pod',
      60_000,
    );
    new Webhook(WEBHOOK_SECRET).verify(delivery.body, delivery.headers);
    const event = JSON.parse(delivery.body) as { event: string; data: { userName?: string } };
    expect(event.event).to.equal('user.created'); // real-time delivery: one event a request
    console.log(`      ${event.event} delivered to the receiver pod, its signature verified`);
  });

  it('runs each CronJob as a Job to completion; process-events delivers the queued events to the receiver pod as a batch', async () => {
    await upgrade([
      'delivery.batchSize=10',
      'cron.processEvents.enabled=true',
      'cron.syncGoogle.enabled=true',
      'cron.syncMicrosoft.enabled=true',
      'cron.syncHris.enabled=true',
    ]);
    const created = await fetch(`${base}/Users`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'linus@acme.test',
        active: true,
      }),
    });
    expect(created.status).to.equal(201);
    const cronJobs = (
      await k([
        '-n',
        NAMESPACE,
        'get',
        'cronjobs',
        '-l',
        'app.kubernetes.io/instance=dsync',
        '-o',
        'jsonpath={.items[*].metadata.name}',
      ])
    )
      .trim()
      .split(' ')
      .sort();
    expect(cronJobs).to.deep.equal([
      'dsync-process-events',
      'dsync-sync-google',
      'dsync-sync-hris',
      'dsync-sync-microsoft',
    ]);
    for (const cronJob of cronJobs) {
      await k(['-n', NAMESPACE, 'create', 'job', `${cronJob}-e2e`, `--from=cronjob/${cronJob}`]);
      await k(['-n', NAMESPACE, 'wait', `job/${cronJob}-e2e`, '--for=condition=complete', '--timeout=120s']);
      const job = JSON.parse(await k(['-n', NAMESPACE, 'get', 'job', `${cronJob}-e2e`, '-o', 'json'])) as {
        status: { startTime: string; completionTime: string };
      };
      console.log(
        `      ${cronJob}: a Job from it completed in ${seconds(job.status.startTime, job.status.completionTime).toFixed(0)} s`,
      );
    }
    const batch = await receivedDelivery(
      k,
      (d) => d.body.startsWith('[') && d.body.includes('linus@acme.test'),
      'the batch delivered to the receiver pod',
      30_000,
    );
    new Webhook(WEBHOOK_SECRET).verify(batch.body, batch.headers);
    expect((JSON.parse(batch.body) as Array<{ event: string }>).map((e) => e.event)).to.include('user.created');
  });

  it('fails over: with the leader pod deleted, the other replica takes the Lease and reconciles a new DirectoryConnection', async () => {
    const holder = async () =>
      (await k(['-n', NAMESPACE, 'get', 'lease', 'dsync-operator', '-o', 'jsonpath={.spec.holderIdentity}'])).trim();
    const first = await holder();
    const leaderPod = first.replace(/_[0-9a-f]{8}$/, '');
    expect((await pods()).map((p) => p.metadata.name)).to.include(leaderPod);
    const t0 = Date.now();
    await k(['-n', NAMESPACE, 'delete', 'pod', leaderPod, '--wait=false']);
    let next = '';
    await poll(
      async () => {
        next = await holder();
        return next !== '' && !next.startsWith(`${leaderPod}_`);
      },
      'another replica holding the Lease',
      60_000,
    );
    console.log(`      Lease dsync-operator: ${first} -> ${next} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const manifest = helmPageManifest()
      .replace(/url: \S+/, 'url: https://receiver.invalid/webhooks/dsync')
      .replace('name: acme-okta', 'name: globex-okta')
      .replace(/tenant: acme\b/, 'tenant: globex');
    await k(['apply', '-f', '-'], manifest);
    await k(['-n', 'default', 'wait', 'directoryconnection/globex-okta', '--for=condition=Ready', '--timeout=60s']);
    await k(['-n', 'default', 'get', 'secret', 'globex-okta-scim']);
  });

  it('helm uninstall removes the release and leaves the CRD and every DirectoryConnection', async () => {
    await ok(helms()[0]!.bin, ['uninstall', 'dsync', '-n', NAMESPACE, '--wait', '--timeout', '120s'], { env });
    const release = ['-l', 'app.kubernetes.io/instance=dsync', '-o', 'name'];
    expect(
      (
        await k([
          '-n',
          NAMESPACE,
          'get',
          'deployments,replicasets,services,serviceaccounts,roles,rolebindings,configmaps,cronjobs',
          ...release,
        ])
      ).trim(),
    ).to.equal('');
    // the pods go as their ReplicaSets are collected, each after its graceful stop
    await poll(
      async () => (await k(['-n', NAMESPACE, 'get', 'pods', ...release])).trim() === '',
      'the release pods gone',
      90_000,
    );
    expect((await k(['get', 'clusterroles,clusterrolebindings', ...release])).trim()).to.equal('');
    await k(['get', 'crd', 'directoryconnections.dsync.io']);
    const left = (await k(['-n', 'default', 'get', 'directoryconnections', '-o', 'name'])).trim().split('\n').sort();
    expect(left).to.deep.equal(['directoryconnection.dsync.io/acme-okta', 'directoryconnection.dsync.io/globex-okta']);
  });
});
