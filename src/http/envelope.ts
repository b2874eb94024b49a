/** The management API's `{data, error}` envelope and its one error mapper. */
import type { ErrorRequestHandler, Response } from 'express';
import { DsyncError } from '../core/errors.js';
import type { Logger } from '../logger.js';

export const ok = (res: Response, data: unknown, status = 200): void => {
  res.status(status).json({ data, error: null });
};

export const fail = (res: Response, status: number, message: string): void => {
  res.status(status).json({ data: null, error: { message, code: status } });
};

/** Body-parser failures carry `status`/`type`; they are the client's fault and say so. */
interface HttpishError {
  status?: number;
  type?: string;
  message: string;
}

export function envelopeErrors(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    if (err instanceof DsyncError) {
      if (err.retryAfter !== undefined) res.setHeader('Retry-After', String(err.retryAfter));
      return fail(res, err.status, err.message);
    }
    const e = err as HttpishError;
    if (e.type === 'entity.parse.failed') return fail(res, 400, 'Request body is not valid JSON');
    if (e.type === 'entity.too.large') return fail(res, 413, 'Request body is too large');
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return fail(res, e.status, e.message);
    logger.error({ err }, 'management request failed');
    fail(res, 500, 'Internal server error');
  };
}
