/**
 * A Google access token the sync refreshes is saved with a compare-and-set of the token fields
 * alone. It used to be a read-then-write of the whole directory, so an edit of another field landing between the
 * two (an admin renaming the directory while its sync runs) was undone. The rename is made to land exactly
 * there: just before the store call that saves the token (a deterministic race, test/support/hooked-store.ts).
 */
import { expect } from 'chai';
import { startGoogleTest, type GoogleTest } from '../support/google-harness.js';
import { openStore } from '../support/harness.js';
import { hooked } from '../support/hooked-store.js';

for (const kind of ['memory', 'redis'] as const) {
  describe(`a refreshed Google token is saved without undoing a concurrent edit (${kind} store)`, function () {
    this.timeout(20_000);
    let t: GoogleTest;
    afterEach(() => t?.close());

    it('keeps a rename made while the token is being saved, and saves the token', async () => {
      const h = hooked(await openStore(kind, 8));
      t = await startGoogleTest(h.store);
      t.fake.addUser();
      const dir = await t.directory({ name: 'Before' });
      t.fake.oauth.expireAccessTokens(); // the sync's first call answers 401: the client refreshes the token
      let renamed = false;
      const rename = async () => {
        if (renamed) return;
        renamed = true;
        expect(
          (await t.service.api('PATCH', `/api/v1/directory-sync/${dir.id}`, { name: 'Renamed meanwhile' })).status,
        ).to.equal(200);
      };
      // Whichever call saves the token (the whole record before, the token fields now) meets the rename first.
      h.before('updateDirectory', rename);
      h.before('saveGoogleTokens', rename);
      expect((await t.sync(dir.id)).directories[0]).to.deep.include({ state: 'succeeded' });
      expect(renamed, 'the token was saved during the sync').to.equal(true);
      const stored = (await t.service.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data;
      expect(stored.name).to.equal('Renamed meanwhile');
      expect(stored.google_access_token).to.not.equal(dir.google_access_token);
      expect(t.fake.oauth.validAccess(`Bearer ${stored.google_access_token}`), 'the refreshed token').to.equal(true);
    });
  });
}
