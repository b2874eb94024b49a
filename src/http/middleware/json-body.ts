/**
 * The one body rule of both APIs (management and SCIM): a body is JSON. Without a Content-Type it is parsed as
 * JSON (clients that leave the header out); with an explicit non-JSON type it is refused with 415 rather than read
 * as "no body" (which would surface as a confusing 400). Each API's error mapper renders the 415 its own way.
 */
import express, { type RequestHandler } from 'express';

/** `application/json`, `application/scim+json` and every other `+json` type. */
const JSON_TYPES = ['application/json', 'application/*+json'];

export const UNSUPPORTED_MEDIA_TYPE = 'Content-Type must be application/json or application/scim+json (or be left out)';

export function jsonBody(options: { limit: string | number; strict: boolean }): RequestHandler {
  // Only requests that passed the check below reach the parser: no Content-Type, or a JSON one.
  const parse = express.json({ ...options, type: () => true });
  return (req, res, next) => {
    const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
    if (hasBody && req.get('content-type') !== undefined && !req.is(JSON_TYPES)) {
      next(Object.assign(new Error(UNSUPPORTED_MEDIA_TYPE), { status: 415 }));
      return;
    }
    parse(req, res, next);
  };
}
