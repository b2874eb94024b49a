/**
 * The checks of SCIM input against the input limits (src/core/input-limits.ts), in two passes:
 *
 * - `checkRequestBounds` walks the raw body once, iteratively (in time slices), before normalisation or the PATCH
 * engine see
 *   it: string and attribute-name lengths, attribute names per object and per request, values per list, attribute
 *   values and group member values per request, operations per PATCH. Everything downstream then works on
 *   bounded input.
 * - `checkResourceBounds` looks at the resource as it will be stored (a PATCH has merged its operations into
 *   the stored values by then): identifier lengths, values per multi-valued attribute, attribute names per object
 *   and in all.
 */
import {
  MAX_ATTRIBUTE_NAME_LENGTH,
  MAX_ATTRIBUTE_NAMES,
  MAX_ATTRIBUTES_PER_OBJECT,
  MAX_IDENTIFIER_LENGTH,
  MAX_MEMBERS_PER_REQUEST,
  MAX_PATCH_OPERATIONS,
  MAX_STRING_LENGTH,
  MAX_VALUES_PER_ATTRIBUTE,
  MAX_VALUES_PER_REQUEST,
} from '../core/input-limits.js';
import { runSliced, type Steps } from '../core/chunks.js';
import { ScimError } from './errors.js';
import { type JsonObject, findKey, isObject } from './values.js';

