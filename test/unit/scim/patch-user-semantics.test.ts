/** PATCH on users by the RFC: its operation semantics, no-op detection, atomicity and errors. */
import { expect } from 'chai';
import { normalizeResource } from '../../../src/scim/normalize.js';
import { applyPatch, MAX_PATCH_OPERATIONS } from '../../../src/scim/patch.js';
import { PATCH_OP_SCHEMA, USER_SCHEMA } from '../../../src/scim/schemas.js';
import { expectScimError } from './expect-scim-error.js';
import { patch, user } from './patch-user-fixtures.js';

describe('scim PATCH on users', () => {
  describe('RFC 7644 semantics', () => {
    it('appends to multi-valued attributes, skipping exact duplicates', () => {
      const result = patch(user(), {
        op: 'add',
        path: 'emails',
        value: [
          { value: 'bjensen@example.com', type: 'work', primary: true },
          { value: 'babs@jensen.org', type: 'home' },
        ],
      });
      expect(result.resource.emails).to.deep.equal([
        { value: 'bjensen@example.com', type: 'work', primary: true },
        { value: 'babs@jensen.org', type: 'home' },
      ]);
    });

    it('replaces a whole multi-valued attribute when there is no filter', () => {
      const result = patch(user(), {
        op: 'replace',
        path: 'emails',
        value: [{ value: 'only@example.com', type: 'other' }],
      });
      expect(result.resource.emails).to.deep.equal([{ value: 'only@example.com', type: 'other' }]);
    });

    it('merges sub-attributes into a complex attribute on add and replace', () => {
      expect(patch(user(), { op: 'add', path: 'name', value: { middleName: 'M' } }).resource.name).to.deep.equal({
        givenName: 'Barbara',
        familyName: 'Jensen',
        middleName: 'M',
      });
      expect(patch(user(), { op: 'replace', value: { name: { givenName: 'B' } } }).resource.name).to.deep.equal({
        givenName: 'B',
        familyName: 'Jensen',
      });
    });

    it('removes sub-attributes given as null in a complex value, and ignores an empty one', () => {
      const result = patch(user(), { op: 'replace', path: 'name', value: { GivenName: null, middleName: 'M' } });
      expect(result.resource.name).to.deep.equal({ familyName: 'Jensen', middleName: 'M' });
      expect(patch(user(), { op: 'add', path: 'name', value: {} }).changed).to.equal(false);
    });

    it('removes listed values from a multi-valued attribute (Entra style) and leaves the rest', () => {
      const resource = {
        ...user(),
        emails: [
          { value: 'a@x', type: 'work' },
          { value: 'b@x', type: 'home' },
        ],
      };
      const result = patch(resource, { op: 'Remove', path: 'emails', value: [{ value: 'b@x' }] });
      expect(result.resource.emails).to.deep.equal([{ value: 'a@x', type: 'work' }]);
    });

    it('removes an attribute and a sub-attribute', () => {
      const result = patch(user(), { op: 'remove', path: 'displayName' }, { op: 'remove', path: 'name.givenName' });
      expect(result.resource).to.not.have.property('displayName');
      expect(result.resource.name).to.deep.equal({ familyName: 'Jensen' });
    });

    it('treats replace with null as remove', () => {
      const result = patch(user(), { op: 'replace', path: 'displayName', value: null });
      expect(result.resource).to.not.have.property('displayName');
    });

    it('keeps at most one primary: the value set last wins', () => {
      const added = patch(user(), {
        op: 'add',
        path: 'emails',
        value: [{ value: 'new@x', type: 'home', primary: true }],
      });
      expect(added.resource.emails).to.deep.equal([
        { value: 'bjensen@example.com', type: 'work', primary: false },
        { value: 'new@x', type: 'home', primary: true },
      ]);
      const flagged = patch(
        {
          ...user(),
          emails: [
            { value: 'a', type: 'work', primary: true },
            { value: 'b', type: 'home' },
          ],
        },
        { op: 'Replace', path: 'emails[type eq "home"].primary', value: 'True' },
      );
      expect(flagged.resource.emails).to.deep.equal([
        { value: 'a', type: 'work', primary: false },
        { value: 'b', type: 'home', primary: true },
      ]);
    });

    it('coerces string booleans for boolean attributes in every position', () => {
      const result = patch(user(), { op: 'add', path: 'emails', value: { value: 'x@y', primary: 'False' } });
      expect((result.resource.emails as unknown[])[1]).to.deep.equal({ value: 'x@y', primary: false });
    });

    it('canonicalizes attribute and sub-attribute names and reads Operations/op case-insensitively', () => {
      const result = applyPatch(
        user(),
        { operations: [{ Op: 'REPLACE', Path: 'NAME.GIVENNAME', Value: 'B' }] },
        'User',
      );
      expect(result.resource.name).to.deep.equal({ givenName: 'B', familyName: 'Jensen' });
    });

    it('accepts a bare Operations array and a missing schemas', () => {
      expect(applyPatch(user(), [{ op: 'replace', path: 'title', value: 'T' }], 'User').resource.title).to.equal('T');
      expect(
        applyPatch(user(), { Operations: [{ op: 'replace', path: 'title', value: 'T' }] }, 'User').resource.title,
      ).to.equal('T');
    });

    it('keeps unknown attributes usable, reusing the stored casing', () => {
      const resource = { ...user(), CostCenterCode: 'A', tags: ['x'] };
      const result = patch(
        resource,
        { op: 'replace', path: 'costcentercode', value: 'B' },
        { op: 'add', path: 'tags', value: ['y', 'x'] },
        { op: 'add', value: { 'Hire Date': '2020-01-01' } },
      );
      expect(result.resource).to.deep.include({ CostCenterCode: 'B', tags: ['x', 'y'], 'Hire Date': '2020-01-01' });
      expect(result.resource).to.not.have.property('costcentercode');
    });

    it('accepts and discards password', () => {
      const result = patch(
        user(),
        { op: 'replace', path: 'password', value: 'hunter2' },
        { op: 'replace', value: { password: 'x' } },
      );
      expect(result.changed).to.equal(false);
      expect(result.resource).to.not.have.property('password');
    });

    it('ignores schemas inside a no-path value and keeps the array consistent', () => {
      const result = patch(user(), { op: 'replace', value: { schemas: ['urn:bogus'], title: 'T' } });
      expect(result.resource.schemas).to.deep.equal([USER_SCHEMA]);
    });
  });

  describe('no-op detection', () => {
    const noops: [string, unknown[]][] = [
      ['an empty Operations array', []],
      ['setting the same value', [{ op: 'replace', path: 'displayName', value: 'Babs Jensen' }]],
      ['Entra repeating "True" for an active user', [{ op: 'Replace', path: 'active', value: 'True' }]],
      ['adding an email that is already there', [{ op: 'add', path: 'emails', value: user().emails }]],
      ['removing an absent attribute', [{ op: 'remove', path: 'nickName' }]],
      [
        'a change and its reversal',
        [
          { op: 'replace', path: 'title', value: 'X' },
          { op: 'remove', path: 'title' },
        ],
      ],
      ['repeating the own id', [{ op: 'replace', value: { id: '2819c223-7f76-453a-919d-413861904646' } }]],
    ];
    for (const [label, operations] of noops) {
      it(`reports changed:false for ${label}`, () => {
        const result = patch(user(), ...operations);
        expect(result.changed).to.equal(false);
        expect(result.resource).to.deep.equal(user());
      });
    }
  });

  it('reports changed:false for a no-op on a freshly normalized IdP body', () => {
    const stored = normalizeResource(
      {
        schemas: [USER_SCHEMA, 'urn:scim:schemas:core:1.0'],
        userName: 'x@example.com',
        title: null,
        roles: [],
        tags: [],
        Custom: { nested: null, kept: 1 },
        emails: [{ value: 'x@example.com', primary: 'True' }],
      },
      'User',
    );
    const result = patch(
      { ...stored, id: 'u1' },
      { op: 'Replace', path: 'emails[primary eq true].value', value: 'x@example.com' },
    );
    expect(result.changed).to.equal(false);
  });

  describe('atomicity', () => {
    it('never mutates its input', () => {
      const input = user();
      const result = patch(
        input,
        { op: 'replace', path: 'name.givenName', value: 'X' },
        { op: 'add', path: 'emails', value: { value: 'n@x' } },
      );
      expect(input).to.deep.equal(user());
      expect(result.resource).to.not.equal(input);
      expect(result.resource.name).to.not.equal(input.name);
    });

    it('throws for an invalid later operation and leaves the input unchanged', () => {
      const input = user();
      const error = expectScimError(
        () =>
          patch(
            input,
            { op: 'replace', path: 'displayName', value: 'Changed' },
            { op: 'add', path: 'emails[type eq "work"].value', value: 'changed@example.com' },
            { op: 'remove' },
          ),
        'noTarget',
      );
      expect(error.detail).to.match(/^Operation 3 \(remove\)/);
      expect(input).to.deep.equal(user());
    });
  });

  describe('errors', () => {
    it('rejects a remove without path with noTarget', () => {
      expectScimError(() => patch(user(), { op: 'remove', value: { title: 'x' } }), 'noTarget');
    });

    it('rejects malformed paths with invalidPath', () => {
      for (const path of ['emails[type eq "work"', 'a.b.c', 'emails[type eq "work"].', '123', USER_SCHEMA]) {
        expectScimError(() => patch(user(), { op: 'replace', path, value: 'x' }), 'invalidPath');
      }
    });

    it('rejects changes to read-only attributes with mutability', () => {
      expectScimError(() => patch(user(), { op: 'replace', path: 'id', value: 'other' }), 'mutability');
      expectScimError(() => patch(user(), { op: 'replace', value: { id: 'other', displayName: 'x' } }), 'mutability');
      expectScimError(() => patch(user(), { op: 'remove', path: 'id' }), 'mutability');
      expectScimError(
        () => patch(user(), { op: 'replace', path: 'meta.lastModified', value: '2020-01-01T00:00:00Z' }),
        'mutability',
      );
      expectScimError(() => patch(user(), { op: 'add', value: { meta: { version: 'x' } } }), 'mutability');
      expectScimError(() => patch(user(), { op: 'add', path: 'groups', value: [{ value: 'g' }] }), 'mutability');
    });

    it('refuses to remove or blank the required userName', () => {
      expectScimError(() => patch(user(), { op: 'remove', path: 'userName' }), 'invalidValue');
      expectScimError(() => patch(user(), { op: 'replace', path: 'userName', value: null }), 'invalidValue');
      expectScimError(() => patch(user(), { op: 'replace', value: { userName: '' } }), 'invalidValue');
    });

    it('rejects values of the wrong type with invalidValue', () => {
      expectScimError(() => patch(user(), { op: 'replace', path: 'active', value: 5 }), 'invalidValue');
      expectScimError(() => patch(user(), { op: 'add', path: 'emails', value: 'x@y' }), 'invalidValue');
      expectScimError(() => patch(user(), { op: 'replace', value: 'active=false' }), 'invalidValue');
      expectScimError(() => patch(user(), { op: 'add', path: 'title' }), 'invalidValue');
    });

    it('rejects a malformed body or operation with invalidSyntax', () => {
      for (const body of [undefined, 'x', {}, { Operations: {} }, { schemas: [PATCH_OP_SCHEMA] }]) {
        expectScimError(() => applyPatch(user(), body, 'User'), 'invalidSyntax');
      }
      expectScimError(() => patch(user(), { op: 'merge', path: 'title', value: 'x' }), 'invalidSyntax');
      expectScimError(() => patch(user(), 'replace'), 'invalidSyntax');
    });

    it(`rejects more than ${MAX_PATCH_OPERATIONS} operations with tooMany`, () => {
      const ops = Array.from({ length: MAX_PATCH_OPERATIONS + 1 }, () => ({
        op: 'replace',
        path: 'title',
        value: 'x',
      }));
      expectScimError(() => patch(user(), ...ops), 'tooMany');
      expect(patch(user(), ...ops.slice(1)).resource.title).to.equal('x');
    });
  });
});
