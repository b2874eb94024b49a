// The operator's readiness (/readyz, the chart's readinessProbe) against a real kube-apiserver: not ready
// before its caches sync, ready while leading and as a standby that reaches the Lease, not ready as a standby
// cut off from the API server. The standby reaches the API server through a TCP relay the test can cut.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { expect } from 'chai';
import { ProcessMetrics } from '../../src/metrics.js';
import type { Operator } from '../../src/operator/main.js';
import { helms, parseObjects, template } from './helm-tools.js';
import { startEnv, startOperator, variantKubeConfig, waitFor, type Env } from './operator-harness.js';

/** A TCP relay to the API server; `cut` drops every connection and refuses new ones until `open`. */
async function relay(target: URL): Promise<{ url: string; cut(): void; open(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let cut = true;
  const server: Server = createServer((client) => {
    if (cut) return client.destroy();
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `https://127.0.0.1:${port}`,
    cut() {
      cut = true;
      for (const s of sockets) s.destroy();
    },
    open() {
      cut = false;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function probe(server: HttpServer): Promise<{ status: number; body: string }> {
  const { port } = server.address() as { port: number };
  const res = await fetch(`http://127.0.0.1:${port}/readyz`);
  return { status: res.status, body: await res.text() };
}

describe('operator readiness (real kube-apiserver)', function () {
  this.timeout(120_000);
  let env: Env;
  let link: Awaited<ReturnType<typeof relay>>;
  const running: Array<{ operator: Operator; server: HttpServer }> = [];

  /** An operator serving /readyz on a free port, as `dsync operator` does. */
  async function replica(kubeConfig = env.kubeConfig): Promise<{ operator: Operator; server: HttpServer }> {
    const metrics = new ProcessMetrics();
    const operator = startOperator(env, { kubeConfig, registry: metrics.registry });
    const server = await metrics.listen(0, '127.0.0.1', () => operator.readiness());
    running.push({ operator, server });
    return { operator, server };
  }

  before(async () => {
    env = await startEnv();
    link = await relay(new URL(env.kubeConfig.getCurrentCluster()!.server));
  });

  after(async () => {
    for (const { operator, server } of running) {
      await operator.stop();
      server.close();
    }
    await link?.close();
    await env?.stop();
  });

  it('ready when leading and as a standby that reaches the Lease; not before its caches sync, nor when cut off', async () => {
    const leader = await replica();
    await waitFor('the first replica to lead', async () => leader.operator.isLeader());
    expect(await probe(leader.server)).to.deep.equal({ status: 200, body: 'leading\n' });

    // The second replica reaches the API server only through the relay, cut for now: nothing lists.
    const { kubeConfig: viaRelay } = await variantKubeConfig(env, 'relay', { server: link.url });
    const standby = await replica(viaRelay);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await probe(standby.server)).to.deep.equal({ status: 503, body: 'caches not synced yet\n' });

    link.open();
    await waitFor('the standby to be ready', async () => (await probe(standby.server)).status === 200);
    expect((await probe(standby.server)).body).to.equal('standby (the Lease is reachable)\n');
    expect(standby.operator.isLeader()).to.equal(false);

    // Cut off: once a lease duration (3 s in these tests) passes without reaching the Lease, it could not take over.
    link.cut();
    const cutOff = await waitFor(
      'the cut-off standby to be unready',
      async () => {
        const answer = await probe(standby.server);
        return answer.status === 503 && answer;
      },
      10_000,
    );
    expect(cutOff.body).to.match(/^standby that has not reached the Lease for \d+ s\n$/);
    expect((await probe(leader.server)).status).to.equal(200);

    link.open();
    await waitFor('the standby ready again', async () => (await probe(standby.server)).status === 200, 10_000);
  });

  it("the chart's readinessProbe is /readyz on the metrics port", async () => {
    const objects = parseObjects(await template(helms()[0]!.bin, {}));
    const deployment = objects.find(
      (o) => o.kind === 'Deployment' && o.metadata.name === 'dsync-operator',
    ) as unknown as {
      spec: { template: { spec: { containers: Array<{ readinessProbe?: unknown }> } } };
    };
    expect(deployment.spec.template.spec.containers[0]!.readinessProbe).to.deep.equal({
      httpGet: { path: '/readyz', port: 'metrics' },
    });
  });
});
