/**
 * Large membership writes (an "all employees" group of 200,000 members) are processed in bounded chunks: each
 * chunk is a few milliseconds of CPU or one bounded Redis call, and the event loop gets a turn in between, so no
 * tenant's request waits behind another tenant's big write.
 */

/** Member changes per chunk: per Redis call (script arguments, run time) and per slice of CPU work. */
export const CHUNK_SIZE = 1000;

/** Lets timers and I/O run (a macrotask turn; an awaited promise alone only drains microtasks). */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Consecutive slices of at most `size` items. */
export function* chunksOf<T>(items: readonly T[], size = CHUNK_SIZE): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * Calls `fn` for every item, giving the event loop a turn after every `size` items. The first `size` items are
 * processed synchronously, before the returned promise exists: a small list is handled in one atomic step.
 */
export async function forEachChunked<T>(items: readonly T[], fn: (item: T) => void, size = CHUNK_SIZE): Promise<void> {
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % size === 0) await yieldToLoop();
    fn(items[i]!);
  }
}

/** `items.map(fn)` over async chunks: `fn` gets one slice at a time, the loop gets a turn in between. */
export async function mapChunked<T, R>(items: readonly T[], fn: (chunk: T[]) => Promise<R[]>, size = CHUNK_SIZE): Promise<R[]> {
  const out: R[] = [];
  let first = true;
  for (const chunk of chunksOf(items, size)) {
    if (!first) await yieldToLoop();
    first = false;
    for (const r of await fn(chunk)) out.push(r);
  }
  return out;
}
