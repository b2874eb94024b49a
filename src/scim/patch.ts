/**
 * PATCH (RFC 7644 §3.5.2), as Okta and both Entra dialects send it: `op` in any case, string
 * booleans, no-path values with dotted or URN-qualified keys, value-filtered paths that create
 * the element they name, a group's own `id` inside a rename. Operations apply to a copy, so a
 * failing operation leaves the input untouched (the whole PATCH is atomic).
 *
 * Group `members` never change the resource: membership operations are folded into a
 * MemberDelta that the store applies to its membership set.
 */
import { MAX_PATCH_OPERATIONS } from '../core/input-limits.js';
import { ScimError } from './errors.js';
import type { FilterNode } from './filter/ast.js';
import { removeMatching } from './filtered-removal.js';
import { type MemberDelta, MemberDeltaBuilder, patchMembers } from './members.js';
import { checkRequired, coerceValue, dropNulls, isContainer, isMembers, pruneEmpty, syncSchemas } from './normalize.js';
import { type AttributePath, type PatchPath, type ValueFilter, parsePatchPath, seedFromFilter } from './path.js';
import { type ResolvedAttribute } from './attribute-paths.js';
import { type ResourceType, canonicalSchemaUrn, coreSchema, unknownAttribute } from './schemas.js';
import { FoldedKeys } from './folded-keys.js';
import { type JsonObject, appendUnique, canonicalJson, cloneJson, deepEqual, getAttr, isObject } from './values.js';

export type { MemberDelta, MemberRef } from './members.js';

export interface PatchResult {
  resource: Record<string, unknown>;
  /** False when the patched resource equals the input: nothing to store, no event to emit. */
  changed: boolean;
  /** Net membership change, present only when operations on Group `members` change something. */
  members?: MemberDelta;
}

export { MAX_PATCH_OPERATIONS } from '../core/input-limits.js';

type OpName = 'add' | 'replace' | 'remove';

interface Operation {
  op: OpName;
  path?: string;
  value: unknown;
}

interface Session {
  doc: JsonObject;
  /** Every object of `doc` is looked up and changed through these (constant-time case-insensitive names). */
  keys: FoldedKeys;
  resourceType: ResourceType;
  id: unknown;
  members: MemberDeltaBuilder;
  /** Consecutive filtered removals from one list, applied together (see filtered-removal.ts). */
  removals?: { container: JsonObject; key: string; filters: ValueFilter[] };
}

/**
 * Apply a PatchOp body to `resource`. Its `id` (given, or the resource's own) tells a client repeating it
 * apart from one changing it. `body` may also be the bare Operations array.
 */
export function applyPatch(
  resource: Record<string, unknown>,
  body: unknown,
  resourceType: ResourceType,
  id: unknown = resource.id,
): PatchResult {
  const operations = readOperations(body);
  const session: Session = {
    doc: cloneJson(resource),
    keys: new FoldedKeys(),
    resourceType,
    id,
    members: new MemberDeltaBuilder(),
  };
  operations.forEach((operation, i) => {
    try {
      applyOperation(session, operation);
    } catch (err) {
      if (!(err instanceof ScimError)) throw err;
      const where = `${operation.op}${operation.path === undefined ? '' : ` ${operation.path}`}`;
      throw new ScimError(err.status, `Operation ${i + 1} (${where}): ${err.detail}`, err.scimType);
    }
  });
  flushRemovals(session);
  const { doc } = session;
  pruneEmpty(doc);
  const changed = !deepEqual(resource, doc);
  if (changed) {
    checkRequired(doc, resourceType);
    syncSchemas(doc, resourceType, getAttr(doc, 'schemas'));
  }
  const members = session.members.result();
  const result: PatchResult = { resource: doc, changed };
  if (members) result.members = members;
  return result;
}

