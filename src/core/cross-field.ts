/**
 * Rules across an object's fields. Each is checked by a refinement (a 400 naming the field) and written into the
 * schema's JSON Schema, and so into the OpenAPI document, as the keyword that says the same thing.
 */
import type { z } from 'zod';

type Issue = { code: 'custom'; message: string; path: string[] };

function withRule<T extends z.ZodObject>(
  schema: T,
  keywords: Record<string, unknown>,
  check: (value: Record<string, unknown>) => Issue | undefined,
): T {
  return schema
    .superRefine((value, ctx) => {
      const issue = check(value as Record<string, unknown>);
      if (issue) ctx.addIssue(issue);
    })
    .meta({ ...schema.meta(), ...keywords }) as T;
}

/** `field` may only be given together with `needs` (JSON Schema `dependentRequired`). */
export function dependentRequired<T extends z.ZodObject>(schema: T, field: string, needs: string, message: string): T {
  return withRule(schema, { dependentRequired: { [field]: [needs] } }, (v) =>
    v[field] !== undefined && v[needs] === undefined ? { code: 'custom', message, path: [needs] } : undefined,
  );
}

/** Exactly one of `fields` must be given (JSON Schema `oneOf` of one `required` each). */
export function exactlyOneOf<T extends z.ZodObject>(schema: T, fields: string[], message: string): T {
  return withRule(schema, { oneOf: fields.map((f) => ({ required: [f] })) }, (v) =>
    fields.filter((f) => v[f] !== undefined).length === 1 ? undefined : { code: 'custom', message, path: [fields[0]!] },
  );
}
