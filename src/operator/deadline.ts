/**
 * Bounds a call that has no timeout of its own (a store command on a stalled Redis waits forever), so a worker
 * never hangs: the caller gets DeadlineExceededError and reports it. The call itself is not cancelled; the
 * reconciler's writes are idempotent (the directory id is the resource uid), so a late completion is harmless.
 */
import { DeadlineExceededError } from './errors.js';

export async function withDeadline<T>(what: string, ms: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceededError(what, ms)), ms);
  });
  try {
    return await Promise.race([work(), expired]);
  } finally {
    clearTimeout(timer);
  }
}