function readOperations(body: unknown): Operation[] {
  // `schemas` is not checked: clients get it wrong and it carries no information.
  const list = Array.isArray(body) ? body : isObject(body) ? getAttr(body, 'Operations') : undefined;
  if (!Array.isArray(list)) {
    throw ScimError.badRequest('PATCH body must be a PatchOp message with an "Operations" array', 'invalidSyntax');
  }
  if (list.length > MAX_PATCH_OPERATIONS) {
    throw new ScimError(400, `A PATCH may carry at most ${MAX_PATCH_OPERATIONS} operations`, 'tooMany');
  }
  return list.map((raw, i) => {
    if (!isObject(raw)) throw ScimError.badRequest(`Operation ${i + 1} must be an object`, 'invalidSyntax');
    const op = getAttr(raw, 'op');
    const name = typeof op === 'string' ? op.trim().toLowerCase() : undefined;
    if (name !== 'add' && name !== 'replace' && name !== 'remove') {
      throw ScimError.badRequest(`Operation ${i + 1}: "op" must be add, replace or remove`, 'invalidSyntax');
    }
    const path = getAttr(raw, 'path');
    if (path !== undefined && path !== null && typeof path !== 'string') {
      throw ScimError.badRequest(`Operation ${i + 1}: "path" must be a string`, 'invalidPath');
    }
    const operation: Operation = { op: name, value: getAttr(raw, 'value') };
    if (typeof path === 'string' && path.trim() !== '') operation.path = path;
    return operation;
  });
}

function applyOperation(s: Session, { op, path, value }: Operation): void {
  if (path !== undefined) return applyToPath(s, op, parsePatchPath(path, s.resourceType), value);
  if (op === 'remove') throw ScimError.badRequest('"remove" needs a "path"', 'noTarget');
  if (!isObject(value)) throw ScimError.badRequest('Without a "path", "value" must be an object of attributes');
  applyValueObject(s, op, value);
}

/**
 * A no-path value is a set of attributes, each applied as if it were the path. Keys may be
 * dotted or URN-qualified (Entra's aadOptscim062020 dialect) or extension objects.
 */
function applyValueObject(s: Session, op: OpName, value: JsonObject, urn?: string): void {
  for (const [key, v] of Object.entries(value)) {
    if (urn === undefined && key.toLowerCase() === 'schemas') continue; // the server keeps `schemas`
    if (urn === undefined && isContainer(s.resourceType, key, v)) {
      applyValueObject(s, op, v as JsonObject, canonicalSchemaUrn(key) ?? key);
      continue;
    }
    applyToPath(s, op, valueKeyPath(s.resourceType, key, urn), v);
  }
}

/** Keys that are no attribute path (`"Cost Center"`) are still attributes a create would keep. */
function valueKeyPath(resourceType: ResourceType, key: string, urn: string | undefined): PatchPath {
  try {
    return parsePatchPath(urn === undefined ? key : `${urn}:${key}`, resourceType);
  } catch (err) {
    if (!(err instanceof ScimError) || key.includes('[')) throw err;
    const schema = urn ?? coreSchema(resourceType);
    const extension = schema !== coreSchema(resourceType);
    return { kind: 'attribute', attr: { schema, extension, name: key, def: unknownAttribute(key), known: false } };
  }
}

function applyToPath(s: Session, op: OpName, path: PatchPath, value: unknown): void {
  // Queued filtered removals must land before any other operation reads or writes the resource.
  if (!(op === 'remove' && path.kind === 'attribute' && path.filter && path.attr.sub === undefined)) flushRemovals(s);
  if (path.kind === 'extension') {
    if (op === 'remove' || (op === 'replace' && value === null)) return s.keys.set(s.doc, path.schema, undefined);
    if (value === null) return;
    if (!isObject(value)) throw ScimError.badRequest(`"${path.schema}" takes an object of extension attributes`);
    return applyValueObject(s, op, value, path.schema);
  }
  const { attr } = path;
  if (isMembers(s.resourceType, attr)) return patchMembers(s.members, op, path, value);
  if (attr.known && attr.def.returned === 'never') return; // password: accepted, never stored
  if (attr.known && attr.def.mutability === 'readOnly') {
    // Okta's group rename repeats the group's own id next to the new displayName.
    const sameId = attr.name === 'id' && op !== 'remove' && attr.sub === undefined && value === s.id;
    if (sameId) return;
    throw ScimError.badRequest(`"${attr.name}" is read-only`, 'mutability');
  }
  if (op === 'remove') return remove(s, path, value);
  if (value === undefined) throw ScimError.badRequest(`"${op}" needs a "value"`);
  // Null unassigns (RFC 7643 §2.5): replace-with-null removes, add-null adds nothing.
  if (value === null) return op === 'replace' ? remove(s, path, undefined) : undefined;
  write(s, op, path, value);
}

