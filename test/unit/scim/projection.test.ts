import { expect } from 'chai';
import { project } from '../../../src/scim/projection.js';
import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, USER_SCHEMA } from '../../../src/scim/schemas.js';
import { expectScimError } from './expect-scim-error.js';

const ENT = ENTERPRISE_USER_SCHEMA;
const CUSTOM = 'urn:example:custom:1.0:User';

function user(): Record<string, unknown> {
  return {
    schemas: [USER_SCHEMA, ENT],
    id: 'u1',
    externalId: 'e1',
    userName: 'bjensen',
    name: { givenName: 'Barbara', familyName: 'Jensen' },
    emails: [
      { value: 'a@x', type: 'work', primary: true },
      { value: 'b@x', type: 'home' },
    ],
    password: 'leaked-by-mistake',
    [ENT]: { employeeNumber: '7', manager: { value: 'm1', displayName: 'Boss' } },
    [CUSTOM]: { badge: 'B' },
    CostCenter: 'CC',
    meta: { resourceType: 'User', created: '2020-01-01T00:00:00Z', location: 'https://x/Users/u1' },
  };
}

const without = (obj: Record<string, unknown>, ...keys: string[]) =>
  Object.fromEntries(Object.entries(obj).filter(([k]) => !keys.includes(k)));

describe('scim attribute projection', () => {
  it('returns everything but returned:never attributes without a projection', () => {
    expect(project(user(), {}, 'User')).to.deep.equal(without(user(), 'password'));
    expect(project(user(), { attributes: '', excludedAttributes: ' ' }, 'User')).to.deep.equal(
      without(user(), 'password'),
    );
  });

  it('keeps only the requested attributes plus the always-returned id and schemas', () => {
    expect(project(user(), { attributes: 'userName' }, 'User')).to.deep.equal({
      schemas: [USER_SCHEMA, ENT],
      id: 'u1',
      userName: 'bjensen',
    });
  });

  it('matches names case-insensitively and accepts URN-qualified and sub-attribute paths', () => {
    const out = project(
      user(),
      { attributes: `USERNAME, name.givenName,${USER_SCHEMA}:emails.value, ${ENT}:manager.value` },
      'User',
    );
    expect(out).to.deep.equal({
      schemas: [USER_SCHEMA, ENT],
      id: 'u1',
      userName: 'bjensen',
      name: { givenName: 'Barbara' },
      emails: [{ value: 'a@x' }, { value: 'b@x' }],
      [ENT]: { manager: { value: 'm1' } },
    });
  });

  it('returns a whole extension when its URN is requested, and unknown extensions by qualified name', () => {
    const out = project(user(), { attributes: `${ENT.toLowerCase()},${CUSTOM}:badge` }, 'User');
    expect(out).to.deep.equal({
      schemas: [USER_SCHEMA, ENT],
      id: 'u1',
      [ENT]: { employeeNumber: '7', manager: { value: 'm1', displayName: 'Boss' } },
      [CUSTOM]: { badge: 'B' },
    });
  });

  it('returns meta only when asked for, or with no projection', () => {
    expect(project(user(), { attributes: 'meta' }, 'User')).to.have.property('meta');
    expect(project(user(), { attributes: 'meta.created' }, 'User').meta).to.deep.equal({
      created: '2020-01-01T00:00:00Z',
    });
    expect(project(user(), { attributes: 'id' }, 'User')).to.not.have.property('meta');
  });

  it('never returns returned:never attributes, even when asked for', () => {
    expect(project(user(), { attributes: 'password,userName' }, 'User')).to.not.have.property('password');
  });

  it('excludes attributes, sub-attributes and extensions but never id or schemas', () => {
    const excludedAttributes = `emails.type, name, ${ENT}:manager, ${CUSTOM}, costcenter, id, schemas, meta`;
    const out = project(user(), { excludedAttributes }, 'User');
    expect(out).to.deep.equal({
      schemas: [USER_SCHEMA, ENT],
      id: 'u1',
      externalId: 'e1',
      userName: 'bjensen',
      emails: [{ value: 'a@x', primary: true }, { value: 'b@x' }],
      [ENT]: { employeeNumber: '7' },
    });
  });

  it('drops an extension whose attributes are all excluded', () => {
    const out = project(user(), { excludedAttributes: `${ENT}:employeeNumber,${ENT}:manager` }, 'User');
    expect(out).to.not.have.property(ENT);
  });

  it('applies excludedAttributes after attributes', () => {
    expect(project(user(), { attributes: 'name', excludedAttributes: 'name.familyName' }, 'User')).to.deep.equal({
      schemas: [USER_SCHEMA, ENT],
      id: 'u1',
      name: { givenName: 'Barbara' },
    });
  });

  it("supports Entra's excludedAttributes=members on groups", () => {
    const groupResource = { schemas: [GROUP_SCHEMA], id: 'g1', displayName: 'G', members: [{ value: 'u1' }] };
    expect(project(groupResource, { excludedAttributes: 'members' }, 'Group')).to.deep.equal({
      schemas: [GROUP_SCHEMA],
      id: 'g1',
      displayName: 'G',
    });
    expect(project(groupResource, { attributes: 'members.value' }, 'Group')).to.deep.equal({
      schemas: [GROUP_SCHEMA],
      id: 'g1',
      members: [{ value: 'u1' }],
    });
  });

  it('does not modify its input', () => {
    const input = user();
    project(input, { attributes: 'name.givenName', excludedAttributes: 'emails' }, 'User');
    expect(input).to.deep.equal(user());
  });

  it('rejects a malformed attribute path with invalidPath', () => {
    expectScimError(() => project(user(), { attributes: 'name.given.name' }, 'User'), 'invalidPath');
  });
});
