/**
 * Lease-based leader election (coordination.k8s.io/v1), the client-go algorithm: a candidate takes the Lease
 * when it is free or when its record has not changed for the lease duration, measured on the local clock from
 * when this candidate last saw it change (so clock skew between nodes does not matter). The leader renews every
 * retry period and steps down when it could not renew for the renew deadline, before anyone else may take over.
 */
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
  /** How long a lease is valid after its last renewal. Default 15 s. */
  leaseDurationMs?: number;
  /** The leader gives up when renewals failed for this long; must be < leaseDurationMs. Default 10 s. */
  renewDeadlineMs?: number;
  /** Interval between attempts to acquire or renew; must be < renewDeadlineMs. Default 2 s. */
  retryPeriodMs?: number;
  logger: Logger;
}

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
  private readonly logger: Logger;
  private lease: Lease | undefined;
  private observedRecord = '';
  private observedAt = 0;
  private leading = false;
  private stopped = false;
  private wake: (() => void) | undefined;

  constructor(options: LeaderElectionOptions) {
    this.client = options.client;
    this.namespace = options.namespace;
    this.name = options.name;
    this.identity = options.identity;
    this.leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = options.retryPeriodMs ?? 2_000;
    this.logger = options.logger;
    if (!options.identity) throw new InvalidOptionError('identity', 'must not be empty');
    if (!(this.retryPeriodMs > 0)) throw new InvalidOptionError('retryPeriodMs', 'must be > 0');
    if (!(this.renewDeadlineMs > this.retryPeriodMs)) {
      throw new InvalidOptionError('renewDeadlineMs', 'must be greater than retryPeriodMs');
    }
    if (!(this.leaseDurationMs > this.renewDeadlineMs)) {
      throw new InvalidOptionError('leaseDurationMs', 'must be greater than renewDeadlineMs');
    }
  }

  isLeader(): boolean {
    return this.leading;
  }

  /** Waits until this candidate holds the Lease; false if stopped first. */
  async acquire(): Promise<boolean> {
    while (!this.stopped) {
      if (await this.tryAcquireOrRenew()) {
        this.leading = true;
        this.logger.info({ lease: `${this.namespace}/${this.name}`, identity: this.identity }, 'became leader');
        return true;
      }
      await this.sleep(this.retryPeriodMs * (1 + Math.random() * 1.2)); // client-go's jitter factor
    }
    return false;
  }

  /** Renews until stopped (resolves true) or until renewals failed for the renew deadline (resolves false). */
  async renew(): Promise<boolean> {
    let lastRenew = Date.now();
    while (!this.stopped) {
      await this.sleep(this.retryPeriodMs);
      if (this.stopped) break;
      if (await this.tryAcquireOrRenew()) {
        lastRenew = Date.now();
      } else if (Date.now() - lastRenew >= this.renewDeadlineMs) {
        this.leading = false;
        this.logger.error({ lease: `${this.namespace}/${this.name}` }, 'leader election lost: could not renew the lease');
        return false;
      }
    }
    return true;
  }

  /** Stops acquiring/renewing; a leader then frees the Lease so a standby takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    if (!this.leading) return;
    this.leading = false;
    await this.release();
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
      await this.client.replace(LEASES, { ...this.lease, spec });
      this.logger.info({ lease: `${this.namespace}/${this.name}` }, 'released the lease');
    } catch (err) {
      this.logger.warn({ err }, 'could not release the lease; a standby takes over when it expires');
    }
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = Date.now();
    const seconds = Math.max(1, Math.ceil(this.leaseDurationMs / 1000));
    try {
      let current: Lease;
      try {
        current = await this.client.get<Lease>(LEASES, this.namespace, this.name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        const spec = { holderIdentity: this.identity, leaseDurationSeconds: seconds, acquireTime: microTime(now), renewTime: microTime(now), leaseTransitions: 0 };
        this.remember(
          await this.client.create<Lease>(LEASES, {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { name: this.name, namespace: this.namespace },
            spec,
          }),
          now,
        );
        return true;
      }
      const spec = current.spec ?? {};
      const record = JSON.stringify(spec);
      if (record !== this.observedRecord) {
        this.observedRecord = record;
        this.observedAt = now;
      }
      const holder = spec.holderIdentity ?? '';
      const validForMs = (spec.leaseDurationSeconds ?? seconds) * 1000;
      if (holder && holder !== this.identity && this.observedAt + validForMs > now) return false;
      const renewing = holder === this.identity;
      const next: LeaseSpec = {
        holderIdentity: this.identity,
        leaseDurationSeconds: seconds,
        acquireTime: renewing && spec.acquireTime ? spec.acquireTime : microTime(now),
        renewTime: microTime(now),
        leaseTransitions: (spec.leaseTransitions ?? 0) + (renewing ? 0 : 1),
      };
      this.remember(await this.client.replace<Lease>(LEASES, { ...current, spec: next }), now);
      return true;
    } catch (err) {
      if (!isConflict(err)) this.logger.warn({ err }, 'leader election: could not read or write the lease');
      return false;
    }
  }

  private remember(lease: Lease, now: number): void {
    this.lease = lease;
    this.observedRecord = JSON.stringify(lease.spec ?? {});
    this.observedAt = now;
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
