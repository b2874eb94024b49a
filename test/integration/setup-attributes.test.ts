/**
 * The setup page's Attributes section over real HTTP, on both stores: shown only when the application asked for
 * attributes; the paths the IdP sent, read from a bounded sample of users and escaped; Preview (a proposed mapping
 * checked, a bad path refused naming its attribute); Save through the directories' use case (the users evaluated
 * again), refusing to add or remove a name, CSRF-checked, refused on a directory the operator manages; and the
 * same without the page's script (plain form posts).
 */
import { expect } from 'chai';
import { previewAnswer, saveAnswer } from '../../src/http/setup/attributes-section.js';
import { createPageLimits } from '../../src/ratelimit/page-limits.js';
import { eventReader, openStore, STORE_KINDS, startService, type Service } from '../support/harness.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ACME = 'urn:ietf:params:scim:schemas:extension:acme:2.0:User';

for (const kind of STORE_KINDS) {
  describe(`setup page: attributes (${kind} store)`, function () {
    this.timeout(30_000);
    let svc: Service;
    /** The directory's events logged since the last call. */
    let events: (directoryId: string) => Promise<any[]>;
    let dir: any;
    let link: string;
    let csrf: string;

    const linkOf = async (d: { id: string }) =>
      (await svc.api('POST', `/api/v1/directory-sync/${d.id}/setup-links`, {})).body.data.url as string;
    const csrfOf = async (url: string) => /data-csrf="([^"]+)"/.exec(await (await fetch(url)).text())![1]!;
    const post = (name: string, fields: Record<string, string>, json = true, headers: Record<string, string> = {}) =>
      fetch(`${link}/${name}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(json && { accept: 'application/json' }),
          ...headers,
        },
        body: new URLSearchParams({ csrf, ...fields }).toString(),
      });
    const user = (name: string, extra: Record<string, unknown> = {}) => ({
      schemas: [USER, ACME],
      userName: `${name}@acme.io`,
      title: `${name}'s title`,
      addresses: [{ type: 'work', country: 'DE' }],
      [ACME]: { badge: `B-${name}` },
      ...extra,
    });
    const provision = async (body: unknown) => {
      const res = await svc.scim(dir, 'POST', '/Users', body);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body;
    };

    beforeEach(async () => {
      const store = await openStore(kind, 5);
      svc = await startService(store, {}, { pageLimits: createPageLimits({ limits: { view: 1000, action: 1000 } }) });
      events = eventReader(store);
      dir = await svc.createDirectory({
        type: 'okta-scim-v2',
        attribute_mapping: { badge: '', country: 'addresses[type eq "work"].country' },
      });
      link = await linkOf(dir);
      csrf = await csrfOf(link);
    });
    afterEach(() => svc?.close());

    it('is not on the page of a directory whose application asked for no attributes; its actions refuse', async () => {
      const plain = await svc.createDirectory({ tenant: 'globex' });
      link = await linkOf(plain);
      csrf = await csrfOf(link);
      expect(await (await fetch(link)).text()).not.to.contain('id="attributes"');
      const res = await post('attributes/preview', {});
      expect(res.status).to.equal(400);
      expect(((await res.json()) as any).error.message).to.equal(
        'The application asked for no attributes of this directory',
      );
    });

    it('lists the names asked for with their sources, and the paths the IdP sent (a bounded sample, escaped)', async () => {
      expect(await (await fetch(link)).text()).to.contain('Nothing received yet');
      await provision(user('ann', { [ACME]: { badge: '<img src=x onerror=alert(1)>' } }));
      for (let i = 0; i < 24; i++) await provision(user(`u${i}`, i === 23 ? { nickName: 'only-the-25th' } : {}));
      const page = await (await fetch(link)).text();
      expect(page).to.match(/<input id="attr-0" name="source\.badge" type="text" value=""/);
      expect(page).to.contain('name="source.country" type="text" value="addresses[type eq &quot;work&quot;].country"');
      // The first 20 users only: the 25th's own attribute is not read.
      expect(page).to.contain('From the first 20 users');
      expect(page).not.to.contain('only-the-25th');
      expect(page).to.contain(`<code>${ACME}:badge</code>`);
      expect(page).to.contain('<option value="addresses[type eq &quot;work&quot;].country">DE</option>');
      expect(page).to.contain('<td data-label="Users">20 of 20</td>');
      expect(page).to.contain('&lt;img src=x onerror=alert(1)&gt;');
      expect(page).not.to.contain('<img src=x');
    });

    it('Preview: what a proposed mapping gives the first users; a bad path is refused naming its attribute', async () => {
      const ann = await provision(user('ann'));
      await provision(user('bob', { [ACME]: { badge: 7 } }));
      const res = await post('attributes/preview', {
        'source.badge': ` ${ACME}:badge `,
        'source.country': 'addresses[type eq "work"].country',
      });
      expect(res.status).to.equal(200);
      const data = previewAnswer.parse(((await res.json()) as any).data);
      expect(data.users).to.deep.equal([
        { id: ann.id, user_name: 'ann@acme.io', custom_attributes: { badge: 'B-ann', country: 'DE' } },
        { id: data.users[1]!.id, user_name: 'bob@acme.io', custom_attributes: { badge: 7, country: 'DE' } },
      ]);
      // Nothing saved.
      expect((await svc.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.attribute_mapping.badge).to.equal('');

      const bad = await post('attributes/preview', {
        'source.badge': 'title',
        'source.country': 'addresses[type eq work].country',
      });
      expect(bad.status).to.equal(400);
      const error = ((await bad.json()) as any).error;
      expect(error.field).to.equal('source.country');
      expect(error.message).to.match(/^country: "addresses\[type eq work\]\.country": the filter/);
      const unknownForm = await post('attributes/preview', { 'source.badge': 'okta:login', 'source.country': '' });
      expect(((await unknownForm.json()) as any).error).to.include({ code: 400, field: 'source.badge' });
    });

    it('Save: sets the sources through the use case (users evaluated again, user.updated); never adds or removes a name', async () => {
      const ann = await provision(user('ann'));
      await events(dir.id); // past the creates: the reader returns what is new since
      const added = await post('attributes/save', {
        'source.badge': 'title',
        'source.country': '',
        'source.extra': 'title',
      });
      expect(added.status).to.equal(400);
      expect(((await added.json()) as any).error).to.include({
        field: 'source.extra',
        message:
          'extra is not an attribute the application asked for: only the sources of its attributes can be set here',
      });
      const removed = await post('attributes/save', { 'source.badge': 'title' });
      expect(removed.status).to.equal(400);
      expect(((await removed.json()) as any).error).to.include({ field: 'source.country' });
      expect(await events(dir.id)).to.deep.equal([]);

      const res = await post('attributes/save', {
        'source.badge': `${ACME}:badge`,
        'source.country': 'addresses[type eq "work"].country',
      });
      expect(res.status).to.equal(200);
      const saved = saveAnswer.parse(((await res.json()) as any).data);
      expect(saved.attribute_mapping).to.deep.equal({
        badge: `${ACME}:badge`,
        country: 'addresses[type eq "work"].country',
      });
      expect((await svc.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.attribute_mapping).to.deep.equal(
        saved.attribute_mapping,
      );
      const got = (await svc.api('GET', `/api/v1/directory-sync/users/${ann.id}?directoryId=${dir.id}`)).body.data;
      expect(got.custom_attributes).to.deep.equal({ badge: 'B-ann', country: 'DE' });
      expect(
        (await events(dir.id)).map((e) => [
          e.data.id,
          e.data.custom_attributes.badge,
          e.previous_attributes.custom_attributes,
        ]),
      ).to.deep.equal([[ann.id, 'B-ann', { badge: null }]]);
    });

    it('Save is CSRF-checked, and refused on a directory the operator manages (its spec sets the sources)', async () => {
      const refused = await fetch(`${link}/attributes/save`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ 'source.badge': 'title', 'source.country': '' }).toString(),
      });
      expect(refused.status).to.equal(403);
      const crossSite = await post('attributes/save', { 'source.badge': 'title', 'source.country': '' }, true, {
        'sec-fetch-site': 'cross-site',
      });
      expect(crossSite.status).to.equal(403);
      expect((await svc.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.attribute_mapping.badge).to.equal('');

      const managed = await svc.dsync.directories.create(
        { name: 'Managed', tenant: 'initech', product: 'app', type: 'okta-scim-v2', attribute_mapping: { badge: '' } },
        { managedBy: 'kubernetes:ns/initech' },
      );
      link = (await svc.dsync.setupLinks.create(managed.id, {})).url;
      csrf = await csrfOf(link);
      const page = await (await fetch(link)).text();
      expect(page).to.contain('id="attributes-managed"');
      expect(page).not.to.contain('id="attributes-save"');
      expect((await post('attributes/preview', { 'source.badge': 'title' })).status).to.equal(200);
      expect((await post('attributes/save', { 'source.badge': 'title' })).status).to.equal(403);
    });

    it('without the script: Preview renders the page with the edited sources and their preview; Save with a notice', async () => {
      await provision(user('ann'));
      const preview = await post('attributes/preview', { 'source.badge': 'title', 'source.country': '' }, false);
      expect(preview.status).to.equal(200);
      const page = await preview.text();
      expect(page).to.contain('name="source.badge" type="text" value="title"');
      expect(page).to.match(/<div id="attributes-preview" role="region" aria-labelledby="attributes-preview-h">/);
      expect(page).to.contain(
        '<td data-label="User">ann@acme.io</td><td data-label="badge">ann&#39;s title</td><td data-label="country">—</td>',
      );
      const saved = await post('attributes/save', { 'source.badge': 'title', 'source.country': '' }, false);
      expect(await saved.text()).to.contain('Saved: the users&#39; attributes follow the new sources.');
      const bad = await post('attributes/save', { 'source.badge': 'title[', 'source.country': '' }, false);
      expect(bad.status).to.equal(400);
      expect(await bad.text()).to.contain('badge: &quot;title[&quot;');
    });

    it('reads a form of 100 attributes with long sources (the other actions keep their small form limit)', async () => {
      const names = Array.from({ length: 100 }, (_, i) => `a${i}`);
      const source = `${ACME}:${'x'.repeat(400)}`;
      await svc.api('PATCH', `/api/v1/directory-sync/${dir.id}`, {
        attribute_mapping: Object.fromEntries(names.map((n) => [n, ''])),
      });
      const res = await post('attributes/preview', Object.fromEntries(names.map((n) => [`source.${n}`, source])));
      expect(res.status).to.equal(200);
      expect((await post('scim-tokens', Object.fromEntries(names.map((n) => [n, 'x'])))).status).to.equal(400);
    });
  });
}
