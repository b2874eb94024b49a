/**
 * metav1.Condition handling: the summary `Ready` condition and the reasons it reports; kstatus' `Reconciling`
 * (True while the operator works towards the spec) and `Stalled` (True when it cannot get there without a change
 * of the spec or a Secret), so Flux, `helm --wait=watcher` and Argo CD see InProgress, Current or Failed; and
 * `WebhookDisabled`, which says that webhook delivery is stopped (the receiver answered 410 Gone) while the
 * directory itself works.
 */
import type { Condition } from './crd-schema.js';

export const READY = 'Ready';
export const RECONCILING = 'Reconciling';
export const STALLED = 'Stalled';

export const REASONS = {
  Reconciled: 'Reconciled',
  /** The webhook Secret (spec.webhook.secretRef) or its key is missing. */
  SecretNotFound: 'SecretNotFound',
  /** The webhook Secret could not be read (e.g. RBAC): the API server's message says why. */
  SecretReadFailed: 'SecretReadFailed',
  /** A Secret named `<name>-scim` exists and is not owned by this resource; it is never adopted. */
  SecretConflict: 'SecretConflict',
  /**
   * The API server refused to create or update the Secret `<name>-scim` (quota, admission, RBAC, terminating
   * namespace).
   */
  SecretWriteFailed: 'SecretWriteFailed',
  /** The API server refused to add the finalizer, without which the stored directory would outlive the resource. */
  FinalizerWriteFailed: 'FinalizerWriteFailed',
  /** The directory store (Redis) could not be reached or failed. */
  StoreUnavailable: 'StoreUnavailable',
  /** The spec (or the webhook secret value) fails the core's validation, or an immutable field changed. */
  InvalidSpec: 'InvalidSpec',
  /** The stored directory with this id is managed by someone else. */
  DirectoryConflict: 'DirectoryConflict',
  /** Being deleted, but the stored directory could not be deleted (store down) or the finalizer not removed. */
  DeletionBlocked: 'DeletionBlocked',
} as const;
export type Reason = (typeof REASONS)[keyof typeof REASONS];

/**
 * Reasons that retrying cannot fix: they need a change of the spec or of a Secret (Stalled=True, kstatus
 * Failed). The others are transient (store down, a write refused for now): Reconciling stays True.
 */
export const TERMINAL_REASONS: ReadonlySet<Reason> = new Set([
  REASONS.InvalidSpec,
  REASONS.SecretConflict,
  REASONS.SecretNotFound,
  REASONS.DirectoryConflict,
]);

/** True while the receiver's 410 Gone keeps webhook delivery stopped (events are kept, not lost). */
export const WEBHOOK_DISABLED = 'WebhookDisabled';

export const WEBHOOK_REASONS = {
  /** Status True: the receiver answered 410 Gone, so delivery stopped. */
  ReceiverGone: 'ReceiverGone',
  /** Status False: delivery resumed (spec.webhook changed, or the re-enable annotation took a new value). */
  Reenabled: 'Reenabled',
} as const;

/** metav1.Time: RFC 3339, seconds precision. */
export const kubeTime = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

export const findCondition = (list: Condition[] | undefined, type: string): Condition | undefined =>
  list?.find((c) => c.type === type);

/**
 * Sets a condition, keeping `lastTransitionTime` unless the status changes (so an unchanged condition is an
 * unchanged object and the status needs no write).
 */
export function setCondition(
  list: Condition[] | undefined,
  next: Omit<Condition, 'lastTransitionTime'>,
  now: Date,
): Condition[] {
  const previous = findCondition(list, next.type);
  const lastTransitionTime = previous && previous.status === next.status ? previous.lastTransitionTime : kubeTime(now);
  const condition: Condition = { ...next, lastTransitionTime };
  if (!previous) return [...(list ?? []), condition];
  return list!.map((c) => (c === previous ? condition : c)); // in place: a reorder would be a spurious change
}
