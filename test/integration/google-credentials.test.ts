/**
 * What follows Google's consent (docs/guides/google-workspace.md): the code exchanged for tokens and the tokens
 * set (step 2 and 3 over HTTP, and the library's calls), and the service-account alternative with domain-wide
 * delegation. The consent itself is google-oauth.test.ts; both start from the same directory and fake.
 */
import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { Browser } from '../support/cookie-browser.js';
import {
  authorizationUrlOf,
  consent,
  GOOGLE_SCOPES as SCOPES,
  startGoogleFlow,
  type GoogleTest,
} from '../support/google-harness.js';
import { openStore, STORE_KINDS } from '../support/harness.js';

for (const kind of STORE_KINDS)
  describe(`Google authorization flow, ${kind} store`, function () {
    this.timeout(20_000);
    let t: GoogleTest;
    let dir: any;

    beforeEach(async () => ({ t, dir } = await startGoogleFlow(await openStore(kind, 10))));
    afterEach(() => t.close());
    const authorizationUrl = () => authorizationUrlOf(t, dir);

    it('step 2 answers the token set; step 3 answers exactly the documented directory fields', async () => {
      const back = await consent(new Browser(), await authorizationUrl());
      const exchanged = await t.service.api('POST', `/api/v1/directory-sync/${dir.id}/google/token`, {
        code: back.searchParams.get('code'),
      });
      expect(exchanged.status).to.equal(200);
      expect(exchanged.body.data).to.have.all.keys(
        'access_token',
        'refresh_token',
        'scope',
        'token_type',
        'expiry_date',
      );
      expect(exchanged.body.data.token_type).to.equal('Bearer');
      expect(exchanged.body.data.scope.split(' ')).to.have.members(SCOPES);
      expect(exchanged.body.data.expiry_date).to.be.a('number').above(Date.now());
      const again = await t.service.api('POST', `/api/v1/directory-sync/${dir.id}/google/token`, {
        code: back.searchParams.get('code'),
      });
      expect(again.status).to.equal(400);
      expect(again.body.error.message).to.match(/authorization code/);
      expect(
        (await t.service.api('POST', `/api/v1/directory-sync/${dir.id}/google/token`, {})).body.error.message,
      ).to.match(/code is required/);

      const { access_token, refresh_token } = exchanged.body.data;
      const set = await t.service.api('PUT', `/api/v1/directory-sync/${dir.id}/google/token`, {
        access_token,
        refresh_token,
      });
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
      const managed = await t.service.dsync.directories.create(
        { name: 'M', tenant: 'acme', product: 'app', type: 'google' },
        { managedBy: 'kubernetes:ns/m' },
      );
      expect(
        (
          await t.service.api('PUT', `/api/v1/directory-sync/${managed.id}/google/token`, {
            access_token,
            refresh_token,
          })
        ).status,
      ).to.equal(200);
      expect((await t.service.api('PATCH', `/api/v1/directory-sync/${managed.id}`, { name: 'X' })).status).to.equal(
        403,
      );
      const missing = await t.service.api('PUT', `/api/v1/directory-sync/${dir.id}/google/token`, { access_token });
      expect(missing.status).to.equal(400);
      expect(missing.body.error.message).to.match(/refresh_token is required/);
    });

    it('the library calls: dsync.google.authorizationUrl, exchangeCode, setToken, sync', async () => {
      const { google } = t.service.dsync;
      const { authorizationUrl: url } = await google.authorizationUrl({ directoryId: dir.id });
      const back = await consent(new Browser(), new URL(url));
      const tokens = await google.exchangeCode({ directoryId: dir.id, code: back.searchParams.get('code')! });
      const view = await google.setToken({
        directoryId: dir.id,
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token,
      });
      expect(view.google_refresh_token).to.equal(tokens.refresh_token);
      const report = await google.sync({ directoryId: dir.id });
      expect(report).to.deep.include({ created: 1, failed: 0 });
    });

    it('service account with domain-wide delegation: set through the API (never shown back), tokens from the JWT bearer grant', async () => {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const email = 'dsync@project.iam.gserviceaccount.com';
      t.fake.oauth.addServiceAccount(email, publicKey.export({ type: 'spki', format: 'pem' }) as string, [
        'admin@example.com',
      ]);
      const key = {
        type: 'service_account',
        project_id: 'project',
        private_key_id: 'k1',
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
        client_email: email,
        client_id: '1234567890',
      };
      const put = await t.service.api('PUT', `/api/v1/directory-sync/${dir.id}/google/service-account`, {
        key: JSON.stringify(key),
        admin_email: 'admin@example.com',
      });
      expect(put.status, JSON.stringify(put.body)).to.equal(200);
      expect(put.body.data).to.deep.equal({
        id: dir.id,
        client_email: email,
        admin_email: 'admin@example.com',
        client_id: '1234567890',
      });
      expect((await t.sync(dir.id)).directories[0]).to.deep.include({ state: 'succeeded' });
      expect(t.fake.oauth.grants.jwt_bearer).to.equal(1);
      for (const path of [
        `/api/v1/directory-sync/${dir.id}`,
        `/api/v1/directory-sync?tenant=acme&product=app`,
        `/api/v1/directory-sync/${dir.id}/google/sync`,
      ]) {
        expect(JSON.stringify((await t.service.api('GET', path)).body), path).to.not.contain('PRIVATE KEY');
      }

      const notDelegated = await t.service.api('PUT', `/api/v1/directory-sync/${dir.id}/google/service-account`, {
        key,
        admin_email: 'someone@example.com',
      });
      expect(notDelegated.status).to.equal(200);
      const failed = (await t.sync(dir.id)).directories[0];
      expect(failed.state).to.equal('invalid_credentials');
      expect(failed.error.message).to.match(/unauthorized_client/);

      for (const body of [
        { key: { ...key, type: 'authorized_user' }, admin_email: 'a@example.com' },
        { key: '{not json', admin_email: 'a@example.com' },
        { key, admin_email: 'nope' },
      ]) {
        expect(
          (await t.service.api('PUT', `/api/v1/directory-sync/${dir.id}/google/service-account`, body)).status,
        ).to.equal(400);
      }
    });
  });
