/**
 * A directory's event log in the memory store. Seqs are consecutive numbers, so the log is two flat arrays (the
 * JSON and the commit time of each event) and the seq of the first one kept: no object per event. A backlog of a
 * million events (five refills of a 200,000-member group) is then a million strings for the garbage collector
 * instead of three million objects, whose marking showed up as event-loop pauses of several hundred ms.
 */
import type { LoggedEvent } from './port.js';

const format = (seq: number): string => String(seq).padStart(16, '0');

export class EventLog {
  private jsons: string[] = [];
  private ats: number[] = [];
  /** Seq of jsons[0]. */
  private first = 1;

  append(json: string, at: number): void {
    this.jsons.push(json);
    this.ats.push(at);
  }

  /** Events after `afterSeq` (exclusive; null = from the start), oldest first. */
  read(afterSeq: string | null, limit: number): LoggedEvent[] {
    const from = afterSeq === null ? 0 : Math.max(0, Number(afterSeq) - this.first + 1);
    const out: LoggedEvent[] = [];
    for (let i = from; i < Math.min(this.jsons.length, from + limit); i++) out.push({ seq: format(this.first + i), json: this.jsons[i]! });
    return out;
  }

  last(): string | null {
    return this.jsons.length === 0 ? null : format(this.first + this.jsons.length - 1);
  }

  /** Drops events at or before `uptoSeq` that were committed before `olderThan`. */
  trim(uptoSeq: string, olderThan: number): void {
    const upto = Number(uptoSeq);
    let n = 0;
    while (n < this.jsons.length && this.first + n <= upto && this.ats[n]! < olderThan) n++;
    this.jsons.splice(0, n);
    this.ats.splice(0, n);
    this.first += n;
  }

  /** Seq of the last event committed before `time`, or null. */
  seqBefore(time: number): string | null {
    let found: string | null = null;
    for (let i = 0; i < this.ats.length && this.ats[i]! < time; i++) found = format(this.first + i);
    return found;
  }
}
