/**
 * The HRIS providers' pure parts: each provider's employee shape read into the common one, the SCIM mapping, BambooHR's
 * webhook signature, the HTTP helpers.
 */
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { bamboohr, bamboohrEmployee } from '../../../src/providers/hris/bamboohr.js';
import { flattenList, hibobEmployee } from '../../../src/providers/hris/hibob.js';
import { providerMessage, retryAfter } from '../../../src/providers/hris/http.js';
import {
  departmentBody,
  departmentGroupId,
  ENTERPRISE_USER,
  HRIS_USER,
  userBody,
} from '../../../src/providers/hris/mapping.js';
import { personioEmployee } from '../../../src/providers/hris/personio.js';
import { PROVIDER_FIELDS, providerExtension } from '../../../src/core/custom-attributes.js';

describe('HRIS: reading each provider', () => {
  it('BambooHR: strings or null, status Active, the unknown date 0000-00-00, a numeric supervisor id', () => {
    expect(
      bamboohrEmployee({
        id: '7',
        firstName: 'Ann',
        lastName: 'Lee',
        preferredName: 'Annie',
        workEmail: ' ann@a.example ',
        status: 'Active',
        employeeNumber: '',
        jobTitle: 'CTO',
        department: 'Eng',
        division: null,
        supervisorEId: 3 as never,
        hireDate: '0000-00-00',
      }),
    ).to.deep.equal({
      id: '7',
      email: 'ann@a.example',
      firstName: 'Ann',
      lastName: 'Lee',
      displayName: 'Annie Lee',
      active: true,
      jobTitle: 'CTO',
      department: { id: 'Eng', name: 'Eng' },
      managerId: '3',
    });
    expect(bamboohrEmployee({ id: '8', status: 'Inactive' } as never)).to.deep.equal({ id: '8', active: false });
  });

  it('HiBob: the department list flattened at every level; list fields by their appended names; status Active', () => {
    const departments = flattenList([
      { id: 1, name: 'Company', children: [{ id: 2, name: 'Eng', children: [{ id: 3, value: 'Platform' }] }] },
    ]);
    expect([...departments]).to.deep.equal([
      ['1', 'Company'],
      ['2', 'Eng'],
      ['3', 'Platform'],
    ]);
    const e = hibobEmployee(
      {
        id: '9',
        email: 'b@a.example',
        firstName: 'Bo',
        surname: 'Li',
        internal: { status: 'Inactive' },
        work: {
          title: '55',
          department: '3',
          reportsTo: { id: '1' },
          startDate: '2024-01-02',
          employeeIdInCompany: 12,
        },
        humanReadable: { work: { title: 'Engineer' } },
      } as never,
      departments,
    );
    expect(e).to.deep.include({
      active: false,
      jobTitle: 'Engineer',
      department: { id: '3', name: 'Platform' },
      managerId: '1',
      startDate: '2024-01-02',
      employeeNumber: '12',
    });
  });

  it('Personio: the employment says active (ACTIVE, ONBOARDING, LEAVE), its department org unit, supervisor, the start date as a date', () => {
    const person = { id: '5', email: 'c@a.example', first_name: 'Cy', last_name: 'Ng', preferred_name: null };
    const employment = (status: string) => ({
      status,
      position: { title: 'PM' },
      supervisor: { id: '2' },
      org_units: [
        { id: '900', type: 'TEAM' },
        { id: '700', type: 'DEPARTMENT' },
      ],
      start_date: '2022-09-01T00:00:00Z',
    });
    const units = new Map([['700', 'Product']]);
    for (const status of ['ACTIVE', 'ONBOARDING', 'LEAVE'])
      expect(personioEmployee(person, employment(status), units).active, status).to.equal(true);
    expect(personioEmployee(person, employment('INACTIVE'), units)).to.deep.equal({
      id: '5',
      email: 'c@a.example',
      firstName: 'Cy',
      lastName: 'Ng',
      active: false,
      jobTitle: 'PM',
      department: { id: '700', name: 'Product' },
      managerId: '2',
      startDate: '2022-09-01',
    });
    expect(personioEmployee(person, undefined, units).active, 'no employment').to.equal(false);
  });
});

