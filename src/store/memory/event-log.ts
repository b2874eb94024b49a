/**
 * A directory's event log in the memory store. Seqs are consecutive numbers, so no seq is stored; event JSON is
 * packed into blocks of 1,024 events held in one Buffer each (outside the JS heap). A backlog of a million
 * events (a few refills of a 200,000-member group) is then about a thousand heap objects instead of millions of
 * strings and records, whose garbage collection paused the event loop. An event's seq is its `sequence`.
 */
import { withSequence } from '../../core/event-sequence.js';
import { PackedStrings } from '../../core/packed-strings.js';
import type { LoggedEvent } from '../../core/store-port.js';

const BLOCK = 1024;
const format = (seq: number): string => String(seq).padStart(16, '0');

export class EventLog {
  private sealed: PackedStrings[] = [];
  /** The block being filled. */
  private open: string[] = [];
  /** Commit time of every stored event, by position. */
  private ats: number[] = [];
  /** Seq of the event at position 0 (the first event of sealed[0], or of `open`). */
  private base = 1;
  /** Positions before `start` are trimmed. */
  private start = 0;

  private get length(): number {
    return this.sealed.length * BLOCK + this.open.length;
  }

  private json(position: number): string {
    const b = Math.floor(position / BLOCK);
    if (b === this.sealed.length) return this.open[position - b * BLOCK]!;
    return this.sealed[b]!.at(position % BLOCK);
  }

  append(json: string, at: number): void {
    this.open.push(json);
    this.ats.push(at);
    if (this.open.length === BLOCK) {
      this.sealed.push(new PackedStrings(this.open));
      this.open = [];
    }
  }

  /** Events after `afterSeq` (exclusive; null = from the start), oldest first. */
  read(afterSeq: string | null, limit: number): LoggedEvent[] {
    const from = afterSeq === null ? this.start : Math.max(this.start, Number(afterSeq) - this.base + 1);
    const out: LoggedEvent[] = [];
    for (let p = from; p < Math.min(this.length, from + limit); p++) {
      const seq = this.base + p;
      const stored = this.json(p);
      out.push({ seq: format(seq), json: withSequence(stored, seq), stored });
    }
    return out;
  }

  last(): string | null {
    return this.length > this.start ? format(this.base + this.length - 1) : null;
  }

  /** Drops events at or before `uptoSeq` that were committed before `olderThan`. */
  trim(uptoSeq: string, olderThan: number): void {
    const upto = Number(uptoSeq);
    while (this.start < this.length && this.base + this.start <= upto && this.ats[this.start]! < olderThan)
      this.start++;
    // Whole blocks go once every event in them is trimmed.
    const drop = Math.min(Math.floor(this.start / BLOCK), this.sealed.length);
    if (drop === 0) return;
    this.sealed.splice(0, drop);
    this.ats.splice(0, drop * BLOCK);
    this.base += drop * BLOCK;
    this.start -= drop * BLOCK;
  }

  /** Seq of the last event committed before `time`, or null. */
  seqBefore(time: number): string | null {
    let found: string | null = null;
    for (let p = this.start; p < this.length && this.ats[p]! < time; p++) found = format(this.base + p);
    return found;
  }
}
