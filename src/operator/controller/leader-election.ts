/**
 * Lease-based leader election (coordination.k8s.io/v1), the client-go algorithm: a candidate takes the Lease
 * when it is free or when its record has not changed for the lease duration, measured on the local clock from
 * when this candidate last saw it change (so clock skew between nodes does not matter). The leader renews every
 * retry period and steps down when it could not renew for the renew deadline, before anyone else may take over.
 *
 * Why the old leader is gone before a standby may take over: the renew deadline runs from the *start* of the
 * last successful renewal (the server cannot have recorded it earlier, and a standby cannot have seen it
 * earlier, so a standby waits at least `leaseDuration` from that moment), on the monotonic clock. Every attempt
 * is cut off at the deadline, the leader steps down as soon as the next attempt would start past it, and at
 * once when another replica holds a valid lease; `isLeader()` turns false at the deadline even if an attempt
 * is still running. `renewDeadline + retryPeriod < leaseDuration` leaves a retry period of margin for the
 * step-down itself.
 */
import { performance } from 'node:perf_hooks';
import type { Logger } from '../../logger.js';
import { InvalidOptionError, isConflict, isNotFound } from '../errors.js';
import { LEASES, type KubeClient, type KubeObject } from '../kube.js';

export interface LeaderElectionOptions {
  client: KubeClient;
  /** Namespace and name of the Lease. */
  namespace: string;
  name: string;
  /** Unique per replica (pod name + random suffix). */
  identity: string;
  /** How long a lease is valid after its last renewal; must be > renewDeadlineMs + retryPeriodMs. Default 15 s. */
  leaseDurationMs?: number;
  /** The leader gives up when renewals failed for this long; must be > retryPeriodMs. Default 10 s. */
  renewDeadlineMs?: number;
  /** Interval between attempts to acquire or renew. Default 2 s. */
  retryPeriodMs?: number;
  /** Longest single attempt (GET + PUT), so one hung request leaves time for another. Default renewDeadlineMs / 2. */
  attemptTimeoutMs?: number;
  logger: Logger;
}

/** Checks the timings the way the option names read; `prefix` is how the caller names them (e.g. `leaderElection.`). */
export function checkLeaderElectionTimings(
  t: { leaseDurationMs: number; renewDeadlineMs: number; retryPeriodMs: number },
  prefix = '',
): void {
  const [lease, renew, retry] = ['leaseDurationMs', 'renewDeadlineMs', 'retryPeriodMs'].map((n) => `${prefix}${n}`);
  if (!(t.retryPeriodMs > 0)) throw new InvalidOptionError(retry!, 'must be > 0');
  if (!(t.renewDeadlineMs > t.retryPeriodMs)) throw new InvalidOptionError(renew!, `must be greater than ${retry}`);
  if (!(t.leaseDurationMs > t.renewDeadlineMs + t.retryPeriodMs)) {
    throw new InvalidOptionError(
      lease!,
      `must be greater than ${renew} + ${retry} (${t.leaseDurationMs} <= ${t.renewDeadlineMs} + ${t.retryPeriodMs}): ` +
        'the leader must have stepped down before a standby may take the Lease',
    );
  }
}

/** What one attempt found: the Lease is ours, someone else holds a valid one, or the attempt failed. */
type Attempt = 'held' | 'taken' | 'failed';

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

/** MicroTime as the API server writes it: RFC 3339 with microseconds. */
const microTime = (ms: number): string => new Date(ms).toISOString().replace(/Z$/, '000Z');

export class LeaderElector {
  readonly identity: string;
  private readonly client: KubeClient;
  private readonly namespace: string;
  private readonly name: string;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly attemptTimeoutMs: number;
  private readonly logger: Logger;
  private lease: Lease | undefined;
  private observedRecord = '';
  /** performance.now() when the Lease record was last seen to change. */
  private observedAt = 0;
  /** performance.now() at the start of the last successful acquire or renew request. */
  private lastRenew = -Infinity;
  /** performance.now() when the Lease was last read or written successfully. */
  private lastContact = -Infinity;
  private leading = false;
  private stopped = false;
  private wake: (() => void) | undefined;
  /** The acquire or renew attempt under way: `stop()` lets it finish, or its write would make the release's stale. */
  private inFlight: Promise<Attempt> | undefined;

  constructor(options: LeaderElectionOptions) {
    this.client = options.client;
    this.namespace = options.namespace;
    this.name = options.name;
    this.identity = options.identity;
    this.leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = options.retryPeriodMs ?? 2_000;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? this.renewDeadlineMs / 2;
    this.logger = options.logger;
    if (!options.identity) throw new InvalidOptionError('identity', 'must not be empty');
    checkLeaderElectionTimings({
      leaseDurationMs: this.leaseDurationMs,
      renewDeadlineMs: this.renewDeadlineMs,
      retryPeriodMs: this.retryPeriodMs,
    });
    if (!(this.attemptTimeoutMs > 0)) throw new InvalidOptionError('attemptTimeoutMs', 'must be > 0');
  }

  /** True while this replica holds the Lease; false from the renew deadline on, even before the step-down. */
  isLeader(): boolean {
    return this.leading && performance.now() < this.lastRenew + this.renewDeadlineMs;
  }

  /** Time since the Lease was last read or written (Infinity before the first time): a standby's health. */
  sinceContactMs(): number {
    return performance.now() - this.lastContact;
  }

