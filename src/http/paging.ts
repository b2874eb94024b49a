/** Paging query parameters of the management API's list routes. */
import type { Request } from 'express';
import { ValidationError } from '../core/errors.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, type PageRequest } from '../core/queries.js';

/** pageOffset (default 0) and pageLimit (default 100, at most 1000); `offset`/`limit` accepted as aliases. */
export function pageOf(req: Request): PageRequest {
  const q = req.query as Record<string, unknown>;
  const int = (name: string, value: unknown, fallback: number, min: number, max: number): number => {
    if (value === undefined || value === '') return fallback;
    const n = Number(value);
    if (typeof value !== 'string' || !Number.isInteger(n) || n < min || n > max) {
      throw new ValidationError(`${name} must be an integer between ${min} and ${max}`, name);
    }
    return n;
  };
  return {
    offset: int('pageOffset', q.pageOffset ?? q.offset, 0, 0, Number.MAX_SAFE_INTEGER),
    limit: int('pageLimit', q.pageLimit ?? q.limit, DEFAULT_PAGE_LIMIT, 1, MAX_PAGE_LIMIT),
  };
}
