/** metav1.Condition handling: the summary `Ready` condition and the reasons it reports. */
import type { Condition } from './crd-schema.js';

export const READY = 'Ready';

export const REASONS = {
  Reconciled: 'Reconciled',
  /** The webhook Secret (spec.webhook.secretRef) or its key is missing. */
  SecretNotFound: 'SecretNotFound',
  /** A Secret named `<name>-scim` exists and is not owned by this resource; it is never adopted. */
  SecretConflict: 'SecretConflict',
  /** The directory store (Redis) could not be reached or failed. */
  StoreUnavailable: 'StoreUnavailable',
  /** The spec (or the webhook secret value) fails the core's validation, or an immutable field changed. */
  InvalidSpec: 'InvalidSpec',
  /** The stored directory with this id is managed by someone else. */
  DirectoryConflict: 'DirectoryConflict',
} as const;
export type Reason = (typeof REASONS)[keyof typeof REASONS];

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
  const lastTransitionTime =
    previous && previous.status === next.status ? previous.lastTransitionTime : kubeTime(now);
  const condition: Condition = { ...next, lastTransitionTime };
  if (!previous) return [...(list ?? []), condition];
  return list!.map((c) => (c === previous ? condition : c)); // in place: a reorder would be a spurious change
}