  /** Waits until this candidate holds the Lease; false if stopped first. */
  async acquire(): Promise<boolean> {
    while (!this.stopped) {
      const started = performance.now();
      if ((await this.attempt(started + Math.min(this.attemptTimeoutMs, this.renewDeadlineMs))) === 'held') {
        this.lastRenew = started;
        this.leading = true;
        this.logger.info({ lease: `${this.namespace}/${this.name}`, identity: this.identity }, 'became leader');
        return true;
      }
      await this.sleep(this.retryPeriodMs * (1 + Math.random() * 1.2)); // client-go's jitter factor
    }
    return false;
  }

  /**
   * Renews until stopped (resolves true) or until leadership is lost (resolves false): renewals failed until
   * the next attempt would start past the renew deadline, or another replica holds a valid lease. Call it at
   * once after `acquire()`: the deadline runs from the acquisition.
   */
  async renew(): Promise<boolean> {
    while (!this.stopped) {
      await this.sleep(this.retryPeriodMs);
      if (this.stopped) break;
      const started = performance.now();
      const deadline = this.lastRenew + this.renewDeadlineMs;
      if (started >= deadline) return this.stepDown('the renew deadline passed before the next attempt');
      const attempt = await this.attempt(Math.min(started + this.attemptTimeoutMs, deadline));
      if (attempt === 'held') {
        this.lastRenew = started;
        continue;
      }
      if (this.stopped) break;
      if (attempt === 'taken') return this.stepDown('another replica holds the lease');
      if (performance.now() + this.retryPeriodMs >= deadline)
        return this.stepDown('could not renew the lease within the renew deadline');
    }
    return true;
  }

  /** Stops acquiring/renewing; a leader then frees the Lease so a standby takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    if (!this.leading) return;
    this.leading = false;
    // A renewal under way would change the Lease under the release (409, and the standby waits a lease duration).
    await this.inFlight;
    await this.release();
  }

  private stepDown(why: string): false {
    this.leading = false;
    this.logger.error({ lease: `${this.namespace}/${this.name}`, why }, 'leader election lost');
    return false;
  }

  private async release(): Promise<void> {
    if (!this.lease) return;
    const now = Date.now();
    const spec: LeaseSpec = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: microTime(now),
      renewTime: microTime(now),
      leaseTransitions: this.lease.spec?.leaseTransitions ?? 0,
    };
    try {
      await this.client.replace(LEASES, { ...this.lease, spec }, undefined, { timeoutMs: this.attemptTimeoutMs });
      this.logger.info({ lease: `${this.namespace}/${this.name}` }, 'released the lease');
    } catch (err) {
      this.logger.warn({ err }, 'could not release the lease; a standby takes over when it expires');
    }
  }

  private attempt(deadline: number): Promise<Attempt> {
    this.inFlight = this.tryAcquireOrRenew(deadline);
    return this.inFlight;
  }

  /** One GET (+ PUT or POST), all of it before `deadline` (performance.now() time); never rejects. */
  private async tryAcquireOrRenew(deadline: number): Promise<Attempt> {
    const left = (): { timeoutMs: number } => ({ timeoutMs: Math.floor(deadline - performance.now()) });
    const now = Date.now(); // wall clock, for the record's timestamps only
    const seconds = Math.max(1, Math.ceil(this.leaseDurationMs / 1000));
    try {
      let current: Lease;
      try {
        current = await this.client.get<Lease>(LEASES, this.namespace, this.name, left());
        this.lastContact = performance.now();
      } catch (err) {
        if (!isNotFound(err)) throw err;
        const spec = {
          holderIdentity: this.identity,
          leaseDurationSeconds: seconds,
          acquireTime: microTime(now),
          renewTime: microTime(now),
          leaseTransitions: 0,
        };
        const lease: Lease = {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: this.name, namespace: this.namespace },
          spec,
        };
        this.remember(await this.client.create<Lease>(LEASES, lease, left()));
        return 'held';
      }
      const spec = current.spec ?? {};
      const record = JSON.stringify(spec);
      if (record !== this.observedRecord) {
        this.observedRecord = record;
        this.observedAt = performance.now();
      }
      const holder = spec.holderIdentity ?? '';
      const validForMs = (spec.leaseDurationSeconds ?? seconds) * 1000;
      if (holder && holder !== this.identity && this.observedAt + validForMs > performance.now()) return 'taken';
      const renewing = holder === this.identity;
      const next: LeaseSpec = {
        holderIdentity: this.identity,
        leaseDurationSeconds: seconds,
        acquireTime: renewing && spec.acquireTime ? spec.acquireTime : microTime(now),
        renewTime: microTime(now),
        leaseTransitions: (spec.leaseTransitions ?? 0) + (renewing ? 0 : 1),
      };
      this.remember(await this.client.replace<Lease>(LEASES, { ...current, spec: next }, undefined, left()));
      return 'held';
    } catch (err) {
      if (!isConflict(err)) this.logger.warn({ err }, 'leader election: could not read or write the lease');
      return 'failed';
    }
  }

  private remember(lease: Lease): void {
    this.lastContact = performance.now();
    this.lease = lease;
    this.observedRecord = JSON.stringify(lease.spec ?? {});
    this.observedAt = performance.now();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
