/** A 429 in each route family's own error format. */
import type { Response } from 'express';
import { fail } from '../http/middleware/envelope.js';
import { ScimError } from '../scim/errors.js';

/** RFC 7644 §3.12 Error, as every other SCIM answer: `application/scim+json`, `status` a string. */
export function refuseScim(res: Response, message: string): void {
  res.status(429).setHeader('Content-Type', 'application/scim+json; charset=utf-8');
  res.end(JSON.stringify(new ScimError(429, message).toJSON()));
}

/** The management envelope: `{data: null, error: {message, code: 429}}`. */
export function refuseManagement(res: Response, message: string): void {
  fail(res, 429, message);
}