function write(s: Session, op: 'add' | 'replace', path: AttributePath, value: unknown): void {
  const { attr, filter } = path;
  const { keys } = s;
  const container = containerFor(s, attr, true)!;
  const key = keys.find(container, attr.name) ?? attr.name;
  if (filter) return writeFiltered(keys, container, key, attr, filter, op, value);
  if (attr.sub !== undefined) return writeSub(keys, container, key, attr, value);
  if (!attr.known) return writeUnknown(keys, container, key, op, value);
  const coerced = coerceValue(attr.def, value, attr.name);
  if (attr.def.multiValued) {
    // add appends what is not there yet; replace without a filter replaces the whole list.
    const items = (coerced ?? []) as unknown[];
    const next = appendUnique(op === 'add' ? asArray(container[key]) : [], items);
    keys.put(container, key, singlePrimary(next, items));
  } else if (isObject(value) && isObject(container[key]) && getAttr(value, 'value') === undefined) {
    // RFC 7644 §3.5.2.1/3: sub-attributes given replace theirs (null removes), the others stay.
    // A value carrying `value` (enterprise manager) names a different referent: replaced outright.
    const merged = { ...(container[key] as JsonObject), ...(coerced as JsonObject | undefined) };
    for (const [sub, v] of Object.entries(value)) if (v === null) keys.set(merged, sub, undefined);
    keys.put(container, key, merged);
  } else {
    keys.set(container, key, coerced);
  }
}

/** `name.givenName`, or `emails.type` (applies to every email; creates one if there are none). */
function writeSub(keys: FoldedKeys, container: JsonObject, key: string, attr: ResolvedAttribute, value: unknown): void {
  const sub = attr.sub!;
  const coerced = attr.subDef ? coerceValue(attr.subDef, value, `${attr.name}.${sub}`) : dropNulls(value);
  const current = container[key];
  if ((attr.known && attr.def.multiValued) || Array.isArray(current)) {
    const items = asArray(current).filter(isObject);
    if (items.length === 0) {
      if (coerced !== undefined) keys.put(container, key, [{ [sub]: coerced }]);
      return;
    }
    for (const item of items) keys.set(item, sub, coerced);
    keys.put(container, key, singlePrimary(asArray(current), items.slice(-1)));
    return;
  }
  const obj = isObject(current) ? current : {};
  keys.set(obj, sub, coerced);
  keys.put(container, key, obj);
}

/**
 * `emails[type eq "work"]` / `emails[type eq "work"].value`. With no matching value, add and
 * replace create one from the filter (Entra relies on it); RFC 7644 would answer noTarget.
 */
function writeFiltered(
  keys: FoldedKeys,
  container: JsonObject,
  key: string,
  attr: ResolvedAttribute,
  filter: ValueFilter,
  op: 'add' | 'replace',
  value: unknown,
): void {
  const current = asArray(container[key]);
  const matched = current.filter((el): el is JsonObject => isObject(el) && filter.test(el, keys.get));
  let touched: JsonObject[] = matched;
  if (attr.sub !== undefined) {
    const coerced = attr.subDef ? coerceValue(attr.subDef, value, `${attr.name}.${attr.sub}`) : dropNulls(value);
    if (matched.length === 0) {
      if (coerced === undefined) return;
      touched = [{ ...seedOrNoTarget(filter.node, attr), [attr.sub]: coerced }];
      current.push(...touched);
    } else {
      for (const el of matched) keys.set(el, attr.sub, coerced);
    }
  } else {
    const coerced = attr.known ? coerceValue({ ...attr.def, multiValued: false }, value, attr.name) : dropNulls(value);
    if (coerced === undefined) return;
    if (!isObject(coerced)) throw ScimError.badRequest(`"${attr.name}[...]" takes an object`);
    if (matched.length === 0) {
      touched = [{ ...seedOrNoTarget(filter.node, attr), ...coerced }];
      current.push(...touched);
    } else if (op === 'add') {
      for (const el of matched) for (const [k, v] of Object.entries(coerced)) keys.put(el, k, v);
    } else {
      // Replacing keeps what the filter selected on, so the value stays addressable by it.
      const seed = seedFromFilter(filter.node, attr) ?? {};
      touched = [];
      current.forEach((el, i) => {
        if (!matched.includes(el as JsonObject)) return;
        const next = { ...seed, ...coerced };
        current[i] = next;
        touched.push(next);
      });
    }
  }
  keys.put(container, key, singlePrimary(current, touched));
}

