/**
 * Attribute paths (`[urn ":"] name ["." sub]`, RFC 7644 §3.10) split and resolved against the schemas: the one
 * way everything else turns a path or a body key into a definition.
 */
import { ScimError } from './errors.js';
import {
  type AttributeDef,
  type ResourceType,
  canonicalSchemaUrn,
  findDef,
  resourceSchemas,
  SCHEMA_DEFS,
  unknownAttribute,
} from './schemas.js';
import { isForbiddenName } from './values.js';

export interface ResolvedAttribute {
  /** URN of the schema owning the attribute; the core URN for core and common attributes. */
  schema: string;
  /** True when the value lives under `resource[schema]` rather than at the top level. */
  extension: boolean;
  /** Canonical name of the top-level attribute (as given, for unknown attributes). */
  name: string;
  /** Canonical sub-attribute name, when the path names one. */
  sub?: string;
  /** Definition of the top-level attribute. */
  def: AttributeDef;
  /** Definition of the sub-attribute, when `sub` names one the schema defines. */
  subDef?: AttributeDef;
  /** False for attributes no schema defines; they behave as case-insensitive strings. */
  known: boolean;
}

/** An attribute path split into its parts: `[urn ":"] name ["." sub]` (RFC 7644 §3.10). */
export interface AttrPathParts {
  uri?: string;
  name: string;
  sub?: string;
}

const ATTR_NAME = /^[A-Za-z_$][\w$-]*$/;

/** The lower-case prefix of the attributes each schema qualifies. */
const SCHEMA_PREFIXES = SCHEMA_DEFS.map((s) => ({ id: s.id, prefix: `${s.id.toLowerCase()}:` }));

/**
 * Split `urn:...:name.sub`. A URN contains colons and dots (`...:enterprise:2.0:User`), so known
 * schema URNs are matched first, case-insensitively; an unknown URN ends at the last colon.
 * Returns undefined when the text is not an attribute path.
 */
export function splitAttrPath(text: string): AttrPathParts | undefined {
  let uri: string | undefined;
  let rest = text;
  if (/^urn:/i.test(text)) {
    const lower = text.toLowerCase();
    const known = SCHEMA_PREFIXES.find((s) => lower.startsWith(s.prefix));
    if (known) {
      uri = known.id;
      rest = text.slice(known.id.length + 1);
    } else {
      const colon = text.lastIndexOf(':');
      uri = text.slice(0, colon);
      rest = text.slice(colon + 1);
    }
  }
  const [name, sub, extra] = rest.split('.');
  if (name === undefined || !ATTR_NAME.test(name) || extra !== undefined) return undefined;
  if (sub !== undefined && !ATTR_NAME.test(sub)) return undefined;
  // Assigned, not spread: a spread-first literal is Node 20's slow path, and PATCH paths and filters split here.
  const parts: AttrPathParts = { name };
  if (uri) parts.uri = uri;
  if (sub !== undefined) parts.sub = sub;
  return parts;
}

/**
 * Resolve already-split path parts. Never fails: an attribute no schema defines resolves as
 * an unknown string (IdPs send custom attributes and must be able to read them back).
 * Unqualified names resolve against the core schema only, as RFC 7644 §3.10 prescribes.
 */
export function resolveParts(resourceType: ResourceType, parts: AttrPathParts): ResolvedAttribute {
  // Every attribute path is resolved here, so this one check keeps `__proto__.x` from reaching Object.prototype.
  for (const name of [parts.name, parts.sub]) {
    if (name !== undefined && isForbiddenName(name))
      throw ScimError.badRequest(`"${name}" is not an allowed attribute name`, 'invalidPath');
  }
  const { core, extensions, unqualified } = resourceSchemas(resourceType);
  let schema = core.id;
  let defs = unqualified;
  const urn = parts.uri === undefined ? undefined : (canonicalSchemaUrn(parts.uri) ?? parts.uri);
  if (urn !== undefined && urn !== core.id) {
    const ext = extensions.find((s) => s.id === urn);
    schema = ext?.id ?? parts.uri!; // an unknown URN as the client spelled it
    defs = ext?.attributes ?? [];
  }
  const extension = schema !== core.id;
  const def = findDef(defs, parts.name);
  if (!def) {
    const unknown: ResolvedAttribute = {
      schema,
      extension,
      name: parts.name,
      def: unknownAttribute(parts.name),
      known: false,
    };
    if (parts.sub !== undefined) unknown.sub = parts.sub;
    return unknown;
  }
  const resolved: ResolvedAttribute = { schema, extension, name: def.name, def, known: true };
  if (parts.sub !== undefined) {
    const subDef = findDef(def.subAttributes, parts.sub);
    resolved.sub = subDef?.name ?? parts.sub;
    if (subDef) resolved.subDef = subDef;
  }
  return resolved;
}

/**
 * Body keys resolved per resource type: the same few dozen arrive with every write. Bounded, as keys are the client's.
 */
const resolvedKeys: Record<ResourceType, Map<string, Readonly<ResolvedAttribute> | null>> = {
  User: new Map(),
  Group: new Map(),
};
const RESOLVED_KEYS_KEPT = 1_000;

/**
 * `resolveParts(splitAttrPath(key))` of a body key (undefined when it is no attribute path), remembered; the
 * answer is frozen, as it is shared. A forbidden name throws as `resolveParts` does, and is not remembered.
 */
export function resolveKey(resourceType: ResourceType, key: string): Readonly<ResolvedAttribute> | undefined {
  const known = resolvedKeys[resourceType];
  const hit = known.get(key);
  if (hit !== undefined) return hit ?? undefined;
  const parts = splitAttrPath(key);
  const attr = parts ? Object.freeze(resolveParts(resourceType, parts)) : null;
  if (known.size < RESOLVED_KEYS_KEPT) known.set(key, attr);
  return attr ?? undefined;
}

/**
 * Resolve a textual attribute path such as `userName`, `name.givenName`,
 * `urn:ietf:params:scim:schemas:core:2.0:User:name.givenName` or
 * `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value`.
 * Throws 400 invalidPath when the text is not an attribute path at all.
 */
export function resolveAttribute(resourceType: ResourceType, path: string): ResolvedAttribute {
  const parts = splitAttrPath(path.trim());
  if (!parts) throw ScimError.badRequest(`"${path}" is not a valid attribute path`, 'invalidPath');
  return resolveParts(resourceType, parts);
}
