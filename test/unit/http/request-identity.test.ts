import { expect } from 'chai';
import { appTemplates } from '../../../src/http/app.js';
import { RequestIdentities, UNMATCHED } from '../../../src/http/middleware/request-identity.js';
import { DEFAULT_INFLIGHT_RULES, matchInflight } from '../../../src/ratelimit/inflight-rules.js';
import { fuzzSeed, spellings } from '../../support/path-spellings.js';

const DIR = '3dc0474f-5449-4244-9b1c-2f4c1c0a9e11';
const USER = '8a1f2b3c-0d4e-4f5a-8b6c-7d8e9f0a1b2c';
/** `id` with its i-th character percent-encoded. */
const encodedAt = (id: string, i: number) => `${id.slice(0, i)}%${id.charCodeAt(i).toString(16)}${id.slice(i + 1)}`;

describe('request identity: one canonical identity per resource, whatever the spelling', () => {
  const identities = new RequestIdentities(appTemplates());
  const labels = new Set([...appTemplates().map((t) => t.label ?? t.path), UNMATCHED.route]);

  it('names the route template, the directory and the canonical path', () => {
    expect(identities.of('PATCH', `/api/scim/v2.0/${DIR}/Users/${USER}`)).to.deep.equal({
      route: 'scim/users/:id',
      path: `/api/scim/v2.0/${DIR}/Users/${USER}`,
      directoryId: DIR,
    });
    expect(identities.of('PATCH', `/api/v1/directory-sync/${DIR}`)).to.deep.equal({
      route: '/api/v1/directory-sync/:id',
      path: `/api/v1/directory-sync/${DIR}`,
    });
    expect(identities.of('GET', '/healthz')).to.deep.equal({ route: '/healthz', path: '/healthz', open: true });
    expect(identities.of('GET', '/nope')).to.equal(UNMATCHED);
    expect(identities.of('GET', '/api/v1/directory-sync/%E0%A4%A')).to.equal(UNMATCHED); // bad encoding: express answers 400
  });

  it('fixed paths win over parameters the way express orders them', () => {
    expect(identities.of('GET', '/api/v1/directory-sync/users').route).to.equal('/api/v1/directory-sync/users');
    expect(identities.of('GET', `/API/V1/Directory-Sync/Users/${USER}`).route).to.equal(
      '/api/v1/directory-sync/users/:id',
    );
    // A method the path does not answer takes the path's label (express answers 405 there), but no path: no lock.
    expect(identities.of('PUT', `/api/v1/directory-sync/${DIR}`)).to.deep.equal({
      route: '/api/v1/directory-sync/:id',
    });
  });

  it('spellings of one resource (letter case, percent-encoding, a trailing slash) all have the canonical identity', () => {
    const scim = identities.of('PATCH', `/api/scim/v2.0/${DIR}/Users/${USER}`);
    for (const p of [
      `/api/scim/v2.0/${encodedAt(DIR, 0)}/Users/${USER}`,
      `/api/scim/v2.0/${encodedAt(DIR, 16)}/Users/${encodedAt(USER, 3)}`,
      `/api/scim/v2.0/${DIR}/Users/${USER}/`,
      `/api/scim/v2.0/${DIR}/users/${USER}`,
      `/api/scim/v2.0/${DIR}/%55sers/${USER}`,
      `/API/SCIM/V2.0/${DIR}/USERS/${USER}`,
    ]) {
      expect(identities.of('PATCH', p), p).to.deep.equal(scim);
    }
    const api = identities.of('PATCH', `/api/v1/directory-sync/${DIR}`);
    for (const p of [
      `/api/v1/directory-sync/${DIR}/`,
      `/api/v1/Directory-Sync/${DIR}`,
      `/API/V1/directory-sync/${DIR}`,
      `/api/v1/directory-sync/${encodedAt(DIR, 0)}`,
    ]) {
      expect(identities.of('PATCH', p), p).to.deep.equal(api);
    }
  });

  const CANONICAL: Array<[string, string]> = [
    ['PATCH', `/api/scim/v2.0/${DIR}/Users/${USER}`],
    ['POST', `/api/scim/v2.0/${DIR}/Groups`],
    ['GET', `/api/scim/v2.0/${DIR}/ServiceProviderConfig`],
    ['PATCH', `/api/v1/directory-sync/${DIR}`],
    ['POST', `/api/v1/directory-sync/${DIR}/google/token`],
    ['POST', '/api/v1/dsync/cron/process-events'],
  ];

  it('fuzz: case, percent-encoding and a trailing slash never change the identity', () => {
    const seed = fuzzSeed(19);
    for (const [method, path] of CANONICAL) {
      const canonical = identities.of(method, path);
      for (const s of spellings(path, 300, seed, { structural: false, ids: [DIR, USER] })) {
        expect(identities.of(method, s), `${method} ${s} (DSYNC_FUZZ_SEED=${seed})`).to.deep.equal(canonical);
      }
    }
  });

  it('fuzz: with slashes and dot segments played with, a spelling is the same identity or takes no lock of another', () => {
    const seed = fuzzSeed(1919);
    for (const [method, path] of CANONICAL) {
      const canonical = identities.of(method, path);
      for (const s of spellings(path, 500, seed, { ids: [DIR, USER] })) {
        const id = identities.of(method, s);
        const why = `${method} ${s} (DSYNC_FUZZ_SEED=${seed})`;
        expect(labels.has(id.route), why).to.equal(true);
        if (id.path === canonical.path) continue;
        // Another key: no inflight rule may match it under the same project (it would be a second lock on one
        // resource).
        if (id.path !== undefined && id.directoryId === canonical.directoryId) {
          expect(matchInflight(DEFAULT_INFLIGHT_RULES, method, id.path, 'p'), why).to.equal(undefined);
        }
      }
    }
  });
});
