/**
 * `new Date(ms).toISOString()` for the timestamps every write renders (its `meta`, its events' `created_at`, the
 * activity record): formatting a date is a measurable part of a write, and a busy second formats the same second
 * thousands of times (docs/design/performance.md, "Timestamps, conditional spreads and the directory's access
 * parsed once"). The text up to the milliseconds is kept per second in a small table indexed by the second, so an
 * old `meta.created` rendered beside `lastModified` seldom evicts the current second.
 */
const SLOTS = 64;
/** The largest time a Date holds (ECMAScript's TimeClip). */
const MAX_TIME = 8.64e15;
const seconds = new Float64Array(SLOTS).fill(Number.NaN);
const heads: string[] = new Array<string>(SLOTS).fill('');

/** Exactly `new Date(ms).toISOString()` (a RangeError for an invalid time included). */
export function isoTime(ms: number): string {
  if (!Number.isInteger(ms) || Math.abs(ms) > MAX_TIME) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  const slot = second & (SLOTS - 1);
  if (seconds[slot] !== second) {
    // `…:SS.000Z` without its `000Z`, whatever the year's width.
    heads[slot] = new Date(second * 1000).toISOString().slice(0, -4);
    seconds[slot] = second;
  }
  const millis = ms - second * 1000;
  return `${heads[slot]}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}
