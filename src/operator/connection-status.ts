/**
 * The status a DirectoryConnection reconcile writes: Ready, kstatus' Reconciling/Stalled, WebhookDisabled, and
 * the fields identity providers need. Pure: the reconciler writes what this computes, once per reconcile.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  READY,
  REASONS,
  RECONCILING,
  STALLED,
  TERMINAL_REASONS,
  WEBHOOK_DISABLED,
  WEBHOOK_REASONS,
  findCondition,
  setCondition,
} from './conditions.js';
import type { Condition, DirectoryConnection, DirectoryConnectionStatus } from './crd-schema.js';
import { googleSyncCondition } from './google-access.js';
import { microsoftSyncCondition } from './microsoft-access.js';
import { hrisSyncCondition } from './hris-access.js';
import type { Halt, ReconcileState } from './reconcile-state.js';
import { REENABLE_WEBHOOK_ANNOTATION } from './metadata-keys.js';

type ConditionChange = Omit<Condition, 'lastTransitionTime' | 'observedGeneration'>;

export interface ComputedStatus {
  status: DirectoryConnectionStatus;
  ready: Pick<Condition, 'status' | 'reason' | 'message'>;
  /** The WebhookDisabled condition when the directory step ran and it applies. */
  webhook: ConditionChange | undefined;
  /** The GoogleSync, MicrosoftSync or HrisSync condition (a pull type, once its step ran). */
  pullSync: ConditionChange | undefined;
  /** False when the status written already says all of this. */
  changed: boolean;
}

export function computeStatus(state: ReconcileState, halt: Halt | undefined, now: Date): ComputedStatus {
  const { cr } = state;
  const previous = cr.status ?? {};
  const generation = cr.metadata.generation ?? 0;
  const ready = halt
    ? { status: 'False' as const, reason: halt.reason, message: halt.message }
    : {
        status: 'True' as const,
        reason: REASONS.Reconciled,
        message: `The directory is in sync; the SCIM endpoint and token are in Secret ${state.secretName}`,
      };
  let conditions = setCondition(previous.conditions, { type: READY, ...ready, observedGeneration: generation }, now);
  for (const c of progressConditions(halt))
    conditions = setCondition(conditions, { ...c, observedGeneration: generation }, now);
  const webhook = webhookCondition(state.webhookDisabledAt, findCondition(previous.conditions, WEBHOOK_DISABLED));
  if (webhook) conditions = setCondition(conditions, { ...webhook, observedGeneration: generation }, now);
  const pullSync = state.googleSync
    ? googleSyncCondition(state.googleSync)
    : state.microsoftSync
      ? microsoftSyncCondition(state.microsoftSync)
      : state.hrisSync && hrisSyncCondition(state.hrisSync);
  if (pullSync) conditions = setCondition(conditions, { ...pullSync, observedGeneration: generation }, now);
  const status: DirectoryConnectionStatus = dropUndefined({
    directoryId: cr.metadata.uid,
    scimEndpoint: state.scimEndpoint ?? previous.scimEndpoint,
    secretName: state.secretName ?? previous.secretName,
    // Every outcome: kstatus reads a status older than the spec as InProgress, so a terminal failure must
    // record the generation it judged to be seen as Failed.
    observedGeneration: generation,
    conditions,
  });
  return { status, ready, webhook, pullSync, changed: !isDeepStrictEqual(dropUndefined(previous), status) };
}

/**
 * The WebhookDisabled condition once the directory step ran (`disabledAt` undefined: it did not, keep what is
 * there). It appears when a 410 Gone stopped delivery and turns False when delivery resumes; a directory whose
 * webhook was never disabled does not carry it.
 */
function webhookCondition(
  disabledAt: string | null | undefined,
  previous: Condition | undefined,
): ConditionChange | undefined {
  if (disabledAt === undefined) return undefined;
  if (disabledAt) {
    const message =
      `The webhook receiver answered 410 Gone (${disabledAt}): webhook delivery is stopped; events are kept and ` +
      `sent once it resumes. Point spec.webhook at a receiver that accepts them, or set the annotation ` +
      `${REENABLE_WEBHOOK_ANNOTATION} to a new value to resume with the same one`;
    return { type: WEBHOOK_DISABLED, status: 'True', reason: WEBHOOK_REASONS.ReceiverGone, message };
  }
  if (!previous) return undefined;
  const message = 'Webhook delivery is no longer stopped by a 410 Gone (spec.webhook changed or re-enabled)';
  return { type: WEBHOOK_DISABLED, status: 'False', reason: WEBHOOK_REASONS.Reenabled, message };
}

/**
 * kstatus' abnormal-true conditions: Stalled=True for a terminal reason (Failed: a spec or Secret change is
 * needed), Reconciling=True for a transient one (InProgress: retried with backoff), both False once Ready.
 */
function progressConditions(halt: Halt | undefined): ConditionChange[] {
  if (!halt) {
    const message = 'The directory is in sync';
    return [
      { type: RECONCILING, status: 'False', reason: REASONS.Reconciled, message },
      { type: STALLED, status: 'False', reason: REASONS.Reconciled, message },
    ];
  }
  const terminal = TERMINAL_REASONS.has(halt.reason);
  return [
    {
      type: RECONCILING,
      status: terminal ? 'False' : 'True',
      reason: halt.reason,
      message: terminal ? 'Waiting for a change of the spec or of a Secret' : `Retrying: ${halt.message}`,
    },
    {
      type: STALLED,
      status: terminal ? 'True' : 'False',
      reason: halt.reason,
      message: terminal ? halt.message : 'Retrying with backoff',
    },
  ];
}

function dropUndefined<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}
