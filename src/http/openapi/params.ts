/**
 * Identifiers and paging in management paths and queries, as zod schemas (the route table validates with them
 * and documents them): a 2,000-character tenant is "too long", not "not found", and control characters never
 * reach the store or the logs. Query values arrive as strings; a repeated parameter arrives as an array and is
 * refused.
 */
import { z } from 'zod';
import { MAX_ID_LENGTH, MAX_NAME_LENGTH } from '../../core/input-limits.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../../core/queries.js';

/** A path segment or query value: a bounded string without control characters. */
const boundedString = (name: string, max: number, typeError: string | ((issue: { input?: unknown }) => string)) =>
  z
    .string({ error: typeError })
    .max(max, `${name} must be at most ${max} characters`)
    .regex(/^[^\x00-\x1f\x7f]*$/, `${name} must not contain control characters`);

/** An `:id`-like path parameter. */
export const idParam = (name: string) => boundedString(name, MAX_ID_LENGTH, `${name} must be a string`);

/** Path parameters `{ id }` naming something else than a directory (`description` says what). */
export const idParamsOf = (description: string) => z.object({ id: idParam('id').describe(description) });

/** Path parameters `{ id }`: a directory. */
export const idParams = idParamsOf('The directory id');

/** A query parameter given at most once. */
export const queryValue = (name: string, max: number) =>
  boundedString(name, max, `${name} must be given once, as a string`);

/** A query parameter that must be there (`required` says what is missing, with the hint the client needs). */
export const requiredQueryValue = (name: string, max: number, required: string) =>
  boundedString(name, max, (issue) =>
    issue.input === undefined ? required : `${name} must be given once, as a string`,
  );

/** Which directories a read covers: one directory by id, or every directory of a tenant and product. */
export const scopeQuery = z.object({
  directoryId: queryValue('directoryId', MAX_ID_LENGTH)
    .optional()
    .describe('One directory, by id (give it, or both tenant and product)'),
  tenant: queryValue('tenant', MAX_NAME_LENGTH)
    .optional()
    .describe('With product: every directory of the tenant and product'),
  product: queryValue('product', MAX_NAME_LENGTH)
    .optional()
    .describe('With tenant: every directory of the tenant and product'),
});

/**
 * An integer query parameter in [min, max], written in decimal digits as the document's `integer` type says:
 * `limit=`, `1e3`, `0x10` and ` 10 ` are refused (Number() would read them as 0, 1000, 16 and 10). Absent takes
 * the default.
 */
export const intQuery = (
  name: string,
  min: number,
  max: number,
  meta: { default?: number; description?: string; deprecated?: boolean } = {},
) => {
  const message = `${name} must be an integer between ${min} and ${max}`;
  return z.preprocess(
    (v) => (typeof v === 'string' ? (/^-?[0-9]+$/.test(v) ? Number(v) : Number.NaN) : v),
    // The meta sits on the number: the document describes the parameter by what the preprocess leads to.
    z.number({ error: message }).int(message).min(min, message).max(max, message).meta(meta).optional(),
  );
};

/** pageOffset (default 0) and pageLimit (default 100, at most 1000); `offset`/`limit` are accepted as aliases. */
export const pageQuery = z.object({
  pageOffset: intQuery('pageOffset', 0, Number.MAX_SAFE_INTEGER, { default: 0, description: 'Items to skip' }),
  pageLimit: intQuery('pageLimit', 1, MAX_PAGE_LIMIT, {
    default: DEFAULT_PAGE_LIMIT,
    description: 'Items in the page',
  }),
  offset: intQuery('offset', 0, Number.MAX_SAFE_INTEGER, { description: 'Alias of pageOffset', deprecated: true }),
  limit: intQuery('limit', 1, MAX_PAGE_LIMIT, { description: 'Alias of pageLimit', deprecated: true }),
});

export function pageOf(q: z.output<typeof pageQuery>): { offset: number; limit: number } {
  return { offset: q.pageOffset ?? q.offset ?? 0, limit: q.pageLimit ?? q.limit ?? DEFAULT_PAGE_LIMIT };
}
