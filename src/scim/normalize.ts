/**
 * Turns what an IdP sends into the canonical stored shape: liberal in what it accepts (nulls,
 * "True"/"False" strings, odd casing, unknown schemas and attributes), strict about values whose
 * type is plainly wrong for a known attribute. PATCH reuses the value coercion so a patched
 * resource has the same shape as a created one.
 */
import { forEachChunked } from '../core/chunks.js';
import { checkResourceBounds } from './bound-checks.js';
import { ScimError } from './errors.js';
import { type ResolvedAttribute, resolveKey, resolveParts, splitAttrPath } from './attribute-paths.js';
import { FoldedKeys } from './folded-keys.js';
import {
  type AttributeDef,
  type ResourceType,
  canonicalSchemaUrn,
  coreSchema,
  extensionSchemas,
  findDef,
} from './schemas.js';
import { type JsonObject, findKey, getAttr, isObject } from './values.js';

/** A Group member as stored: only the sub-attributes RFC 7643 §4.2 defines. */
export interface Member {
  value: string;
  display?: string;
  type?: string;
  $ref?: string;
}

const REQUIRED: Record<ResourceType, string> = { User: 'userName', Group: 'displayName' };

export function normalizeResource(body: unknown, resourceType: ResourceType): JsonObject {
  if (!isObject(body)) throw ScimError.badRequest('Request body must be a JSON object', 'invalidSyntax');
  const out: JsonObject = {};
  // Names of unknown attributes merge case-insensitively into what is built: looked up in constant time.
  const keys = new FoldedKeys();
  let members: Member[] | undefined;
  for (const [key, value] of Object.entries(body)) {
    if (value === null || key.toLowerCase() === 'schemas') continue;
    if (isContainer(resourceType, key, value)) {
      const urn = canonicalSchemaUrn(key) ?? key;
      for (const [inner, innerValue] of Object.entries(value as JsonObject)) {
        const parts = splitAttrPath(inner);
        if (parts && parts.uri === undefined) {
          assign(keys, out, resolveParts(resourceType, { ...parts, uri: urn }), innerValue);
        } else if (innerValue !== null) {
          // Not an attribute name we can address; keep it verbatim rather than reject the resource.
          keys.put(containerOf(keys, out, urn), inner, dropNulls(innerValue));
        }
      }
      continue;
    }
    const attr = resolveKey(resourceType, key);
    if (!attr) keys.put(out, key, dropNulls(value));
    else if (isMembers(resourceType, attr)) members = normalizeMembers(value);
    else assign(keys, out, attr, value);
  }
  pruneEmpty(out);
  // Kept even when empty: on a PUT, `members: []` empties the group while no `members` leaves it be.
  if (members) out.members = members;
  checkRequired(out, resourceType);
  checkResourceBounds(out);
  syncSchemas(out, resourceType, body[findKey(body, 'schemas') ?? 'schemas']);
  const { schemas, ...rest } = out;
  return { schemas, ...rest };
}

/**
 * Drop empty lists, empty objects and `{}` list items, at the top level and inside extensions:
 * RFC 7643 §2.5 makes them equal to unassigned, and one shape per state keeps no-op PATCHes
 * detectable by plain comparison.
 */
export function pruneEmpty(resource: JsonObject, inExtension = false): void {
  for (const [key, value] of Object.entries(resource)) {
    if (Array.isArray(value)) {
      const kept = value.filter((v) => !(isObject(v) && Object.keys(v).length === 0));
      if (kept.length === 0) delete resource[key];
      else if (kept.length !== value.length) resource[key] = kept;
    } else if (isObject(value)) {
      if (!inExtension && /^urn:/i.test(key)) pruneEmpty(value, true);
      if (Object.keys(value).length === 0) delete resource[key];
    }
  }
}

/** The one attribute each resource type cannot do without: 400 invalidValue when it is missing. */
export function checkRequired(resource: JsonObject, resourceType: ResourceType): void {
  const name = REQUIRED[resourceType];
  const value = resource[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw ScimError.badRequest(`${name} is required and must be a non-empty string`);
  }
}

