import { KubeConfig } from '@kubernetes/client-node';
import { expect } from 'chai';
import { loadOperatorConfig } from '../../../src/config.js';
import { InvalidOptionError } from '../../../src/operator/errors.js';
import { resolveOptions, type OperatorOptions } from '../../../src/operator/options.js';
import { MemoryStore } from '../../../src/store/memory/users-groups.js';

function kubeConfig(namespace?: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:6443', skipTLSVerify: false }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u', ...(namespace && { namespace }) }],
    currentContext: 'x',
  });
  return kc;
}

const base = (): OperatorOptions => ({
  kubeConfig: kubeConfig('dsync-system'),
  store: new MemoryStore(),
  externalUrl: 'https://dsync.example.com/',
});

describe('operator options', () => {
  it('applies the documented defaults', () => {
    const o = resolveOptions(base());
    expect(o).to.deep.include({
      externalUrl: 'https://dsync.example.com',
      namespaces: undefined,
      workers: 16,
      resyncIntervalMs: 600_000,
      watchdogMs: 150_000,
      requeueAfterMs: 60_000,
      storeTimeoutMs: 10_000,
    });
    expect(o.retry).to.deep.equal({ baseDelayMs: 5, maxDelayMs: 300_000 });
    expect(o.kubeRateLimit).to.deep.equal({ qps: 500, burst: 1000 });
    expect(o.leaderElection).to.deep.include({
      enabled: true,
      namespace: 'dsync-system',
      leaseName: 'dsync-operator',
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
    });
    expect(o.leaderElection.identity).to.match(/^.+_[0-9a-f]{8}$/);
    expect(resolveOptions({ ...base(), kubeConfig: kubeConfig() }).leaderElection.namespace).to.equal('default');
  });

  it('takes one namespace as a one-entry list', () => {
    expect(resolveOptions({ ...base(), namespace: 'team' }).namespaces).to.deep.equal(['team']);
    expect(resolveOptions({ ...base(), namespaces: ['a', 'b'] }).namespaces).to.deep.equal(['a', 'b']);
  });

  const bad: Array<[string, Partial<OperatorOptions>, string]> = [
    ['externalUrl', { externalUrl: 'dsync.example.com' }, 'externalUrl must be an http(s) URL'],
    ['workers', { workers: 0 }, 'workers must be an integer from 1 to 64'],
    ['watchdogMs', { watchdogMs: 0 }, 'watchdogMs must be > 0'],
    ['storeTimeoutMs', { storeTimeoutMs: 0 }, 'storeTimeoutMs must be > 0'],
    ['namespaces', { namespaces: ['Tenant_A'] }, 'namespaces must be a non-empty list of namespace names'],
    ['namespace', { namespace: 'a', namespaces: ['b'] }, 'namespace and namespaces are exclusive; set one'],
    [
      'renewDeadlineMs',
      { leaderElection: { renewDeadlineMs: 20_000 } },
      'leaderElection.leaseDurationMs must be greater than leaderElection.renewDeadlineMs + leaderElection.retryPeriodMs (15000 <= 20000 + 2000)',
    ],
    [
      'retryPeriodMs',
      { leaderElection: { retryPeriodMs: 10_000 } },
      'leaderElection.renewDeadlineMs must be greater than leaderElection.retryPeriodMs',
    ],
    // A standby may take the Lease a lease duration after the last renewal; the leader must be gone before.
    [
      'leaseDurationMs',
      { leaderElection: { leaseDurationMs: 12_000 } },
      'leaderElection.leaseDurationMs must be greater than leaderElection.renewDeadlineMs + leaderElection.retryPeriodMs (12000 <= 10000 + 2000)',
    ],
  ];
  for (const [name, options, message] of bad) {
    it(`rejects a bad ${name}, naming it`, () => {
      expect(() => resolveOptions({ ...base(), ...options })).to.throw(InvalidOptionError, message);
    });
  }

  it('reads the operator settings from the environment (config.ts), without requiring API keys', () => {
    const config = loadOperatorConfig({
      REDIS_URL: 'redis://redis:6379',
      DSYNC_EXTERNAL_URL: 'https://dsync.example.com',
      DSYNC_OPERATOR_NAMESPACE: 'tenants',
      DSYNC_OPERATOR_WORKERS: '8',
      DSYNC_OPERATOR_RESYNC: '30m',
      DSYNC_OPERATOR_KUBE_QPS: '50',
      DSYNC_OPERATOR_KUBE_BURST: '100',
      DSYNC_LEADER_ELECTION: 'false',
      DSYNC_LEADER_ELECTION_NAMESPACE: 'dsync-system',
      DSYNC_LEADER_ELECTION_LEASE_DURATION: '30s',
      DSYNC_LEADER_ELECTION_RENEW_DEADLINE: '20s',
      DSYNC_LEADER_ELECTION_RETRY_PERIOD: '5s',
      KUBECONFIG: '/etc/kube/a:/etc/kube/b',
      KUBERNETES_SERVICE_HOST: '10.96.0.1',
      KUBERNETES_SERVICE_PORT: '443',
    });
    expect(config).to.deep.include({
      redis: { kind: 'server', url: 'redis://redis:6379' },
      externalUrl: 'https://dsync.example.com',
    });
    expect(config.operator).to.deep.equal({
      cluster: { kubeconfig: '/etc/kube/a:/etc/kube/b', serviceHost: '10.96.0.1', servicePort: '443' },
      namespaces: ['tenants'],
      workers: 8,
      resyncIntervalMs: 1_800_000,
      kubeRateLimit: { qps: 50, burst: 100 },
      leaderElection: {
        enabled: false,
        namespace: 'dsync-system',
        leaseDurationMs: 30_000,
        renewDeadlineMs: 20_000,
        retryPeriodMs: 5_000,
      },
    });
    expect(() => loadOperatorConfig({ DSYNC_LEADER_ELECTION_RETRY_PERIOD: 'soon' })).to.throw(
      'DSYNC_LEADER_ELECTION_RETRY_PERIOD: invalid duration "soon"',
    );
    expect(() => loadOperatorConfig({ REDIS_URL: 'redis://redis:6379', DSYNC_OPERATOR_KUBE_QPS: '-1' })).to.throw(
      'DSYNC_OPERATOR_KUBE_QPS must be >= 0 (0 = no client-side limit)',
    );
  });
});
