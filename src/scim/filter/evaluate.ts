/**
 * In-memory filter evaluation. A filter is compiled once per resource type into a predicate:
 * attributes are resolved and literals type-checked up front, so `active gt true` fails with
 * 400 invalidFilter even when there is nothing to scan, and a scan does no per-resource parsing.
 *
 * Semantics (RFC 7644 §3.4.2.2): attribute names are case-insensitive; strings compare
 * case-insensitively unless the attribute is caseExact; a multi-valued attribute matches when
 * any of its values does; a complex value without a sub-attribute stands for its `value`.
 * `ne` is the negation of `eq`, so it also matches resources without the attribute.
 */
import { ScimError } from '../errors.js';
import { type AttrPathParts, type ResolvedAttribute, resolveParts } from '../attribute-paths.js';
import { type AttributeDef, type ResourceType, extensionSchemas, unknownAttribute } from '../schemas.js';
import { type JsonObject, getAttr, isEmpty, isObject } from '../values.js';
import type { CompareOp, CompValue, FilterNode, FilterPath } from './ast.js';

/** Reads an attribute of an object in any case: `getAttr` by default; a PATCH passes its constant-time lookup. */
export type AttributeReader = (obj: JsonObject, name: string) => unknown;

export type Predicate = (resource: JsonObject, read?: AttributeReader) => boolean;

/** What attribute names resolve against: the resource type and, inside `emails[...]`, the parent `emails`. */
interface Bindings {
  resourceType: ResourceType;
  parent?: AttrPathParts;
}

const compiled = new WeakMap<FilterNode, Partial<Record<ResourceType, Predicate>>>();

export function compileFilter(node: FilterNode, resourceType: ResourceType): Predicate {
  let byType = compiled.get(node);
  if (!byType) compiled.set(node, (byType = {}));
  return (byType[resourceType] ??= compile(node, { resourceType }));
}

/** Compile the filter inside `emails[...]`: it is evaluated against one value of `parent`. */
export function compileValueFilter(node: FilterNode, resourceType: ResourceType, parent: AttrPathParts): Predicate {
  return compile(node, { resourceType, parent });
}

export function matches(node: FilterNode, resource: Record<string, unknown>, resourceType: ResourceType): boolean {
  return compileFilter(node, resourceType)(resource);
}

function compile(node: FilterNode, bindings: Bindings): Predicate {
  switch (node.kind) {
    case 'and': {
      const children = node.children.map((c) => compile(c, bindings));
      return (r, get) => children.every((p) => p(r, get));
    }
    case 'or': {
      const children = node.children.map((c) => compile(c, bindings));
      return (r, get) => children.some((p) => p(r, get));
    }
    case 'not': {
      const child = compile(node.child, bindings);
      return (r, get) => !child(r, get);
    }
    case 'valuePath': {
      const select = selector({ ...node.path, filter: node.filter }, bindings);
      return (r, get) => select.values(r, get).length > 0;
    }
    case 'present': {
      const select = selector(node.path, bindings);
      // `name pr` looks at the whole value; `name.middleName pr` at the sub-attribute.
      const read = node.path.sub === undefined ? select.values : select.leaves;
      return (r, get) => read(r, get).some((v) => !isEmpty(v));
    }
    case 'compare':
      return compileCompare(node.path, node.op, node.value, bindings);
  }
}

function compileCompare(path: FilterPath, op: CompareOp, literal: CompValue, bindings: Bindings): Predicate {
  const select = selector(path, bindings);
  if (literal === null) {
    // `title eq null` asks whether the attribute is unassigned (RFC 7643 §2.5).
    if (op === 'eq') return (r, get) => select.leaves(r, get).length === 0;
    if (op === 'ne') return (r, get) => select.leaves(r, get).length > 0;
    throw invalidFilter(`"${select.label}": operator "${op}" cannot compare with null`);
  }
  const negate = op === 'ne';
  const test = comparator(negate ? 'eq' : op, literal, select.leaf, select.label);
  return negate ? (r, get) => !select.leaves(r, get).some(test) : (r, get) => select.leaves(r, get).some(test);
}

interface Selector {
  label: string;
  leaf: { def: AttributeDef; typed: boolean };
  /** Values of the attribute (array items flattened), after the `[...]` filter if any. */
  values(resource: JsonObject, get?: AttributeReader): unknown[];
  /** What a comparison looks at: the sub-attribute, or the `value` of complex values. */
  leaves(resource: JsonObject, get?: AttributeReader): unknown[];
}

function selector(path: FilterPath, bindings: Bindings): Selector {
  const parts: AttrPathParts = bindings.parent ? { ...bindings.parent, sub: path.name } : path;
  const located = locate(bindings.resourceType, parts);
  const attr = located[0]!;
  const label = labelOf(parts);
  const inner = path.filter && compile(path.filter, { resourceType: bindings.resourceType, parent: parentOf(attr) });
  // Inside [...] the resource handed over is one element, and `path.name` its sub-attribute.
  const read = bindings.parent
    ? (r: JsonObject, get: AttributeReader) => flatten(get(r, path.name))
    : (r: JsonObject, get: AttributeReader) =>
        located.flatMap((at) => {
          const container = at.extension ? get(r, at.schema) : r;
          return isObject(container) ? flatten(get(container, at.name)) : [];
        });
  const values = (r: JsonObject, get: AttributeReader = getAttr): unknown[] => {
    const all = read(r, get);
    return inner ? all.filter((v) => isObject(v) && inner(v, get)) : all;
  };
  const sub = bindings.parent ? undefined : path.sub;
  const leaves = (r: JsonObject, get: AttributeReader = getAttr): unknown[] =>
    values(r, get)
      .flatMap((v) => (isObject(v) ? flatten(get(v, sub ?? 'value')) : sub === undefined ? [v] : []))
      .filter((v) => v !== null && v !== undefined);
  return { label, leaf: leafOf(attr, bindings.parent !== undefined || path.sub !== undefined), values, leaves };
}

