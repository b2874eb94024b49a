/**
 * Many strings packed into one Buffer, outside the JS heap: a block of a thousand event JSONs is one heap object
 * for the garbage collector instead of a thousand large strings that each scavenge copies and each major GC
 * marks. The memory store's event log keeps its events so; a big membership change keeps its events so until
 * the store appends them (the pauses of hundreds of MB of live strings were the longest event-loop blocks).
 */
export class PackedStrings {
  private readonly data: Buffer;
  /** Byte offset where each string ends. */
  private readonly ends: Uint32Array;

  constructor(strings: readonly string[]) {
    this.ends = new Uint32Array(strings.length);
    let end = 0;
    strings.forEach((s, i) => (this.ends[i] = end += Buffer.byteLength(s)));
    this.data = Buffer.from(strings.join(''));
  }

  get length(): number {
    return this.ends.length;
  }

  /** String `i`, decoded anew on each call (nothing is kept on the heap). */
  at(i: number): string {
    return this.data.toString('utf8', i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }
}
