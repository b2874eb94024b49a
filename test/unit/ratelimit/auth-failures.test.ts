import { expect } from 'chai';
import { pino } from 'pino';
import { loadConfig } from '../../../src/config.js';
import { AuthFailures, DEFAULT_AUTH_FAILURE_LIMITS } from '../../../src/ratelimit/auth-failures.js';
import { clientKey } from '../../../src/ratelimit/counter-keys.js';

const key = () => 'generated';

describe('auth failures: settings, client keys, blocking', () => {
  it("DSYNC_AUTH_FAILURE_LIMIT is <per address>/<total> a minute, default 10/100; DSYNC_TRUST_PROXY is express's", () => {
    expect(loadConfig({}, key).authFailureLimits).to.deep.equal(DEFAULT_AUTH_FAILURE_LIMITS);
    expect(loadConfig({ DSYNC_AUTH_FAILURE_LIMIT: '5/50' }, key).authFailureLimits).to.deep.equal({
      perAddress: 5,
      total: 50,
    });
    for (const bad of ['5', '0/10', 'five/10', '5/-1']) {
      expect(() => loadConfig({ DSYNC_AUTH_FAILURE_LIMIT: bad }, key), bad).to.throw(/DSYNC_AUTH_FAILURE_LIMIT/);
    }
    expect(loadConfig({}, key).trustProxy).to.equal(undefined);
    expect(loadConfig({ DSYNC_TRUST_PROXY: '1' }, key).trustProxy).to.equal(1);
    expect(loadConfig({ DSYNC_TRUST_PROXY: 'true' }, key).trustProxy).to.equal(true);
    expect(loadConfig({ DSYNC_TRUST_PROXY: 'loopback, 10.0.0.0/8' }, key).trustProxy).to.deep.equal([
      'loopback',
      '10.0.0.0/8',
    ]);
  });

  it('a client is its IPv4 address or its IPv6 /64', () => {
    expect(clientKey('198.51.100.7')).to.equal('198.51.100.7');
    expect(clientKey('::ffff:198.51.100.7')).to.equal('198.51.100.7');
    expect(clientKey('2001:0db8:0001:0002:0003::1')).to.equal('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).to.equal('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::')).to.equal('2001:db8:0:0::/64');
    expect(clientKey('fe80::1%eth0')).to.equal('fe80:0:0:0::/64');
    expect(clientKey('2001:db8:a:b:c:d:1.2.3.4')).to.equal('2001:db8:a:b::/64');
    expect(clientKey(undefined)).to.equal('unknown');
  });

  it('blocks a client at its limit-th failure until the window ends; a realm over its total, each client that fails in it', async () => {
    const failures = new AuthFailures({ limits: { perAddress: 2, total: 3 }, logger: pino({ level: 'silent' }) });
    const a = { client: '198.51.100.7', realm: 'api' };
    await failures.failed(a);
    expect(failures.blockedFor(a)).to.equal(undefined);
    await failures.failed(a);
    expect(failures.blockedFor(a)).to.be.within(59_000, 60_000);
    expect(failures.blockedFor(a, Date.now() + 61_000)).to.equal(undefined);
    const b = { client: '203.0.113.1', realm: 'api' };
    expect(failures.blockedFor(b), 'another client, realm under its total').to.equal(undefined);
    await failures.failed(b);
    expect(failures.blockedFor(b), 'failed once the realm reached its total of 3').to.be.within(59_000, 60_000);
    expect(
      failures.blockedFor({ client: '192.0.2.1', realm: 'api' }),
      'a client that has not failed, in the realm over its total',
    ).to.equal(undefined);
    expect(
      failures.blockedFor({ client: '203.0.113.1', realm: 'scim:x' }),
      'the client that failed, in another realm',
    ).to.equal(undefined);
  });
});
