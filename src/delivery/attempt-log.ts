/** Delivery attempt logs (directories with `log_webhook_events`) and the error code a log line may carry. */
import type { Directory } from '../core/model.js';
import type { DeliveryRecordStore } from '../core/store-port.js';
import { redactCredentials } from '../core/urls.js';
import type { Verdict } from './retry-policy.js';
import type { SinkResult } from './sinks.js';

export interface AttemptLogEntry {
  directory: Directory;
  result: SinkResult;
  outcome: Verdict['kind'];
  attempt: number;
  eventIds: string[];
}

/** Appends a delivery log record when the directory asks for them; records older than `retentionMs` go. */
export async function recordAttempt(
  store: DeliveryRecordStore,
  retentionMs: number,
  entry: AttemptLogEntry,
): Promise<void> {
  const { directory, result, outcome } = entry;
  if (!directory.log_webhook_events || result.skipped) return;
  const now = Date.now();
  await store.appendDeliveryLog(
    directory.id,
    {
      directory_id: directory.id,
      webhook_id: result.id,
      event_ids: entry.eventIds,
      endpoint: redactCredentials(directory.webhook.endpoint),
      status_code: result.status ?? null,
      error: result.error ?? null,
      latency_ms: Math.round(result.latencyMs * 10) / 10,
      attempt: entry.attempt,
      outcome: outcome === 'disable' ? 'disabled' : outcome,
      delivered: outcome === 'delivered',
      created_at: new Date(now).toISOString(),
    },
    now - retentionMs,
  );
}

/** The code of a sender error (`ECONNREFUSED: connect ...` → `ECONNREFUSED`); `error` when it has none. */
export function errorCode(error: string | undefined): string | undefined {
  if (error === undefined) return undefined;
  return /^([A-Z][A-Z0-9_]+):/.exec(error)?.[1] ?? 'error';
}
