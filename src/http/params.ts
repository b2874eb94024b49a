/**
 * Identifiers in management paths and queries, validated before anything looks them up: a 2,000-character
 * tenant is "too long", not "not found", and control characters never reach the store or the logs.
 */
import type { RequestParamHandler } from 'express';
import { z } from 'zod';
import { describeIssues } from '../core/directory-input.js';
import { ValidationError } from '../core/errors.js';
import { CONTROL_CHARACTERS, MAX_ID_LENGTH, MAX_NAME_LENGTH } from '../core/limits.js';

/** A query parameter given at most once, as a bounded string without control characters. */
const queryValue = (name: string, max: number) =>
  z
    .string({ error: `${name} must be given once, as a string` })
    .max(max, `${name} must be at most ${max} characters`)
    .refine((v) => !CONTROL_CHARACTERS.test(v), `${name} must not contain control characters`)
    .optional();

const scopeQuery = z.object({
  directoryId: queryValue('directoryId', MAX_ID_LENGTH),
  tenant: queryValue('tenant', MAX_NAME_LENGTH),
  product: queryValue('product', MAX_NAME_LENGTH),
});

export function parseScopeQuery(query: unknown): z.infer<typeof scopeQuery> {
  const parsed = scopeQuery.safeParse(query);
  if (parsed.success) return parsed.data;
  const { message, field } = describeIssues(parsed.error);
  throw new ValidationError(message, field);
}

/** `router.param` check for `:id`-like path segments. */
export const idParam: RequestParamHandler = (_req, _res, next, value: string, name: string) => {
  if (value.length > MAX_ID_LENGTH) return next(new ValidationError(`${name} must be at most ${MAX_ID_LENGTH} characters`, name));
  if (CONTROL_CHARACTERS.test(value)) return next(new ValidationError(`${name} must not contain control characters`, name));
  next();
};
