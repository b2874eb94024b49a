/**
 * PATCH paths (RFC 7644 §3.5.2): `attrPath`, `valuePath [subAttr]`, or a whole extension URN.
 * A path is parsed and resolved once per operation; the value filter is compiled into a
 * predicate over one value of the multi-valued attribute.
 */
import { ScimError } from './errors.js';
import type { FilterNode } from './filter/ast.js';
import { compileValueFilter, type Predicate } from './filter/evaluate.js';
import { parsePathExpression } from './filter/parser.js';
import { coerceValue } from './normalize.js';
import { type ResolvedAttribute, resolveParts } from './attribute-paths.js';
import { type ResourceType, canonicalSchemaUrn, extensionSchemas, findDef } from './schemas.js';
import { type JsonObject, findKey } from './values.js';

export interface ValueFilter {
  node: FilterNode;
  test: Predicate;
}

export type PatchPath =
  | { kind: 'attribute'; attr: ResolvedAttribute; filter?: ValueFilter }
  /** The whole extension object, e.g. `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User`. */
  | { kind: 'extension'; schema: string };

export type AttributePath = Extract<PatchPath, { kind: 'attribute' }>;

export function parsePatchPath(text: string, resourceType: ResourceType): PatchPath {
  const trimmed = text.trim();
  const urn = canonicalSchemaUrn(trimmed);
  if (urn) {
    if (extensionSchemas(resourceType).includes(urn)) return { kind: 'extension', schema: urn };
    throw ScimError.badRequest(`"${text}" is a schema, not an attribute that can be patched`, 'invalidPath');
  }
  const { filter, ...parts } = parsePathExpression(trimmed);
  const attr = resolveParts(resourceType, parts);
  if (!filter) return { kind: 'attribute', attr };
  if (attr.known && !attr.def.multiValued) {
    throw ScimError.badRequest(
      `"${attr.name}" is single-valued; a [...] filter needs a multi-valued attribute`,
      'invalidPath',
    );
  }
  const parent = attr.extension ? { uri: attr.schema, name: attr.name } : { name: attr.name };
  return { kind: 'attribute', attr, filter: { node: filter, test: compileValueFilter(filter, resourceType, parent) } };
}

/**
 * The value a filter implies for a new element: `[type eq "work"]` gives `{type: "work"}`.
 * Entra adds to `emails[type eq "work"].value` on users that have no work email yet and expects
 * the element to be created. Only plain `eq` conjunctions say what to create; otherwise undefined.
 */
export function seedFromFilter(node: FilterNode, attr: ResolvedAttribute): JsonObject | undefined {
  const terms = node.kind === 'and' ? node.children : [node];
  const seed: JsonObject = {};
  for (const term of terms) {
    if (term.kind !== 'compare' || term.op !== 'eq' || term.value === null) return undefined;
    const subDef = findDef(attr.def.subAttributes, term.path.name);
    const key = subDef?.name ?? findKey(seed, term.path.name) ?? term.path.name;
    seed[key] = subDef ? coerceValue(subDef, term.value, `${attr.name}.${subDef.name}`) : term.value;
  }
  return seed;
}
