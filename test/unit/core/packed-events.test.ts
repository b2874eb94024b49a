/**
 * A big membership change keeps its events' JSON packed outside the JS heap, a chunk per
 * block, until the store reads each to append it; 200,000 of them as live strings (150 MB) made the longest
 * garbage-collector pauses of the memory store.
 */
import { expect } from 'chai';
import { memberChanges } from '../../../src/core/memberships.js';
import { PackedStrings } from '../../../src/core/packed-strings.js';
import { memoryDirectory } from '../../support/memory-directory.js';

describe('packed event JSON', () => {
  it('PackedStrings gives back each string exactly, multi-byte text included', () => {
    const strings = ['{"a":1}', '', 'żółw 🐢 "quoted"', 'x'.repeat(5000)];
    const packed = new PackedStrings(strings);
    expect(packed.length).to.equal(4);
    expect(strings.map((_, i) => packed.at(i))).to.deep.equal(strings);
  });

  it("memberChanges builds each event once, packed: its JSON is read from the chunk's block, not held as a string", async () => {
    const { store, directory } = await memoryDirectory();
    for (let i = 0; i < 2500; i++) {
      const body = { userName: `u${i}@acme.io`, name: { givenName: 'Zoë', familyName: `N${i}` } };
      await store.createUser(
        'd1',
        { id: `u${i}`, body, created: 1, lastModified: 1, version: 1 },
        { userName: body.userName, emails: [] },
        [],
      );
    }
    const refs = Array.from({ length: 2600 }, (_, i) => ({ value: `u${i}` })); // 100 unknown users are skipped
    const changes = await memberChanges(
      store,
      directory,
      'group.user_added',
      refs,
      { id: 'g1', body: { displayName: 'All' } },
      1_700_000_000_000,
    );
    expect(changes).to.have.length(2500);
    const first = changes[0]!.event;
    expect(Object.getOwnPropertyDescriptor(first, 'json'), 'no JSON string kept on the event itself').to.equal(
      undefined,
    );
    expect(first.json).to.equal(first.json);
    const parsed = JSON.parse(changes[2499]!.event.json);
    expect(parsed).to.deep.include({ id: changes[2499]!.event.id, event: 'group.user_added', directory_id: 'd1' });
    expect(parsed.data).to.deep.include({ id: 'u2499', first_name: 'Zoë', last_name: 'N2499', email: 'u2499@acme.io' });
    expect(parsed.data.group).to.deep.include({ id: 'g1', name: 'All' });
  });
});
