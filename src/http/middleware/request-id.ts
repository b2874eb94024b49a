/**
 * A request id on every HTTP request: an incoming well-formed `X-Request-Id` (set by a proxy or the client) is
 * kept, so one id follows the request across services; otherwise one is generated. It is echoed in the response
 * header, and every log line of the request carries it through `res.locals.log`.
 */
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../../logger.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** This request's id (the `X-Request-Id` header). */
      requestId: string;
      /** The process logger with this request's id bound. */
      log: Logger;
    }
  }
}

/** UUIDs, W3C trace ids and the like; anything else (too long, spaces, control characters) is replaced. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIds(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming !== undefined && WELL_FORMED.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    res.locals.requestId = requestId;
    // Made when first used: most requests log nothing, and a child logger per request is measurable work.
    let log: Logger | undefined;
    Object.defineProperty(res.locals, 'log', { get: () => (log ??= logger.child({ requestId })), enumerable: true });
    next();
  };
}
