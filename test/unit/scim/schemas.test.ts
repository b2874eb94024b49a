import { expect } from 'chai';
import { resourceTypes, schemasDocs, serviceProviderConfig } from '../../../src/scim/discovery.js';
import { resolveAttribute } from '../../../src/scim/attribute-paths.js';
import {
  ENTERPRISE_USER_SCHEMA,
  GROUP_SCHEMA,
  LIST_RESPONSE_SCHEMA,
  PATCH_OP_SCHEMA,
  USER_SCHEMA,
} from '../../../src/scim/schemas.js';
import { expectScimError } from './expect-scim-error.js';

describe('scim schemas', () => {
  it('exports the message URNs', () => {
    expect(LIST_RESPONSE_SCHEMA).to.equal('urn:ietf:params:scim:api:messages:2.0:ListResponse');
    expect(PATCH_OP_SCHEMA).to.equal('urn:ietf:params:scim:api:messages:2.0:PatchOp');
  });

  describe('resolveAttribute', () => {
    it('resolves core attributes case-insensitively to their canonical names', () => {
      const attr = resolveAttribute('User', 'USERNAME');
      expect(attr).to.deep.include({ schema: USER_SCHEMA, name: 'userName', extension: false, known: true });
      expect(attr.def).to.deep.include({ type: 'string', caseExact: false, uniqueness: 'server', required: true });
    });

    it('resolves sub-attributes and URN-qualified paths', () => {
      const attr = resolveAttribute('User', 'urn:ietf:params:scim:schemas:core:2.0:user:NAME.givenname');
      expect(attr).to.deep.include({ schema: USER_SCHEMA, name: 'name', sub: 'givenName' });
      expect(attr.def.type).to.equal('complex');
      expect(attr.subDef).to.deep.include({ name: 'givenName', type: 'string' });
    });

    it('resolves enterprise extension attributes', () => {
      const attr = resolveAttribute('User', `${ENTERPRISE_USER_SCHEMA.toUpperCase()}:manager.$REF`);
      expect(attr).to.deep.include({ schema: ENTERPRISE_USER_SCHEMA, extension: true, name: 'manager', sub: '$ref' });
      expect(attr.subDef).to.deep.include({ type: 'reference' });
      expect(attr.subDef!.referenceTypes).to.deep.equal(['User']);
    });

    it('resolves the common attributes id, externalId and meta', () => {
      expect(resolveAttribute('User', 'id').def).to.deep.include({
        caseExact: true,
        mutability: 'readOnly',
        returned: 'always',
      });
      expect(resolveAttribute('Group', 'externalId').def).to.deep.include({ caseExact: true });
      expect(resolveAttribute('Group', 'meta.lastModified').subDef).to.deep.include({ type: 'dateTime' });
    });

    it('describes multi-valued, boolean, write-only and read-only attributes', () => {
      expect(resolveAttribute('User', 'emails').def).to.deep.include({ multiValued: true, type: 'complex' });
      expect(resolveAttribute('User', 'emails.primary').subDef).to.deep.include({ type: 'boolean' });
      expect(resolveAttribute('User', 'password').def).to.deep.include({ mutability: 'writeOnly', returned: 'never' });
      expect(resolveAttribute('User', 'groups').def).to.deep.include({ mutability: 'readOnly' });
      expect(resolveAttribute('Group', 'members.value').def).to.deep.include({ multiValued: true });
    });

    it('resolves unknown attributes as generic strings, keeping the given casing', () => {
      const attr = resolveAttribute('User', 'CostCenterCode.Sub');
      expect(attr).to.deep.include({ name: 'CostCenterCode', sub: 'Sub', known: false, extension: false });
      expect(attr.def).to.deep.include({ type: 'string', caseExact: false, multiValued: false });
      expect(resolveAttribute('User', 'urn:example:ext:1.0:badge')).to.deep.include({
        schema: 'urn:example:ext:1.0',
        extension: true,
        name: 'badge',
        known: false,
      });
    });

    it('keeps resource types apart', () => {
      expect(resolveAttribute('Group', 'userName').known).to.equal(false);
      expect(resolveAttribute('Group', 'displayName').def.required).to.equal(true);
      expect(resolveAttribute('Group', `${GROUP_SCHEMA}:members`).known).to.equal(true);
    });

    it('rejects text that is not an attribute path', () => {
      for (const path of ['', 'a.b.c', '1abc', 'emails[type eq "work"]']) {
        expectScimError(() => resolveAttribute('User', path), 'invalidPath');
      }
    });
  });

  describe('discovery documents', () => {
    const base = 'https://dsync.example.com/scim/v2/dir_1/';

    it('describes the service provider', () => {
      const spc = serviceProviderConfig(base);
      expect(spc).to.deep.include({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
        patch: { supported: true },
        bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
        filter: { supported: true, maxResults: 1000 },
        changePassword: { supported: false },
        sort: { supported: false },
        etag: { supported: true },
        meta: {
          location: 'https://dsync.example.com/scim/v2/dir_1/ServiceProviderConfig',
          resourceType: 'ServiceProviderConfig',
        },
      });
      expect(spc.authenticationSchemes).to.deep.equal([
        {
          type: 'oauthbearertoken',
          name: 'OAuth Bearer Token',
          description: 'Authentication scheme using the OAuth Bearer Token Standard',
          specUri: 'https://www.rfc-editor.org/rfc/rfc6750',
          primary: true,
        },
      ]);
    });

    it('lists the User and Group resource types', () => {
      const types = resourceTypes(base);
      expect(types.map((t) => t.id)).to.deep.equal(['User', 'Group']);
      expect(types[0]).to.deep.include({
        endpoint: '/Users',
        schema: USER_SCHEMA,
        schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
        meta: { location: 'https://dsync.example.com/scim/v2/dir_1/ResourceTypes/User', resourceType: 'ResourceType' },
      });
      expect(types[1]).to.deep.include({ endpoint: '/Groups', schema: GROUP_SCHEMA });
    });

    it('publishes every attribute with all its characteristics', () => {
      const docs = schemasDocs(base);
      expect(docs.map((d) => d.id)).to.deep.equal([USER_SCHEMA, ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA]);
      const keys = [
        'name',
        'type',
        'multiValued',
        'description',
        'required',
        'caseExact',
        'mutability',
        'returned',
        'uniqueness',
      ];
      const visit = (attrs: Record<string, unknown>[]): number =>
        attrs.reduce((n, a) => {
          expect(a).to.include.all.keys(...keys);
          if (a.type === 'complex') {
            expect(a.subAttributes, String(a.name)).to.be.an('array').that.is.not.empty;
            return n + 1 + visit(a.subAttributes as Record<string, unknown>[]);
          }
          expect(a).to.not.have.property('subAttributes');
          if (a.type === 'reference') expect(a.referenceTypes, String(a.name)).to.be.an('array').that.is.not.empty;
          return n + 1;
        }, 0);
      for (const doc of docs) {
        expect(doc.schemas).to.deep.equal(['urn:ietf:params:scim:schemas:core:2.0:Schema']);
        const location = `https://dsync.example.com/scim/v2/dir_1/Schemas/${String(doc.id)}`;
        expect(doc.meta).to.deep.equal({ resourceType: 'Schema', location });
        expect(visit(doc.attributes as Record<string, unknown>[])).to.be.greaterThan(5);
      }
    });

    it('covers the RFC 7643 User, Enterprise User and Group attributes', () => {
      const names = (id: string) =>
        (schemasDocs(base).find((d) => d.id === id)!.attributes as { name: string }[]).map((a) => a.name);
      expect(names(USER_SCHEMA)).to.have.members([
        'userName',
        'name',
        'displayName',
        'nickName',
        'profileUrl',
        'title',
        'userType',
        'preferredLanguage',
        'locale',
        'timezone',
        'active',
        'password',
        'emails',
        'phoneNumbers',
        'ims',
        'photos',
        'addresses',
        'groups',
        'entitlements',
        'roles',
        'x509Certificates',
      ]);
      expect(names(ENTERPRISE_USER_SCHEMA)).to.have.members([
        'employeeNumber',
        'costCenter',
        'organization',
        'division',
        'department',
        'manager',
      ]);
      expect(names(GROUP_SCHEMA)).to.have.members(['displayName', 'members']);
    });
  });
});
