/**
 * Scoped API keys. Before, every key read every directory's secrets (scim.secret,
 * webhook.secret, Google tokens) through get, list and PATCH answers. Now a key is full access, read-only, or
 * limited to a tenant (and product); only a full-access key sees secret values.
 */
import { expect } from 'chai';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import { API_KEY, startService, type Service } from '../support/harness.js';

const KEYS = {
  read: { key: 'dashboard-key', scope: { readOnly: true } },
  acme: { key: 'acme-key', scope: { readOnly: false, tenant: 'acme' } },
  acmeApp: { key: 'acme-app-key', scope: { readOnly: false, tenant: 'acme', product: 'app' } },
  acmeRead: { key: 'acme-read-key', scope: { readOnly: true, tenant: 'acme' } },
};

describe('scoped API keys', function () {
  this.timeout(20_000);
  let svc: Service;
  let acme: any;
  let beta: any;
  before(async () => {
    svc = await startService(new MemoryStore(), {}, { apiKeys: [API_KEY, ...Object.values(KEYS)] });
    acme = await svc.createDirectory({ tenant: 'acme', product: 'app', webhook_url: 'https://hooks.example.com/a' });
    beta = await svc.createDirectory({
      tenant: 'beta',
      product: 'app',
      type: 'google',
      google_access_token: 'ya29.secret',
      google_refresh_token: '1//secret',
    });
  });
  after(() => svc.close());

  const as = async (key: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${svc.url}${path}`, {
      method,
      headers: { authorization: `Api-Key ${key}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const secretsOf = (d: any) => [d.scim.secret, d.webhook.secret, d.google_access_token, d.google_refresh_token];

  it('a full-access key sees the secrets; a read-only or tenant key never does, in get, list, create and PATCH answers', async () => {
    const full = await as(API_KEY, 'GET', `/api/v1/directory-sync/${acme.id}`);
    expect(full.body.data.scim.secret).to.equal(acme.scim.secret);
    expect(full.body.data.webhook.secret).to.equal(acme.webhook.secret);
    const answers = [
      (await as(KEYS.read.key, 'GET', `/api/v1/directory-sync/${acme.id}`)).body.data,
      (await as(KEYS.read.key, 'GET', `/api/v1/directory-sync/${beta.id}`)).body.data,
      ...(await as(KEYS.read.key, 'GET', '/api/v1/directory-sync?tenant=acme&product=app')).body.data,
      (await as(KEYS.acme.key, 'GET', `/api/v1/directory-sync/${acme.id}`)).body.data,
      (await as(KEYS.acme.key, 'PATCH', `/api/v1/directory-sync/${acme.id}`, { name: 'Renamed' })).body.data,
      (
        await as(KEYS.acme.key, 'POST', '/api/v1/directory-sync', {
          name: 'New',
          tenant: 'acme',
          product: 'app',
          type: 'okta-scim-v2',
          webhook_url: 'https://hooks.example.com/n',
        })
      ).body.data,
    ];
    for (const d of answers) {
      expect(d.scim.secret, d.id).to.equal('[redacted]');
      expect(d.webhook.secret, d.id).to.equal(d.webhook.endpoint ? '[redacted]' : '');
      if (d.type === 'google')
        expect([d.google_access_token, d.google_refresh_token]).to.deep.equal(['[redacted]', '[redacted]']);
    }
    // Step 3 of the Google flow answers the tokens it set: redacted for a tenant key too.
    const google = await svc.createDirectory({ tenant: 'acme', product: 'app', type: 'google', name: 'G' });
    const set = await as(KEYS.acme.key, 'PUT', `/api/v1/directory-sync/${google.id}/google/token`, {
      access_token: 'ya29.new',
      refresh_token: '1//new',
    });
    expect(set.status).to.equal(200);
    expect([set.body.data.google_access_token, set.body.data.google_refresh_token]).to.deep.equal([
      '[redacted]',
      '[redacted]',
    ]);
    expect(JSON.stringify(answers))
      .to.not.include(acme.scim.secret)
      .and.not.include('ya29.secret')
      .and.not.include('1//secret');
    expect(secretsOf((await as(API_KEY, 'GET', `/api/v1/directory-sync/${beta.id}`)).body.data)).to.include(
      'ya29.secret',
    );
  });

  it('a read-only key reads everything and writes nothing', async () => {
    expect((await as(KEYS.read.key, 'GET', `/api/v1/directory-sync/users?directoryId=${beta.id}`)).status).to.equal(
      200,
    );
    expect((await as(KEYS.read.key, 'GET', `/api/v1/directory-sync/${acme.id}/events`)).status).to.equal(200);
    for (const [method, path, body] of [
      ['PATCH', `/api/v1/directory-sync/${acme.id}`, { name: 'x' }],
      ['DELETE', `/api/v1/directory-sync/${acme.id}`, undefined],
      ['POST', '/api/v1/directory-sync', { name: 'x', tenant: 'acme', product: 'app', type: 'okta-scim-v2' }],
      ['POST', `/api/v1/directory-sync/${acme.id}/events/replay`, { since: 0 }],
      ['POST', '/api/v1/dsync/cron/process-events', undefined],
      ['POST', '/api/v1/dsync/cron/sync-google', undefined],
      ['POST', '/api/v1/dsync/cron/sync-microsoft', undefined],
    ] as const) {
      const res = await as(KEYS.read.key, method, path, body);
      expect(res.status, `${method} ${path}`).to.equal(403);
      expect(res.body.error).to.deep.equal({ message: 'This API key is read-only', code: 403 });
    }
    expect((await as(API_KEY, 'GET', `/api/v1/directory-sync/${acme.id}`)).body.data.name).to.not.equal('x');
    // A background sync run is read like any record: past the key's scope, on to the lookup (unknown run: 404).
    for (const provider of ['google', 'microsoft']) {
      expect(
        (await as(KEYS.read.key, 'GET', `/api/v1/dsync/cron/sync-${provider}/5f0c2a1e-8d3b-4c6f-9a7e-1b2c3d4e5f60`))
          .status,
        provider,
      ).to.equal(404);
    }
  });

  it('a tenant key reaches its tenant only (and its product, when it names one), and no cron route', async () => {
    expect((await as(KEYS.acme.key, 'GET', '/api/v1/directory-sync?tenant=acme&product=app')).status).to.equal(200);
    expect((await as(KEYS.acme.key, 'GET', `/api/v1/directory-sync/users?directoryId=${acme.id}`)).status).to.equal(
      200,
    );
    const refused = [
      await as(KEYS.acme.key, 'GET', `/api/v1/directory-sync/${beta.id}`),
      await as(KEYS.acme.key, 'PATCH', `/api/v1/directory-sync/${beta.id}`, { name: 'x' }),
      await as(KEYS.acme.key, 'DELETE', `/api/v1/directory-sync/${beta.id}`),
      await as(KEYS.acme.key, 'GET', `/api/v1/directory-sync/${beta.id}/events`),
      await as(KEYS.acme.key, 'GET', `/api/v1/directory-sync/${beta.id}/google/sync`),
      await as(KEYS.acme.key, 'GET', '/api/v1/directory-sync?tenant=beta&product=app'),
      await as(KEYS.acme.key, 'GET', `/api/v1/directory-sync/users?directoryId=${beta.id}`),
      await as(KEYS.acme.key, 'GET', '/api/v1/directory-sync/groups?tenant=beta&product=app'),
      await as(KEYS.acme.key, 'GET', `/api/v1/dsync/events?directoryId=${beta.id}`),
      await as(KEYS.acme.key, 'POST', '/api/v1/directory-sync', {
        name: 'x',
        tenant: 'beta',
        product: 'app',
        type: 'okta-scim-v2',
      }),
      await as(KEYS.acme.key, 'POST', '/api/v1/dsync/cron/process-events'),
      await as(KEYS.acme.key, 'POST', '/api/v1/dsync/cron/sync-google'),
      await as(KEYS.acme.key, 'GET', '/api/v1/dsync/cron/sync-google/5f0c2a1e-8d3b-4c6f-9a7e-1b2c3d4e5f60'),
      await as(KEYS.acmeApp.key, 'GET', '/api/v1/directory-sync?tenant=acme&product=other'),
      await as(KEYS.acmeRead.key, 'PATCH', `/api/v1/directory-sync/${acme.id}`, { name: 'x' }),
    ];
    expect(refused.map((r) => r.status)).to.deep.equal(Array(refused.length).fill(403));
    expect(refused[0]!.body.error.message).to.equal(
      `This API key is limited to tenant acme; directory ${beta.id} is not`,
    );
    expect(refused[13]!.body.error.message).to.equal('This API key is limited to tenant acme and product app');
    expect((await as(API_KEY, 'GET', `/api/v1/directory-sync/${beta.id}`)).body.data.name).to.equal(beta.name);
    expect((await as(KEYS.acmeApp.key, 'GET', `/api/v1/directory-sync/${acme.id}`)).status).to.equal(200);
  });

  it('the Entra routes: a tenant key reaches its own directory only, no read-only key gets a consent link, nothing secret in their answers', async () => {
    const TENANT = 'aaaaaaaa-1111-4111-8111-111111111111';
    const mine = await svc.createDirectory({
      tenant: 'acme',
      product: 'app',
      type: 'microsoft-entra',
      name: 'E',
      microsoft_tenant_id: TENANT,
    });
    const theirs = await svc.createDirectory({ tenant: 'beta', product: 'app', type: 'microsoft-entra', name: 'F' });
    const google = await svc.createDirectory({ tenant: 'acme', product: 'app', type: 'google', name: 'G2' });
    const status = await as(KEYS.acme.key, 'GET', `/api/v1/directory-sync/${mine.id}/microsoft/sync`);
    expect(status.status).to.equal(200);
    // Past the key's scope, on to the handler: no app is configured on this service.
    expect(
      (await as(KEYS.acme.key, 'GET', `/api/v1/directory-sync/${mine.id}/microsoft/admin-consent-url`)).status,
    ).to.equal(409);
    const refused = [
      await as(KEYS.acme.key, 'GET', `/api/v1/directory-sync/${theirs.id}/microsoft/sync`),
      await as(KEYS.acme.key, 'GET', `/api/v1/directory-sync/${theirs.id}/microsoft/admin-consent-url`),
      await as(KEYS.acme.key, 'POST', `/api/v1/dsync/cron/sync-microsoft?directoryId=${mine.id}`),
      await as(KEYS.acme.key, 'GET', '/api/v1/dsync/cron/sync-microsoft/5f0c2a1e-8d3b-4c6f-9a7e-1b2c3d4e5f60'),
      // A consent link connects whatever account opens it first: a write, whatever its method.
      await as(KEYS.read.key, 'GET', `/api/v1/directory-sync/${mine.id}/microsoft/admin-consent-url`),
      await as(KEYS.acmeRead.key, 'GET', `/api/v1/directory-sync/${mine.id}/microsoft/admin-consent-url`),
      await as(KEYS.read.key, 'GET', `/api/v1/directory-sync/${google.id}/google/authorization-url`),
    ];
    expect(refused.map((r) => r.status)).to.deep.equal(Array(refused.length).fill(403));
    expect(refused[4]!.body.error.message).to.equal('This API key is read-only');
    expect((await as(KEYS.read.key, 'GET', `/api/v1/directory-sync/${mine.id}/microsoft/sync`)).status).to.equal(200);
    const seen = (await as(KEYS.read.key, 'GET', `/api/v1/directory-sync/${mine.id}`)).body.data;
    expect(seen).to.deep.include({ type: 'microsoft-entra', microsoft_tenant_id: TENANT });
    expect(seen.scim.secret).to.equal('[redacted]');
  });
  it('setup links, SCIM tokens and activity: a tenant key reaches its own directory only; a read-only key lists, never creates or revokes', async () => {
    const base = (d: any) => `/api/v1/directory-sync/${d.id}`;
    const link = await as(KEYS.acme.key, 'POST', `${base(acme)}/setup-links`, {});
    const token = await as(KEYS.acme.key, 'POST', `${base(acme)}/scim-tokens`);
    expect([link.status, token.status]).to.deep.equal([201, 201]);
    // Minted for the key that may write: the one chance to see them, so not redacted.
    expect(link.body.data.url).to.match(/\/setup\/[A-Za-z0-9_-]{43}$/);
    expect(token.body.data.token).to.match(/^\S{20,}$/);
    for (const key of [KEYS.acme.key, KEYS.acmeRead.key, KEYS.read.key]) {
      for (const path of ['setup-links', 'scim-tokens', 'activity'])
        expect((await as(key, 'GET', `${base(acme)}/${path}`)).status, `${key} ${path}`).to.equal(200);
    }
    const refused = [
      await as(KEYS.acme.key, 'POST', `${base(beta)}/setup-links`, {}),
      await as(KEYS.acme.key, 'GET', `${base(beta)}/setup-links`),
      await as(KEYS.acme.key, 'POST', `${base(beta)}/scim-tokens`),
      await as(KEYS.acme.key, 'GET', `${base(beta)}/scim-tokens`),
      await as(KEYS.acme.key, 'DELETE', `${base(beta)}/scim-tokens/scim-secret`),
      await as(KEYS.acme.key, 'GET', `${base(beta)}/activity`),
      await as(KEYS.read.key, 'POST', `${base(acme)}/setup-links`, {}),
      await as(KEYS.read.key, 'DELETE', `${base(acme)}/setup-links/${link.body.data.id}`),
      await as(KEYS.acmeRead.key, 'POST', `${base(acme)}/scim-tokens`),
      await as(KEYS.acmeRead.key, 'DELETE', `${base(acme)}/scim-tokens/${token.body.data.id}`),
    ];
    expect(refused.map((r) => r.status)).to.deep.equal(Array(refused.length).fill(403));
    expect(refused[0]!.body.error.message).to.equal(
      `This API key is limited to tenant acme; directory ${beta.id} is not`,
    );
    expect(refused[6]!.body.error.message).to.equal('This API key is read-only');
    expect((await as(API_KEY, 'GET', `${base(beta)}/setup-links`)).body.data).to.deep.equal([]);
    expect((await as(API_KEY, 'GET', `${base(acme)}/scim-tokens`)).body.data.map((t: any) => t.id)).to.include(
      token.body.data.id,
    );
    expect((await as(KEYS.acme.key, 'DELETE', `${base(acme)}/setup-links/${link.body.data.id}`)).status).to.equal(200);
  });
});
