/**
 * What a delivery pass needs from its engine, and what both orderings do with an attempt's outcome: observe it
 * (log, metrics, the attempt log), dead-letter it, log a retry, disable the webhook on 410.
 */
import type { Directory } from '../core/model.js';
import type { DeliveryState, LoggedEvent, Store } from '../core/store-port.js';
import type { Logger } from '../logger.js';
import { errorCode, recordAttempt } from './attempt-log.js';
import type { Ordering } from './options.js';
import type { RetryPolicy, Verdict } from './retry-policy.js';
import { eventIdOf, type Sink, type SinkResult } from './sinks.js';

export interface AttemptRecord {
  directoryId: string;
  result: SinkResult;
  verdict: Verdict['kind'];
  eventIds: string[];
  attempt: number;
  at: number;
}

export interface PassStats {
  directories: number;
  delivered: number;
  failed: number;
}

export interface PassContext {
  store: Store;
  sink: Sink;
  policy: RetryPolicy;
  logger: Logger;
  /** The lease owner (the engine's id). */
  owner: string;
  batchSize: number | undefined;
  ordering: Ordering;
  /** Real time (retries due during a pass are sent by it); batch mode: a run retries only what was due at its start. */
  realtime: boolean;
  /** POSTs in flight in this process, shared by the passes (`resource` ordering). */
  slots: PostSlots;
  /** POSTs in flight per directory (`resource` ordering). */
  postsPerDirectory: number;
  leaseMs: number;
  retentionMs: number;
  logRetentionMs: number;
  onAttempt: ((attempt: AttemptRecord) => void) | undefined;
  /** Counters of the engine, added to by every pass. */
  stats: PassStats;
  stopped(): boolean;
  /** Whether commits to the directory were notified since the last ask: a drained pass then goes on with them. */
  notified(directoryId: string): boolean;
}

/**
 * A counting semaphore: a pass takes a slot per POST; one with more to send that found none joins the line (also
 * while POSTs of its own are out), and a release hands its slot to the pass longest in line. A slot merely freed
 * would go back to the busy directory whose answer freed it (it takes again before any other pass runs), so one
 * directory's backlog could hold every POST of the process while the others wait; and one that waits with POSTs
 * of its own out would keep only those while the busy one kept the rest. Handing the slot to one pass, not waking
 * every waiting pass, spares a hundred wake-ups a POST with a hundred busy directories
 * (docs/design/performance.md, "Delivery against a receiver at 50 ms").
 */
export class PostSlots {
  /** Passes in line for a slot, longest waiting first. */
  private readonly line = new Set<() => void>();
  constructor(private available: number) {}

  /** Slots no pass holds. */
  get free(): number {
    return this.available;
  }
  tryTake(): boolean {
    if (this.available === 0) return false;
    this.available--;
    return true;
  }
  release(): void {
    const [first] = this.line;
    if (!first) {
      this.available++;
      return;
    }
    this.line.delete(first);
    first();
  }
  /**
   * Puts `handed` in line: the release that reaches it calls it, and the caller then holds that slot. Returns what
   * leaves the line. A pass joins only while none is free, so a slot never sits free while a pass waits.
   */
  join(handed: () => void): () => void {
    const place = () => handed();
    this.line.add(place);
    return () => this.line.delete(place);
  }
}

/**
 * How long a pass goes on with events committed while it ran, under the lease it holds, before it ends (trims
 * the log, releases the lease) and the next one reads the directory afresh. Under a steady stream of writes a
 * pass per few events would cost its setup (lease, due mark, directory, state, replay) each time.
 */
export const CONTINUE_MS = 1_000;
/** How often a pass looks for a replay request, and saves what it delivered at the latest. */
export const SAVE_MS = 250;
/**
 * Deliveries settled between two saves at the most: a crash re-sends at most these (with their original
 * `webhook-id`), besides the POSTs in flight; a save per delivery would cost a store round trip each.
 */
export const SAVE_EVERY = 100;

