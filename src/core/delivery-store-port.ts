/**
 * The storage port's delivery part (re-exported by store-port.ts): where delivery to each directory stands, its
 * due marks and leases, and the records it keeps (attempt logs, dead letters, replay requests).
 */
/** Where delivery to a directory's webhook stands. Events after `cursor` are not yet delivered. */
export interface DeliveryState {
  cursor: string | null;
  /** Failed attempts of the current head batch. */
  attempts: number;
  /** Last seq of the batch being retried: a retry resends exactly the same events (same webhook-id). */
  pinned: string | null;
  /**
   * When the pinned batch may be retried (ms since epoch); with `resource` ordering, the end of a pause the
   * receiver asked for (429/503 with Retry-After), which holds the whole directory.
   */
  retryAt?: number;
  /**
   * `resource` ordering: runs of consecutive log entries after `cursor` already delivered or dead-lettered
   * (`[first, last]` seqs, oldest first), skipped on the next read; `cursor` is the last event before the first
   * one not done.
   */
  done?: Array<[string, string]>;
  /** `resource` ordering: deliveries that failed and wait for their retry, with their events' seqs. */
  failing?: FailingDelivery[];
}

/** One delivery (an event, or a batch) waiting for its retry, with `resource` ordering. */
export interface FailingDelivery {
  seqs: string[];
  attempts: number;
  retryAt: number;
}

/** One delivery attempt, kept when the directory has `log_webhook_events`. */
export interface DeliveryLogRecord {
  id: string;
  directory_id: string;
  webhook_id: string;
  event_ids: string[];
  endpoint: string;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  attempt: number;
  outcome: 'delivered' | 'retry' | 'dead' | 'disabled';
  delivered: boolean;
  created_at: string;
}

/** A batch (or single event) given up on after the last retry; replayable. */
export interface DeadLetter {
  id: string;
  directory_id: string;
  webhook_id: string;
  /** The events as they were to be delivered (JSON strings, in order). */
  events: string[];
  /** Delivered as a JSON array (batch mode) or a single event. */
  batch: boolean;
  status_code: number | null;
  error: string | null;
  attempts: number;
  created_at: string;
}

export interface DeliveryRecordStore {
  /** Appends an attempt record and drops those older than `olderThan` (epoch ms); returns its id. */
  appendDeliveryLog(directoryId: string, record: Omit<DeliveryLogRecord, 'id'>, olderThan: number): Promise<string>;
  /** Newest first. */
  listDeliveryLogs(directoryId: string, offset: number, limit: number): Promise<DeliveryLogRecord[]>;
  getDeliveryLog(directoryId: string, id: string): Promise<DeliveryLogRecord | null>;
  addDeadLetter(directoryId: string, letter: Omit<DeadLetter, 'id'>): Promise<string>;
  /** Oldest first. */
  listDeadLetters(directoryId: string): Promise<DeadLetter[]>;
  removeDeadLetter(directoryId: string, id: string): Promise<boolean>;
  /** Seq of the last event logged before `time` (epoch ms), or null: the cursor that replays from `time`. */
  seqBefore(directoryId: string, time: number): Promise<string | null>;
  /** Asks the deliverer to re-deliver from `since` (epoch ms); the earliest pending request wins. */
  requestReplay(directoryId: string, since: number): Promise<void>;
  /** Takes (removes) the pending replay request, if any. */
  takeReplayRequest(directoryId: string): Promise<number | null>;
}

export interface DeliveryStore {
  /** Marks a directory as having delivery work at `at` (an earlier mark wins). */
  markDue(directoryId: string, at: number): Promise<void>;
  /** Directories due at or before `now`, earliest first. */
  dueDirectories(now: number, limit: number): Promise<string[]>;
  /** Removes the due mark: the deliverer calls it under the lease before reading, so later commits re-mark. */
  clearDue(directoryId: string): Promise<void>;
  /** An expiring lease: one deliverer per directory across all replicas. */
  acquireLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends the lease only while `owner` still holds it; false = it was lost (expired and maybe taken). */
  renewLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean>;
  releaseLease(directoryId: string, owner: string): Promise<void>;
  deliveryState(directoryId: string): Promise<DeliveryState>;
  /** Saves the state only while `owner` still holds the lease, and extends the lease; false = lease lost, stop. */
  saveDeliveryState(directoryId: string, owner: string, state: DeliveryState, ttlMs: number): Promise<boolean>;
}
