/**
 * zod schemas to the document's JSON Schemas: every schema with a meta `id` becomes one named component, every
 * answer's `{data, error}` envelope is a named component too (generators would otherwise invent names such as
 * `GetDirectorySyncIdGoogleSync200ResponseData`), a discriminated union carries its `discriminator`, and the
 * envelope member that is always null is written as a nullable reference, the form generators take (a bare
 * `{"type": "null"}` breaks openapi-generator's Python and typescript-fetch output).
 */
import { z } from 'zod';

export type Json = Record<string, unknown>;

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

function rewriteRefs(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
}

/** `oneOf` of named variants told apart by one property: the OpenAPI `discriminator` with its mapping. */
function discriminate(ctx: { zodSchema: z.core.$ZodType; jsonSchema: z.core.JSONSchema.BaseSchema }): void {
  const def = ctx.zodSchema._zod.def as { type: string; discriminator?: string; options?: z.ZodObject[] };
  if (def.type !== 'union' || !def.discriminator || !def.options) return;
  const mapping: Record<string, string> = {};
  for (const option of def.options) {
    const id = option.meta()?.id;
    const value = (option.shape[def.discriminator] as z.ZodLiteral | undefined)?.value;
    if (!id || typeof value !== 'string')
      throw new Error(`a discriminated union's options need an id and a string ${def.discriminator}`);
    mapping[value] = `#/$defs/${id}`;
  }
  (ctx.jsonSchema as Json).discriminator = { propertyName: def.discriminator, mapping };
}

/** Collects every named schema once under components; two different schemas under one name are a bug. */
export class SchemaCollector {
  readonly components: Record<string, Json> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): Json {
    const json = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      target: 'draft-2020-12',
      override: discriminate,
    }) as Json;
    const { $schema: _, $defs, ...root } = json;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, Json>)) this.add(id, rewriteRefs(def));
    return rewriteRefs(root);
  }

  add(name: string, schema: Json): Json {
    const known = this.components[name];
    if (known && JSON.stringify(known) !== JSON.stringify(schema))
      throw new Error(`two different schemas are named ${name}`);
    this.components[name] = schema;
    return ref(name);
  }

  /**
   * `{data, error: null}` around `data`, as a named component (`<Data>Envelope`, `<Item>ListEnvelope`, or `fallback`).
   */
  successEnvelope(data: z.ZodType, fallback: string): Json {
    const converted = this.convert(data, 'output');
    return this.add(envelopeName(data) ?? fallback, {
      type: 'object',
      properties: { data: converted, error: { ...alwaysNull(ref('ErrorDetail')), description: 'null on success' } },
      required: ['data', 'error'],
      additionalProperties: false,
    });
  }
}

/** A member that is always null, written as "this type or null" with `const: null`: exact, and generators take it. */
export const alwaysNull = (type: Json): Json => ({ anyOf: [type, { type: 'null' }], const: null });

function envelopeName(data: z.ZodType): string | undefined {
  const id = data.meta()?.id;
  if (id) return `${id}Envelope`;
  const def = data._zod.def as { type: string; element?: z.ZodType };
  const itemId = def.type === 'array' ? def.element?.meta()?.id : undefined;
  return itemId ? `${itemId}ListEnvelope` : undefined;
}

/**
 * The example of a schema: its own meta `examples[0]`, else built from its parts (an array of its item's
 * example, an object of its fields' examples, optional fields left out when they have none).
 */
export function exampleOf(schema: z.ZodType): unknown {
  const own = schema.meta()?.examples as unknown[] | undefined;
  if (own && own.length > 0) return own[0];
  const def = schema._zod.def as {
    type: string;
    element?: z.ZodType;
    innerType?: z.ZodType;
    out?: z.ZodType;
    shape?: Record<string, z.ZodType>;
  };
  switch (def.type) {
    case 'array': {
      const item = exampleOf(def.element!);
      return item === undefined ? undefined : [item];
    }
    case 'optional':
    case 'nullable':
    case 'default':
      return exampleOf(def.innerType!);
    case 'pipe':
      return exampleOf(def.out!);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries((schema as z.ZodObject).shape as Record<string, z.ZodType>)) {
        const value = exampleOf(field);
        if (value !== undefined) out[key] = value;
        else if (!field.safeParse(undefined).success) return undefined;
      }
      return out;
    }
    default:
      return undefined;
  }
}
