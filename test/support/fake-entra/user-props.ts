/** Graph user properties for tests: a user with none of the optional ones, and one value of each of Entra's own. */

/** The optional properties a Graph user without them has (null; the one collection empty). */
export const NO_OPTIONAL_PROPS = {
  jobTitle: null,
  employeeId: null,
  department: null,
  employeeOrgData: null,
  officeLocation: null,
  companyName: null,
  employeeType: null,
  employeeHireDate: null,
  city: null,
  state: null,
  country: null,
  usageLocation: null,
  preferredLanguage: null,
  mobilePhone: null,
  businessPhones: [] as string[],
  onPremisesSamAccountName: null,
  manager: null,
};

/** Entra's own properties (`entra:<property>`) as Graph sends them. */
export const OWN_PROPS = {
  officeLocation: 'Building 4',
  companyName: 'Contoso',
  employeeType: 'Employee',
  employeeHireDate: '2021-03-01T00:00:00Z',
  city: 'Redmond',
  state: 'WA',
  country: 'United States',
  usageLocation: 'US',
  preferredLanguage: 'en-US',
  mobilePhone: '+1 425 555 0101',
  businessPhones: ['+1 425 555 0100'],
  onPremisesSamAccountName: 'ann',
};
