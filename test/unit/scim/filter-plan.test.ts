import { expect } from 'chai';
import { parseFilter, planFilter } from '../../../src/scim/filter/index.js';
import { ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from '../../../src/scim/schemas.js';
import { expectScimError } from './expect-scim-error.js';

const plan = (filter: string, type: 'User' | 'Group' = 'User') => planFilter(parseFilter(filter), type);
const index = (...lookups: [string, string][]) => ({
  kind: 'index',
  lookups: lookups.map(([i, value]) => ({ index: i, value })),
});
const SCAN = { kind: 'scan' };

describe('scim filter planning', () => {
  describe('User indexes', () => {
    it('uses id, userName and externalId for eq', () => {
      expect(plan('id eq "abc"')).to.deep.equal(index(['id', 'abc']));
      expect(plan('userName eq "BJensen"')).to.deep.equal(index(['userName', 'BJensen']));
      expect(plan('USERNAME Eq "BJensen"')).to.deep.equal(index(['userName', 'BJensen']));
      expect(plan('externalId eq "E1"')).to.deep.equal(index(['externalId', 'E1']));
      expect(plan(`${USER_SCHEMA}:userName eq "a"`)).to.deep.equal(index(['userName', 'a']));
    });

    it('uses the email index for every way of naming an email value', () => {
      for (const filter of [
        'emails eq "a@b.c"',
        'emails.value eq "a@b.c"',
        'emails[type eq "work"].value eq "a@b.c"',
        'emails[value eq "a@b.c"]',
        'emails[type eq "work" and value eq "a@b.c"]',
      ]) {
        expect(plan(filter), filter).to.deep.equal(index(['email', 'a@b.c']));
      }
    });

    it('scans for anything else', () => {
      for (const filter of [
        'userName co "a"',
        'userName ne "a"',
        'userName pr',
        'displayName eq "a"',
        'emails.type eq "work"',
        'emails[type eq "work"]',
        'emails[type eq "work" or value eq "a@b.c"]',
        'id eq 5',
        `${ENTERPRISE_USER_SCHEMA}:employeeNumber eq "1"`,
        'meta.lastModified gt "2020-01-01T00:00:00Z"',
        'not (userName eq "a")',
      ]) {
        expect(plan(filter), filter).to.deep.equal(SCAN);
      }
    });
  });

  describe('Group indexes', () => {
    it('uses id, displayName, externalId and the member index', () => {
      expect(plan('id eq "g"', 'Group')).to.deep.equal(index(['id', 'g']));
      expect(plan('displayName eq "Eng"', 'Group')).to.deep.equal(index(['displayName', 'Eng']));
      expect(plan('externalId eq "x"', 'Group')).to.deep.equal(index(['externalId', 'x']));
      expect(plan('userName eq "x"', 'Group')).to.deep.equal(SCAN);
      expect(plan('members[value eq "u"]', 'Group')).to.deep.equal(index(['member', 'u']));
      expect(plan('members.value eq "u"', 'Group')).to.deep.equal(index(['member', 'u']));
      expect(plan('members.display eq "u"', 'Group')).to.deep.equal(SCAN);
    });
  });

  describe('logic', () => {
    it('uses one indexable conjunct of an and, preferring the most selective', () => {
      expect(plan('userName eq "a" and active eq true')).to.deep.equal(index(['userName', 'a']));
      expect(plan('active eq true and emails eq "e" and id eq "i"')).to.deep.equal(index(['id', 'i']));
      expect(plan('title pr and (userName eq "a" or userName eq "b")')).to.deep.equal(
        index(['userName', 'a'], ['userName', 'b']),
      );
      expect(plan('active eq true and title pr')).to.deep.equal(SCAN);
    });

    it('uses an or only when every branch is indexable, as a union', () => {
      expect(plan('userName eq "a" or emails[type eq "work"].value eq "b" or userName eq "a"')).to.deep.equal(
        index(['userName', 'a'], ['email', 'b']),
      );
      expect(plan('userName eq "a" or title pr')).to.deep.equal(SCAN);
    });

    it('scans for not', () => {
      expect(plan('not (id eq "a")')).to.deep.equal(SCAN);
    });
  });

  it('rejects an invalid filter before the store is asked anything', () => {
    expectScimError(() => plan('userName eq "a" and active lt true'), 'invalidFilter');
  });
});
