/**
 * A user's custom attributes (docs/concepts/attributes-and-roles.md): the directory's `attribute_mapping` names
 * each one and says where in the user's body its value is, in SCIM's attribute-path grammar (RFC 7644 §3.10:
 * `title`, `name.givenName`, `urn:…:enterprise:2.0:User:costCenter`, `addresses[type eq "work"].country`) or
 * as a provider field (`google:orgUnitPath`), which is the same path inside the extension that provider's sync
 * writes (`providerExtension`). Core keeps its own small parser: the SCIM layer's resolves names against our
 * schemas, while a mapping must reach any custom extension an IdP sends. Names compare case-insensitively, as
 * SCIM's do. Pure: the writers evaluate it and keep the result with the user.
 */
import { z } from 'zod';
import type { AttributeMapping, CustomAttributes, ScimBody } from './model.js';

/** The pull providers and the fields each one's sync keeps in its extension of the user's body. */
export const PROVIDER_FIELDS = {
  google: ['orgUnitPath', 'isAdmin', 'locations', 'phones', 'addresses', 'customSchemas', 'recoveryEmail'],
  entra: [
    'officeLocation',
    'companyName',
    'employeeType',
    'employeeHireDate',
    'city',
    'state',
    'country',
    'usageLocation',
    'preferredLanguage',
    'mobilePhone',
    'businessPhones',
    'onPremisesSamAccountName',
  ],
  bamboohr: ['location', 'employmentStatus', 'workPhone', 'country'],
  hibob: ['site', 'employmentType', 'workPhone', 'country'],
  // Personio's API has no work phone or country of its own (a company adds them as custom attributes).
  personio: ['office', 'employmentType'],
} as const satisfies Record<string, readonly string[]>;
export type Provider = keyof typeof PROVIDER_FIELDS;

/** The extension of a user's body where `provider`'s sync keeps the fields provider paths read. */
export const providerExtension = (provider: Provider): string =>
  `urn:dsync:params:scim:schemas:extension:${provider}:2.0:User`;

type Term = { attr: string; op: 'eq'; value: unknown } | { attr: string; op: 'pr' };

/** A parsed source path: the attribute (in an extension when `urn`), the element filter, the sub-attribute. */
export interface SourcePath {
  urn?: string;
  attr: string;
  filter?: Term[];
  sub?: string[];
}

export class SourcePathError extends Error {}

const NAME = /^[A-Za-z$][\w$-]*$/;
const PROVIDERS = Object.keys(PROVIDER_FIELDS)
  .map((p) => `${p}:`)
  .join(', ');
export const MAX_SOURCE = 512;

function names(text: string, whole: string): string[] {
  const parts = text.split('.');
  for (const p of parts)
    if (!NAME.test(p))
      throw new SourcePathError(`"${whole}" is not an attribute path: "${p}" is not an attribute name`);
  return parts;
}

/** `type eq "work"`, `primary eq true`, `value pr`, joined by `and`. */
function parseFilter(text: string, whole: string): Term[] {
  const terms: Term[] = [];
  const term =
    /^\s*([A-Za-z$][\w$-]*)\s+(?:(pr)\b|(eq)\s+("(?:[^"\\]|\\.)*"|true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?))\s*/i;
  let rest = text;
  for (;;) {
    const m = term.exec(rest);
    if (!m)
      throw new SourcePathError(
        `"${whole}": the filter [${text}] must be "<attribute> eq <value>" or "<attribute> pr", joined by "and"`,
      );
    terms.push(
      m[2]
        ? { attr: m[1]!, op: 'pr' }
        : { attr: m[1]!, op: 'eq', value: JSON.parse(m[4]!.replace(/^(true|false|null)$/i, (w) => w.toLowerCase())) },
    );
    rest = rest.slice(m[0].length);
    if (rest === '') return terms;
    const and = /^and\s+/i.exec(rest);
    if (!and) throw new SourcePathError(`"${whole}": the filter [${text}] joins its terms with "and" only`);
    rest = rest.slice(and[0].length);
  }
}

/** Parses a source path; SourcePathError says what is wrong with it. */
export function parseSourcePath(text: string): SourcePath {
  if (text.length === 0) throw new SourcePathError('must not be empty');
  if (text.length > MAX_SOURCE) throw new SourcePathError(`must be at most ${MAX_SOURCE} characters`);
  const provider = /^([a-z]+):/.exec(text);
  if (provider && provider[1] !== 'urn') {
    const name = provider[1]!;
    if (!Object.hasOwn(PROVIDER_FIELDS, name)) {
      throw new SourcePathError(
        `"${text}": unknown source form "${name}:" (a SCIM attribute path, or one of ${PROVIDERS})`,
      );
    }
    // The same path inside the provider's extension.
    const path = scimPath(`${providerExtension(name as Provider)}:${text.slice(name.length + 1)}`, text);
    const fields: readonly string[] = PROVIDER_FIELDS[name as Provider];
    if (!fields.includes(path.attr))
      throw new SourcePathError(`"${text}": ${name} has no field "${path.attr}" (it has ${fields.join(', ')})`);
    return path;
  }
  return scimPath(text, text);
}

