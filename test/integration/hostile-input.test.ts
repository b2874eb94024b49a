/**
 * Regression tests for input a client should never be able to turn into a 5xx, a crash or another tenant's
 * problem: prototype pollution through bodies, PATCH paths and dotted keys; absurd nesting; malformed queries.
 */
import { expect } from 'chai';
import { openStore, startService, type Service } from '../support/harness.js';

describe('hostile SCIM input', () => {
  let svc: Service;
  let dir: any;
  let user: string;
  let group: string;
  before(async () => {
    svc = await startService(await openStore('memory'));
    dir = await svc.createDirectory();
    user = (await svc.scim(dir, 'POST', '/Users', { userName: 'a@x.io' })).body.id;
    group = (await svc.scim(dir, 'POST', '/Groups', { displayName: 'G' })).body.id;
  });
  after(() => svc.close());
  afterEach(() => {
    const polluted = ({} as Record<string, unknown>).polluted;
    delete (Object.prototype as Record<string, unknown>).polluted;
    expect(polluted, 'Object.prototype was polluted').to.equal(undefined);
  });

  const ops = (...Operations: unknown[]) => ({ Operations });
  const cases: Array<[string, string, () => string, unknown]> = [
    ['__proto__ key in a body', 'POST', () => '/Users', '{"userName":"p@x.io","__proto__":{"polluted":true}}'],
    ['nested __proto__ key', 'POST', () => '/Users', '{"userName":"p@x.io","name":{"__proto__":{"polluted":true}}}'],
    ['constructor.prototype in a body', 'POST', () => '/Users', { userName: 'p@x.io', constructor: { prototype: { polluted: true } } }],
    ['PATCH path __proto__.x', 'PATCH', () => `/Users/${user}`, ops({ op: 'add', path: '__proto__.polluted', value: true })],
    ['PATCH path constructor.prototype', 'PATCH', () => `/Users/${user}`, ops({ op: 'add', path: 'constructor.prototype.polluted', value: true })],
    ['dotted no-path key __proto__.x', 'PATCH', () => `/Users/${user}`, ops({ op: 'replace', value: { '__proto__.polluted': true } })],
    ['filtered path with __proto__ sub-attribute', 'PATCH', () => `/Users/${user}`, ops({ op: 'add', path: 'emails[type eq "work"].__proto__', value: 'x' })],
    ['group PATCH __proto__ path', 'PATCH', () => `/Groups/${group}`, ops({ op: 'replace', path: '__proto__.polluted', value: true })],
    ['3,000-deep nesting', 'POST', () => '/Users', `{"userName":"deep","x":${'['.repeat(3000)}${']'.repeat(3000)}}`],
    ['a JSON null body', 'POST', () => '/Users', 'null'],
    ['a JSON string body', 'POST', () => '/Groups', '"group"'],
    ['a member without a value', 'POST', () => '/Groups', { displayName: 'H', members: [{ display: 'x' }] }],
    ['Operations that is not a list', 'PATCH', () => `/Users/${user}`, { Operations: 'x' }],
    ['a filter nested 5,000 parentheses deep', 'GET', () => `/Users?filter=${encodeURIComponent(`${'('.repeat(5000)}userName eq "a"${')'.repeat(5000)}`)}`, undefined],
    ['a repeated filter parameter', 'GET', () => '/Users?filter=a&filter=b', undefined],
    ['a non-numeric startIndex', 'GET', () => '/Users?startIndex=abc', undefined],
    ['a malformed attributes list', 'GET', () => `/Users?attributes=${encodeURIComponent('urn:foo:bar:,,[[')}`, undefined],
  ];
  for (const [what, method, path, body] of cases) {
    it(`answers ${what} with a 4xx SCIM error`, async () => {
      const res = await svc.scim(dir, method, path(), body);
      expect(res.status, JSON.stringify(res.body)).to.be.within(400, 499);
      if (typeof res.body === 'object' && res.body) expect(res.body.schemas).to.deep.equal(['urn:ietf:params:scim:api:messages:2.0:Error']);
      expect((await fetch(`${svc.url}/healthz`)).status).to.equal(200);
    });
  }

  it('leaves the user untouched after all of it', async () => {
    const res = await svc.scim(dir, 'GET', `/Users/${user}`);
    expect(res.body).to.include({ userName: 'a@x.io' });
    expect(Object.keys(res.body).sort()).to.deep.equal(['id', 'meta', 'schemas', 'userName']);
  });
});