/** `members`, or its URN-qualified form: a member list, bounded per request rather than per attribute. */
const MEMBERS_KEY = /(^|:)members$/i;
/** A PATCH path addressing members (`members`, `members[value eq "x"]`, URN-qualified). */
const MEMBERS_PATH = /^\s*(urn:\S*:)?members(\[|\.|\s*$)/i;

const tooMany = (detail: string): ScimError => new ScimError(400, detail, 'tooMany');
const tooLong = (label: string, max: number): ScimError =>
  ScimError.badRequest(`${label} must be at most ${max} characters`, 'invalidValue');

interface Node {
  value: unknown;
  /** `member`: one item of a member list (its names count towards the member bound, not the names'). */
  kind: 'attribute' | 'members' | 'member' | 'operations' | 'operation';
  /** Where the value sits; the label (`emails`, `name.givenName`, `Operations[2].path`) is built only for a message. */
  parent?: Node;
  key?: string | number;
}

/** Attributes of the body (or of a path-less operation's value) are named plainly; an operation's value by its path. */
function labelOf(node: Node): string {
  const { parent, key } = node;
  if (!parent) return node.kind === 'operations' ? 'Operations' : '';
  const base = labelOf(parent);
  if (typeof key === 'number') return `${base}[${key}]`;
  if (parent.kind === 'operation' && key!.toLowerCase() === 'value') {
    const path = (parent.value as JsonObject)[findKey(parent.value as JsonObject, 'path') ?? 'path'];
    return typeof path === 'string' ? path.trim() : '';
  }
  return base === '' ? key! : `${base}.${key}`;
}

/** A node's label for a message, never empty. */
const described = (node: Node): string => labelOf(node) || (node.parent ? "An operation's value" : 'The body');

export function checkRequestBounds(body: unknown): Promise<void> {
  // In time slices: a body may hold 100,000 values.
  return runSliced(requestBoundSteps(body));
}

function* requestBoundSteps(body: unknown): Steps {
  let values = 0;
  let members = 0;
  let names = 0;
  // A bare array body is a PATCH's Operations list (accepted as such).
  const root: Node = { value: body, kind: Array.isArray(body) ? 'operations' : 'attribute' };
  const stack = [root];
  while (stack.length > 0) {
    yield;
    const node = stack.pop()!;
    const { value, kind } = node;
    if (typeof value === 'string') {
      // Only strings longer than an identifier may get here, so the label is rarely built.
      const label = labelOf(node);
      const max = IDENTIFIER.test(label) ? MAX_IDENTIFIER_LENGTH : MAX_STRING_LENGTH;
      if (value.length > max) throw tooLong(label || 'the body', max);
      continue;
    }
    if (Array.isArray(value)) {
      if (kind === 'members') {
        members += value.length;
        if (members > MAX_MEMBERS_PER_REQUEST) {
          throw tooMany(
            `A request may carry at most ${MAX_MEMBERS_PER_REQUEST} member values (${labelOf(node)} brings the total above it)`,
          );
        }
      } else if (kind === 'operations') {
        if (value.length > MAX_PATCH_OPERATIONS)
          throw tooMany(`A PATCH may carry at most ${MAX_PATCH_OPERATIONS} operations`);
      } else {
        if (value.length > MAX_VALUES_PER_ATTRIBUTE) {
          throw tooMany(
            `${labelOf(node) || 'the body'} has ${value.length} values; at most ${MAX_VALUES_PER_ATTRIBUTE} are allowed`,
          );
        }
        values += value.length;
        if (values > MAX_VALUES_PER_REQUEST)
          throw tooMany(`A request may carry at most ${MAX_VALUES_PER_REQUEST} attribute values in all`);
      }
      const itemKind = kind === 'operations' ? 'operation' : kind === 'members' ? 'member' : 'attribute';
      for (let i = 0; i < value.length; i++) {
        yield;
        const item: unknown = value[i];
        // Most items of big lists are bare strings (member ids): checked here, without a node each.
        if (typeof item === 'string' && item.length <= MAX_IDENTIFIER_LENGTH) continue;
        if (typeof item === 'object' || typeof item === 'string')
          stack.push({ value: item, kind: itemKind, parent: node, key: i });
      }
      continue;
    }
    if (!isObject(value)) continue;
    // Counted before anything looks a name up: every later step then works on a bounded number of them.
    const keys = Object.keys(value);
    if (keys.length > MAX_ATTRIBUTES_PER_OBJECT) throw tooManyNames(described(node), keys.length);
    if (kind !== 'member') {
      names += keys.length;
      if (names > MAX_ATTRIBUTE_NAMES)
        throw tooMany(
          `A request may carry at most ${MAX_ATTRIBUTE_NAMES} attribute names in all (group members aside)`,
        );
    }
    const path = kind === 'operation' ? value[findKey(value, 'path') ?? 'path'] : undefined;
    for (const key of keys) {
      if (key.length > MAX_ATTRIBUTE_NAME_LENGTH) {
        throw ScimError.badRequest(
          `Attribute name "${key.slice(0, 40)}…" is longer than ${MAX_ATTRIBUTE_NAME_LENGTH} characters`,
          'invalidValue',
        );
      }
      const child: unknown = value[key];
      if (typeof child === 'string' && child.length <= MAX_IDENTIFIER_LENGTH) continue;
      if (typeof child !== 'object' && typeof child !== 'string') continue;
      const isOperationValue = kind === 'operation' && key.toLowerCase() === 'value';
      const childKind: Node['kind'] =
        node === root && key.toLowerCase() === 'operations'
          ? 'operations'
          : MEMBERS_KEY.test(key) || (isOperationValue && typeof path === 'string' && MEMBERS_PATH.test(path))
            ? 'members'
            : 'attribute';
      stack.push({ value: child, kind: childKind, parent: node, key });
    }
  }
}

const tooManyNames = (label: string, count: number): ScimError =>
  tooMany(`${label} has ${count} attributes; at most ${MAX_ATTRIBUTES_PER_OBJECT} are allowed in one object`);

/** Identifiers (indexed, or shown as a member's name) have their own, tighter length bound. */
const IDENTIFIERS = ['userName', 'displayName', 'externalId'];
const IDENTIFIER = /^(urn:\S*:)?(userName|displayName|externalId)$/i;

export function checkResourceBounds(resource: JsonObject): void {
  for (const name of IDENTIFIERS) {
    const value = resource[name];
    if (typeof value === 'string' && value.length > MAX_IDENTIFIER_LENGTH) throw tooLong(name, MAX_IDENTIFIER_LENGTH);
  }
  const check = (container: JsonObject, prefix: string) => {
    const keys = Object.keys(container);
    if (keys.length > MAX_ATTRIBUTES_PER_OBJECT)
      throw tooManyNames(prefix === '' ? 'The resource' : prefix.slice(0, -1), keys.length);
    for (const key of keys) {
      const value = container[key];
      if (
        Array.isArray(value) &&
        value.length > MAX_VALUES_PER_ATTRIBUTE &&
        !MEMBERS_KEY.test(key) &&
        key !== 'schemas'
      ) {
        throw tooMany(`${prefix}${key} has ${value.length} values; at most ${MAX_VALUES_PER_ATTRIBUTE} are allowed`);
      }
      if (prefix === '' && /^urn:/i.test(key) && isObject(value)) check(value, `${key}:`);
    }
  };
  check(resource, '');
  if (moreNamesThan(resource, MAX_ATTRIBUTE_NAMES)) {
    throw tooMany(
      `The resource would hold more than ${MAX_ATTRIBUTE_NAMES} attribute names in all; at most ${MAX_ATTRIBUTE_NAMES} are allowed`,
    );
  }
}

/**
 * Whether a resource holds more than `max` attribute names at every depth, its member list aside (bounded on its own).
 */
function moreNamesThan(resource: JsonObject, max: number): boolean {
  let names = 0;
  const stack: unknown[] = [];
  for (const key of Object.keys(resource)) {
    names++;
    if (!MEMBERS_KEY.test(key)) stack.push(resource[key]);
  }
  while (stack.length > 0 && names <= max) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push(item);
    } else if (isObject(value)) {
      for (const key of Object.keys(value)) {
        names++;
        stack.push(value[key]);
      }
    }
  }
  return names > max;
}
