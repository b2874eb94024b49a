/**
 * Fail-fast store errors: connection-level failures of the Redis client (a command timeout, a closed or
 * reconnecting connection, a server loading or failing over) become `StoreUnavailableError`, so callers answer
 * 503 at once instead of hanging or answering a bare 500. Reply errors that are our own bugs stay as they are.
 */
import { DsyncError, StoreUnavailableError } from '../../core/errors.js';

/**
 * Messages and reply prefixes ioredis and Redis use for "not reachable right now": one server, a cluster
 * re-sharding or failing over (redirections exhausted, slots unknown, a shard down, a write reaching a demoted
 * master), a Sentinel-managed master being switched, or persistence refusing writes (MISCONF).
 */
const UNAVAILABLE = [
  /^Command timed out/,
  /^Stream isn't writeable/,
  /^Connection is (closed|aborted|discarded)/,
  /^Reached the max retries per request limit/,
  /^(LOADING|BUSY|MASTERDOWN|READONLY|CLUSTERDOWN|TRYAGAIN|NOREPLICAS|MISCONF|MOVED|ASK)\b/,
  /^Too many Cluster redirections/,
  // A slot moved under an auto-pipelined batch: ioredis re-sends it whole and refuses it
  // (https://github.com/redis/ioredis/issues/2075).
  /^All keys in the pipeline should belong to the same slots allocation group/,
  /^Failed to refresh slots cache/,
  /^None of startup nodes is available/,
  /^Cluster (isn't ready|is ended|is disconnected|is disconnecting)/,
  /^Node is disconnected/,
  /^All sentinels are unreachable/,
  /\b(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN)\b/,
];

/**
 * The error that says "unavailable": `err` itself, or for a MULTI that Redis refused as a whole (EXECABORT) the
 * command error that made it refuse, which ioredis keeps in `previousErrors` (a READONLY from a demoted master).
 */
function unavailableReason(err: Error): Error | undefined {
  const text = `${(err as Error & { code?: string }).code ?? ''} ${err.message}`.trim();
  if (UNAVAILABLE.some((re) => re.test(err.message) || re.test(text))) return err;
  const previous = (err as Error & { previousErrors?: unknown[] }).previousErrors ?? [];
  return previous.find((e): e is Error => e instanceof Error && unavailableReason(e) !== undefined);
}

export function asStoreError(err: unknown): unknown {
  // Coded errors (StoreUnavailableError, StoreNotDurableError) already say what they are.
  if (err instanceof DsyncError || !(err instanceof Error)) return err;
  const reason = unavailableReason(err);
  if (!reason) return err;
  return new StoreUnavailableError(briefly(reason), { cause: err });
}

/** An error's first line, cut short: what a StoreUnavailableError's message quotes of its cause. */
export const briefly = (err: Error): string => err.message.split('\n')[0]!.slice(0, 120);

const isThenable = (v: unknown): v is Promise<unknown> => typeof (v as { then?: unknown } | null)?.then === 'function';

/**
 * Wraps every method of a store class so that its rejections go through `asStoreError`; synchronous methods
 * (`isSeq`, `compareSeq`) stay synchronous. Done once on the prototype, so no method can be forgotten.
 */
export function failFast(proto: object): void {
  for (const name of Object.getOwnPropertyNames(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    if (name === 'constructor' || typeof descriptor?.value !== 'function') continue;
    const original = descriptor.value as (...args: unknown[]) => unknown;
    Object.defineProperty(proto, name, {
      ...descriptor,
      value: function (this: unknown, ...args: unknown[]) {
        const result = original.apply(this, args);
        return isThenable(result)
          ? result.then(undefined, (err: unknown) => Promise.reject(asStoreError(err)))
          : result;
      },
    });
  }
}
