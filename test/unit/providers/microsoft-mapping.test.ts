/**
 * The Entra mapping: Graph user properties to the stored body and back (a delta's changes are laid over the latter).
 */
import { expect } from 'chai';
import { attributesOf } from '../../../src/core/attributes.js';
import { PROVIDER_FIELDS, providerExtension } from '../../../src/core/custom-attributes.js';
import { NO_OPTIONAL_PROPS, OWN_PROPS } from '../../support/fake-entra/user-props.js';
import {
  changedUserProps,
  USER_OBJECT_SELECT,
  USER_SELECT,
  userBody,
  userProps,
  type UserProps,
} from '../../../src/providers/microsoft/mapping.js';

const ENTRA = providerExtension('entra');

const bare: UserProps = {
  displayName: 'Ann Lee',
  givenName: 'Ann',
  surname: 'Lee',
  userPrincipalName: 'ann@x.example',
  mail: 'ann@x.example',
  accountEnabled: true,
  ...NO_OPTIONAL_PROPS,
};
const full: UserProps = {
  ...bare,
  ...OWN_PROPS,
  jobTitle: 'CTO',
  employeeId: 'E1',
  department: 'Eng',
  employeeOrgData: { division: 'R&D', costCenter: 'CC1' },
  manager: 'm-1',
};

describe('Entra mapping', () => {
  it('selects every provider field on the delta', () => {
    for (const f of PROVIDER_FIELDS.entra) {
      expect(USER_SELECT, f).to.include(f);
      expect(USER_OBJECT_SELECT, f).to.include(f);
    }
  });

  it("writes the provider fields with a value into dsync's Entra extension, named in schemas", () => {
    const body = userBody('u-1', full);
    expect(body[ENTRA]).to.deep.equal(Object.fromEntries(PROVIDER_FIELDS.entra.map((f) => [f, full[f]])));
    expect(body.schemas).to.include(ENTRA);
    const none = userBody('u-1', bare);
    expect(none).to.not.have.property(ENTRA);
    expect(none.schemas).to.not.include(ENTRA);
    expect(userBody('u-1', { ...bare, city: '', businessPhones: [] })).to.not.have.property(ENTRA);
  });

  it('turns a stored body back into the Graph properties it came from, exactly', () => {
    for (const props of [bare, full, { ...bare, mobilePhone: '+1 1', businessPhones: ['a', 'b'] }])
      expect(userProps(userBody('u-1', props))).to.deep.equal(props);
  });

  it("lays a delta's changed properties over the stored ones; a cleared one leaves the extension", () => {
    const stored = userBody('u-1', full);
    const item = { id: 'u-1', officeLocation: 'Building 5', businessPhones: [], city: null };
    const changed = userBody('u-1', { ...userProps(stored), ...changedUserProps(item) } as UserProps);
    expect(changed[ENTRA]).to.deep.include({ officeLocation: 'Building 5', companyName: 'Contoso' });
    expect(changed[ENTRA]).to.not.have.any.keys('businessPhones', 'city');
    // The same user listed in full by a resync gives the same body.
    expect(userBody('u-1', { ...full, officeLocation: 'Building 5', businessPhones: [], city: null })).to.deep.equal(
      changed,
    );
  });

  it("the hire date is the predefined start_date (its date), an HRIS's start date first", () => {
    expect(attributesOf(userBody('u-1', full)).start_date).to.equal('2021-03-01');
    expect(attributesOf(userBody('u-1', bare))).to.not.have.property('start_date');
    expect(attributesOf(userBody('u-1', { ...full, employeeHireDate: 'soon' }))).to.not.have.property('start_date');
    const both = {
      ...userBody('u-1', full),
      'urn:dsync:params:scim:schemas:extension:hris:2.0:User': { startDate: '2020-01-01' },
    };
    expect(attributesOf(both).start_date).to.equal('2020-01-01');
  });
});
