import { expect } from 'chai';
import { normalizeResource } from '../../../src/scim/normalize.js';
import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, USER_SCHEMA } from '../../../src/scim/schemas.js';
import { expectScimError } from './expect-scim-error.js';

const MS_GROUP_SCHEMA = 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group';

describe('scim resource normalization', () => {
  describe('Entra ID create bodies', () => {
    it('drops nulls, meta and empty lists and keeps what was sent', () => {
      const body = {
        schemas: [USER_SCHEMA, ENTERPRISE_USER_SCHEMA],
        externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
        userName: 'Test_User_ab6490ee@testuser.com',
        active: true,
        addresses: null,
        title: null,
        emails: [{ primary: true, type: 'work', value: 'Test_User_fd0ea19b@testuser.com' }],
        meta: { resourceType: 'User' },
        name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName', middleName: null },
        roles: [],
        [ENTERPRISE_USER_SCHEMA]: { department: 'Sales', employeeNumber: null },
      };
      expect(normalizeResource(body, 'User')).to.deep.equal({
        schemas: [USER_SCHEMA, ENTERPRISE_USER_SCHEMA],
        externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
        userName: 'Test_User_ab6490ee@testuser.com',
        active: true,
        emails: [{ primary: true, type: 'work', value: 'Test_User_fd0ea19b@testuser.com' }],
        name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
        [ENTERPRISE_USER_SCHEMA]: { department: 'Sales' },
      });
    });

    it("keeps Entra's own Group schema URN and drops meta", () => {
      const body = {
        schemas: [GROUP_SCHEMA, MS_GROUP_SCHEMA],
        externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
        displayName: 'displayName',
        meta: { resourceType: 'Group' },
      };
      expect(normalizeResource(body, 'Group')).to.deep.equal({
        schemas: [GROUP_SCHEMA, MS_GROUP_SCHEMA],
        externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
        displayName: 'displayName',
      });
    });

    it('coerces "True"/"False" for booleans, also inside lists and extensions', () => {
      const out = normalizeResource(
        {
          userName: 'a',
          active: 'False',
          emails: [{ value: 'a@b.c', primary: 'True' }],
          phoneNumbers: [{ value: '1', primary: 'false' }],
        },
        'User',
      );
      expect(out.active).to.equal(false);
      expect(out.emails).to.deep.equal([{ value: 'a@b.c', primary: true }]);
      expect(out.phoneNumbers).to.deep.equal([{ value: '1', primary: false }]);
    });
  });

  describe('Okta create bodies', () => {
    it('drops password and the read-only groups, keeps the rest', () => {
      const body = {
        schemas: [USER_SCHEMA],
        userName: 'test.user@okta.local',
        name: { givenName: 'Test', familyName: 'User' },
        emails: [{ primary: true, value: 'test.user@okta.local', type: 'work' }],
        displayName: 'Test User',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        password: '1mz050nq',
        active: true,
      };
      const out = normalizeResource(body, 'User');
      expect(out).to.not.have.any.keys('password', 'groups');
      expect(out).to.deep.include({ userName: 'test.user@okta.local', locale: 'en-US', active: true });
    });
  });

  describe('OneLogin legacy template', () => {
    it('keeps urn:scim:schemas:core:1.0 and adds the core 2.0 URN', () => {
      const out = normalizeResource(
        {
          schemas: ['urn:scim:schemas:core:1.0'],
          userName: 'jdoe@example.com',
          name: { givenName: 'John', familyName: 'Doe' },
          emails: [{ value: 'jdoe@example.com', primary: true }],
        },
        'User',
      );
      expect(out.schemas).to.deep.equal([USER_SCHEMA, 'urn:scim:schemas:core:1.0']);
      expect(out).to.deep.include({ userName: 'jdoe@example.com' });
    });
  });

  describe('casing', () => {
    it('canonicalizes known attribute, sub-attribute and extension names', () => {
      const out = normalizeResource(
        {
          SCHEMAS: [USER_SCHEMA.toUpperCase()],
          username: 'a',
          Emails: [{ Value: 'a@b.c', TYPE: 'work' }],
          NAME: { GivenName: 'A' },
          [ENTERPRISE_USER_SCHEMA.toLowerCase()]: { EmployeeNumber: '7', MANAGER: { Value: 'm' } },
        },
        'User',
      );
      expect(out).to.deep.equal({
        schemas: [USER_SCHEMA, ENTERPRISE_USER_SCHEMA],
        userName: 'a',
        emails: [{ value: 'a@b.c', type: 'work' }],
        name: { givenName: 'A' },
        [ENTERPRISE_USER_SCHEMA]: { employeeNumber: '7', manager: { value: 'm' } },
      });
    });

    it('folds URN-qualified top-level keys into their place', () => {
      const out = normalizeResource(
        { userName: 'a', [`${ENTERPRISE_USER_SCHEMA}:costCenter`]: 'CC', [`${USER_SCHEMA}:title`]: 'Boss' },
        'User',
      );
      expect(out).to.deep.equal({
        schemas: [USER_SCHEMA, ENTERPRISE_USER_SCHEMA],
        userName: 'a',
        [ENTERPRISE_USER_SCHEMA]: { costCenter: 'CC' },
        title: 'Boss',
      });
    });
  });

  describe('schemas', () => {
    it('adds the enterprise URN iff the extension is present', () => {
      expect(
        normalizeResource({ userName: 'a', [ENTERPRISE_USER_SCHEMA]: { department: 'D' } }, 'User').schemas,
      ).to.deep.equal([USER_SCHEMA, ENTERPRISE_USER_SCHEMA]);
      expect(normalizeResource({ schemas: [ENTERPRISE_USER_SCHEMA], userName: 'a' }, 'User').schemas).to.deep.equal([
        USER_SCHEMA,
      ]);
      const emptied = {
        schemas: [USER_SCHEMA, ENTERPRISE_USER_SCHEMA],
        userName: 'a',
        [ENTERPRISE_USER_SCHEMA]: { department: null },
      };
      expect(normalizeResource(emptied, 'User')).to.deep.equal({ schemas: [USER_SCHEMA], userName: 'a' });
    });

    it('keeps unknown schemas and their extension objects as sent', () => {
      const custom = 'urn:ietf:params:scim:schemas:extension:CustomExtension:2.0:User';
      const out = normalizeResource(
        { schemas: 'not-a-list', userName: 'a', [custom]: { badge: 'B1', nested: { x: null, y: 1 } } },
        'User',
      );
      expect(out).to.deep.equal({
        schemas: [USER_SCHEMA, 'not-a-list', custom],
        userName: 'a',
        [custom]: { badge: 'B1', nested: { y: 1 } },
      });
    });
  });

  describe('unknown attributes', () => {
    it('keeps them with their casing', () => {
      const out = normalizeResource(
        { userName: 'a', CostCenterCode: 'X', 'Hire Date': '2020', tags: ['a', null] },
        'User',
      );
      expect(out).to.deep.include({ CostCenterCode: 'X', 'Hire Date': '2020', tags: ['a'] });
    });

    it('drops their empty lists and objects, which mean unassigned', () => {
      const custom = 'urn:example:ext';
      const out = normalizeResource(
        { userName: 'a', tags: [], extra: {}, list: [{}, 'x'], [custom]: { codes: [] } },
        'User',
      );
      expect(out).to.deep.equal({ schemas: [USER_SCHEMA], userName: 'a', list: ['x'] });
    });
  });

  describe('multi-valued and complex values', () => {
    it('wraps a single object where a list belongs', () => {
      expect(normalizeResource({ userName: 'a', emails: { value: 'a@b.c' } }, 'User').emails).to.deep.equal([
        { value: 'a@b.c' },
      ]);
    });

    it('takes a manager given as a bare id or a one-item list', () => {
      const asId = normalizeResource({ userName: 'a', [ENTERPRISE_USER_SCHEMA]: { manager: 'm1' } }, 'User');
      expect(asId[ENTERPRISE_USER_SCHEMA]).to.deep.equal({ manager: { value: 'm1' } });
      const asList = normalizeResource(
        { userName: 'a', [ENTERPRISE_USER_SCHEMA]: { manager: [{ $ref: null, value: 'm2' }] } },
        'User',
      );
      expect(asList[ENTERPRISE_USER_SCHEMA]).to.deep.equal({ manager: { value: 'm2' } });
    });
  });

  describe('invalid input', () => {
    it('rejects a body that is not an object with 400 invalidSyntax', () => {
      for (const body of [null, 'x', [], 42]) expectScimError(() => normalizeResource(body, 'User'), 'invalidSyntax');
    });

    it('rejects values of the wrong type for known attributes with 400 invalidValue', () => {
      for (const bad of [
        { active: 5 },
        { active: 'yes' },
        { emails: 'x' },
        { emails: ['x'] },
        { name: 'Barbara' },
        { title: { a: 1 } },
        { title: 7 },
        { emails: [{ value: 'a', primary: 'sometimes' }] },
        { [ENTERPRISE_USER_SCHEMA]: { manager: [{ value: 'a' }, { value: 'b' }] } },
      ]) {
        expectScimError(() => normalizeResource({ userName: 'a', ...bad }, 'User'), 'invalidValue');
      }
    });

    it('requires a string userName for users and displayName for groups', () => {
      for (const userName of [undefined, null, '', '  ']) {
        const error = expectScimError(() => normalizeResource({ userName }, 'User'), 'invalidValue');
        expect(error.detail).to.match(/userName is required/);
      }
      expect(expectScimError(() => normalizeResource({ userName: 42 }, 'User'), 'invalidValue').detail).to.match(
        /"userName" must be a string/,
      );
      expect(expectScimError(() => normalizeResource({ members: [] }, 'Group'), 'invalidValue').detail).to.match(
        /displayName is required/,
      );
    });
  });

  describe('group members', () => {
    it('reduces members to value, display, type and $ref', () => {
      const out = normalizeResource(
        {
          displayName: 'G',
          members: [
            { value: 'u1', display: 'User One', type: 'User', $ref: 'https://x/Users/u1', extra: 1 },
            { Value: 'u2' },
            'u3',
            { value: 'u1' },
          ],
        },
        'Group',
      );
      expect(out.members).to.deep.equal([
        { value: 'u1', display: 'User One', type: 'User', $ref: 'https://x/Users/u1' },
        { value: 'u2' },
        { value: 'u3' },
      ]);
    });

    it('keeps an empty member list, which on a PUT empties the group, apart from no list at all', () => {
      expect(normalizeResource({ displayName: 'G', members: [] }, 'Group').members).to.deep.equal([]);
      expect(normalizeResource({ displayName: 'G', members: null }, 'Group')).to.not.have.property('members');
      expect(normalizeResource({ displayName: 'G' }, 'Group')).to.not.have.property('members');
    });

    it('rejects members without a value', () => {
      expectScimError(
        () => normalizeResource({ displayName: 'G', members: [{ display: 'x' }] }, 'Group'),
        'invalidValue',
      );
    });
  });
});
