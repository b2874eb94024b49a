/**
 * Helpers for the JSON values SCIM resources are made of. Attribute names are case-insensitive
 * (RFC 7643 §2.1), so reads go through `findKey` instead of plain property access.
 */

import { runSliced, type Steps } from '../core/chunks.js';
import { malformedText, pathOf, walkJson } from '../core/json-field-walk.js';
import { ScimError } from './errors.js';

export type JsonObject = Record<string, unknown>;

/** Names that reach Object.prototype when used as keys: never attribute names, refused everywhere. */
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
export const isForbiddenName = (name: string): boolean => FORBIDDEN.has(name.toLowerCase());

/** SCIM resources nest a few levels; anything far deeper is hostile (and would exhaust the stack). */
const MAX_DEPTH = 32;

/**
 * Checks a request body once, before anything walks it: no prototype-polluting keys at any depth, no absurd
 * nesting, every string (keys included) valid Unicode. Iterative, so it cannot overflow the stack itself.
 */
export function assertSafeJson(body: unknown): Promise<void> {
  // In time slices: a body may hold 100,000 values.
  return runSliced(safeJsonSteps(body));
}

function* safeJsonSteps(body: unknown): Steps {
  for (const node of walkJson(body)) {
    yield;
    const nested = typeof node.value === 'object' && node.value !== null;
    if (nested && node.depth >= MAX_DEPTH)
      throw ScimError.badRequest(`JSON nested more than ${MAX_DEPTH} levels deep`, 'invalidSyntax');
    if (typeof node.key === 'string' && isForbiddenName(node.key)) {
      throw ScimError.badRequest(`"${node.key}" is not an allowed attribute name`, 'invalidValue');
    }
    const malformed = malformedText(node);
    if (malformed) {
      throw ScimError.badRequest(
        `${pathOf(node)}: the ${malformed} is not valid Unicode (a lone UTF-16 surrogate)`,
        'invalidValue',
      );
    }
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The key of `obj` that names `name`, ignoring case; an exact match wins. A scan of the keys: for many lookups in
 * one object, `FoldedKeys` (folded-keys.ts). Only keys of the name's length are lowered: lowering changes the
 * length of one character only (U+0130), whose lower case is not ASCII, so an ASCII name (every attribute path)
 * never matches a key of another length; any other name is compared with every key.
 */
export function findKey(obj: JsonObject, name: string): string | undefined {
  if (Object.hasOwn(obj, name)) return name;
  const lower = name.toLowerCase();
  const anyLength = !ASCII.test(name);
  for (const key in obj) {
    if ((anyLength || key.length === name.length) && Object.hasOwn(obj, key) && key.toLowerCase() === lower) return key;
  }
  return undefined;
}

const ASCII = /^[\x00-\x7f]*$/;

export function getAttr(obj: JsonObject, name: string): unknown {
  const key = findKey(obj, name);
  return key === undefined ? undefined : obj[key];
}

/** Null, undefined, "", [] and {} all mean "unassigned" (RFC 7643 §2.5). */
export function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.every(isEmpty);
  if (isObject(value)) return Object.values(value).every(isEmpty);
  return false;
}

/**
 * A deep copy of a JSON value (a resource as read from the store), not `structuredClone`, which serialises and
 * deserialises: every PATCH copies the resource it patches (docs/design/performance.md, "A patch's copy"). A
 * `__proto__` key is copied as data, never as the copy's prototype.
 */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => cloneJson(v)) as T;
  const out: JsonObject = {};
  for (const key of Object.keys(value)) {
    const copy = cloneJson((value as JsonObject)[key]);
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out as T;
}

/** Structural equality of JSON values; object key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** A string equal for exactly the values `deepEqual` calls equal (object keys sorted): a Set/Map key. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isObject(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

/** Appends the items `list` does not hold yet (deepEqual), in linear time. */
export function appendUnique(list: unknown[], items: Iterable<unknown>): unknown[] {
  const seen = new Set(list.map(canonicalJson));
  for (const item of items) {
    const key = canonicalJson(item);
    if (seen.has(key)) continue;
    seen.add(key);
    list.push(item);
  }
  return list;
}
