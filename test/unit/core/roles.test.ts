/** A user's roles from the directory's role_mapping and the user's groups (core/roles.ts), and in its event data. */
import { expect } from 'chai';
import { userData, userDataJson } from '../../../src/core/events.js';
import { namesGroup, namesName, rolesOf } from '../../../src/core/roles.js';

const mapping = {
  default_role: 'member',
  rules: [
    { group: 'Eng', role: 'engineer', priority: 1 },
    { group: 'g-admins', role: 'admin', priority: 10 },
    { group: 'Ops', role: 'engineer', priority: 5 },
    { group: 'Leads', role: 'lead', priority: 5 },
  ],
};

describe('roles', () => {
  it('the roles of every matching rule (group by id or name), higher priority first, equal ones in mapping order, each once', () => {
    const groups = [
      { id: 'g-eng', name: 'Eng' },
      { id: 'g-admins', name: 'Administrators' },
      { id: 'g-leads', name: 'Leads' },
      { id: 'g-ops', name: 'Ops' },
    ];
    expect(rolesOf(mapping, groups)).to.deep.equal(['admin', 'engineer', 'lead']);
    expect(rolesOf(mapping, [{ id: 'g-eng', name: 'Eng' }])).to.deep.equal(['engineer']);
  });

  it('no match: [default_role], or [] without one; no mapping: []', () => {
    expect(rolesOf(mapping, [{ id: 'x', name: 'Sales' }])).to.deep.equal(['member']);
    expect(rolesOf(mapping, [])).to.deep.equal(['member']);
    expect(rolesOf({ rules: mapping.rules }, [])).to.deep.equal([]);
    expect(rolesOf(undefined, [{ id: 'g-admins', name: 'Admins' }])).to.deep.equal([]);
    // A name is matched case-insensitively (the directory keeps names unique regardless of case), an id exactly.
    expect(rolesOf({ rules: mapping.rules }, [{ id: 'x', name: 'eng' }])).to.deep.equal(['engineer']);
    expect(rolesOf({ rules: mapping.rules }, [{ id: 'G-ADMINS', name: 'x' }])).to.deep.equal([]);
    expect(namesName(mapping, 'LEADS')).to.equal(true);
    expect(namesName(mapping, 'Sales')).to.equal(false);
  });

  it('tells which groups a rule names', () => {
    expect(namesGroup(mapping, { id: 'g-admins', name: 'Whatever' })).to.equal(true);
    expect(namesGroup(mapping, { id: 'x', name: 'Ops' })).to.equal(true);
    expect(namesGroup(mapping, { id: 'x', name: 'Sales' })).to.equal(false);
    expect(namesGroup(undefined, { id: 'g-admins', name: 'Ops' })).to.equal(false);
  });

  it('are in the user event data after attributes, [] when none; the spliced JSON is the same bytes', () => {
    const body = { userName: 'ann@acme.io', title: 'Engineer' };
    expect(Object.keys(userData('u1', body))).to.deep.equal([
      'id',
      'email',
      'active',
      'attributes',
      'custom_attributes',
      'roles',
      'raw',
    ]);
    expect(userData('u1', body).roles).to.deep.equal([]);
    expect(userDataJson('u1', JSON.stringify(body), undefined, ['admin', 'x"y'])).to.equal(
      JSON.stringify(userData('u1', body, undefined, ['admin', 'x"y'])),
    );
  });
});