/** An attribute path as RFC 7644 writes it, `whole` the text the user wrote (for the messages). */
function scimPath(text: string, whole: string): SourcePath {
  const open = text.indexOf('[');
  const head = open < 0 ? text : text.slice(0, open);
  let urn: string | undefined;
  let attrText = head;
  if (/^urn:/i.test(head)) {
    const colon = head.lastIndexOf(':');
    urn = head.slice(0, colon);
    attrText = head.slice(colon + 1);
    if (!/^urn:[\w.-]+(:[\w.-]+)+$/i.test(urn)) throw new SourcePathError(`"${whole}": "${urn}" is not a schema URN`);
  } else if (head.includes(':')) {
    throw new SourcePathError(`"${whole}": unknown source form (a SCIM attribute path, or one of ${PROVIDERS})`);
  }
  if (open < 0) {
    const [attr, ...sub] = names(attrText, whole);
    return { ...(urn !== undefined && { urn }), attr: attr!, ...(sub.length > 0 && { sub }) };
  }
  const close = text.lastIndexOf(']');
  if (close < open || !NAME.test(attrText))
    throw new SourcePathError(`"${whole}" is not an attribute path: expected <attribute>[<filter>].<sub-attribute>`);
  const after = text.slice(close + 1);
  if (after !== '' && !after.startsWith('.'))
    throw new SourcePathError(`"${whole}": after the filter comes ".<sub-attribute>" or nothing`);
  const sub = after === '' ? undefined : names(after.slice(1), whole);
  return {
    ...(urn !== undefined && { urn }),
    attr: attrText,
    filter: parseFilter(text.slice(open + 1, close), whole),
    ...(sub && { sub }),
  };
}

