/**
 * Attribute definitions for the resources we serve (RFC 7643 §3.1, §4, §8.7.1) and their lookups; attribute
 * paths are resolved against them in attribute-paths.ts. Attribute names and schema URNs are case-insensitive
 * (RFC 7643 §2.1), so every lookup here is too.
 */

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export type ResourceType = 'User' | 'Group';
export type AttributeType =
  | 'string'
  | 'boolean'
  | 'decimal'
  | 'integer'
  | 'dateTime'
  | 'reference'
  | 'complex'
  | 'binary';
export type Mutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
export type Returned = 'always' | 'never' | 'default' | 'request';
export type Uniqueness = 'none' | 'server' | 'global';

export interface AttributeDef {
  readonly name: string;
  readonly type: AttributeType;
  readonly multiValued: boolean;
  readonly description: string;
  readonly required: boolean;
  readonly caseExact: boolean;
  readonly mutability: Mutability;
  readonly returned: Returned;
  readonly uniqueness: Uniqueness;
  readonly canonicalValues?: readonly string[];
  readonly referenceTypes?: readonly string[];
  readonly subAttributes?: readonly AttributeDef[];
}

export interface SchemaDef {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly attributes: readonly AttributeDef[];
}

type Traits = Partial<Omit<AttributeDef, 'name' | 'type' | 'description'>>;

function attr(name: string, type: AttributeType, description: string, traits: Traits = {}): AttributeDef {
  return {
    name,
    type,
    multiValued: false,
    description,
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...traits,
  };
}

function complex(name: string, description: string, subAttributes: AttributeDef[], traits: Traits = {}): AttributeDef {
  return attr(name, 'complex', description, { ...traits, subAttributes });
}

/** The value/display/type/primary shape RFC 7643 §2.4 gives most multi-valued attributes. */
function multi(name: string, description: string, opts: { value?: AttributeDef; types?: string[] } = {}): AttributeDef {
  return complex(
    name,
    description,
    [
      opts.value ?? attr('value', 'string', `The value of the ${name} entry.`),
      attr('display', 'string', 'A human-readable name, primarily used for display purposes.'),
      attr(
        'type',
        'string',
        `A label indicating the ${name} entry's function.`,
        opts.types ? { canonicalValues: opts.types } : {},
      ),
      attr('primary', 'boolean', 'Whether this is the preferred entry. At most one entry may be primary.'),
    ],
    { multiValued: true },
  );
}