/**
 * Where a filter attribute lives, best definition first. An unqualified name the core schema
 * lacks is also looked up in the extensions (Entra filters on `manager`); the top-level key is
 * still read too, since IdPs may keep a custom attribute of that name there.
 */
function locate(resourceType: ResourceType, parts: AttrPathParts): ResolvedAttribute[] {
  const attr = resolveParts(resourceType, parts);
  if (attr.known || parts.uri !== undefined) return [attr];
  const fromExtensions = extensionSchemas(resourceType)
    .map((uri) => resolveParts(resourceType, { ...parts, uri }))
    .filter((a) => a.known);
  return [...fromExtensions, attr];
}

function parentOf(attr: ResolvedAttribute): AttrPathParts {
  return attr.extension ? { uri: attr.schema, name: attr.name } : { name: attr.name };
}

/** The definition comparisons use; `typed` is false for attributes no schema defines. */
function leafOf(attr: ResolvedAttribute, hasSub: boolean): { def: AttributeDef; typed: boolean } {
  if (hasSub)
    return attr.subDef ? { def: attr.subDef, typed: true } : { def: unknownAttribute(attr.sub!), typed: false };
  if (attr.def.type === 'complex') {
    const value = attr.def.subAttributes?.find((s) => s.name === 'value');
    return value ? { def: value, typed: true } : { def: unknownAttribute('value'), typed: false };
  }
  return { def: attr.def, typed: attr.known };
}

function flatten(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function labelOf(parts: AttrPathParts): string {
  return `${parts.uri ? `${parts.uri}:` : ''}${parts.name}${parts.sub !== undefined ? `.${parts.sub}` : ''}`;
}

type Test = (value: unknown) => boolean;
const STRING_OPS: ReadonlySet<CompareOp> = new Set(['co', 'sw', 'ew']);

function comparator(
  op: CompareOp,
  literal: Exclude<CompValue, null>,
  leaf: { def: AttributeDef; typed: boolean },
  label: string,
): Test {
  if (!leaf.typed) return untypedComparator(op, literal);
  switch (leaf.def.type) {
    case 'boolean': {
      const expected = toBoolean(literal);
      if (expected === undefined) throw invalidFilter(`"${label}" is a boolean; compare it with true or false`);
      if (op !== 'eq') throw invalidFilter(`"${label}" is a boolean; only eq, ne and pr apply`);
      return (v) => toBoolean(v) === expected;
    }
    case 'integer':
    case 'decimal':
      if (typeof literal !== 'number') throw invalidFilter(`"${label}" is a number; compare it with a number`);
      if (STRING_OPS.has(op)) throw invalidFilter(`"${label}" is a number; "${op}" applies to strings`);
      return (v) => typeof v === 'number' && ordered(op, v, literal);
    case 'dateTime': {
      const time = typeof literal === 'string' ? Date.parse(literal) : NaN;
      if (Number.isNaN(time)) throw invalidFilter(`"${label}" is a dateTime; compare it with a quoted timestamp`);
      if (STRING_OPS.has(op)) return stringComparator(op, literal as string, false);
      return (v) => {
        const t = typeof v === 'string' ? Date.parse(v) : NaN;
        return !Number.isNaN(t) && ordered(op, t, time);
      };
    }
    default:
      if (typeof literal === 'boolean') throw invalidFilter(`"${label}" is a string; compare it with a quoted string`);
      return stringComparator(op, String(literal), leaf.def.caseExact);
  }
}

/** Attributes no schema defines hold whatever the IdP sent: compare by what the value is. */
function untypedComparator(op: CompareOp, literal: Exclude<CompValue, null>): Test {
  const text = stringComparator(op, String(literal), false);
  return (v) => {
    if (typeof v === 'number' && typeof literal === 'number' && !STRING_OPS.has(op)) return ordered(op, v, literal);
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return text(String(v));
    return false;
  };
}

function stringComparator(op: CompareOp, literal: string, caseExact: boolean): Test {
  const fold = caseExact ? (s: string) => s : (s: string) => s.toLowerCase();
  const expected = fold(literal);
  return (v) => {
    if (typeof v !== 'string') return false;
    const actual = fold(v);
    switch (op) {
      case 'co':
        return actual.includes(expected);
      case 'sw':
        return actual.startsWith(expected);
      case 'ew':
        return actual.endsWith(expected);
      default:
        return ordered(op, actual, expected);
    }
  };
}

function ordered<T extends string | number>(op: CompareOp, actual: T, expected: T): boolean {
  switch (op) {
    case 'gt':
      return actual > expected;
    case 'ge':
      return actual >= expected;
    case 'lt':
      return actual < expected;
    case 'le':
      return actual <= expected;
    default:
      return actual === expected;
  }
}

function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return undefined;
}

function invalidFilter(detail: string): ScimError {
  return ScimError.badRequest(`Invalid filter: ${detail}`, 'invalidFilter');
}
