/**
 * Bounds a call that may have no timeout of its own (a store command on a stalled Redis), so a caller never
 * hangs: after `ms` it rejects with `expired()`. The call itself is not cancelled; callers only bound work whose
 * late completion is harmless (a ping, the operator's idempotent writes).
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, expired: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(expired()), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
