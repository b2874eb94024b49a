/**
 * Discovery documents (RFC 7643 §5–7, RFC 7644 §4). They are generated from the same attribute
 * definitions the filter, PATCH and projection code use, so what we advertise is what we do.
 * /Schemas and /ResourceTypes are returned as arrays; the caller wraps them in a ListResponse.
 */
import { type AttributeDef, ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, SCHEMA_DEFS, USER_SCHEMA } from './schemas.js';

const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

/** Filters are evaluated in memory after an index lookup; this caps one page. */
export const MAX_FILTER_RESULTS = 1000;

const trim = (baseUrl: string): string => baseUrl.replace(/\/+$/, '');

export function serviceProviderConfig(baseUrl: string): Record<string, unknown> {
  return {
    schemas: [SPC_SCHEMA],
    documentationUri: 'https://www.rfc-editor.org/rfc/rfc7644',
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_FILTER_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: 'Authentication scheme using the OAuth Bearer Token Standard',
        specUri: 'https://www.rfc-editor.org/rfc/rfc6750',
        primary: true,
      },
    ],
    meta: { location: `${trim(baseUrl)}/ServiceProviderConfig`, resourceType: 'ServiceProviderConfig' },
  };
}

export function resourceTypes(baseUrl: string): Record<string, unknown>[] {
  const base = trim(baseUrl);
  return [
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'User Account',
      schema: USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
      meta: { location: `${base}/ResourceTypes/User`, resourceType: 'ResourceType' },
    },
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'Group',
      schema: GROUP_SCHEMA,
      schemaExtensions: [],
      meta: { location: `${base}/ResourceTypes/Group`, resourceType: 'ResourceType' },
    },
  ];
}

export function schemasDocs(baseUrl: string): Record<string, unknown>[] {
  const base = trim(baseUrl);
  return SCHEMA_DEFS.map((schema) => ({
    schemas: [SCHEMA_SCHEMA],
    id: schema.id,
    name: schema.name,
    description: schema.description,
    attributes: schema.attributes.map(attributeDoc),
    meta: { location: `${base}/Schemas/${schema.id}`, resourceType: 'Schema' },
  }));
}

/** RFC 7643 §7 attribute representation; every characteristic spelled out, none left to defaults. */
function attributeDoc(def: AttributeDef): Record<string, unknown> {
  return {
    name: def.name,
    type: def.type,
    multiValued: def.multiValued,
    description: def.description,
    required: def.required,
    caseExact: def.caseExact,
    mutability: def.mutability,
    returned: def.returned,
    uniqueness: def.uniqueness,
    ...(def.canonicalValues ? { canonicalValues: [...def.canonicalValues] } : {}),
    ...(def.referenceTypes ? { referenceTypes: [...def.referenceTypes] } : {}),
    ...(def.subAttributes ? { subAttributes: def.subAttributes.map(attributeDoc) } : {}),
  };
}
