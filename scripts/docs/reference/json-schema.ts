/**
 * JSON Schema (2020-12, OpenAPI 3.x and the CRD's structural schema) as rows of fields: dotted path, type,
 * whether required, and a description with the constraints a reader needs. Shared by the events, CRD and HTTP
 * API pages.
 */
import { code } from './markdown.js';

export type JsonSchema = { [key: string]: unknown } & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  default?: unknown;
  format?: string;
};

export interface FieldRow {
  path: string;
  type: string;
  required: boolean;
  description: string;
}

export interface Refs {
  /** The schema a `$ref` names, and the name to show for it. */
  resolve(ref: string): { name: string; schema: JsonSchema };
  /** Given: a reference is shown as this link rather than expanded in place (named components). */
  link?(name: string): string;
}

const NO_REFS: Refs = {
  resolve: (ref) => {
    throw new Error(`unexpected $ref ${ref}`);
  },
};

/** `#/$defs/Name` or `#/components/schemas/Name` in the document given. */
export function localRefs(document: JsonSchema, link?: (name: string) => string): Refs {
  return {
    resolve(ref) {
      const path = ref.replace(/^#\//, '').split('/');
      const schema = path.reduce<unknown>(
        (node, key) => (node as Record<string, unknown> | undefined)?.[key],
        document,
      ) as JsonSchema | undefined;
      if (!schema) throw new Error(`unresolved $ref ${ref}`);
      return { name: path.at(-1)!, schema };
    },
    ...(link && { link }),
  };
}

const isNull = (s: JsonSchema) => s.type === 'null' || s.const === null;

/** A schema's type in words, references shown by name (linked when the refs say so). */
export function typeName(schema: JsonSchema, refs: Refs = NO_REFS): string {
  if (schema.$ref) {
    const { name, schema: target } = refs.resolve(schema.$ref);
    return refs.link ? refs.link(name) : typeName(target, refs);
  }
  if (schema.const !== undefined) return code(JSON.stringify(schema.const));
  if (schema.enum) return schema.enum.map((v) => code(JSON.stringify(v))).join(', ');
  const union = schema.oneOf ?? schema.anyOf;
  if (union) {
    const types = union.filter((s) => !isNull(s)).map((s) => typeName(s, refs));
    return `${[...new Set(types)].join(' or ')}${union.some(isNull) ? ' or null' : ''}`;
  }
  if (schema.allOf?.length === 1) return typeName(schema.allOf[0]!, refs);
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (schema.type === 'array') return `array of ${schema.items ? typeName(schema.items, refs) : 'any'}`;
  if (schema.type === 'object' && !schema.properties && schema.additionalProperties !== false) {
    const values =
      typeof schema.additionalProperties === 'object' && Object.keys(schema.additionalProperties).length > 0
        ? typeName(schema.additionalProperties, refs)
        : 'any';
    return `object (${values} values)`;
  }
  const type = schema.type ?? 'any';
  return schema.format ? `${type} (${schema.format})` : type;
}

/** Bounds, patterns, defaults and rules in words, after the schema's own description. */
export function describe(schema: JsonSchema): string {
  const n = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  const parts: string[] = [];
  if (schema.description) parts.push(schema.description.replace(/\.?$/, '.'));
  const [minLength, maxLength] = [n('minLength'), n('maxLength')];
  if (minLength !== undefined && maxLength !== undefined) parts.push(`${minLength}–${maxLength} characters.`);
  else if (maxLength !== undefined) parts.push(`At most ${maxLength} characters.`);
  else if (minLength) parts.push(`At least ${minLength} characters.`);
  const [min, max] = [n('minimum') ?? n('exclusiveMinimum'), n('maximum')];
  if (min !== undefined || max !== undefined) {
    const low = n('exclusiveMinimum') !== undefined ? `> ${n('exclusiveMinimum')}` : `≥ ${min}`;
    parts.push(
      min !== undefined && max !== undefined ? `${low}, ≤ ${max}.` : min !== undefined ? `${low}.` : `≤ ${max}.`,
    );
  }
  if (n('maxItems') !== undefined) parts.push(`At most ${n('maxItems')} items.`);
  // A format (date-time, email) says it better than the long pattern that implements it.
  if (typeof schema['pattern'] === 'string' && !schema.format) parts.push(`Pattern ${code(schema['pattern'])}.`);
  if (schema.default !== undefined && !(typeof schema.default === 'object' && schema.default !== null))
    parts.push(`Default ${code(JSON.stringify(schema.default))}.`);
  for (const rule of (schema['x-kubernetes-validations'] as Array<{ message?: string; rule: string }> | undefined) ??
    []) {
    parts.push(`${(rule.message ?? rule.rule).replace(/^./, (c) => c.toUpperCase()).replace(/\.?$/, '.')}`);
  }
  return parts.join(' ');
}

/** The object's own properties, expanded; a union of objects lists each alternative's fields. */
function objectParts(schema: JsonSchema, refs: Refs): JsonSchema[] {
  if (schema.$ref && !refs.link) return objectParts(refs.resolve(schema.$ref).schema, refs);
  if (schema.properties) return [schema];
  if (schema.type === 'array' && schema.items) return [];
  return (schema.allOf ?? []).flatMap((s) => objectParts(s, refs));
}

/**
 * Every field under `schema`, depth first: `data.group.name`, arrays as `conditions[].type`. References are
 * expanded in place unless the refs link them (then the row names the link and stops there).
 */
export function fieldRows(schema: JsonSchema, refs: Refs = NO_REFS, prefix = ''): FieldRow[] {
  return objectParts(schema, refs).flatMap((object) =>
    Object.entries(object.properties ?? {}).flatMap(([name, property]) => {
      const path = `${prefix}${name}`;
      const expanded = property.$ref && !refs.link ? refs.resolve(property.$ref).schema : property;
      const row: FieldRow = {
        path,
        type: typeName(property, refs),
        required: (object.required ?? []).includes(name),
        description: describe({ ...expanded, ...(property.description && { description: property.description }) }),
      };
      const items = expanded.type === 'array' && expanded.items ? expanded.items : undefined;
      const children = items ? fieldRows(items, refs, `${path}[].`) : fieldRows(expanded, refs, `${path}.`);
      return [row, ...children];
    }),
  );
}
