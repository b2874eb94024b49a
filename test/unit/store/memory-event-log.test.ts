/** The memory store's packed event log reads, trims and finds exactly like a plain list, across block edges. */
import { expect } from 'chai';
import { EventLog } from '../../../src/store/memory/event-log.js';

const seq = (n: number) => String(n).padStart(16, '0');

describe('memory store event log', () => {
  const N = 3000; // about three blocks
  function filled(): EventLog {
    const log = new EventLog();
    for (let i = 1; i <= N; i++) log.append(JSON.stringify({ id: `e${i}`, text: 'é✓' }), i < 2000 ? 100 : 200);
    return log;
  }
  const ids = (log: EventLog, after: string | null, limit: number) =>
    log.read(after, limit).map((e) => (JSON.parse(e.json) as { id: string }).id);

  it('reads in order from any cursor, across sealed and open blocks (multi-byte text intact)', () => {
    const log = filled();
    expect(ids(log, null, 2)).to.deep.equal(['e1', 'e2']);
    expect(ids(log, seq(1023), 3)).to.deep.equal(['e1024', 'e1025', 'e1026']);
    expect(ids(log, seq(2047), 2)).to.deep.equal(['e2048', 'e2049']);
    expect(ids(log, seq(2999), 10)).to.deep.equal(['e3000']);
    expect(log.read(seq(3000), 10)).to.deep.equal([]);
    expect(JSON.parse(log.read(seq(1500), 1)[0]!.json)).to.deep.equal({ id: 'e1501', text: 'é✓', sequence: 1501 });
    expect(log.last()).to.equal(seq(3000));
  });

  it('trims only what is both delivered and old, keeping seqs and whole-block drops consistent', () => {
    const log = filled();
    log.trim(seq(2500), 150); // events 1..1999 are old (at 100); 2000.. are not
    expect(ids(log, null, 1)).to.deep.equal(['e2000']);
    expect(ids(log, seq(5), 2)).to.deep.equal(['e2000', 'e2001']);
    expect(log.last()).to.equal(seq(3000));
    expect(log.seqBefore(150)).to.equal(null);
    expect(log.seqBefore(250)).to.equal(seq(3000));
    log.trim(seq(3000), 300);
    expect(log.read(null, 10)).to.deep.equal([]);
    expect(log.last()).to.equal(null);
    log.append('{"id":"e3001"}', 300);
    expect(ids(log, null, 5)).to.deep.equal(['e3001']);
    expect(log.last()).to.equal(seq(3001));
  });
});