describe("HRIS: each provider's own fields (PROVIDER_FIELDS)", () => {
  const listed = (fields: Record<string, string> | undefined, provider: keyof typeof PROVIDER_FIELDS) =>
    expect(Object.keys(fields ?? {})).to.have.members([...PROVIDER_FIELDS[provider]]);

  it('BambooHR: location, the current employment status (employmentHistoryStatus), work phone, country; empty ones left out', () => {
    const r = {
      id: '7',
      status: 'Active',
      location: 'HQ',
      employmentHistoryStatus: 'Full-Time',
      workPhone: ' +1 555 0100 ',
      country: 'United States',
    };
    const e = bamboohrEmployee(r as never);
    expect(e.fields).to.deep.equal({
      location: 'HQ',
      employmentStatus: 'Full-Time',
      workPhone: '+1 555 0100',
      country: 'United States',
    });
    listed(e.fields, 'bamboohr');
    expect(
      bamboohrEmployee({ ...r, location: '', employmentHistoryStatus: null, workPhone: null, country: ' ' } as never),
    ).to.not.have.property('fields');
  });

  it("HiBob: site and employment type by their appended names (else their ids), work phone, the address's country", () => {
    const p = {
      id: '9',
      internal: { status: 'Active' },
      work: { site: '310000000', workPhone: '+44 20 7946 0000' },
      payroll: { employment: { type: '310000001' } },
      address: { country: 'United Kingdom' },
      humanReadable: { work: { site: 'London' }, payroll: { employment: { type: 'Permanent' } } },
    };
    const e = hibobEmployee(p as never, new Map());
    expect(e.fields).to.deep.equal({
      site: 'London',
      employmentType: 'Permanent',
      workPhone: '+44 20 7946 0000',
      country: 'United Kingdom',
    });
    listed(e.fields, 'hibob');
    expect(hibobEmployee({ ...p, humanReadable: null } as never, new Map()).fields).to.deep.include({
      site: '310000000',
      employmentType: '310000001',
    });
    expect(hibobEmployee({ id: '9', work: { site: null } } as never, new Map())).to.not.have.property('fields');
  });

  it("Personio: the employment's office (by id) and type", () => {
    const person = { id: '5', email: 'c@a.example', first_name: 'Cy', last_name: 'Ng', preferred_name: null };
    const e = personioEmployee(
      person,
      { status: 'ACTIVE', office: { id: '41' }, type: 'INTERNAL' } as never,
      new Map(),
    );
    expect(e.fields).to.deep.equal({ office: '41', employmentType: 'INTERNAL' });
    listed(e.fields, 'personio');
    expect(
      personioEmployee(person, { status: 'ACTIVE', office: null, type: null } as never, new Map()),
    ).to.not.have.property('fields');
  });
});

describe('HRIS: the SCIM mapping', () => {
  it('an employee with a work email is a user (the enterprise extension and the start date where they go); one without is none', () => {
    expect(userBody('bamboohr', { id: '1', active: true, firstName: 'A' })).to.equal(undefined);
    const body = userBody('bamboohr', {
      id: '1',
      email: 'a@x.example',
      firstName: 'A',
      lastName: 'B',
      active: false,
      jobTitle: 'T',
      employeeNumber: 'E1',
      department: { id: 'd', name: 'Eng' },
      managerId: '2',
      startDate: '2020-01-01',
    })!;
    expect(body).to.deep.include({
      userName: 'a@x.example',
      externalId: '1',
      displayName: 'A B',
      active: false,
      title: 'T',
    });
    expect(body[ENTERPRISE_USER]).to.deep.equal({ employeeNumber: 'E1', department: 'Eng', manager: { value: '2' } });
    expect(body[HRIS_USER]).to.deep.equal({ startDate: '2020-01-01' });
    expect(body.schemas).to.deep.equal(['urn:ietf:params:scim:schemas:core:2.0:User', ENTERPRISE_USER, HRIS_USER]);
    expect(userBody('bamboohr', { id: '1', email: 'a@x.example', active: true })!.schemas).to.deep.equal([
      'urn:ietf:params:scim:schemas:core:2.0:User',
    ]);
  });

  it("the provider's own fields go into its extension, which is named in schemas; none, no extension", () => {
    const fields = { site: 'London', employmentType: 'Permanent' };
    const body = userBody('hibob', { id: '1', email: 'a@x.example', active: true, fields })!;
    expect(body[providerExtension('hibob')]).to.deep.equal(fields);
    expect(body.schemas).to.deep.equal(['urn:ietf:params:scim:schemas:core:2.0:User', providerExtension('hibob')]);
    expect(
      userBody('personio', { id: '1', email: 'a@x.example', active: true, fields: { office: '41' } }),
    ).to.have.property(providerExtension('personio'));
    expect(
      Object.keys(userBody('hibob', { id: '1', email: 'a@x.example', active: true })!).filter((k) =>
        k.startsWith('urn:'),
      ),
    ).to.deep.equal([]);
  });

  it("a department's group id is stable, and differs across providers for the same key", () => {
    expect(departmentGroupId('bamboohr', 'Eng'))
      .to.equal(departmentGroupId('bamboohr', 'Eng'))
      .and.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(departmentGroupId('bamboohr', 'Eng')).to.not.equal(departmentGroupId('hibob', 'Eng'));
    expect(departmentBody('hibob', { id: '3', name: 'Platform' })).to.deep.include({
      displayName: 'Platform',
      externalId: 'hibob:3',
    });
  });
});

