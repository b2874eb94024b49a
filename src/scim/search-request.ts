/**
 * POST /.search (RFC 7644 §3.4.3): the query travels in a SearchRequest body, validated like every other input.
 * A filter that is not a string is a 400 `invalidFilter`, never silently dropped (which would answer with the
 * whole directory).
 */
import { z } from 'zod';
import { MAX_FILTER_LENGTH, MAX_PROJECTED_ATTRIBUTES } from '../core/input-limits.js';
import type { ScimQuery } from './context.js';
import { ScimError } from './errors.js';

const index = (name: string) =>
  z
    .union([z.number(), z.string().regex(/^-?\d+$/, `${name} must be an integer`)], {
      error: `${name} must be an integer`,
    })
    .optional();
const attributeList = (name: string) =>
  z
    .union([z.array(z.string().max(1024)).max(MAX_PROJECTED_ATTRIBUTES), z.string().max(4096)], {
      error: `${name} must be a list of attribute names`,
    })
    .optional();

const searchRequest = z.looseObject({
  schemas: z.unknown().optional(),
  filter: z
    .string({ error: 'filter must be a string' })
    .max(MAX_FILTER_LENGTH, `filter must be at most ${MAX_FILTER_LENGTH} characters`)
    .optional(),
  startIndex: index('startIndex'),
  count: index('count'),
  attributes: attributeList('attributes'),
  excludedAttributes: attributeList('excludedAttributes'),
  sortBy: z.string({ error: 'sortBy must be a string' }).max(1024).optional(),
  sortOrder: z.enum(['ascending', 'descending'], { error: 'sortOrder must be ascending or descending' }).optional(),
});

export function parseSearchRequest(body: unknown): ScimQuery {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ScimError.badRequest('SearchRequest body must be a JSON object', 'invalidSyntax');
  }
  const parsed = searchRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? '');
    throw ScimError.badRequest(issue.message, field === 'filter' ? 'invalidFilter' : 'invalidValue');
  }
  const b = parsed.data;
  const list = (v: string[] | string | undefined) => (Array.isArray(v) ? v.join(',') : v);
  const attributes = list(b.attributes);
  const excluded = list(b.excludedAttributes);
  return {
    ...(b.filter !== undefined && { filter: b.filter }),
    ...(b.startIndex !== undefined && { startIndex: b.startIndex }),
    ...(b.count !== undefined && { count: b.count }),
    ...(attributes && { attributes }),
    ...(excluded && { excludedAttributes: excluded }),
  };
}
