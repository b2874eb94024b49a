/**
 * Optimistic concurrency for every writer: read, compute the new state and its events, commit with the version
 * read; the store answers `stale` when another write got there first, and the attempt runs again on a new read.
 */
import { ConflictError, ContentionError, NotFoundError } from './errors.js';
import { writerBuilt } from './events.js';
import type { PendingEvent, ScimBody, StoreBuiltEvent, StoredResource } from './model.js';
import type { WriteResult } from './store-port.js';

export const STALE = Symbol('stale');
const MAX_ATTEMPTS = 20;

/** Re-runs `attempt` while it answers STALE; gives up with ContentionError (503, retry later). */
export async function retrying<T>(attempt: () => Promise<T | typeof STALE>): Promise<T> {
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    const result = await attempt();
    if (result !== STALE) return result;
    // Back off a little so two writers on one resource interleave instead of colliding again.
    await new Promise((r) => setTimeout(r, Math.random() * 2 * (i + 1)));
  }
  throw new ContentionError();
}

/**
 * The outcome of a conditional write: the ok result, STALE for the retry loop, or a coded error (`conflict` is a
 * uniqueness clash described by `conflict`, `missing` is `what` not found).
 */
export function outcomeOf<T extends WriteResult>(
  result: T,
  what: string,
  conflict: string,
): Extract<T, { status: 'ok' }> | typeof STALE {
  switch (result.status) {
    case 'ok':
      return result as Extract<T, { status: 'ok' }>;
    case 'stale':
      return STALE;
    case 'conflict':
      throw new ConflictError(conflict);
    case 'missing':
      throw new NotFoundError(`${what} not found`);
  }
}

/** A resource as its create commits it: version 1, created and last modified now. */
export const freshResource = (id: string, body: ScimBody, now: number): StoredResource => ({
  id,
  body,
  created: now,
  lastModified: now,
  version: 1,
});

/**
 * Told about every commit, with the events it appended in log order (service.ts wakes delivery up with it); a
 * `StoreBuiltEvent`'s JSON exists only in the store.
 */
export type CommitListener = (directoryId: string, events: ReadonlyArray<PendingEvent | StoreBuiltEvent>) => void;

/** Per call options of every write use case. */
export interface WriteOptions {
  /**
   * Checked against the resource read, on every attempt (a protocol's If-Match); throws to refuse the write.
   * When given, the write also commits against the exact version read (no commuting membership deltas).
   */
  precondition?: (current: StoredResource) => void;
  /** Told the events this call committed, in log order (e.g. a per-request collector), after the listener. */
  onCommitted?: (events: PendingEvent[]) => void;
  /**
   * The resource as this call already read it (null: missing), e.g. with the request's authentication: the first
   * attempt of an update or delete starts from it instead of reading again; a retry reads afresh.
   */
  current?: StoredResource | null;
}

/**
 * The loop of every update and delete: read the resource (NotFoundError naming `what` if it is gone), check the
 * call's precondition, run `attempt` on it; again on a fresh read while `attempt` answers STALE.
 */
export function retryingOn<T>(
  read: () => Promise<StoredResource | null>,
  what: string,
  opts: WriteOptions,
  attempt: (current: StoredResource) => Promise<T | typeof STALE>,
): Promise<T> {
  let given = opts.current;
  return retrying(async () => {
    const current = given === undefined ? await read() : given;
    given = undefined;
    if (!current) throw new NotFoundError(`${what} not found`);
    opts.precondition?.(current);
    return attempt(current);
  });
}

/** Reports one commit to the writer's listener and to the call's own. */
export function report(
  listener: CommitListener,
  directoryId: string,
  events: ReadonlyArray<PendingEvent | StoreBuiltEvent>,
  opts: WriteOptions,
): void {
  if (events.length === 0) return;
  listener(directoryId, events);
  // A call with onCommitted has every event built by its writer: the store builds none for it.
  opts.onCommitted?.(events.map(writerBuilt));
}