export async function observeAttempt(
  c: PassContext,
  directory: Directory,
  events: LoggedEvent[],
  result: SinkResult,
  verdict: Verdict,
  attempt: number,
): Promise<void> {
  const directoryId = directory.id;
  c.logger.debug(
    {
      directoryId,
      webhookId: result.id,
      events: events.length,
      status: result.status,
      errorCode: errorCode(result.error),
      attempt,
      verdict: verdict.kind,
    },
    'delivery attempt',
  );
  c.onAttempt?.({
    directoryId,
    result,
    verdict: verdict.kind,
    eventIds: events.map((e) => e.seq),
    attempt,
    at: Date.now(),
  });
  if (directory.log_webhook_events) {
    const eventIds = events.map((e) => eventIdOf(e.json));
    await recordAttempt(c.store, c.logRetentionMs, { directory, result, outcome: verdict.kind, attempt, eventIds });
  }
}

/** One line per failed attempt, for the operator: never the URL (it may carry credentials) nor the secret. */
export function logRetry(
  c: PassContext,
  directory: Directory,
  result: SinkResult,
  attempt: number,
  retryAt: number,
): void {
  c.stats.failed++;
  c.logger.warn(
    {
      directoryId: directory.id,
      webhookId: result.id,
      status: result.status,
      errorCode: errorCode(result.error),
      attempt,
      nextRetryAt: new Date(retryAt).toISOString(),
    },
    'webhook delivery failed; retrying',
  );
}

export async function disableWebhook(c: PassContext, directory: Directory, result: SinkResult): Promise<void> {
  c.stats.failed++;
  c.logger.warn(
    { directoryId: directory.id, webhookId: result.id },
    'receiver answered 410 Gone: webhook disabled until it is set again',
  );
  await c.store.disableWebhook(directory.id, directory.webhook.endpoint, new Date().toISOString());
}

export async function deadLetter(
  c: PassContext,
  directory: Directory,
  events: LoggedEvent[],
  result: SinkResult,
  attempt: number,
): Promise<void> {
  c.stats.failed++;
  c.logger.warn(
    {
      directoryId: directory.id,
      webhookId: result.id,
      status: result.status,
      errorCode: errorCode(result.error),
      attempts: attempt,
    },
    'webhook delivery dead-lettered after the last retry',
  );
  await c.store.addDeadLetter(directory.id, {
    directory_id: directory.id,
    webhook_id: result.id,
    events: events.map((e) => e.json),
    batch: c.batchSize !== undefined,
    status_code: result.status ?? null,
    error: result.error ?? null,
    attempts: attempt,
    created_at: new Date().toISOString(),
  });
}

/** Applies a pending replay request (see `replayFrom`); `state` itself when none is pending. */
export async function applyReplay(c: PassContext, directoryId: string, state: DeliveryState): Promise<DeliveryState> {
  const since = await c.store.takeReplayRequest(directoryId);
  return since === null ? state : replayFrom(c, directoryId, since, state);
}

/**
 * The state after a replay request from `since`: the cursor moves back to before `since`, never forward. A
 * replay also means "the receiver works now": a delivery waiting for its retry time is tried at once (same
 * webhook-id).
 */
export async function replayFrom(
  c: PassContext,
  directoryId: string,
  since: number,
  state: DeliveryState,
): Promise<DeliveryState> {
  c.logger.info({ directoryId, since: new Date(since).toISOString() }, 'replaying events');
  const from = await c.store.seqBefore(directoryId, since);
  if (state.cursor === null || (from !== null && c.store.compareSeq(from, state.cursor) >= 0)) {
    const { retryAt: _wait, failing, done, ...now } = state;
    return {
      ...now,
      // `resource` ordering: what was delivered after `from` goes again; failed deliveries are retried now.
      ...(done && { done: doneUpTo(c, done, from) }),
      ...(failing && { failing: failing.map((f) => ({ ...f, retryAt: 0 })) }),
    };
  }
  return { cursor: from, attempts: 0, pinned: null };
}

function doneUpTo(c: PassContext, runs: Array<[string, string]>, from: string | null): Array<[string, string]> {
  if (from === null) return [];
  const kept: Array<[string, string]> = [];
  for (const [first, last] of runs) {
    if (c.store.compareSeq(first, from) > 0) break;
    kept.push([first, c.store.compareSeq(last, from) > 0 ? from : last]);
  }
  return kept;
}
