/**
 * The Google authorization flow (SPEC.md §4.2) over HTTP, against the fake Google's consent and token endpoints
 * through google-auth-library: the authorization URL, the browser callback (signed, expiring state), the code
 * exchange, setting tokens, and the service-account alternative.
 */
import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { MemoryStore } from '../../src/store/memory.js';
import { STATE_TTL_MS, StateSigner } from '../../src/providers/google/oauth-state.js';
import { FAKE_CLIENT } from '../support/fake-google.js';
import { startGoogleTest, type GoogleTest } from '../support/google-harness.js';
import { startService } from '../support/harness.js';

const SCOPES = [
  'https://www.googleapis.com/auth/admin.directory.user.readonly',
  'https://www.googleapis.com/auth/admin.directory.group.readonly',
  'https://www.googleapis.com/auth/admin.directory.group.member.readonly',
];

describe('Google authorization flow', function () {
  this.timeout(20_000);
  let t: GoogleTest;
  let dir: any;

  beforeEach(async () => {
    t = await startGoogleTest(new MemoryStore());
    t.fake.addUser({ primaryEmail: 'admin@example.com' });
    dir = await t.service.createDirectory({ type: 'google', google_domain: 'example.com' });
  });
  afterEach(() => t.close());

  const authorizationUrl = async (query = '') => {
    const res = await t.service.api('GET', `/api/v1/directory-sync/${dir.id}/google/authorization-url${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return new URL(res.body.data.authorizationUrl);
  };
  /** What the admin's browser does: the consent page (approved at once by the fake), then our callback. */
  const consent = async (url: URL) => {
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).to.equal(302);
    return new URL(res.headers.get('location')!);
  };
  const callback = (url: URL) => fetch(url, { redirect: 'manual' });

  it('step 1: offline access, the consent prompt, the three read-only scopes and a signed state, to the configured endpoint', async () => {
    const url = await authorizationUrl();
    expect(`${url.origin}${url.pathname}`).to.equal(t.fake.authUrl);
    const q = url.searchParams;
    expect(q.get('access_type')).to.equal('offline');
    expect(q.get('prompt')).to.equal('consent');
    expect(q.get('response_type')).to.equal('code');
    expect(q.get('client_id')).to.equal(FAKE_CLIENT.id);
    expect(q.get('redirect_uri')).to.equal(`${t.service.url}/api/v1/dsync/google/callback`);
    expect(q.get('scope')!.split(' ')).to.deep.equal(SCOPES);
    expect(q.get('hd')).to.equal('example.com');
    expect(new StateSigner(FAKE_CLIENT.secret).verify(q.get('state'))).to.include({ directoryId: dir.id });
  });

  it('step 1 refuses what it cannot do: unknown directory 404, a SCIM directory 400, a bad redirect_url 400, no OAuth client 409', async () => {
    expect((await t.service.api('GET', '/api/v1/directory-sync/nope/google/authorization-url')).status).to.equal(404);
    const scim = await t.service.createDirectory({ type: 'okta-scim-v2' });
    const wrong = await t.service.api('GET', `/api/v1/directory-sync/${scim.id}/google/authorization-url`);
    expect(wrong.status).to.equal(400);
    expect(wrong.body.error.message).to.match(/not of type google/);
    const bad = await t.service.api('GET', `/api/v1/directory-sync/${dir.id}/google/authorization-url?redirect_url=javascript:alert(1)`);
    expect(bad.status).to.equal(400);
    const bare = await startService(new MemoryStore());
    try {
      const d = await bare.createDirectory({ type: 'google' });
      const res = await bare.api('GET', `/api/v1/directory-sync/${d.id}/google/authorization-url`);
      expect(res.status).to.equal(409);
      expect(res.body.error.message).to.match(/DSYNC_GOOGLE_CLIENT_ID/);
    } finally {
      await bare.close();
    }
  });

  it('sync routes: the status of an unknown directory is 404, of a SCIM one 400; a sync of one deactivated or unknown directory is refused', async () => {
    const scim = await t.service.createDirectory({ type: 'okta-scim-v2' });
    expect((await t.service.api('GET', '/api/v1/directory-sync/nope/google/sync')).status).to.equal(404);
    expect((await t.service.api('GET', `/api/v1/directory-sync/${scim.id}/google/sync`)).status).to.equal(400);
    expect((await t.service.api('GET', `/api/v1/directory-sync/${dir.id}/google/sync`)).body.data).to.deep.include({ state: 'pending', started_at: null });
    expect((await t.service.api('POST', '/api/v1/dsync/cron/sync-google?directoryId=nope')).status).to.equal(404);
    expect((await t.service.api('POST', `/api/v1/dsync/cron/sync-google?directoryId=${scim.id}`)).status).to.equal(400);
    expect((await t.service.api('POST', '/api/v1/dsync/cron/sync-google?directoryId=a&directoryId=b')).status).to.equal(400);
    const off = await t.service.createDirectory({ type: 'google', deactivated: true, name: 'Off' });
    expect((await t.service.api('POST', `/api/v1/dsync/cron/sync-google?directoryId=${off.id}`)).status).to.equal(409);
    // Not authorized yet: reported, not thrown; the deactivated one is not synced at all.
    const all = await t.sync();
    expect(all.directories.map((d: any) => [d.id, d.state])).to.deep.equal([[dir.id, 'not_authorized']]);
  });

  it('the browser callback exchanges the code, sets the tokens and ends on a page; the directory then syncs', async () => {
    const back = await consent(await authorizationUrl());
    expect(`${back.origin}${back.pathname}`).to.equal(`${t.service.url}/api/v1/dsync/google/callback`);
    const res = await callback(back);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/text\/html/);
    expect(await res.text()).to.contain('Google Workspace connected');
    const stored = (await t.service.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data;
    expect(t.fake.oauth.validAccess(`Bearer ${stored.google_access_token}`)).to.equal(true);
    expect(t.fake.oauth.refreshTokens.has(stored.google_refresh_token)).to.equal(true);
    expect((await t.sync(dir.id)).directories[0]).to.deep.include({ state: 'succeeded' });
    // The code was used once: a replay of the same callback fails, and changes nothing.
    const replay = await callback(back);
    expect(replay.status).to.equal(400);
    expect((await t.service.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data.google_access_token).to.equal(stored.google_access_token);
  });

  it('the callback redirects to the redirect_url given at step 1, on success and on failure', async () => {
    const back = await consent(await authorizationUrl('?redirect_url=https://app.example.com/settings/directory'));
    const ok = await callback(back);
    expect(ok.status).to.equal(303);
    const to = new URL(ok.headers.get('location')!);
    expect(`${to.origin}${to.pathname}`).to.equal('https://app.example.com/settings/directory');
    expect(Object.fromEntries(to.searchParams)).to.deep.equal({ directory_id: dir.id, status: 'success' });
    const failed = await callback(back); // the code is spent
    expect(failed.status).to.equal(303);
    expect(new URL(failed.headers.get('location')!).searchParams.get('status')).to.equal('error');
  });

  it('the callback refuses a forged, foreign, expired or missing state (and sets nothing)', async () => {
    const back = await consent(await authorizationUrl());
    const state = back.searchParams.get('state')!;
    const forged = state.slice(0, -2) + (state.endsWith('AA') ? 'BB' : 'AA');
    const foreign = new StateSigner('another-secret').sign(dir.id);
    const expired = new StateSigner(FAKE_CLIENT.secret).sign(dir.id, undefined, Date.now() - STATE_TTL_MS - 1000);
    const [body, mac] = state.split('.');
    const otherDir = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), d: 'other' })).toString('base64url');
    for (const [what, value, reason] of [
      ['forged', forged, 'bad signature'],
      ['foreign', foreign, 'bad signature'],
      ['expired', expired, 'expired'],
      ['re-bound to another directory', `${otherDir}.${mac}`, 'bad signature'],
      ['missing', undefined, 'missing'],
    ] as const) {
      const url = new URL(back);
      if (value === undefined) url.searchParams.delete('state');
      else url.searchParams.set('state', value);
      const res = await callback(url);
      expect(res.status, what).to.equal(400);
      expect(await res.text(), what).to.contain(`Invalid OAuth state: ${reason}`);
    }
    expect((await t.service.api('GET', `/api/v1/directory-sync/${dir.id}`)).body.data).to.not.have.property('google_access_token');
  });

  it('step 2 answers the token set of SPEC §2.5; step 3 answers exactly the directory fields SPEC §2.1 lists', async () => {
    const back = await consent(await authorizationUrl());
    const exchanged = await t.service.api('POST', `/api/v1/directory-sync/${dir.id}/google/token`, { code: back.searchParams.get('code') });
    expect(exchanged.status).to.equal(200);
    expect(exchanged.body.data).to.have.all.keys('access_token', 'refresh_token', 'scope', 'token_type', 'expiry_date');
    expect(exchanged.body.data.token_type).to.equal('Bearer');
    expect(exchanged.body.data.scope.split(' ')).to.have.members(SCOPES);
    expect(exchanged.body.data.expiry_date).to.be.a('number').above(Date.now());
    const again = await t.service.api('POST', `/api/v1/directory-sync/${dir.id}/google/token`, { code: back.searchParams.get('code') });
    expect(again.status).to.equal(400);
    expect(again.body.error.message).to.match(/authorization code/);
    expect((await t.service.api('POST', `/api/v1/directory-sync/${dir.id}/google/token`, {})).body.error.message).to.match(/code is required/);

    const { access_token, refresh_token } = exchanged.body.data;
    const set = await t.service.api('PUT', `/api/v1/directory-sync/${dir.id}/google/token`, { access_token, refresh_token });
    expect(set.status).to.equal(200);
    expect(set.body.data).to.deep.equal({
      id: dir.id,
      name: dir.name,
      tenant: dir.tenant,
      product: dir.product,
      type: 'google',
      google_domain: 'example.com',
      google_access_token: access_token,
      google_refresh_token: refresh_token,
    });
    // A directory the operator manages takes tokens too (they come from a consent, not from its spec).
    const managed = await t.service.dsync.directories.create({ name: 'M', tenant: 'acme', product: 'app', type: 'google' }, { managedBy: 'kubernetes:ns/m' });
    expect((await t.service.api('PUT', `/api/v1/directory-sync/${managed.id}/google/token`, { access_token, refresh_token })).status).to.equal(200);
    expect((await t.service.api('PATCH', `/api/v1/directory-sync/${managed.id}`, { name: 'X' })).status).to.equal(403);
    const missing = await t.service.api('PUT', `/api/v1/directory-sync/${dir.id}/google/token`, { access_token });
    expect(missing.status).to.equal(400);
    expect(missing.body.error.message).to.match(/refresh_token is required/);
  });

  it('the library calls: dsync.google.authorizationUrl, exchangeCode, setToken, sync', async () => {
    const { google } = t.service.dsync;
    const { authorizationUrl: url } = await google.authorizationUrl({ directoryId: dir.id });
    const back = await consent(new URL(url));
    const tokens = await google.exchangeCode({ directoryId: dir.id, code: back.searchParams.get('code')! });
    const view = await google.setToken({ directoryId: dir.id, accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
    expect(view.google_refresh_token).to.equal(tokens.refresh_token);
    const report = await google.sync({ directoryId: dir.id });
    expect(report).to.deep.include({ created: 1, failed: 0 });
  });

  it('service account with domain-wide delegation: set through the API (never shown back), tokens from the JWT bearer grant', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const email = 'dsync@project.iam.gserviceaccount.com';
    t.fake.oauth.addServiceAccount(email, publicKey.export({ type: 'spki', format: 'pem' }) as string, ['admin@example.com']);
    const key = {
      type: 'service_account',
      project_id: 'project',
      private_key_id: 'k1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      client_email: email,
      client_id: '1234567890',
    };
    const put = await t.service.api('PUT', `/api/v1/directory-sync/${dir.id}/google/service-account`, { key: JSON.stringify(key), admin_email: 'admin@example.com' });
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    expect(put.body.data).to.deep.equal({ id: dir.id, client_email: email, admin_email: 'admin@example.com', client_id: '1234567890' });
    expect((await t.sync(dir.id)).directories[0]).to.deep.include({ state: 'succeeded' });
    expect(t.fake.oauth.grants.jwt_bearer).to.equal(1);
    for (const path of [`/api/v1/directory-sync/${dir.id}`, `/api/v1/directory-sync?tenant=acme&product=app`, `/api/v1/directory-sync/${dir.id}/google/sync`]) {
      expect(JSON.stringify((await t.service.api('GET', path)).body), path).to.not.contain('PRIVATE KEY');
    }

    const notDelegated = await t.service.api('PUT', `/api/v1/directory-sync/${dir.id}/google/service-account`, { key, admin_email: 'someone@example.com' });
    expect(notDelegated.status).to.equal(200);
    const failed = (await t.sync(dir.id)).directories[0];
    expect(failed.state).to.equal('invalid_credentials');
    expect(failed.error.message).to.match(/unauthorized_client/);

    for (const body of [{ key: { ...key, type: 'authorized_user' }, admin_email: 'a@example.com' }, { key: '{not json', admin_email: 'a@example.com' }, { key, admin_email: 'nope' }]) {
      expect((await t.service.api('PUT', `/api/v1/directory-sync/${dir.id}/google/service-account`, body)).status).to.equal(400);
    }
  });
});
