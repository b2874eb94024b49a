/** The Google provider's pure parts: the diff, the workspace check, failure classification, pacing, settings. */
import { expect } from 'chai';
import { loadConfig } from '../../../src/config.js';
import { exceedsDeleteShare, GUARD_FLOOR, memberDelta, pageChanges, unseen } from '../../../src/providers/pull/diff.js';
import { GoogleCredentialsError, WrongWorkspaceError } from '../../../src/providers/google/errors.js';
import { backoffMs, classify } from '../../../src/providers/google/google-retry.js';
import { groupBody, userBody, userMemberIds } from '../../../src/providers/google/mapping.js';
import { checkWorkspace } from '../../../src/providers/google/workspace-check.js';
import { GOOGLE_USER } from '../../../src/core/attributes.js';
import { PROVIDER_FIELDS, providerExtension } from '../../../src/core/custom-attributes.js';
import { Pacer } from '../../../src/providers/google/pacer.js';

const gaxiosError = (status: number, data: unknown, retryAfter?: string) => ({
  response: { status, data, headers: new Headers(retryAfter ? { 'retry-after': retryAfter } : {}) },
});
const googleBody = (reason: string) => ({ error: { code: 403, errors: [{ reason }] } });

describe('Google provider units', () => {
  it("keeps Google's own fields as Google sends them in its extension, next to the manager's email; empty ones left out", () => {
    expect(GOOGLE_USER).to.equal(providerExtension('google'));
    const own = {
      orgUnitPath: '/Engineering/Platform',
      isAdmin: false,
      locations: [{ type: 'desk', area: 'desk', buildingId: 'B1', floorName: '3', deskCode: '3-14' }],
      phones: [{ value: '+1 555 0100', type: 'work', primary: true }],
      addresses: [
        {
          type: 'work',
          formatted: '1 Main St',
          locality: 'Springfield',
          country: 'United States',
          countryCode: 'US',
          primary: true,
        },
      ],
      customSchemas: { Employment: { badge: '42', skills: [{ value: 'go', type: 'work' }] } },
      recoveryEmail: 'ann@home.example',
    };
    const user = { id: '1', primaryEmail: 'a@x.com', relations: [{ type: 'manager', value: 'boss@x.com' }], ...own };
    const body = userBody(user);
    expect(body[GOOGLE_USER]).to.deep.equal({ managerEmail: 'boss@x.com', ...own });
    expect(Object.keys(own)).to.have.members([...PROVIDER_FIELDS.google]);
    expect(body.schemas).to.include(GOOGLE_USER);
    const bare = userBody({
      id: '1',
      primaryEmail: 'a@x.com',
      orgUnitPath: '',
      phones: [],
      customSchemas: {},
      recoveryEmail: '',
    });
    expect(bare).to.not.have.property(GOOGLE_USER);
    expect(bare.schemas).to.not.include(GOOGLE_USER);
    expect(userBody({ id: '1', primaryEmail: 'a@x.com', isAdmin: true })[GOOGLE_USER]).to.deep.equal({ isAdmin: true });
  });

  it('maps users without volatile fields; suspended or archived is inactive; group names stay names', () => {
    const user = {
      id: '1',
      primaryEmail: 'a@x.com',
      name: { givenName: 'A', familyName: 'B', fullName: 'A B' },
      lastLoginTime: 'now',
      etag: 'e',
    };
    const body = userBody(user);
    expect(body).to.deep.equal({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'a@x.com',
      externalId: '1',
      name: { givenName: 'A', familyName: 'B', formatted: 'A B' },
      displayName: 'A B',
      emails: [{ value: 'a@x.com', primary: true, type: 'work' }],
      active: true,
    });
    expect(userBody({ ...user, lastLoginTime: 'later', etag: 'f' })).to.deep.equal(body);
    expect(userBody({ ...user, suspended: true }).active).to.equal(false);
    expect(userBody({ ...user, archived: true }).active).to.equal(false);
    expect(groupBody({ id: 'g', email: 'eng@x.com', name: 'Eng' })).to.deep.include({
      displayName: 'Eng',
      externalId: 'eng@x.com',
    });
    const members = [
      { id: '1', type: 'USER' },
      { id: '2', type: 'GROUP' },
      { id: 'C1', type: 'CUSTOMER' },
      { id: '9', type: 'USER' },
      { type: 'USER' },
    ];
    expect(userMemberIds(members, (id) => id !== '9')).to.deep.equal(['1']);
  });

  it('diffs a page, a member list and the unseen ids; the guard trips above the share and the floor only', () => {
    const stored = { id: 'a', body: { userName: 'a', schemas: ['x', 'y'] }, created: 0, lastModified: 0, version: 1 };
    const listed = [
      { id: 'a', body: { userName: 'a', schemas: ['y', 'x'] } },
      { id: 'b', body: { userName: 'b' } },
    ];
    expect(pageChanges(listed, [stored, null])).to.deep.equal({ create: [listed[1]], update: [] });
    expect(pageChanges([{ id: 'a', body: { userName: 'A' } }], [stored]).update).to.have.length(1);
    expect(memberDelta(['1', '2', '3'], new Set(['2', '3', '4']))).to.deep.equal({ add: ['4'], remove: ['1'] });
    expect(unseen(['1', '2', '3'], new Set(['2']))).to.deep.equal(['1', '3']);
    expect(exceedsDeleteShare(GUARD_FLOOR, 12, 0.2)).to.equal(false);
    expect(exceedsDeleteShare(GUARD_FLOOR + 1, 100, 0.2)).to.equal(false);
    expect(exceedsDeleteShare(21, 100, 0.2)).to.equal(true);
    expect(exceedsDeleteShare(21, 100, 1)).to.equal(false);
  });

  it('checks the consenting workspace on the ID token: hd, or a verified e-mail of an organisation account', () => {
    const token = (claims: Record<string, unknown>) =>
      `h.${Buffer.from(JSON.stringify({ aud: 'client', ...claims })).toString('base64url')}.s`;
    const check = (claims: Record<string, unknown> | string | undefined) =>
      checkWorkspace(typeof claims === 'object' ? token(claims) : claims, { clientId: 'client', domain: 'Acme.com' });
    check({ hd: 'acme.com', email: 'a@acme.com', email_verified: true });
    check({ hd: 'acme-primary.com', email: 'a@ACME.com', email_verified: true });
    expect(() => check({ hd: 'evil.com', email: 'a@evil.com', email_verified: true })).to.throw(
      WrongWorkspaceError,
      /workspace of evil\.com, not to Acme\.com/,
    );
    expect(() => check({ hd: 'evil.com', email: 'a@acme.com', email_verified: false })).to.throw(WrongWorkspaceError);
    expect(
      () => check({ email: 'a@acme.com', email_verified: true }),
      'a consumer account with an address at the domain',
    ).to.throw(WrongWorkspaceError, /no Google Workspace/);
    expect(() => check({ hd: 'acme.com', aud: 'another-client' })).to.throw(GoogleCredentialsError);
    for (const junk of [undefined, '', 'a.b.c', 'x', token({ hd: 1 })])
      expect(() => check(junk)).to.throw(GoogleCredentialsError);
  });

  it('retries rate-limit reasons, 429, 5xx and network failures, not other 4xx; honours Retry-After', () => {
    for (const reason of ['userRateLimitExceeded', 'rateLimitExceeded', 'quotaExceeded'])
      expect(classify(gaxiosError(403, googleBody(reason))).retry, reason).to.equal(true);
    expect(classify(gaxiosError(403, googleBody('forbidden'))).retry).to.equal(false);
    expect(classify(gaxiosError(404, googleBody('notFound'))).retry).to.equal(false);
    expect(classify(gaxiosError(400, { error: 'invalid_grant' }))).to.deep.include({
      retry: false,
      reason: 'invalid_grant',
    });
    for (const status of [429, 500, 502, 503])
      expect(classify(gaxiosError(status, {})).retry, String(status)).to.equal(true);
    expect(classify(new Error('socket hang up')).retry).to.equal(true);
    expect(classify(gaxiosError(429, {}, '7')).retryAfterMs).to.equal(7000);
    const options = { attempts: 5, baseMs: 100, maxMs: 1000 };
    for (let i = 0; i < 50; i++) {
      expect(backoffMs(3, options)).to.be.within(0, 800);
      expect(backoffMs(9, options)).to.be.within(0, 1000);
    }
    expect(backoffMs(0, options, 5000)).to.equal(5000);
  });

  it('paces requests under the per-minute budget; 0 is unpaced', async () => {
    const paced = new Pacer(60_000 / 20); // one per 20 ms
    const started = Date.now();
    for (let i = 0; i < 6; i++) await paced.take();
    expect(Date.now() - started).to.be.at.least(95);
    const free = new Pacer(0);
    const t0 = Date.now();
    for (let i = 0; i < 1000; i++) await free.take();
    expect(Date.now() - t0).to.be.below(50);
  });

  it('reads DSYNC_GOOGLE_* with defaults and clear errors', () => {
    const key = () => 'generated';
    const base = { DSYNC_EXTERNAL_URL: 'https://dsync.example.com' };
    const config = loadConfig(base, key);
    expect(config.google).to.deep.include({
      redirectUrl: 'https://dsync.example.com/api/v1/dsync/google/callback',
      apiUrl: 'https://admin.googleapis.com/',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      queriesPerMinute: 2400,
      maxDeleteShare: 0.2,
    });
    const set = loadConfig(
      {
        ...base,
        DSYNC_GOOGLE_MAX_DELETE_SHARE: '35%',
        DSYNC_GOOGLE_QUERIES_PER_MINUTE: '0',
        DSYNC_GOOGLE_SYNC_INTERVAL: '7200',
      },
      key,
    );
    expect(set.google).to.deep.include({ maxDeleteShare: 0.35, queriesPerMinute: 0, syncIntervalSeconds: 7200 });
    expect(loadConfig({ ...base, DSYNC_GOOGLE_MAX_DELETE_SHARE: '0.5' }, key).google.maxDeleteShare).to.equal(0.5);
    expect(() => loadConfig({ ...base, DSYNC_GOOGLE_MAX_DELETE_SHARE: '150%' }, key)).to.throw(
      /DSYNC_GOOGLE_MAX_DELETE_SHARE/,
    );
    expect(() => loadConfig({ ...base, DSYNC_GOOGLE_API_URL: 'nope' }, key)).to.throw(
      /DSYNC_GOOGLE_API_URL must be a URL/,
    );
    expect(() => loadConfig({ ...base, DSYNC_GOOGLE_CLIENT_ID: 'x' }, key)).to.throw(/set both/);
  });
});
