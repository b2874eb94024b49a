/**
 * The operator's readiness (its pod's readinessProbe, `/readyz` on the metrics port): the caches have synced,
 * and the replica either leads or is a healthy standby, one that has read the Lease within a lease duration
 * (so it could take over). Pure, so every case is tested without a cluster.
 */
export interface ReadinessInput {
  /** Every informer has completed its first list. */
  synced: boolean;
  /** Leading and reconciling (or leader election is off and the controller runs). */
  leading: boolean;
  /** Leader election is on. */
  electing: boolean;
  /** Time since the Lease was last read or written (Infinity if never). */
  sinceLeaseContactMs: number;
  leaseDurationMs: number;
}

export interface Readiness {
  ready: boolean;
  /** One line for the probe's body and `kubectl describe pod`. */
  detail: string;
}

export function readiness(r: ReadinessInput): Readiness {
  if (!r.synced) return { ready: false, detail: 'caches not synced yet' };
  if (r.leading) return { ready: true, detail: 'leading' };
  if (!r.electing) return { ready: false, detail: 'not reconciling yet' };
  if (r.sinceLeaseContactMs < r.leaseDurationMs) return { ready: true, detail: 'standby (the Lease is reachable)' };
  const since = Number.isFinite(r.sinceLeaseContactMs) ? `for ${Math.round(r.sinceLeaseContactMs / 1000)} s` : 'yet';
  return { ready: false, detail: `standby that has not reached the Lease ${since}` };
}
