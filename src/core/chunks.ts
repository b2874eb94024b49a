/**
 * Large membership writes (an "all employees" group of 200,000 members) are processed in bounded slices: each
 * slice is a few milliseconds of CPU or one bounded Redis call, and the event loop gets a turn in between, so no
 * tenant's request waits behind another tenant's big write. CPU work is sliced by time rather than by count: what
 * one item costs varies with the machine, its load and the garbage collector.
 */

/** Member changes per Redis call (script arguments, run time) and per page of reads. */
export const CHUNK_SIZE = 1000;

/** CPU time one slice may use before the loop gets a turn: well below the 100 ms no request may wait. */
export const SLICE_MS = 5;

/** Items between two looks at the clock (a clock read per item would cost more than many items). */
const CLOCK_EVERY = 64;

/** Lets timers and I/O run (a macrotask turn; an awaited promise alone only drains microtasks). */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A time budget for CPU work done in slices: call `spent()` per item and `await yield()` when it answers true.
 * The budget starts when the slicer is made, so work done just before (in the same turn) should make it first.
 */
export class Slicer {
  private start = performance.now();
  private items = 0;

  /** Whether this slice used its budget (the clock is read every few items). */
  spent(): boolean {
    return ++this.items % CLOCK_EVERY === 0 && performance.now() - this.start >= SLICE_MS;
  }

  /** Gives the loop a turn and starts a new slice. */
  async yield(): Promise<void> {
    await yieldToLoop();
    this.start = performance.now();
  }
}

/** Work written as a generator that yields at every point where it may pause. */
export type Steps = Generator<void, void, undefined>;

/** Runs `steps` to the end in time slices, with event-loop turns in between. */
export async function runSliced(steps: Steps): Promise<void> {
  const slicer = new Slicer();
  for (const _ of steps) if (slicer.spent()) await slicer.yield();
}

/** Consecutive slices of at most `size` items. */
export function* chunksOf<T>(items: readonly T[], size = CHUNK_SIZE): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * Calls `fn` for every item, giving the event loop a turn whenever a slice's time budget is spent. The first
 * slice is processed synchronously, before the returned promise exists: a small list is handled in one atomic
 * step.
 */
export async function forEachChunked<T>(
  items: Iterable<T>,
  fn: (item: T) => void,
  slicer = new Slicer(),
): Promise<void> {
  for (const item of items) {
    if (slicer.spent()) await slicer.yield();
    fn(item);
  }
}

/** `items.map(fn)` over async chunks: `fn` gets one slice at a time, the loop gets a turn in between. */
export async function mapChunked<T, R>(
  items: readonly T[],
  fn: (chunk: T[]) => Promise<R[]>,
  size = CHUNK_SIZE,
): Promise<R[]> {
  const out: R[] = [];
  let first = true;
  for (const chunk of chunksOf(items, size)) {
    if (!first) await yieldToLoop();
    first = false;
    for (const r of await fn(chunk)) out.push(r);
  }
  return out;
}

/** Runs `fn` over `items` with at most `limit` at once. */
export async function mapLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
