/**
 * The timestamps of every write are formatted through a per-second table (`isoTime`). It must give
 * exactly what `new Date(ms).toISOString()` gives, for any time: other centuries, before 1970, six-digit years,
 * fractions of a millisecond, and the RangeError of an invalid time.
 */
import { expect } from 'chai';
import { isoTime } from '../../../src/core/iso-time.js';

const MAX = 8.64e15;

describe('isoTime', () => {
  it('is toISOString for times of every kind, whatever was formatted before', () => {
    const times = [
      0,
      -1,
      1,
      999,
      1000,
      -1000,
      -1001,
      59_999,
      Date.UTC(2026, 10, 28, 23, 59, 59, 999),
      Date.UTC(2026, 10, 29),
      Date.UTC(1969, 11, 31, 23, 59, 59, 7),
      Date.UTC(-1, 0, 1),
      Date.UTC(10_000, 0, 1, 0, 0, 0, 5),
      MAX,
      -MAX,
      MAX - 1,
      -MAX + 1,
      1.5,
      -0.5,
      999.999,
      -0,
    ];
    let seed = 7;
    // A deterministic spread over the whole range, and bursts inside one second (the table's hits).
    for (let i = 0; i < 5000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      times.push(Math.round(((seed / 2 ** 31) * 2 - 1) * MAX), 1_780_000_000_000 + (seed % 3000));
    }
    for (const ms of [...times, ...times.reverse()])
      expect(isoTime(ms), String(ms)).to.equal(new Date(ms).toISOString());
  });

  it('throws RangeError where toISOString does', () => {
    for (const ms of [Number.NaN, Infinity, -Infinity, MAX + 1, -MAX - 1, MAX + 2]) {
      expect(() => isoTime(ms), String(ms)).to.throw(RangeError);
    }
  });
});
