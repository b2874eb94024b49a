// LeaderElector against a scripted Lease API on port 0 (http) that can answer each replica late or never: the
// slow and partitioned API servers that decide whether two replicas ever lead at once.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { KubeConfig } from '@kubernetes/client-node';
import { expect } from 'chai';
import { pino } from 'pino';
import { LeaderElector, type LeaderElectionOptions } from '../../../src/operator/controller/leader-election.js';
import { InvalidOptionError } from '../../../src/operator/errors.js';
import { KubeClient } from '../../../src/operator/kube.js';

/**
 * How the API server treats one replica's requests: normally; apply each write at once but answer it late; apply
 * the next write but answer it late, then go silent; go silent.
 */
type Mode = 'ok' | 'slow' | 'slow-then-dead' | 'dead';

interface LeaseRecord {
  metadata: { name: string; namespace: string; resourceVersion: string };
  spec: { holderIdentity?: string; leaseDurationSeconds?: number };
}

const LEASE_MS = 3_000;
const RENEW_DEADLINE_MS = 2_000;
/**
 * How late a timer or a local answer may come on a loaded machine (the suite runs three test processes on two
 * cores). Half the gap between the renew deadline and the lease, so the bounds still tell the deadline from the
 * lease's expiry, and "at once" from the deadline.
 */
const SLACK_MS = 500;