/**
 * A `urn:` key holding an object is an extension container (RFC 7643 §3.3) unless the key itself
 * names a known complex attribute, like `urn:...:enterprise:2.0:User:manager`.
 */
export function isContainer(resourceType: ResourceType, key: string, value: unknown): boolean {
  if (!/^urn:/i.test(key) || !isObject(value)) return false;
  return !resolveKey(resourceType, key)?.known;
}

/** Group membership is stored as a set beside the resource, so `members` gets its own handling. */
export function isMembers(resourceType: ResourceType, attr: ResolvedAttribute): boolean {
  return resourceType === 'Group' && attr.known && !attr.extension && attr.name === 'members';
}

/** Whether the body key `key` names a group's `members` (read as `normalizeResource` reads it). */
export function isMembersKey(resourceType: ResourceType, key: string): boolean {
  const attr = resolveKey(resourceType, key);
  return attr !== undefined && isMembers(resourceType, attr);
}

/** Read-only attributes are the server's to set and `password` is never kept (RFC 7644 §3.5.1). */
function isDiscarded(attr: ResolvedAttribute): boolean {
  return attr.known && (attr.def.mutability === 'readOnly' || attr.def.returned === 'never');
}

function containerOf(keys: FoldedKeys, resource: JsonObject, urn: string): JsonObject {
  const key = keys.find(resource, urn) ?? urn;
  if (!isObject(resource[key])) keys.put(resource, key, {});
  return resource[key] as JsonObject;
}

function assign(keys: FoldedKeys, out: JsonObject, attr: ResolvedAttribute, value: unknown): void {
  if (value === null || isDiscarded(attr)) return;
  const container = attr.extension ? containerOf(keys, out, attr.schema) : out;
  const key = attr.known ? attr.name : (keys.find(container, attr.name) ?? attr.name);
  if (attr.sub !== undefined) {
    const coerced = attr.subDef ? coerceValue(attr.subDef, value, `${attr.name}.${attr.sub}`) : dropNulls(value);
    if (coerced === undefined) return;
    if (!isObject(container[key])) keys.put(container, key, {});
    (container[key] as JsonObject)[attr.sub] = coerced;
    return;
  }
  const coerced = attr.known ? coerceValue(attr.def, value, attr.name) : dropNulls(value);
  if (coerced === undefined) keys.remove(container, key);
  else keys.put(container, key, coerced);
}

/**
 * Coerce a value for a known attribute. Returns undefined for an unassigned value (null, [] or
 * an object with nothing left in it), which RFC 7643 §2.5 treats as absent.
 */