function seedOrNoTarget(node: FilterNode, attr: ResolvedAttribute): JsonObject {
  const seed = seedFromFilter(node, attr);
  if (seed) return seed;
  throw ScimError.badRequest(
    `No "${attr.name}" value matches the filter, and it does not say what to create`,
    'noTarget',
  );
}

/** Attributes no schema defines: add appends to lists and merges objects; replace overwrites. */
function writeUnknown(
  keys: FoldedKeys,
  container: JsonObject,
  key: string,
  op: 'add' | 'replace',
  value: unknown,
): void {
  const incoming = dropNulls(value);
  const current = container[key];
  if (op === 'add' && Array.isArray(current)) {
    appendUnique(current, asArray(incoming));
  } else if (op === 'add' && isObject(current) && isObject(incoming)) {
    for (const [k, v] of Object.entries(incoming)) keys.put(current, k, v);
  } else {
    keys.put(container, key, incoming);
  }
}

function remove(s: Session, path: AttributePath, value: unknown): void {
  const { attr, filter } = path;
  const { keys } = s;
  const container = containerFor(s, attr, false);
  const key = container && keys.find(container, attr.name);
  if (!container || key === undefined) return;
  const current = container[key];
  if (filter) {
    // No match is not an error for remove: the desired state already holds.
    if (!Array.isArray(current)) return;
    if (attr.sub === undefined) return queueRemoval(s, container, key, filter);
    for (const el of current) if (isObject(el) && filter.test(el, keys.get)) keys.set(el, attr.sub, undefined);
    return;
  }
  if (attr.sub !== undefined) {
    for (const el of asArray(current)) if (isObject(el)) keys.set(el, attr.sub, undefined);
    return;
  }
  if (attr.known && attr.def.required) {
    throw ScimError.badRequest(`"${attr.name}" is required and cannot be removed`);
  }
  if (Array.isArray(current) && value !== undefined && value !== null) {
    // Entra removes single values by listing them: {"op":"Remove","path":"emails","value":[{...}]}.
    keys.put(container, key, withoutListed(current, asArray(value)));
    return;
  }
  keys.remove(container, key);
}

/**
 * `current` minus the listed values, in linear time: a listed object with a `value` removes the objects with
 * that `value`; any other listed value removes its structural equals.
 */
function withoutListed(current: unknown[], doomed: unknown[]): unknown[] {
  const byValue = new Set<unknown>();
  const byShape = new Set<string>();
  for (const d of doomed) {
    const id = isObject(d) ? getAttr(d, 'value') : undefined;
    if (id !== undefined) byValue.add(id);
    else byShape.add(canonicalJson(d));
  }
  return current.filter(
    (el) => !((isObject(el) && byValue.has(getAttr(el, 'value'))) || byShape.has(canonicalJson(el))),
  );
}

function queueRemoval(s: Session, container: JsonObject, key: string, filter: ValueFilter): void {
  if (s.removals && (s.removals.container !== container || s.removals.key !== key)) flushRemovals(s);
  s.removals ??= { container, key, filters: [] };
  s.removals.filters.push(filter);
}

function flushRemovals(s: Session): void {
  if (!s.removals) return;
  const { container, key, filters } = s.removals;
  s.removals = undefined;
  s.keys.put(container, key, removeMatching(asArray(container[key]), filters, s.keys.get));
}

function containerFor(s: Session, attr: ResolvedAttribute, create: boolean): JsonObject | undefined {
  const { doc } = s;
  if (!attr.extension) return doc;
  const key = s.keys.find(doc, attr.schema) ?? attr.schema;
  if (isObject(doc[key])) return doc[key] as JsonObject;
  if (!create) return undefined;
  const container: JsonObject = {};
  s.keys.put(doc, key, container);
  return container;
}

function asArray(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? [...value] : [value];
}

/**
 * At most one value may be primary (RFC 7643 §2.4). When several are, the one this operation
 * set wins (the last, if it set several); the others become `primary: false`.
 */
function singlePrimary(items: unknown[], touched: readonly unknown[]): unknown[] {
  const primaries = items.filter((i): i is JsonObject => isObject(i) && i.primary === true);
  if (primaries.length <= 1) return items;
  const winner = [...touched].reverse().find((t) => primaries.includes(t as JsonObject)) ?? primaries.at(-1);
  for (const p of primaries) if (p !== winner) p.primary = false;
  return items;
}