describe("HRIS: BambooHR's webhook signature", () => {
  const c = { subdomain: 'acme', api_key: 'k', webhook_secret: 'secret' };
  const now = 1_800_000_000_000;
  const call = (body: string, ts: string, key = 'secret', sig?: string) => ({
    headers: {
      'x-bamboohr-timestamp': ts,
      'x-bamboohr-signature':
        sig ??
        createHmac('sha256', key)
          .update(body + ts)
          .digest('hex'),
    },
    body: Buffer.from(body),
  });
  it('checks out when signed with the key over the body then the timestamp, within 5 minutes', () => {
    const ts = String(now / 1000);
    expect(bamboohr.verifyWebhook(c, call('{"employees":[]}', ts), now)).to.equal(undefined);
    expect(bamboohr.verifyWebhook(c, call('{"employees":[]}', ts, 'other'), now)).to.equal(
      'X-BambooHR-Signature does not match',
    );
    const b64 = createHmac('sha256', 'secret').update(`{}${ts}`).digest('base64');
    expect(bamboohr.verifyWebhook(c, call('{}', ts, 'secret', b64), now), 'base64 too').to.equal(undefined);
    expect(bamboohr.verifyWebhook(c, call('{"employees":[]}', String(now / 1000 - 301)), now)).to.equal(
      'X-BambooHR-Timestamp is not a current time',
    );
    expect(bamboohr.verifyWebhook(c, call('{}', ts, 'secret', 'zz'), now)).to.equal(
      'X-BambooHR-Signature does not match',
    );
    expect(bamboohr.verifyWebhook({ subdomain: 'acme', api_key: 'k' }, call('{}', ts), now)).to.match(
      /no webhook private key/,
    );
    expect(bamboohr.verifyWebhook(c, { headers: {}, body: Buffer.from('{}') }, now)).to.match(/are required/);
  });
});

describe('HRIS: HTTP helpers', () => {
  it('Retry-After as seconds or an HTTP date', () => {
    expect(retryAfter('7')).to.equal(7000);
    expect(retryAfter(null)).to.equal(undefined);
    expect(retryAfter('soon')).to.equal(undefined);
    const later = retryAfter(new Date(Date.now() + 60_000).toUTCString())!;
    expect(later).to.be.greaterThan(55_000).and.at.most(60_000);
  });

  it("the provider's message, from its JSON error shapes or its text", () => {
    expect(providerMessage('{"error":"invalid_client","error_description":"Client authentication failed"}')).to.equal(
      'Client authentication failed',
    );
    expect(providerMessage('{"errors":[{"title":"Unauthorized","detail":"The access token is invalid"}]}')).to.equal(
      'The access token is invalid',
    );
    expect(providerMessage('<html><body><h1>Bad  gateway</h1></body></html>')).to.equal('Bad gateway');
    expect(providerMessage('x'.repeat(500))).to.have.length(200);
  });
});
