// Several `dsync operator` processes (the real CLI, as the Deployment runs it) against one kube-apiserver:
// one leader at a time, SIGTERM hands over at once (the Lease is released), SIGKILL fails over when the lease
// expires.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { LEASES } from '../../src/operator/kube.js';
import { redisUrl } from '../support/services.js';
import {
  EXTERNAL_URL,
  REDIS_DB,
  connection,
  createConnection,
  startEnv,
  waitFor,
  waitForReady,
  type Env,
} from './operator-harness.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
/**
 * Long enough that the takeover on a release, one retry period idle, stays clear of the lease's expiry when a loaded
 * machine delays it: the bound below is the lease less two retry periods.
 */
const LEASE_MS = 6_000;
const RETRY_MS = 500;

interface Replica {
  child: ChildProcess;
  identity: Promise<string>;
  /** Epoch ms of the "became leader" log line, once seen. */
  ledAt?: number;
  exited: Promise<number | null>;
  logs: string[];
}

function startReplica(env: Env): Replica {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'operator'], {
    env: {
      ...process.env,
      KUBECONFIG: env.cluster.kubeconfigPath,
      REDIS_URL: `${redisUrl()}/${REDIS_DB}`,
      DSYNC_EXTERNAL_URL: EXTERNAL_URL,
      METRICS_PORT: '0',
      LOG_LEVEL: 'info',
      DSYNC_LEADER_ELECTION_LEASE_DURATION: `${LEASE_MS}ms`,
      DSYNC_LEADER_ELECTION_RENEW_DEADLINE: '2s',
      DSYNC_LEADER_ELECTION_RETRY_PERIOD: `${RETRY_MS}ms`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  let resolveIdentity!: (id: string) => void;
  const replica: Replica = {
    child,
    logs,
    identity: new Promise((resolve) => (resolveIdentity = resolve)),
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
  createInterface({ input: child.stdout! }).on('line', (line) => {
    logs.push(line);
    const entry = JSON.parse(line) as { msg?: string; identity?: string; time: number };
    if (entry.msg === 'dsync operator started' && entry.identity) resolveIdentity(entry.identity);
    if (entry.msg === 'became leader') replica.ledAt = entry.time;
  });
  createInterface({ input: child.stderr! }).on('line', (line) => logs.push(line));
  return replica;
}

describe('leader election with several operator processes (real kube-apiserver)', function () {
  this.timeout(120_000);
  let env: Env;
  const replicas: Replica[] = [];

  const holder = async (): Promise<string> => {
    const lease = await env.kube.get<{ spec?: { holderIdentity?: string } }>(LEASES, 'default', 'dsync-operator');
    return lease.spec?.holderIdentity ?? '';
  };
  const leaders = (): Replica[] =>
    replicas.filter((r) => r.ledAt !== undefined && r.child.exitCode === null && r.child.signalCode === null);

  before(async () => {
    env = await startEnv();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') for (const r of replicas) process.stderr.write(`${r.logs.join('\n')}\n`);
  });

  after(async () => {
    for (const r of replicas) r.child.kill('SIGKILL');
    await Promise.all(replicas.map((r) => r.exited));
    await env?.stop();
  });

  it('two replicas → exactly one leader, and it reconciles', async () => {
    replicas.push(startReplica(env), startReplica(env));
    const ids = await Promise.all(replicas.map((r) => r.identity));
    expect(ids[0]).to.not.equal(ids[1]);
    await waitFor('a leader', async () => leaders().length === 1);
    await createConnection(env, connection('led'));
    await waitForReady(env, 'led');
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS)); // longer than a lease: still one leader
    expect(leaders()).to.have.length(1);
    expect(await holder()).to.equal(await leaders()[0]!.identity);
  });

  it('SIGTERM → the leader releases the Lease and exits 0; the standby takes over at once', async () => {
    const [leader] = leaders();
    const standby = replicas.find((r) => r !== leader)!;
    leader!.child.kill('SIGTERM');
    expect(await leader!.exited).to.equal(0);
    await waitFor('the standby to lead', async () => standby.ledAt !== undefined);
    const released = leader!.logs
      .map((l) => JSON.parse(l) as { msg?: string; time: number })
      .find((e) => e.msg === 'released the lease');
    expect(released, 'the leader logged "released the lease"').to.not.equal(undefined);
    // Measured from the release itself, not from the signal (the process's graceful exit is not the standby's
    // doing). A standby that ignored the release would wait for the lease to expire: at least the lease less the
    // retry period the last renewal may have come before the release. Taking over at once is one retry period.
    const takeoverMs = standby.ledAt! - released!.time;
    expect(takeoverMs, `took over ${takeoverMs} ms after the release`).to.be.below(LEASE_MS - 2 * RETRY_MS);
    expect(await holder()).to.equal(await standby.identity);
  });

  it('SIGKILL → a standby takes over within the lease duration (+ retry period) and reconciles', async () => {
    replicas.push(startReplica(env));
    const fresh = replicas[replicas.length - 1]!;
    await fresh.identity;
    await new Promise((resolve) => setTimeout(resolve, 2 * RETRY_MS)); // let it observe the current lease
    const [leader] = leaders();
    leader!.child.kill('SIGKILL');
    await leader!.exited;
    // The killed leader's last renewal, as the Lease records it (nobody can change it before it expires).
    const lease = await env.kube.get<{ spec?: { holderIdentity?: string; renewTime?: string } }>(
      LEASES,
      'default',
      'dsync-operator',
    );
    expect(lease.spec?.holderIdentity).to.equal(await leader!.identity);
    const lastRenewal = Date.parse(lease.spec!.renewTime!);
    await waitFor('the fresh replica to lead', async () => fresh.ledAt !== undefined, 15_000);
    const afterExpiry = fresh.ledAt! - (lastRenewal + LEASE_MS);
    // Never before the lease expired (nobody may take a live lease): the standby counts the lease from when it
    // saw that renewal, which cannot be earlier than the renewal itself. Not long after: a loaded machine only
    // delays its next retry, so a whole lease duration more is a bound that still catches a standby that never
    // notices the expiry.
    expect(afterExpiry, `took the lease ${afterExpiry} ms after it expired`).to.be.within(0, LEASE_MS);
    await createConnection(env, connection('after-failover'));
    await waitForReady(env, 'after-failover');
    expect(await holder()).to.equal(await fresh.identity);
  });
});
