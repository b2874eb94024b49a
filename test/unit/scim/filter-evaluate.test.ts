import { expect } from 'chai';
import { compileFilter, matches, parseFilter } from '../../../src/scim/filter/index.js';
import { ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from '../../../src/scim/schemas.js';
import { expectScimError } from './expect-scim-error.js';

const user = {
  schemas: [USER_SCHEMA, ENTERPRISE_USER_SCHEMA],
  id: '2819c223-7f76-453a-919d-413861904646',
  externalId: 'EXT-Bjensen',
  userName: 'BJensen@Example.com',
  name: { familyName: 'Jensen', givenName: 'Barbara' },
  displayName: 'Babs Jensen',
  active: true,
  emails: [
    { value: 'bjensen@example.com', type: 'work', primary: true },
    { value: 'babs@jensen.org', type: 'home' },
  ],
  phoneNumbers: [{ value: '555-555-8377', type: 'work' }],
  title: '',
  meta: {
    resourceType: 'User',
    created: '2010-01-23T04:56:22Z',
    lastModified: '2011-05-13T04:42:34Z',
  },
  [ENTERPRISE_USER_SCHEMA]: { employeeNumber: '701984', manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d' } },
  costCenterCode: 'CC-42',
  seniority: 7,
  isContractor: false,
};

const test = (filter: string, resource: Record<string, unknown> = user) =>
  matches(parseFilter(filter), resource, 'User');

describe('scim filter evaluation', () => {
  describe('strings', () => {
    it('compares non-caseExact attributes case-insensitively, with case-insensitive names', () => {
      expect(test('userName eq "bjensen@example.com"')).to.equal(true);
      expect(test('USERNAME EQ "BJENSEN@EXAMPLE.COM"')).to.equal(true);
      expect(test('displayName eq "babs jensen"')).to.equal(true);
      expect(test('name.FAMILYNAME eq "jensen"')).to.equal(true);
    });

    it('compares caseExact attributes (id, externalId) exactly', () => {
      expect(test('externalId eq "EXT-Bjensen"')).to.equal(true);
      expect(test('externalId eq "ext-bjensen"')).to.equal(false);
      expect(test('id eq "2819C223-7F76-453A-919D-413861904646"')).to.equal(false);
      expect(test(`id eq "${user.id}"`)).to.equal(true);
    });

    it('implements co, sw, ew, gt, ge, lt, le', () => {
      expect(test('userName co "JENSEN@"')).to.equal(true);
      expect(test('userName sw "bj"')).to.equal(true);
      expect(test('userName ew ".COM"')).to.equal(true);
      expect(test('userName ew ".org"')).to.equal(false);
      expect(test('name.familyName gt "ivy"')).to.equal(true);
      expect(test('name.familyName ge "jensen"')).to.equal(true);
      expect(test('name.familyName lt "JENSEN"')).to.equal(false);
      expect(test('name.familyName le "JENSEN"')).to.equal(true);
    });

    it('treats ne as "no value equals", so it matches an absent attribute', () => {
      expect(test('displayName ne "Babs Jensen"')).to.equal(false);
      expect(test('nickName ne "Babs"')).to.equal(true);
      expect(test('emails ne "babs@jensen.org"')).to.equal(false);
    });
  });

  describe('multi-valued attributes', () => {
    it('matches when any value matches, comparing the value sub-attribute', () => {
      expect(test('emails eq "babs@jensen.org"')).to.equal(true);
      expect(test('emails co "@jensen"')).to.equal(true);
      expect(test('emails.value eq "BJENSEN@example.com"')).to.equal(true);
      expect(test('emails.type eq "home"')).to.equal(true);
      expect(test('emails eq "nobody@example.com"')).to.equal(false);
    });

    it('applies value filters per value', () => {
      expect(test('emails[type eq "work" and value co "@example.com"]')).to.equal(true);
      expect(test('emails[type eq "home" and value co "@example.com"]')).to.equal(false);
      expect(test('emails[primary eq true]')).to.equal(true);
      expect(test('phoneNumbers[type eq "mobile"]')).to.equal(false);
    });

    it('evaluates Entra\'s emails[type eq "work"].value eq', () => {
      expect(test('emails[type eq "work"].value eq "bjensen@example.com"')).to.equal(true);
      expect(test('emails[type eq "home"].value eq "bjensen@example.com"')).to.equal(false);
    });
  });

  describe('pr', () => {
    it('means present and not empty', () => {
      expect(test('userName pr')).to.equal(true);
      expect(test('title pr')).to.equal(false);
      expect(test('nickName pr')).to.equal(false);
      expect(test('emails pr')).to.equal(true);
      expect(test('name pr')).to.equal(true);
      expect(test('name.middleName pr')).to.equal(false);
      expect(test('emails pr', { ...user, emails: [] })).to.equal(false);
      expect(test('emails[type eq "work"].value pr')).to.equal(true);
    });
  });

  describe('typed comparisons', () => {
    it('compares dateTimes chronologically, across time zones', () => {
      expect(test('meta.lastModified gt "2011-05-13T04:42:33Z"')).to.equal(true);
      expect(test('meta.lastModified gt "2011-05-13T04:42:34Z"')).to.equal(false);
      expect(test('meta.lastModified ge "2011-05-13T04:42:34Z"')).to.equal(true);
      // 06:42:34+02:00 is the same instant, which a string comparison would get wrong.
      expect(test('meta.lastModified eq "2011-05-13T06:42:34+02:00"')).to.equal(true);
      expect(test('meta.created lt "2011-01-01T00:00:00Z"')).to.equal(true);
    });

    it('filters on meta.resourceType', () => {
      expect(test('meta.resourceType eq "User"')).to.equal(true);
    });

    it('compares booleans, accepting "true"/"false" literals', () => {
      expect(test('active eq true')).to.equal(true);
      expect(test('active eq "True"')).to.equal(true);
      expect(test('active ne true')).to.equal(false);
      expect(test('active eq false', { ...user, active: false })).to.equal(true);
      expect(test('emails[primary eq false]', { ...user, emails: [{ value: 'x', primary: true }] })).to.equal(false);
    });

    it('rejects ordering and substring operators on booleans with 400 invalidFilter', () => {
      for (const op of ['gt', 'ge', 'lt', 'le', 'co', 'sw', 'ew']) {
        expectScimError(() => test(`active ${op} true`), 'invalidFilter');
      }
    });

    it('rejects literals of the wrong type for typed attributes', () => {
      expectScimError(() => test('active eq 1'), 'invalidFilter');
      expectScimError(() => test('meta.lastModified gt "yesterday"'), 'invalidFilter');
      expectScimError(() => test('meta.lastModified gt 5'), 'invalidFilter');
      expectScimError(() => test('userName eq true'), 'invalidFilter');
      expectScimError(() => test('userName gt null'), 'invalidFilter');
    });

    it('rejects a bad filter at compile time, before any resource is seen', () => {
      expectScimError(() => compileFilter(parseFilter('active gt false'), 'User'), 'invalidFilter');
    });

    it('treats eq null as "unassigned"', () => {
      expect(test('nickName eq null')).to.equal(true);
      expect(test('userName eq null')).to.equal(false);
      expect(test('userName ne null')).to.equal(true);
    });
  });

  describe('extension and unknown attributes', () => {
    it('resolves URN-qualified extension attributes case-insensitively', () => {
      expect(test(`${ENTERPRISE_USER_SCHEMA}:employeeNumber eq "701984"`)).to.equal(true);
      expect(test(`${ENTERPRISE_USER_SCHEMA.toLowerCase()}:EMPLOYEENUMBER eq "701984"`)).to.equal(true);
      expect(test(`${ENTERPRISE_USER_SCHEMA}:manager.value eq "26118915-6090-4610-87e4-49d8ca9f808d"`)).to.equal(true);
      expect(test(`${ENTERPRISE_USER_SCHEMA}:manager eq "26118915-6090-4610-87e4-49d8ca9f808d"`)).to.equal(true);
    });

    it('resolves core URN-qualified paths', () => {
      expect(test(`${USER_SCHEMA}:name.givenName eq "barbara"`)).to.equal(true);
      expect(test(`${USER_SCHEMA}:userName sw "BJ"`)).to.equal(true);
    });

    it('also finds unqualified names the core schema lacks in the extensions (Entra filters on manager)', () => {
      expect(test(`id eq "${user.id}" and manager eq "26118915-6090-4610-87e4-49d8ca9f808d"`)).to.equal(true);
      expect(test('employeeNumber eq "701984"')).to.equal(true);
      expect(test('employeeNumber eq "1"')).to.equal(false);
      expect(test('department eq "Sales"', { ...user, department: 'sales' })).to.equal(true);
    });

    it('compares unknown attributes as case-insensitive strings, or by their own type', () => {
      expect(test('costcentercode eq "cc-42"')).to.equal(true);
      expect(test('seniority gt 5')).to.equal(true);
      expect(test('seniority eq "7"')).to.equal(true);
      expect(test('isContractor eq false')).to.equal(true);
      expect(test('unknownThing pr')).to.equal(false);
    });
  });

  describe('logic', () => {
    it('combines and, or, not with the right precedence', () => {
      expect(test('userName eq "x" or displayName eq "babs jensen" and active eq true')).to.equal(true);
      expect(test('(userName eq "x" or displayName eq "babs jensen") and active eq false')).to.equal(false);
      expect(test('not (userName eq "x")')).to.equal(true);
      expect(test('not (emails[type eq "work"])')).to.equal(false);
      expect(test('title pr or not (nickName pr) and emails co "jensen.org"')).to.equal(true);
    });
  });

  describe('groups', () => {
    const group = { schemas: [], id: 'g1', displayName: 'Engineering', externalId: 'E', members: [{ value: 'u1' }] };
    it('evaluates group attributes', () => {
      expect(matches(parseFilter('displayName eq "engineering"'), group, 'Group')).to.equal(true);
      expect(matches(parseFilter('members[value eq "u1"]'), group, 'Group')).to.equal(true);
      expect(matches(parseFilter('members eq "u2"'), group, 'Group')).to.equal(false);
    });
  });
});
