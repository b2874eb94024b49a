import { expect } from 'chai';
import {
  attributeMapping,
  customAttributesOf,
  parseSourcePath,
  providerExtension,
  sameCustomAttributes,
  sourcePathError,
  sourcePathsOf,
} from '../../../src/core/custom-attributes.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const ACME = 'urn:ietf:params:scim:schemas:extension:acme:2.0:User';

const body = {
  userName: 'ann@acme.io',
  title: 'Engineer',
  active: true,
  name: { givenName: 'Ann', familyName: 'Lee' },
  emails: [
    { value: 'ann@home.io', type: 'home' },
    { value: 'ann@acme.io', type: 'work', primary: true },
  ],
  addresses: [
    { type: 'home', country: 'FR' },
    { type: 'work', country: 'US', locality: 'Austin' },
  ],
  [ENTERPRISE]: { costCenter: 'CC-7', manager: { value: 'm-1' } },
  [ACME]: { badge: 1042, clearance: { level: 3 }, tags: ['a', 'b'] },
  [providerExtension('google')]: { orgUnitPath: '/Eng', managerEmail: 'grace@acme.io' },
};

describe('custom attributes: source paths and values', () => {
  it('reads every form: core, sub-attribute, extension URN, filtered element, provider field; values keep their JSON type', () => {
    const mapping = {
      job: 'title',
      given: 'name.givenName',
      cost: `${ENTERPRISE}:costCenter`,
      manager: `${ENTERPRISE}:manager.value`,
      badge: `${ACME}:badge`,
      level: `${ACME}:clearance.level`,
      tags: `${ACME}:tags`,
      country: 'addresses[type eq "work"].country',
      work_email: 'emails[type eq "work" and primary eq true].value',
      all_emails: 'emails.value',
      org_unit: 'google:orgUnitPath',
      active: 'active',
    };
    expect(customAttributesOf(body, mapping)).to.deep.equal({
      job: 'Engineer',
      given: 'Ann',
      cost: 'CC-7',
      manager: 'm-1',
      badge: 1042,
      level: 3,
      tags: ['a', 'b'],
      country: 'US',
      work_email: 'ann@acme.io',
      all_emails: ['ann@home.io', 'ann@acme.io'],
      org_unit: '/Eng',
      active: true,
    });
  });

  it('compares names, URNs and filter strings case-insensitively, as SCIM does', () => {
    const mapping = {
      a: 'TITLE',
      b: `${ENTERPRISE.toUpperCase()}:COSTCENTER`,
      c: 'Addresses[Type EQ "WORK"].Country',
      d: 'addresses[type eq "work"] ',
    };
    expect(customAttributesOf(body, { a: mapping.a, b: mapping.b, c: mapping.c })).to.deep.equal({
      a: 'Engineer',
      b: 'CC-7',
      c: 'US',
    });
  });

  it('leaves out a name without a value (absent, null, empty, no element matching the filter)', () => {
    const mapping = {
      none: 'nickName',
      nofilter: 'addresses[type eq "other"].country',
      empty: `${ACME}:missing`,
      nulls: 'x',
    };
    expect(customAttributesOf({ ...body, x: null, nickName: '' }, mapping)).to.deep.equal({});
    expect(customAttributesOf(body, undefined)).to.deep.equal({});
  });

  it('a filter without a sub-attribute gives the matching element; `pr` and `and` filter', () => {
    expect(customAttributesOf(body, { addr: 'addresses[locality pr]' })).to.deep.equal({
      addr: { type: 'work', country: 'US', locality: 'Austin' },
    });
    expect(parseSourcePath('emails[type eq "work" and primary eq true].value').filter).to.deep.equal([
      { attr: 'type', op: 'eq', value: 'work' },
      { attr: 'primary', op: 'eq', value: true },
    ]);
  });

  it('names what is wrong with a source path', () => {
    expect(sourcePathError('title')).to.equal(undefined);
    expect(sourcePathError('')).to.equal('must not be empty');
    expect(sourcePathError('workday:location')).to.match(/unknown source form "workday:"/);
    expect(sourcePathError('google:nothing')).to.match(/google has no field "nothing"/);
    expect(sourcePathError('emails[type co "w"].value')).to.match(
      /must be "<attribute> eq <value>" or "<attribute> pr"/,
    );
    expect(sourcePathError('emails[type eq "w" or type eq "x"].value')).to.match(/joins its terms with "and" only/);
    expect(sourcePathError('emails[type eq "w"]value')).to.match(/after the filter comes/);
    expect(sourcePathError('na me')).to.match(/is not an attribute name/);
    expect(sourcePathError('urn:acme:ext:badge')).to.equal(undefined);
    expect(sourcePathError('urn:x:y')).to.match(/"urn:x" is not a schema URN/);
    expect(sourcePathError('x'.repeat(600))).to.match(/at most 512 characters/);
  });

  it('the mapping schema: names, sources, at most 100 entries, each error naming its attribute', () => {
    expect(attributeMapping.safeParse({ badge: `${ACME}:badge`, asked: '' }).success).to.equal(true);
    expect(customAttributesOf(body, { asked: '' }), 'a name asked for, not mapped yet').to.deep.equal({});
    const bad = attributeMapping.safeParse({ badge: 'workday:x', ok: 'title', '9lives': 'title' });
    expect(bad.success).to.equal(false);
    const issues = bad.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues.some((m) => m.startsWith('badge: "workday:x": unknown source form'))).to.equal(true);
    expect(issues.some((m) => m.includes('letter then up to 63'))).to.equal(true);
    expect(attributeMapping.safeParse({ a: 7 }).success).to.equal(false);
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`a${i}`, 'title']));
    expect(attributeMapping.safeParse(many).success).to.equal(false);
  });

  it('sameCustomAttributes compares names and values, not order', () => {
    expect(sameCustomAttributes({ a: 1, b: [1] }, { b: [1], a: 1 })).to.equal(true);
    expect(sameCustomAttributes({ a: 1 }, { a: '1' })).to.equal(false);
    expect(sameCustomAttributes(undefined, {})).to.equal(true);
    expect(sameCustomAttributes({ a: 1 }, { a: 1, b: 2 })).to.equal(false);
  });

  it('lists the source paths a body holds (the setup page), each of them reading back its value', () => {
    const seen = sourcePathsOf(body);
    const paths = seen.map((s) => s.path);
    expect(paths).to.include.members([
      'userName',
      'title',
      'name.givenName',
      'emails[type eq "work"].value',
      'addresses[type eq "work"].country',
      `${ENTERPRISE}:costCenter`,
      `${ACME}:badge`,
      'google:orgUnitPath',
    ]);
    for (const { path, value } of seen) expect(customAttributesOf(body, { v: path }).v, path).to.deep.equal(value);
  });
});
