// The operator's /metrics, scraped over HTTP from two replicas (leader and standby) running against the real
// API server and Redis: its own families with sane values, and none of serve's delivery families.
import { expect } from 'chai';
import { ProcessMetrics } from '../../src/metrics.js';
import type { Operator } from '../../src/operator/main.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { redisUrl } from '../support/services.js';
import {
  connection,
  createConnection,
  REDIS_DB,
  startEnv,
  startOperator,
  waitFor,
  waitForReady,
  type Env,
} from './operator-harness.js';

async function scrape(port: number): Promise<string> {
  return (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
}

const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('operator metrics (real kube-apiserver + Redis)', function () {
  this.timeout(120_000);
  let env: Env;
  const replicas: Array<{ operator: Operator; store: RedisStore; server: import('node:http').Server; port: number }> =
    [];

  before(async () => {
    env = await startEnv();
    for (let i = 0; i < 2; i++) {
      const metrics = new ProcessMetrics();
      const store = new RedisStore(`${redisUrl()}/${REDIS_DB}`);
      store.observeCommands(metrics.observeStore);
      const operator = startOperator(env, { store, registry: metrics.registry });
      const server = await metrics.listen(0, '127.0.0.1');
      replicas.push({ operator, store, server, port: (server.address() as { port: number }).port });
      if (i === 0) await waitFor('the first replica to lead', async () => operator.isLeader());
    }
  });

  after(async () => {
    for (const r of replicas) {
      await r.operator.stop();
      r.server.close();
      await r.store.close();
    }
    await env?.stop();
  });

  it('leader 1, standby 0; DirectoryConnections by Ready and reason from the leader alone; API-server requests; store commands; build info', async () => {
    await createConnection(env, connection('ready-one'));
    await createConnection(
      env,
      connection('bad-hook', { webhook: { url: 'https://h.example/in', secretRef: { name: 'missing', key: 'k' } } }),
    );
    await waitForReady(env, 'ready-one');
    await waitForReady(env, 'bad-hook', 'False', 'SecretNotFound');
    const [leader, standby] = await Promise.all(replicas.map((r) => scrape(r.port)));
    expect(sample(leader!, 'leader_election_master_status{name="dsync-operator"}')).to.equal(1);
    expect(sample(standby!, 'leader_election_master_status{name="dsync-operator"}')).to.equal(0);
    // The leader alone counts the DirectoryConnections (the standby's cache holds the same ones), so a sum
    // over the replicas counts each once.
    const text = await waitFor('both resources counted by the leader', async () => {
      const t = await scrape(replicas[0]!.port);
      const counted =
        sample(t, 'dsync_directoryconnections{ready="True",reason="Reconciled"}') === 1 &&
        sample(t, 'dsync_directoryconnections{ready="False",reason="SecretNotFound"}') === 1;
      return counted && t;
    });
    const standbyText = await scrape(replicas[1]!.port);
    expect(standbyText).to.not.match(/^dsync_directoryconnections\{/m);
    for (const t of [text, standbyText]) {
      expect(t).to.match(/^dsync_build_info\{version="[^"]+",node_version="v\d+/m);
      expect(t).to.not.match(/^webhook_delivery|^dsync_webhook_backlog|^dsync_dead_letters|^http_request_duration/m);
    }
    const host = new URL(env.kubeConfig.getCurrentCluster()!.server).host;
    expect(sample(leader!, `rest_client_requests_total{code="201",method="POST",host="${host}"}`)).to.be.at.least(1);
    expect(sample(leader!, `rest_client_requests_total{code="200",method="PATCH",host="${host}"}`)).to.be.at.least(2);
    expect(sample(leader!, 'dsync_store_command_duration_seconds_count{command="get"}')).to.be.at.least(1);
  });
});
