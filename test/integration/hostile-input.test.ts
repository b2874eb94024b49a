/**
 * Regression tests for input a client should never be able to turn into a 5xx, a crash or another tenant's
 * problem: prototype pollution through bodies, PATCH paths and dotted keys; absurd nesting; malformed queries.
 */
import { expect } from 'chai';
import { STORE_KINDS, openStore, startService, type Service } from '../support/harness.js';

for (const kind of STORE_KINDS) {
  describe(`hostile SCIM input (${kind} store)`, () => {
    let svc: Service;
    let dir: any;
    let user: string;
    let group: string;
    before(async () => {
      svc = await startService(await openStore(kind, 9));
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
      [
        'constructor.prototype in a body',
        'POST',
        () => '/Users',
        { userName: 'p@x.io', constructor: { prototype: { polluted: true } } },
      ],
      [
        'PATCH path __proto__.x',
        'PATCH',
        () => `/Users/${user}`,
        ops({ op: 'add', path: '__proto__.polluted', value: true }),
      ],
      [
        'PATCH path constructor.prototype',
        'PATCH',
        () => `/Users/${user}`,
        ops({ op: 'add', path: 'constructor.prototype.polluted', value: true }),
      ],
      [
        'dotted no-path key __proto__.x',
        'PATCH',
        () => `/Users/${user}`,
        ops({ op: 'replace', value: { '__proto__.polluted': true } }),
      ],
      [
        'filtered path with __proto__ sub-attribute',
        'PATCH',
        () => `/Users/${user}`,
        ops({ op: 'add', path: 'emails[type eq "work"].__proto__', value: 'x' }),
      ],
      [
        'group PATCH __proto__ path',
        'PATCH',
        () => `/Groups/${group}`,
        ops({ op: 'replace', path: '__proto__.polluted', value: true }),
      ],
      ['3,000-deep nesting', 'POST', () => '/Users', `{"userName":"deep","x":${'['.repeat(3000)}${']'.repeat(3000)}}`],
      ['a JSON null body', 'POST', () => '/Users', 'null'],
      ['a JSON string body', 'POST', () => '/Groups', '"group"'],
      ['a member without a value', 'POST', () => '/Groups', { displayName: 'H', members: [{ display: 'x' }] }],
      ['Operations that is not a list', 'PATCH', () => `/Users/${user}`, { Operations: 'x' }],
      [
        'a filter nested 5,000 parentheses deep',
        'GET',
        () => `/Users?filter=${encodeURIComponent(`${'('.repeat(5000)}userName eq "a"${')'.repeat(5000)}`)}`,
        undefined,
      ],
      ['a repeated filter parameter', 'GET', () => '/Users?filter=a&filter=b', undefined],
      ['a non-numeric startIndex', 'GET', () => '/Users?startIndex=abc', undefined],
      [
        'a malformed attributes list',
        'GET',
        () => `/Users?attributes=${encodeURIComponent('urn:foo:bar:,,[[')}`,
        undefined,
      ],
      ['a record separator in a userName', 'POST', () => '/Users', { userName: 'x\u001ey@x.io' }],
      ['a unit separator in a userName', 'POST', () => '/Users', { userName: 'x\u001fy@x.io' }],
      ['a control character in a displayName', 'POST', () => '/Groups', { displayName: 'Eng\u001e' }],
      [
        'a control character in an email',
        'POST',
        () => '/Users',
        { userName: 'e@x.io', emails: [{ value: 'e\u0000@x.io' }] },
      ],
      [
        'a control character put in by PATCH',
        'PATCH',
        () => `/Users/${user}`,
        ops({ op: 'replace', path: 'externalId', value: 'a\u001fb' }),
      ],
    ];
    for (const [what, method, path, body] of cases) {
      it(`answers ${what} with a 4xx SCIM error`, async () => {
        const res = await svc.scim(dir, method, path(), body);
        expect(res.status, JSON.stringify(res.body)).to.be.within(400, 499);
        expect(res.body, 'a SCIM Error body').to.deep.include({
          schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
          status: String(res.status),
        });
        expect((await fetch(`${svc.url}/healthz`)).status).to.equal(200);
      });
    }

    it('answers a startIndex far past the end with an empty page, not a 5xx', async () => {
      for (const start of ['100000000000000000000', '1e300']) {
        const res = await svc.scim(dir, 'GET', `/Users?startIndex=${start}&count=10`);
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ totalResults: 1, itemsPerPage: 0 });
      }
    });

    it('answers a malformed Events API cursor with 400', async () => {
      for (const after of ['-', '1-2-3', '99999999999999999999999-0', 'abc']) {
        const res = await svc.api('GET', `/api/v1/directory-sync/${dir.id}/events?after=${encodeURIComponent(after)}`);
        expect(res.status, after).to.equal(400);
      }
    });

    it('leaves the user untouched after all of it', async () => {
      const res = await svc.scim(dir, 'GET', `/Users/${user}`);
      expect(res.body).to.include({ userName: 'a@x.io' });
      expect(Object.keys(res.body).sort()).to.deep.equal(['id', 'meta', 'schemas', 'userName']);
    });
  });
}