const USER: SchemaDef = {
  id: USER_SCHEMA,
  name: 'User',
  description: 'User Account',
  attributes: [
    attr('userName', 'string', 'Unique identifier for the User, used by the user to directly authenticate.', {
      required: true,
      uniqueness: 'server',
    }),
    complex('name', "The components of the user's real name.", [
      attr('formatted', 'string', 'The full name, formatted for display.'),
      attr('familyName', 'string', 'The family name of the User, or last name.'),
      attr('givenName', 'string', 'The given name of the User, or first name.'),
      attr('middleName', 'string', 'The middle name(s) of the User.'),
      attr('honorificPrefix', 'string', 'The honorific prefix(es) of the User, or title.'),
      attr('honorificSuffix', 'string', 'The honorific suffix(es) of the User, or suffix.'),
    ]),
    attr('displayName', 'string', 'The name of the User, suitable for display to end-users.'),
    attr('nickName', 'string', 'The casual way to address the user in real life.'),
    attr(
      'profileUrl',
      'reference',
      "A fully qualified URL pointing to a page representing the User's online profile.",
      {
        referenceTypes: ['external'],
      },
    ),
    attr('title', 'string', 'The user\'s title, such as "Vice President".'),
    attr('userType', 'string', 'Used to identify the relationship between the organization and the user.'),
    attr('preferredLanguage', 'string', "The User's preferred written or spoken language."),
    attr('locale', 'string', "The User's default location for localizing currency, dates and numbers."),
    attr('timezone', 'string', "The User's time zone in the 'Olson' time zone database format."),
    attr('active', 'boolean', "The User's administrative status."),
    attr('password', 'string', "The User's cleartext password. Accepted and discarded: never stored or returned.", {
      mutability: 'writeOnly',
      returned: 'never',
    }),
    multi('emails', 'Email addresses for the user.', { types: ['work', 'home', 'other'] }),
    multi('phoneNumbers', 'Phone numbers for the User.', {
      types: ['work', 'home', 'mobile', 'fax', 'pager', 'other'],
    }),
    multi('ims', 'Instant messaging addresses for the User.', {
      types: ['aim', 'gtalk', 'icq', 'xmpp', 'msn', 'skype', 'qq', 'yahoo'],
    }),
    multi('photos', 'URLs of photos of the User.', {
      value: attr('value', 'reference', 'URL of a photo of the User.', { referenceTypes: ['external'] }),
      types: ['photo', 'thumbnail'],
    }),
    complex(
      'addresses',
      'A physical mailing address for this User.',
      [
        attr('formatted', 'string', 'The full mailing address, formatted for display.'),
        attr('streetAddress', 'string', 'The full street address component.'),
        attr('locality', 'string', 'The city or locality component.'),
        attr('region', 'string', 'The state or region component.'),
        attr('postalCode', 'string', 'The zip code or postal code component.'),
        attr('country', 'string', 'The country name component.'),
        attr('type', 'string', "A label indicating the address's function.", {
          canonicalValues: ['work', 'home', 'other'],
        }),
        attr('primary', 'boolean', 'Whether this is the preferred address.'),
      ],
      { multiValued: true },
    ),
    complex(
      'groups',
      'Groups the user belongs to, derived from Group membership.',
      [
        attr('value', 'string', 'The identifier of the Group.', { mutability: 'readOnly' }),
        attr('$ref', 'reference', 'The URI of the corresponding Group resource.', {
          referenceTypes: ['User', 'Group'],
          mutability: 'readOnly',
        }),
        attr('display', 'string', 'A human-readable name for the Group.', { mutability: 'readOnly' }),
        attr('type', 'string', 'Whether the membership is direct or inherited.', {
          canonicalValues: ['direct', 'indirect'],
          mutability: 'readOnly',
        }),
      ],
      { multiValued: true, mutability: 'readOnly' },
    ),
    multi('entitlements', 'Entitlements the User has.'),
    multi('roles', 'Roles the User has.'),
    multi('x509Certificates', 'X.509 certificates issued to the User.', {
      value: attr('value', 'binary', 'The value of an X.509 certificate (base64 DER).'),
    }),
  ],
};

const ENTERPRISE_USER: SchemaDef = {
  id: ENTERPRISE_USER_SCHEMA,
  name: 'EnterpriseUser',
  description: 'Enterprise User',
  attributes: [
    attr('employeeNumber', 'string', 'Numeric or alphanumeric identifier assigned to a person by the organization.'),
    attr('costCenter', 'string', 'Identifies the name of a cost center.'),
    attr('organization', 'string', 'Identifies the name of an organization.'),
    attr('division', 'string', 'Identifies the name of a division.'),
    attr('department', 'string', 'Identifies the name of a department.'),
    complex('manager', "The User's manager.", [
      attr('value', 'string', 'The id of the SCIM resource representing the manager.'),
      attr('$ref', 'reference', 'The URI of the SCIM resource representing the manager.', { referenceTypes: ['User'] }),
      attr('displayName', 'string', 'The displayName of the manager.', { mutability: 'readOnly' }),
    ]),
  ],
};

const GROUP: SchemaDef = {
  id: GROUP_SCHEMA,
  name: 'Group',
  description: 'Group',
  attributes: [
    attr('displayName', 'string', 'A human-readable name for the Group.', { required: true }),
    complex(
      'members',
      'A list of members of the Group.',
      [
        attr('value', 'string', 'Identifier of the member of this Group.', { mutability: 'immutable' }),
        attr('$ref', 'reference', 'The URI corresponding to a SCIM resource that is a member of this Group.', {
          referenceTypes: ['User', 'Group'],
          mutability: 'immutable',
        }),
        // Rendered from the member itself rather than stored: what a client sends is not kept.
        attr(
          'display',
          'string',
          "A human-readable name for the member (kept as the client sent it; otherwise the user's displayName or userName).",
        ),
        attr('type', 'string', 'A label indicating the type of resource.', {
          canonicalValues: ['User', 'Group'],
          mutability: 'immutable',
        }),
      ],
      { multiValued: true },
    ),
  ],
};

