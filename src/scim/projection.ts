/**
 * `attributes` / `excludedAttributes` (RFC 7644 §3.4.2.5, §3.9) applied to a rendered resource.
 * Paths are case-insensitive and may be URN-qualified or name sub-attributes. Whatever the
 * query says, `returned: always` attributes (id, schemas) stay and `returned: never` ones
 * (password) go; `returned: request` ones appear only when asked for by name. The lists are parsed
 * once per request and indexed by attribute, so a page of resources costs one lookup per attribute.
 */
import { MAX_PROJECTED_ATTRIBUTES } from '../core/input-limits.js';
import { type ResolvedAttribute, resolveAttribute, resolveParts } from './attribute-paths.js';
import { ScimError } from './errors.js';
import { type ResourceType, canonicalSchemaUrn } from './schemas.js';
import { type JsonObject, isObject } from './values.js';

export interface ProjectionQuery {
  attributes?: string | undefined;
  excludedAttributes?: string | undefined;
}

/** One requested path; `attr` is absent when the path names a whole extension. */
interface Entry {
  text: string;
  attr?: ResolvedAttribute;
}

/** A parsed list: its paths in lower case (any may name a whole extension), and by the attribute they name. */
interface PathList {
  extensions: Set<string>;
  byAttribute: Map<string, Entry[]>;
}

const EMPTY: PathList = { extensions: new Set(), byAttribute: new Map() };

/** The projection of `query` for resources of `resourceType`: parse once, apply to each resource of a page. */
export function projector(
  query: ProjectionQuery,
  resourceType: ResourceType,
): (resource: Record<string, unknown>) => Record<string, unknown> {
  const include = parseList(query.attributes, resourceType, 'attributes');
  const exclude = parseList(query.excludedAttributes, resourceType, 'excludedAttributes') ?? EMPTY;
  return (resource) => {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(resource)) {
      if (/^urn:/i.test(key) && isObject(value)) {
        const extension = projectExtension(key, value, resourceType, include, exclude);
        if (extension) out[key] = extension;
        continue;
      }
      const kept = projectAttribute(value, resolveParts(resourceType, { name: key }), include, exclude);
      if (kept !== undefined) out[key] = kept;
    }
    return out;
  };
}

export function project(
  resource: Record<string, unknown>,
  query: ProjectionQuery,
  resourceType: ResourceType,
): Record<string, unknown> {
  return projector(query, resourceType)(resource);
}

const attributeKey = (attr: ResolvedAttribute): string => `${attr.schema.toLowerCase()}\n${attr.name.toLowerCase()}`;

function parseList(list: string | undefined, resourceType: ResourceType, parameter: string): PathList | undefined {
  const texts = (list ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (texts.length === 0) return undefined;
  if (texts.length > MAX_PROJECTED_ATTRIBUTES) {
    throw new ScimError(
      400,
      `${parameter} may name at most ${MAX_PROJECTED_ATTRIBUTES} attributes (${texts.length} given)`,
      'tooMany',
    );
  }
  const parsed: PathList = { extensions: new Set(), byAttribute: new Map() };
  for (const text of texts) {
    const entry: Entry = { text: text.toLowerCase() };
    // Any path may name a whole extension, an unknown one's URN included (`urn:example:custom:1.0:User`).
    parsed.extensions.add(entry.text);
    if (canonicalSchemaUrn(text)) continue;
    entry.attr = resolveAttribute(resourceType, text);
    const key = attributeKey(entry.attr);
    const same = parsed.byAttribute.get(key);
    if (same) same.push(entry);
    else parsed.byAttribute.set(key, [entry]);
  }
  return parsed;
}

function projectExtension(
  key: string,
  value: JsonObject,
  resourceType: ResourceType,
  include: PathList | undefined,
  exclude: PathList,
): JsonObject | undefined {
  const urn = key.toLowerCase();
  if (exclude.extensions.has(urn)) return undefined;
  // Naming the extension itself asks for all of it.
  const innerInclude = include?.extensions.has(urn) ? undefined : include;
  const out: JsonObject = {};
  for (const [name, inner] of Object.entries(value)) {
    const kept = projectAttribute(inner, resolveParts(resourceType, { uri: key, name }), innerInclude, exclude);
    if (kept !== undefined) out[name] = kept;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function projectAttribute(
  value: unknown,
  attr: ResolvedAttribute,
  include: PathList | undefined,
  exclude: PathList,
): unknown {
  const returned = attr.known ? attr.def.returned : 'default';
  if (returned === 'never') return undefined;
  if (returned === 'always') return value;
  let kept = value;
  if (include) {
    const named = entriesFor(include, attr);
    if (named.length === 0) return undefined;
    if (named.every((e) => e.attr!.sub !== undefined)) kept = subAttributes(kept, subNames(named), true);
  } else if (returned === 'request') {
    return undefined;
  }
  const excluded = entriesFor(exclude, attr);
  if (excluded.some((e) => e.attr!.sub === undefined)) return undefined;
  return excluded.length > 0 ? subAttributes(kept, subNames(excluded), false) : kept;
}

function subNames(entries: Entry[]): Set<string> {
  return new Set(entries.map((e) => e.attr!.sub!.toLowerCase()));
}

function entriesFor(list: PathList, attr: ResolvedAttribute): Entry[] {
  return list.byAttribute.get(attributeKey(attr)) ?? [];
}

/** Keep (or drop) the named sub-attributes of a complex value or of each item of a list. */
function subAttributes(value: unknown, names: ReadonlySet<string>, keep: boolean): unknown {
  const select = (item: unknown): unknown => {
    if (!isObject(item)) return item;
    const out = Object.fromEntries(Object.entries(item).filter(([k]) => names.has(k.toLowerCase()) === keep));
    return Object.keys(out).length > 0 ? out : undefined;
  };
  if (!Array.isArray(value)) return select(value);
  const items = value.map(select).filter((v) => v !== undefined);
  return items.length > 0 ? items : undefined;
}
