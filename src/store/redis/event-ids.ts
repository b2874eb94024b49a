/**
 * Ids of a directory's event log entries on Redis (`<ms>-<n>`), which carry each event's `sequence`: the write
 * scripts add entries with `n` = SEQUENCE_BASE + the sequence, counted in the directory's `evn` key
 * (lua/prelude.ts, `emit`), so a reader has it from the id without another field an older reader would refuse.
 * An entry an older dsync added (`XADD *`: `n` counts within its millisecond, far below the base) has sequence 0.
 */
export const SEQUENCE_BASE = 1_000_000_000_000;

/** The sequence an entry id carries (0 for an entry added before sequences were counted). */
export function sequenceOfId(id: string): number {
  const n = Number(id.slice(id.indexOf('-') + 1));
  return n > SEQUENCE_BASE ? n - SEQUENCE_BASE : 0;
}

/** The id the scripts give the event of `sequence` committed at `ms` (a log filled with it needs `evn` set too). */
export function eventLogId(ms: number, sequence: number): string {
  return `${ms}-${SEQUENCE_BASE + sequence}`;
}