/**
 * RFC 7643 §3.1 common attributes. They belong to no schema document, but they are addressable
 * under the core URN and filterable (`id eq`, `meta.lastModified gt`), so they resolve like core ones.
 */
const COMMON: readonly AttributeDef[] = [
  attr('id', 'string', 'Unique identifier for the resource, assigned by the service provider.', {
    caseExact: true,
    mutability: 'readOnly',
    returned: 'always',
    uniqueness: 'server',
  }),
  attr('externalId', 'string', 'Identifier for the resource as defined by the provisioning client.', {
    caseExact: true,
  }),
  complex(
    'meta',
    'Resource metadata.',
    [
      attr('resourceType', 'string', 'The name of the resource type of the resource.', {
        caseExact: true,
        mutability: 'readOnly',
      }),
      attr('created', 'dateTime', 'When the resource was added to the service provider.', { mutability: 'readOnly' }),
      attr('lastModified', 'dateTime', 'When the resource was last updated.', { mutability: 'readOnly' }),
      attr('location', 'reference', 'The URI of the resource.', { referenceTypes: ['uri'], mutability: 'readOnly' }),
      attr('version', 'string', 'The version (weak ETag) of the resource.', {
        caseExact: true,
        mutability: 'readOnly',
      }),
    ],
    { mutability: 'readOnly' },
  ),
  attr('schemas', 'reference', 'The schema URNs the resource conforms to; maintained by the server.', {
    multiValued: true,
    mutability: 'readOnly',
    returned: 'always',
    referenceTypes: ['uri'],
  }),
];

/** Core schema first, then its extensions, per resource type; `unqualified`: what a name without a URN can name. */
const RESOURCE_SCHEMAS: Record<
  ResourceType,
  { core: SchemaDef; extensions: readonly SchemaDef[]; unqualified: readonly AttributeDef[] }
> = {
  User: { core: USER, extensions: [ENTERPRISE_USER], unqualified: [...USER.attributes, ...COMMON] },
  Group: { core: GROUP, extensions: [], unqualified: [...GROUP.attributes, ...COMMON] },
};

/** Everything /Schemas publishes, in publication order. */
export const SCHEMA_DEFS: readonly SchemaDef[] = [USER, ENTERPRISE_USER, GROUP];

/** A resource type's core schema, its extensions, and the definitions its unqualified names resolve against. */
export function resourceSchemas(resourceType: ResourceType): (typeof RESOURCE_SCHEMAS)[ResourceType] {
  return RESOURCE_SCHEMAS[resourceType];
}

export function coreSchema(resourceType: ResourceType): string {
  return RESOURCE_SCHEMAS[resourceType].core.id;
}

export function extensionSchemas(resourceType: ResourceType): readonly string[] {
  return RESOURCE_SCHEMAS[resourceType].extensions.map((s) => s.id);
}

/** Each schema's id by its lower case. */
const SCHEMA_IDS = new Map(SCHEMA_DEFS.map((s) => [s.id.toLowerCase(), s.id]));

/** Canonical spelling of a schema URN this server knows, or undefined. */
export function canonicalSchemaUrn(urn: string): string | undefined {
  // Every PATCH path and body key is asked: most are no URN at all.
  return urn.length > 4 && (urn[0] === 'u' || urn[0] === 'U') ? SCHEMA_IDS.get(urn.toLowerCase()) : undefined;
}

/** Each definition list by lower-cased name, made when first asked: every attribute of every write is looked up. */
const byName = new WeakMap<readonly AttributeDef[], Map<string, AttributeDef>>();

/** The definition named `name` (any case) in `defs`. */
export function findDef(defs: readonly AttributeDef[] | undefined, name: string): AttributeDef | undefined {
  if (!defs) return undefined;
  let index = byName.get(defs);
  if (!index) {
    index = new Map();
    for (const d of defs) if (!index.has(d.name.toLowerCase())) index.set(d.name.toLowerCase(), d);
    byName.set(defs, index);
  }
  return index.get(name.toLowerCase());
}

/** The generic definition unknown attributes get: a single-valued, case-insensitive string. */
export function unknownAttribute(name: string): AttributeDef {
  return attr(name, 'string', 'Attribute not defined by any schema; stored as sent.');
}
