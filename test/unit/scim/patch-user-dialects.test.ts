/**
 * PATCH on users as each IdP sends it (Okta, Entra ID's two dialects), value-filtered paths and the enterprise manager.
 */
import { expect } from 'chai';
import { applyPatch } from '../../../src/scim/patch.js';
import { USER_SCHEMA } from '../../../src/scim/schemas.js';
import { expectScimError } from './expect-scim-error.js';
import { ENT, patch, user } from './patch-user-fixtures.js';

describe('scim PATCH on users', () => {
  describe('Okta', () => {
    it('deactivates with a no-path replace {active:false}', () => {
      const body = {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', value: { active: false } }],
      };
      const result = applyPatch(user(), body, 'User');
      expect(result.changed).to.equal(true);
      expect(result.resource.active).to.equal(false);
      expect(result).to.not.have.property('members');
    });

    it('reactivates with the same shape', () => {
      const result = patch({ ...user(), active: false }, { op: 'replace', value: { active: true } });
      expect(result.resource.active).to.equal(true);
    });
  });

  describe('Entra ID default dialect', () => {
    it('deactivates with Replace active "False"', () => {
      const body = {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
      };
      const result = applyPatch(user(), body, 'User');
      expect(result.changed).to.equal(true);
      expect(result.resource.active).to.equal(false);
    });

    it('applies Add on single-valued attributes, filtered paths and the enterprise extension', () => {
      const body = {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [
          { op: 'Add', path: 'displayName', value: 'Barbara J.' },
          { op: 'Add', path: 'title', value: 'Engineer' },
          { op: 'Add', path: 'name.givenName', value: 'Barb' },
          { op: 'Add', path: 'emails[type eq "work"].value', value: 'barbara@example.com' },
          { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' },
          { op: 'Add', path: 'addresses[type eq "work"].streetAddress', value: '100 Universal City Plaza' },
          { op: 'Add', path: 'addresses[type eq "work"].locality', value: 'Hollywood' },
          { op: 'Add', path: `${ENT}:department`, value: 'Tour Operations' },
          { op: 'Add', path: `${ENT}:manager`, value: [{ $ref: null, value: '26118915-6090-4610-87e4-49d8ca9f808d' }] },
        ],
      };
      const { resource, changed } = applyPatch(user(), body, 'User');
      expect(changed).to.equal(true);
      expect(resource).to.deep.equal({
        schemas: [USER_SCHEMA, ENT],
        id: '2819c223-7f76-453a-919d-413861904646',
        externalId: 'bjensen',
        userName: 'bjensen@example.com',
        name: { givenName: 'Barb', familyName: 'Jensen' },
        displayName: 'Barbara J.',
        title: 'Engineer',
        active: true,
        emails: [{ value: 'barbara@example.com', type: 'work', primary: true }],
        phoneNumbers: [{ type: 'mobile', value: '+1 555 0100' }],
        addresses: [{ type: 'work', streetAddress: '100 Universal City Plaza', locality: 'Hollywood' }],
        [ENT]: { department: 'Tour Operations', manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d' } },
      });
    });

    it('replaces through filtered paths and sub-attributes', () => {
      const body = {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
          { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        ],
      };
      const { resource } = applyPatch(user(), body, 'User');
      expect(resource.emails).to.deep.equal([{ value: 'updatedEmail@microsoft.com', type: 'work', primary: true }]);
      expect(resource.name).to.deep.equal({ givenName: 'Barbara', familyName: 'updatedFamilyName' });
    });
  });

  describe('Entra ID aadOptscim062020 dialect', () => {
    it('applies a no-path replace with dotted and URN-qualified keys', () => {
      const body = {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [
          {
            op: 'replace',
            value: {
              displayName: 'Barbara Jensen',
              'name.givenName': 'Barbara',
              'name.familyName': 'Jensen-Smith',
              'emails[type eq "work"].value': 'barbara.js@example.com',
              [`${ENT}:employeeNumber`]: '701984',
              [`${ENT}:manager`]: 'mgr-42',
              active: false,
            },
          },
        ],
      };
      const { resource } = applyPatch(user(), body, 'User');
      expect(resource).to.deep.include({ displayName: 'Barbara Jensen', active: false });
      expect(resource.name).to.deep.equal({ givenName: 'Barbara', familyName: 'Jensen-Smith' });
      expect(resource.emails).to.deep.equal([{ value: 'barbara.js@example.com', type: 'work', primary: true }]);
      expect(resource[ENT]).to.deep.equal({ employeeNumber: '701984', manager: { value: 'mgr-42' } });
      expect(resource.schemas).to.deep.equal([USER_SCHEMA, ENT]);
    });

    it('applies extension attributes given as a nested URN object', () => {
      const { resource } = patch(user(), {
        op: 'add',
        value: { [ENT.toLowerCase()]: { employeeNumber: '1', Department: 'D' }, nickName: 'Babs' },
      });
      expect(resource[ENT]).to.deep.equal({ employeeNumber: '1', department: 'D' });
      expect(resource.nickName).to.equal('Babs');
    });
  });

  describe('value-filtered paths', () => {
    it('creates the element an add names when none matches (emails[type eq "work"].value)', () => {
      const { resource } = patch(
        { ...user(), emails: [{ value: 'home@example.com', type: 'home' }] },
        {
          op: 'add',
          path: 'emails[type eq "work"].value',
          value: 'work@example.com',
        },
      );
      expect(resource.emails).to.deep.equal([
        { value: 'home@example.com', type: 'home' },
        { type: 'work', value: 'work@example.com' },
      ]);
    });

    it('creates the attribute too when there is no list yet, and for replace as well', () => {
      const { emails: _emails, ...noEmails } = user();
      const { resource } = patch(noEmails, {
        op: 'replace',
        path: 'emails[type eq "work"].value',
        value: 'w@example.com',
      });
      expect(resource.emails).to.deep.equal([{ type: 'work', value: 'w@example.com' }]);
    });

    it('creates from every eq term of an and filter', () => {
      const { resource } = patch(user(), {
        op: 'add',
        path: 'phoneNumbers[type eq "work" and display eq "Desk"].value',
        value: '555-0100',
      });
      expect(resource.phoneNumbers).to.deep.equal([{ type: 'work', display: 'Desk', value: '555-0100' }]);
    });

    it('answers noTarget when the filter does not say what to create', () => {
      expectScimError(() => patch(user(), { op: 'add', path: 'emails[type co "mob"].value', value: 'x' }), 'noTarget');
    });

    it('updates every matching element', () => {
      const resource = {
        ...user(),
        emails: [
          { value: 'a', type: 'work' },
          { value: 'b', type: 'home' },
          { value: 'c', type: 'work' },
        ],
      };
      const result = patch(resource, { op: 'replace', path: 'emails[type eq "work"].display', value: 'Work' });
      expect(result.resource.emails).to.deep.equal([
        { value: 'a', type: 'work', display: 'Work' },
        { value: 'b', type: 'home' },
        { value: 'c', type: 'work', display: 'Work' },
      ]);
    });

    it('replaces a whole matched element, keeping what the filter selected on', () => {
      const result = patch(user(), {
        op: 'replace',
        path: 'emails[type eq "work"]',
        value: { value: 'new@example.com' },
      });
      expect(result.resource.emails).to.deep.equal([{ type: 'work', value: 'new@example.com' }]);
    });

    it('merges into matched elements on add', () => {
      const result = patch(user(), { op: 'add', path: 'emails[type eq "work"]', value: { display: 'Work' } });
      expect(result.resource.emails).to.deep.equal([
        { value: 'bjensen@example.com', type: 'work', primary: true, display: 'Work' },
      ]);
    });

    it('removes matched elements, and the attribute once it is empty', () => {
      const result = patch(user(), { op: 'remove', path: 'emails[type eq "work"]' });
      expect(result.resource).to.not.have.property('emails');
    });

    it('removes a sub-attribute of matched elements only', () => {
      const resource = {
        ...user(),
        emails: [
          { value: 'a', type: 'work', display: 'A' },
          { value: 'b', type: 'home', display: 'B' },
        ],
      };
      const result = patch(resource, { op: 'remove', path: 'emails[type eq "home"].display' });
      expect(result.resource.emails).to.deep.equal([
        { value: 'a', type: 'work', display: 'A' },
        { value: 'b', type: 'home' },
      ]);
    });

    it('treats a remove that matches nothing as a no-op', () => {
      const result = patch(user(), { op: 'remove', path: 'phoneNumbers[type eq "mobile"].value' });
      expect(result.changed).to.equal(false);
      expect(result.resource).to.deep.equal(user());
    });

    it('rejects a filter on a single-valued attribute with invalidPath', () => {
      expectScimError(
        () => patch(user(), { op: 'replace', path: 'name[givenName eq "x"].familyName', value: 'y' }),
        'invalidPath',
      );
    });
  });

  describe('enterprise manager', () => {
    it('accepts a bare id, {value} or [{$ref, value}]', () => {
      for (const value of ['m1', { value: 'm1' }, [{ $ref: '../Users/m1', value: 'm1' }]]) {
        const { resource } = patch(user(), { op: 'replace', path: `${ENT}:manager`, value });
        expect((resource[ENT] as { manager: { value: string } }).manager.value).to.equal('m1');
      }
    });

    it('replaces the whole manager when the id changes, so no stale $ref survives', () => {
      const manager = { value: 'm1', $ref: '../Users/m1', displayName: 'Old' };
      const resource = { ...user(), schemas: [USER_SCHEMA, ENT], [ENT]: { manager } };
      const result = patch(resource, { op: 'Add', path: `${ENT}:manager`, value: 'm2' });
      expect(result.resource[ENT]).to.deep.equal({ manager: { value: 'm2' } });
    });

    it('drops the extension and its schema URN when the last attribute is removed', () => {
      const resource = { ...user(), schemas: [USER_SCHEMA, ENT], [ENT]: { manager: { value: 'm1' } } };
      const result = patch(resource, { op: 'Remove', path: `${ENT}:manager` });
      expect(result.resource).to.not.have.property(ENT);
      expect(result.resource.schemas).to.deep.equal([USER_SCHEMA]);
    });

    it('removes the whole extension by its URN', () => {
      const resource = { ...user(), schemas: [USER_SCHEMA, ENT], [ENT]: { department: 'D', employeeNumber: '1' } };
      const result = patch(resource, { op: 'remove', path: ENT });
      expect(result.resource).to.deep.equal(user());
    });
  });
});