export function coerceValue(def: AttributeDef, value: unknown, label: string): unknown {
  if (value === null || value === undefined) return undefined;
  if (def.multiValued) {
    // A lone item where an array belongs is wrapped: several IdPs send single objects.
    const items = (Array.isArray(value) ? value : [value])
      .map((item) => (item === null ? undefined : coerceItem(def, item, label)))
      .filter((item) => item !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (Array.isArray(value)) {
    // Entra sends a single-valued manager as `[{ "value": ... }]`.
    if (value.length > 1) throw invalid(label, 'a single value');
    return coerceValue(def, value[0], label);
  }
  return coerceItem(def, value, label);
}

/** Coerce one value (one item, for a multi-valued attribute) according to the attribute type. */
function coerceItem(def: AttributeDef, value: unknown, label: string): unknown {
  switch (def.type) {
    case 'complex':
      return coerceComplex(def, value, label);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      // Entra's default PATCH dialect sends "True"/"False".
      if (typeof value === 'string' && /^(true|false)$/i.test(value.trim()))
        return value.trim().toLowerCase() === 'true';
      throw invalid(label, 'a boolean');
    case 'integer':
    case 'decimal':
      if (typeof value === 'number' && Number.isFinite(value) && (def.type === 'decimal' || Number.isInteger(value))) {
        return value;
      }
      throw invalid(label, def.type === 'integer' ? 'an integer' : 'a number');
    default:
      if (typeof value === 'string') return value;
      throw invalid(label, 'a string');
  }
}

function coerceComplex(def: AttributeDef, value: unknown, label: string): JsonObject | undefined {
  const valueDef = findDef(def.subAttributes, 'value');
  // A bare id for a single-valued reference-like attribute (enterprise manager) means its value.
  if (typeof value === 'string' && valueDef && !def.multiValued) return { value };
  if (!isObject(value)) throw invalid(label, 'a complex value (JSON object)');
  const out: JsonObject = {};
  for (const [key, subValue] of Object.entries(value)) {
    const subDef = findDef(def.subAttributes, key);
    const coerced = subDef ? coerceValue(subDef, subValue, `${label}.${subDef.name}`) : dropNulls(subValue);
    if (coerced !== undefined) out[subDef?.name ?? key] = coerced;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function invalid(label: string, expected: string): ScimError {
  return ScimError.badRequest(`Attribute "${label}" must be ${expected}`);
}

/** Unknown attributes are stored as sent, minus nulls (Entra fills absent fields with null). */
export function dropNulls(value: unknown): unknown {
  if (value === null) return undefined;
  if (Array.isArray(value)) return value.filter((v) => v !== null).map(dropNulls);
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
    return out;
  }
  return value;
}

/**
 * Group members reduced to `{value, display?, type?, $ref?}`, first occurrence of an id kept (a set, so
 * 100,000 members cost linear time). A bare string is taken as the member id; an item without a value cannot
 * be resolved to a member and is rejected.
 */
export function normalizeMembers(value: unknown): Member[] {
  if (Array.isArray(value) && normalized.has(value)) return value as Member[];
  const list = new MemberList();
  for (const item of itemsOf(value)) list.push(item);
  return list.members;
}

/**
 * `normalizeMembers` in time slices with event-loop turns in between (a 100,000-member list is tens of ms of
 * CPU). The result is remembered as normalised, so the synchronous pass that later meets it (resource
 * normalisation, the PATCH engine) takes it as it is instead of walking it again.
 */
export async function normalizeMembersSliced(value: unknown): Promise<Member[]> {
  const list = new MemberList();
  await forEachChunked(itemsOf(value), (item) => list.push(item));
  normalized.add(list.members);
  return list.members;
}

/** Member lists made by `normalizeMembersSliced`: already in normal form. */
const normalized = new WeakSet<unknown[]>();

const itemsOf = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];

class MemberList {
  readonly members: Member[] = [];
  private readonly seen = new Set<string>();

  push(item: unknown): void {
    if (item === null) return;
    const obj: JsonObject = isObject(item) ? item : {};
    const id = typeof item === 'string' ? item : getAttr(obj, 'value');
    if (typeof id !== 'string' || id === '') throw ScimError.badRequest('Each member must have a string "value"');
    if (this.seen.has(id)) return;
    this.seen.add(id);
    const member: Member = { value: id };
    if (obj === item) {
      for (const name of ['display', 'type', '$ref'] as const) {
        const v = getAttr(obj, name);
        if (typeof v === 'string') member[name] = v;
      }
    }
    this.members.push(member);
  }
}

/**
 * Set `schemas` to what the resource actually contains: the core URN always, a known extension
 * URN iff its container is present, and every other URN the client sent (OneLogin templates
 * declare `urn:scim:schemas:core:1.0`, Entra adds its own Group schema); never reject unknowns.
 */
export function syncSchemas(resource: JsonObject, resourceType: ResourceType, sent: unknown): void {
  const list = Array.isArray(sent) ? sent : typeof sent === 'string' ? [sent] : [];
  const extensions = extensionSchemas(resourceType);
  const urns = [coreSchema(resourceType)];
  const seen = new Set(urns.map((u) => u.toLowerCase()));
  const add = (urn: string): void => {
    const lower = urn.toLowerCase();
    if (seen.has(lower)) return;
    seen.add(lower);
    urns.push(urn);
  };
  for (const urn of list) {
    if (typeof urn !== 'string') continue;
    const canonical = canonicalSchemaUrn(urn) ?? urn;
    if (!extensions.includes(canonical)) add(canonical);
  }
  for (const key of Object.keys(resource)) {
    if (/^urn:/i.test(key) && isObject(resource[key])) add(canonicalSchemaUrn(key) ?? key);
  }
  const schemasKey = findKey(resource, 'schemas') ?? 'schemas';
  resource[schemasKey] = urns;
}
