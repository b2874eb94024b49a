import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { redactSecrets } from '../../../src/http/middleware/api-keys.js';

const keys = (value: string) => loadConfig({ DSYNC_API_KEYS: value }, () => 'generated').apiKeys;

describe('DSYNC_API_KEYS scopes', () => {
  it('a bare key is full access; read, tenant= and product= scope it, and combine', () => {
    expect(
      keys(' full , dash:read, acme:tenant=acme, app:tenant=acme:product=app, ro:read:tenant=acme '),
    ).to.deep.equal([
      { key: 'full', scope: { readOnly: false } },
      { key: 'dash', scope: { readOnly: true } },
      { key: 'acme', scope: { readOnly: false, tenant: 'acme' } },
      { key: 'app', scope: { readOnly: false, tenant: 'acme', product: 'app' } },
      { key: 'ro', scope: { readOnly: true, tenant: 'acme' } },
    ]);
  });

  it('refuses a bad entry naming its position, never its text (it holds a key)', () => {
    for (const [value, message] of [
      ['a,s3cret:write', /entry 2 has an unknown scope/],
      ['s3cret:product=app', /entry 1 has product= without tenant=/],
      ['s3cret:read:read', /entry 1 repeats a scope/],
      ['a,s3cret,s3cret:read', /entry 3 repeats the key of an earlier entry/],
      ['s3cret:tenant=', /entry 1 has an unknown scope/],
    ] as const) {
      let err: unknown;
      try {
        keys(value);
      } catch (e) {
        err = e;
      }
      expect(err, value).to.be.instanceOf(ConfigError);
      expect((err as Error).message, value)
        .to.match(message)
        .and.match(/^DSYNC_API_KEYS: /);
      expect((err as Error).message, value).to.not.include('s3cret');
    }
  });

  it('redacts non-empty secret values by name, anywhere in an answer', () => {
    const directory = {
      id: 'd',
      scim: { secret: 's', endpoint: 'e' },
      webhook: { endpoint: '', secret: '' },
      google_refresh_token: 'r',
      name: 'secret',
    };
    expect(redactSecrets([directory])).to.deep.equal([
      {
        id: 'd',
        scim: { secret: '[redacted]', endpoint: 'e' },
        webhook: { endpoint: '', secret: '' },
        google_refresh_token: '[redacted]',
        name: 'secret',
      },
    ]);
    expect(redactSecrets({ access_token: 'a', refresh_token: 'b', scope: 'x', expiry_date: 1 })).to.deep.equal({
      access_token: '[redacted]',
      refresh_token: '[redacted]',
      scope: 'x',
      expiry_date: 1,
    });
  });
});