describe('LeaderElector', function () {
  this.timeout(20_000);
  let server: Server;
  let port = 0;
  let lease: LeaseRecord | undefined;
  let rv = 1;
  let mode: Record<string, Mode>;
  /** performance.now() at which the server applied each replica's last write. */
  let appliedAt: Record<string, number>;
  const clients: KubeClient[] = [];
  const electors: LeaderElector[] = [];

  beforeEach(async () => {
    lease = undefined;
    mode = {};
    appliedAt = {};
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const who = String(req.headers['user-agent']);
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        if (mode[who] === 'dead') return; // partitioned from this replica: never answered
        const send = (status: number, obj: unknown, delayMs = 0): void => {
          setTimeout(
            () => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(obj)),
            delayMs,
          );
        };
        const status = (code: number, reason: string) => ({ kind: 'Status', code, reason, message: reason });
        if (req.method === 'GET') return lease ? send(200, lease) : send(404, status(404, 'NotFound'));
        const obj = JSON.parse(body) as LeaseRecord;
        if (req.method === 'POST' && lease) return send(409, status(409, 'AlreadyExists'));
        if (req.method === 'PUT' && obj.metadata.resourceVersion !== lease?.metadata.resourceVersion)
          return send(409, status(409, 'Conflict'));
        lease = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++rv) } };
        appliedAt[who] = performance.now();
        if (mode[who] === 'slow-then-dead') {
          mode[who] = 'dead';
          return send(200, lease, 900); // applied now, answered within the request timeout, then silence
        }
        return send(200, lease, mode[who] === 'slow' ? 300 : 0);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(async () => {
    for (const e of electors.splice(0)) await e.stop();
    for (const c of clients.splice(0)) c.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function elector(identity: string, options: Partial<LeaderElectionOptions> = {}): LeaderElector {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    // The client timeout main.ts used to give the lease client; the elector now bounds each request itself.
    const client = new KubeClient({ kubeConfig, userAgent: identity, timeoutMs: RENEW_DEADLINE_MS / 2 });
    clients.push(client);
    mode[identity] = 'ok';
    const e = new LeaderElector({
      client,
      namespace: 'ns',
      name: 'lease',
      identity,
      leaseDurationMs: LEASE_MS,
      renewDeadlineMs: RENEW_DEADLINE_MS,
      retryPeriodMs: 400,
      logger: pino({ level: 'silent' }),
      ...options,
    });
    electors.push(e);
    return e;
  }

  it('a leader whose renewals turn slow, then unanswered, has stepped down before a standby takes the Lease', async () => {
    const leader = elector('leader');
    const standby = elector('standby', { retryPeriodMs: 50 });
    expect(await leader.acquire()).to.equal(true);
    const renewing = leader.renew();
    let steppedDownAt = 0;
    void renewing.then(() => (steppedDownAt = performance.now()));
    const standbyLedAt = standby.acquire().then(() => performance.now());
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    mode['leader'] = 'slow-then-dead';
    let overlapSamples = 0;
    const sampler = setInterval(() => void (leader.isLeader() && standby.isLeader() && overlapSamples++), 5);
    const takeover = await standbyLedAt;
    expect(await renewing).to.equal(false);
    clearInterval(sampler);

    const lastRenewal = appliedAt['leader']!; // the server applied it; its request started earlier
    expect(overlapSamples, 'samples with two leaders').to.equal(0);
    expect(steppedDownAt - lastRenewal, 'step-down after the last renewal (ms)').to.be.at.most(
      RENEW_DEADLINE_MS + SLACK_MS,
    );
    expect(takeover - lastRenewal, 'take-over after the last renewal (ms)').to.be.at.least(LEASE_MS - SLACK_MS);
    expect(takeover).to.be.above(steppedDownAt);
  });

  it('cuts a hung renewal off at the renew deadline; isLeader() is false from then on', async () => {
    // A request timeout longer than the deadline: only the deadline can end the attempt in time.
    const leader = elector('leader', { attemptTimeoutMs: 30_000 });
    expect(await leader.acquire()).to.equal(true);
    const renewing = leader.renew();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    mode['leader'] = 'dead';
    const lastRenewal = appliedAt['leader']!;
    let sawLeaderAfterDeadline = false;
    const sampler = setInterval(() => {
      if (performance.now() > lastRenewal + RENEW_DEADLINE_MS && leader.isLeader()) sawLeaderAfterDeadline = true;
    }, 5);
    expect(await renewing).to.equal(false);
    const steppedDownAfter = performance.now() - lastRenewal;
    clearInterval(sampler);
    expect(sawLeaderAfterDeadline, 'isLeader() after the renew deadline').to.equal(false);
    expect(steppedDownAfter, 'step-down after the last renewal (ms)').to.be.at.most(RENEW_DEADLINE_MS + SLACK_MS);
    expect(leader.isLeader()).to.equal(false);
  });

  it('steps down at once, not at the renew deadline, when another replica holds a valid lease', async () => {
    const leader = elector('leader', { retryPeriodMs: 200 });
    expect(await leader.acquire()).to.equal(true);
    const renewing = leader.renew();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // As after a partition: someone else took the Lease.
    lease = {
      ...lease!,
      spec: { holderIdentity: 'intruder', leaseDurationSeconds: 60 },
      metadata: { ...lease!.metadata, resourceVersion: String(++rv) },
    };
    const t0 = performance.now();
    expect(await renewing).to.equal(false);
    expect(performance.now() - t0, 'ms until the step-down').to.be.below(200 + SLACK_MS);
    expect(leader.isLeader()).to.equal(false);
  });

  it('stop() during a renewal under way lets it finish, then frees the Lease (no stale release)', async () => {
    const leader = elector('leader');
    expect(await leader.acquire()).to.equal(true);
    const renewing = leader.renew();
    const acquiredAt = appliedAt['leader'];
    mode['leader'] = 'slow';
    while (appliedAt['leader'] === acquiredAt) await new Promise((resolve) => setTimeout(resolve, 5));
    await leader.stop(); // the renewal is applied, its answer 300 ms away
    expect(await renewing).to.equal(true);
    expect(lease?.spec.holderIdentity).to.equal('');
  });

  it('refuses timings where a standby could take over before the leader has stepped down', () => {
    const build = (leaseDurationMs: number, renewDeadlineMs: number, retryPeriodMs: number) => () =>
      elector('x', { leaseDurationMs, renewDeadlineMs, retryPeriodMs });
    expect(build(12_000, 10_000, 2_000)).to.throw(
      InvalidOptionError,
      'leaseDurationMs must be greater than renewDeadlineMs + retryPeriodMs (12000 <= 10000 + 2000)',
    );
    expect(build(15_000, 2_000, 2_000)).to.throw(
      InvalidOptionError,
      'renewDeadlineMs must be greater than retryPeriodMs',
    );
    expect(build(15_000, 10_000, 2_000)).to.not.throw();
  });
});
