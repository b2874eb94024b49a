import { expect } from 'chai';
import { applyPatch } from '../../../src/scim/patch.js';
import { GROUP_SCHEMA, PATCH_OP_SCHEMA } from '../../../src/scim/schemas.js';
import { expectScimError } from './expect-scim-error.js';

const GROUP_ID = 'abf4dd94-a4c0-4f67-89c9-76b03340cb9b';

function group(): Record<string, unknown> {
  return { schemas: [GROUP_SCHEMA], id: GROUP_ID, displayName: 'Engineering', externalId: 'eng' };
}

const patch = (...operations: unknown[]) =>
  applyPatch(group(), { schemas: [PATCH_OP_SCHEMA], Operations: operations }, 'Group');
const addMembers = (...ids: string[]) => ({ op: 'add', path: 'members', value: ids.map((value) => ({ value })) });
const removeMember = (id: string) => ({ op: 'remove', path: `members[value eq "${id}"]` });
const refs = (...ids: string[]) => ids.map((value) => ({ value }));

describe('scim PATCH on groups', () => {
  describe('Okta Group Push', () => {
    it('renames with a no-path replace that repeats the group id', () => {
      const body = {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', value: { id: GROUP_ID, displayName: 'Test SCIMv2' } }],
      };
      const result = applyPatch(group(), body, 'Group');
      expect(result.changed).to.equal(true);
      expect(result.resource).to.deep.equal({ ...group(), displayName: 'Test SCIMv2' });
      expect(result).to.not.have.property('members');
    });

    it('rejects a rename that would change the id', () => {
      expectScimError(() => patch({ op: 'replace', value: { id: 'someone-else', displayName: 'X' } }), 'mutability');
    });

    it('removes one member through members[value eq "…"]', () => {
      const body = {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'remove', path: 'members[value eq "89bb1940-b905-4575-9e7f-6f887cfb368e"]' }],
      };
      const result = applyPatch(group(), body, 'Group');
      expect(result.changed).to.equal(false);
      expect(result.members).to.deep.equal({ add: [], remove: ['89bb1940-b905-4575-9e7f-6f887cfb368e'] });
    });

    it('adds members with path "members"', () => {
      const body = {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [
          {
            op: 'add',
            path: 'members',
            value: [
              { value: '89bb1940-b905-4575-9e7f-6f887cfb368e', display: 'test.user@okta.local' },
              { value: '6b8f1ef2-3a44-4a1b-9c6e-1e3b7c0f2d11', display: 'other.user@okta.local' },
            ],
          },
        ],
      };
      expect(applyPatch(group(), body, 'Group').members).to.deep.equal({
        add: [
          { value: '89bb1940-b905-4575-9e7f-6f887cfb368e', display: 'test.user@okta.local' },
          { value: '6b8f1ef2-3a44-4a1b-9c6e-1e3b7c0f2d11', display: 'other.user@okta.local' },
        ],
        remove: [],
      });
    });

    it('"Push now" replaces the full member list, and [] empties the group', () => {
      expect(
        patch({ op: 'replace', path: 'members', value: [{ value: 'u1', display: 'one' }, { value: 'u2' }] }).members,
      ).to.deep.equal({
        replace: [{ value: 'u1', display: 'one' }, { value: 'u2' }],
        add: [],
        remove: [],
      });
      expect(patch({ op: 'replace', path: 'members', value: [] }).members).to.deep.equal({
        replace: [],
        add: [],
        remove: [],
      });
    });
  });

  describe('Entra ID default dialect', () => {
    it('adds with Add path "members" and member objects without type', () => {
      const body = {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: 'f648f8d5ea4e4cd38e9c' }] }],
      };
      expect(applyPatch(group(), body, 'Group').members).to.deep.equal({
        add: [{ value: 'f648f8d5ea4e4cd38e9c' }],
        remove: [],
      });
    });

    it('removes only the listed members with Remove path "members" and a value list', () => {
      const body = {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: 'f648f8d5ea4e4cd38e9c' }] }],
      };
      const { members } = applyPatch(group(), body, 'Group');
      expect(members).to.deep.equal({ add: [], remove: ['f648f8d5ea4e4cd38e9c'] });
      expect(members).to.not.have.property('removeAll');
    });

    it('renames with Replace displayName without touching members', () => {
      const result = patch({ op: 'Replace', path: 'displayName', value: 'Renamed' });
      expect(result.resource.displayName).to.equal('Renamed');
      expect(result).to.not.have.property('members');
    });
  });

  describe('Entra ID aadOptscim062020 dialect', () => {
    it('handles lowercase ops, members[value eq] removal and several members per request', () => {
      const body = {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [
          { op: 'remove', path: 'members[value eq "u-old"]' },
          { op: 'add', path: 'members', value: [{ value: 'u-a' }, { value: 'u-b' }, { value: 'u-c' }] },
          { op: 'replace', value: { displayName: 'Sales', externalId: 'sales' } },
        ],
      };
      const result = applyPatch(group(), body, 'Group');
      expect(result.resource).to.deep.include({ displayName: 'Sales', externalId: 'sales' });
      expect(result.members).to.deep.equal({
        add: [{ value: 'u-a' }, { value: 'u-b' }, { value: 'u-c' }],
        remove: ['u-old'],
      });
    });
  });

  describe('membership delta', () => {
    it('removes all members for remove "members" without a value', () => {
      expect(patch({ op: 'remove', path: 'members' }).members).to.deep.equal({ add: [], remove: [], removeAll: true });
    });

    it('removes several members named in one filter', () => {
      expect(patch({ op: 'remove', path: 'members[value eq "a" or value eq "b"]' }).members).to.deep.equal({
        add: [],
        remove: ['a', 'b'],
      });
    });

    it('nets out an add followed by a remove of the same member', () => {
      expect(patch(addMembers('x'), removeMember('x')).members).to.deep.equal({ add: [], remove: ['x'] });
    });

    it('nets out a remove followed by an add of the same member', () => {
      const result = patch(
        { op: 'remove', path: 'members', value: refs('x') },
        { op: 'add', path: 'members', value: { value: 'x' } },
      );
      expect(result.members).to.deep.equal({ add: refs('x'), remove: [] });
    });

    it('folds changes after a replace into the replacement list', () => {
      const result = patch(
        addMembers('early'),
        { op: 'replace', path: 'members', value: refs('a', 'b') },
        addMembers('c', 'b'),
        removeMember('a'),
      );
      expect(result.members).to.deep.equal({ replace: refs('b', 'c'), add: [], remove: [] });
    });

    it('adds after a remove-all', () => {
      const result = patch({ op: 'remove', path: 'members' }, removeMember('z'), addMembers('a'));
      expect(result.members).to.deep.equal({ add: refs('a'), remove: [], removeAll: true });
    });

    it('deduplicates and reports nothing for empty changes', () => {
      expect(patch(addMembers('a', 'a')).members).to.deep.equal({ add: refs('a'), remove: [] });
      expect(patch(addMembers())).to.not.have.property('members');
      expect(patch({ op: 'remove', path: 'members', value: [] })).to.not.have.property('members');
    });

    it('takes members from no-path add and replace values', () => {
      expect(patch({ op: 'add', value: { members: [{ value: 'a' }] } }).members).to.deep.equal({
        add: [{ value: 'a' }],
        remove: [],
      });
      const replaced = patch({ op: 'replace', value: { displayName: 'New', members: [{ value: 'b', type: 'User' }] } });
      expect(replaced.resource.displayName).to.equal('New');
      expect(replaced.members).to.deep.equal({ replace: [{ value: 'b' }], add: [], remove: [] });
    });

    it('never applies member operations to the resource itself', () => {
      const input = { ...group(), members: [{ value: 'u0' }] };
      const result = applyPatch(
        input,
        { Operations: [{ op: 'add', path: 'members', value: [{ value: 'u1' }] }] },
        'Group',
      );
      expect(result.changed).to.equal(false);
      expect(result.resource.members).to.deep.equal([{ value: 'u0' }]);
      expect(result.members).to.deep.equal({ add: [{ value: 'u1' }], remove: [] });
    });

    it('accepts member ids given as bare strings', () => {
      expect(patch({ op: 'add', path: 'members', value: ['a', 'b'] }).members).to.deep.equal({
        add: refs('a', 'b'),
        remove: [],
      });
    });
  });

  describe('errors', () => {
    it('rejects members without a value', () => {
      expectScimError(() => patch({ op: 'add', path: 'members', value: [{ display: 'nobody' }] }), 'invalidValue');
    });

    it('rejects member filters other than value eq', () => {
      expectScimError(() => patch({ op: 'remove', path: 'members[display eq "x"]' }), 'invalidFilter');
      expectScimError(() => patch({ op: 'remove', path: 'members[value eq "a" and type eq "User"]' }), 'invalidFilter');
    });

    it('rejects add/replace on members[...] and member sub-attributes', () => {
      expectScimError(
        () => patch({ op: 'add', path: 'members[value eq "a"]', value: { display: 'x' } }),
        'invalidPath',
      );
      expectScimError(() => patch({ op: 'replace', path: 'members[value eq "a"].display', value: 'x' }), 'invalidPath');
    });

    it('refuses to remove the required displayName and leaves the input alone when an operation fails', () => {
      const input = group();
      const operations = [
        { op: 'replace', path: 'externalId', value: 'x' },
        { op: 'remove', path: 'displayName' },
      ];
      expectScimError(() => applyPatch(input, { Operations: operations }, 'Group'), 'invalidValue');
      expect(input).to.deep.equal(group());
    });
  });
});