/** The message for a source path that does not parse; undefined when it does. */
export function sourcePathError(text: string): string | undefined {
  try {
    parseSourcePath(text);
    return undefined;
  } catch (err) {
    if (err instanceof SourcePathError) return err.message;
    throw err;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `obj[key]`, the key compared case-insensitively (an exact match first). */
function read(obj: unknown, key: string): unknown {
  if (!isObject(obj)) return undefined;
  if (Object.hasOwn(obj, key)) return obj[key];
  const lower = key.toLowerCase();
  for (const k in obj) if (k.toLowerCase() === lower) return obj[k];
  return undefined;
}

const same = (a: unknown, b: unknown): boolean =>
  typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b;

function passes(element: unknown, filter: readonly Term[]): boolean {
  return filter.every((t) => {
    const v = read(element, t.attr);
    return t.op === 'pr' ? hasValue(v) : same(v, t.value);
  });
}

const hasValue = (v: unknown): boolean =>
  v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

function dig(value: unknown, sub: readonly string[]): unknown {
  let v = value;
  for (const key of sub) {
    // A multi-valued attribute's sub-attribute is the sub-attribute of each of its values (RFC 7644 §3.10).
    v = Array.isArray(v) ? v.map((e) => read(e, key)).filter(hasValue) : read(v, key);
  }
  return v;
}

/** The value at `path` in `body`; undefined when there is none. A filter picks the first matching element. */
export function valueAt(body: ScimBody, path: SourcePath): unknown {
  const holder = path.urn === undefined ? body : read(body, path.urn);
  let v = read(holder, path.attr);
  if (path.filter) v = Array.isArray(v) ? v.find((e) => passes(e, path.filter!)) : undefined;
  if (path.sub) v = dig(v, path.sub);
  return hasValue(v) ? v : undefined;
}

const PARSED_KEPT = 10_000;
const parsedPaths = new Map<string, SourcePath>();
/** A checked mapping's source, parsed once: the writers evaluate the same few sources for every user. */
function parsed(source: string): SourcePath {
  let path = parsedPaths.get(source);
  if (path === undefined) {
    if (parsedPaths.size >= PARSED_KEPT) parsedPaths.clear();
    path = parseSourcePath(source);
    parsedPaths.set(source, path);
  }
  return path;
}

/** The custom attributes of a user with this body: each mapped name with a value, in the mapping's order. */
export function customAttributesOf(body: ScimBody, mapping: AttributeMapping | undefined): CustomAttributes {
  const out: CustomAttributes = {};
  if (mapping === undefined) return out;
  for (const [name, source] of Object.entries(mapping)) {
    if (source === '') continue;
    const v = valueAt(body, parsed(source));
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** Whether two custom attribute sets hold the same names and values (order aside). */
export function sameCustomAttributes(a: CustomAttributes | undefined, b: CustomAttributes | undefined): boolean {
  const x = a ?? {};
  const y = b ?? {};
  const keys = Object.keys(x);
  return (
    keys.length === Object.keys(y).length &&
    keys.every((k) => Object.hasOwn(y, k) && JSON.stringify(x[k]) === JSON.stringify(y[k]))
  );
}

const PROVIDER_URNS = new Map(
  (Object.keys(PROVIDER_FIELDS) as Provider[]).map((p) => [providerExtension(p).toLowerCase(), p]),
);
const SKIPPED = new Set(['schemas', 'id', 'meta', 'password']);
const MAX_SEEN = 200;

/**
 * The source paths a body holds a value at, each with that value (the setup page shows the IT admin what their
 * IdP sent): simple attributes, sub-attributes of complex ones, a multi-valued attribute's elements by their
 * `type`, extension attributes by URN, provider fields by their short form. At most 200.
 */
export function sourcePathsOf(body: ScimBody): Array<{ path: string; value: unknown }> {
  const seen = new Map<string, unknown>();
  // The first element of a type is the one its path reads.
  const add = (path: string, value: unknown) => {
    if (seen.size < MAX_SEEN && hasValue(value) && !isObject(value) && !seen.has(path)) seen.set(path, value);
  };
  const walk = (prefix: string, obj: Record<string, unknown>, only?: readonly string[]) => {
    for (const [key, value] of Object.entries(obj)) {
      if (SKIPPED.has(key) || key.includes(':') || !NAME.test(key) || (only && !only.includes(key))) continue;
      const path = `${prefix}${key}`;
      if (isObject(value)) {
        for (const [sub, v] of Object.entries(value)) if (NAME.test(sub)) add(`${path}.${sub}`, v);
      } else if (Array.isArray(value) && value.some(isObject)) {
        for (const element of value.filter(isObject)) {
          const type = element.type;
          if (typeof type !== 'string') continue;
          for (const [sub, v] of Object.entries(element))
            if (sub !== 'type' && NAME.test(sub)) add(`${path}[type eq ${JSON.stringify(type)}].${sub}`, v);
        }
      } else add(path, value);
    }
  };
  walk('', body);
  for (const [key, value] of Object.entries(body)) {
    if (!key.includes(':') || !isObject(value)) continue;
    const provider = PROVIDER_URNS.get(key.toLowerCase());
    if (provider === undefined) walk(`${key}:`, value);
    else walk(`${provider}:`, value, PROVIDER_FIELDS[provider]);
  }
  return [...seen].map(([path, value]) => ({ path, value }));
}

export const MAX_CUSTOM_ATTRIBUTES = 100;
/** A custom attribute's name: what the application reads in `custom_attributes`. */
const ATTRIBUTE_NAME = /^[A-Za-z][\w-]{0,63}$/;
const ATTRIBUTE_NAME_RULE = 'a custom attribute name is a letter then up to 63 letters, digits, _ or -';

/**
 * A directory's `attribute_mapping`: each name the application reads, and where its value comes from. An empty
 * source is a name the application asks for and the IT admin has yet to map (on the setup page).
 */
export const attributeMapping = z
  .record(
    z.string().regex(ATTRIBUTE_NAME, ATTRIBUTE_NAME_RULE),
    z.string({ error: 'must be a string (a SCIM attribute path or a provider field)' }).superRefine((source, ctx) => {
      const error = source === '' ? undefined : sourcePathError(source);
      if (error !== undefined) ctx.addIssue({ code: 'custom', message: error });
    }),
    {
      error: (issue) =>
        issue.code === 'invalid_key'
          ? ATTRIBUTE_NAME_RULE
          : 'must be an object of custom attribute names to source paths',
    },
  )
  .refine((m) => Object.keys(m).length <= MAX_CUSTOM_ATTRIBUTES, `must map at most ${MAX_CUSTOM_ATTRIBUTES} attributes`)
  .meta({
    id: 'AttributeMapping',
    examples: [
      {
        badge: 'urn:ietf:params:scim:schemas:extension:acme:2.0:User:badge',
        country: 'addresses[type eq "work"].country',
        org_unit: 'google:orgUnitPath',
      },
    ],
  });
