/** The management API's `{data, error}` envelope and its one error mapper. */
import type { ErrorRequestHandler, Response } from 'express';
import { DsyncError } from '../../core/errors.js';

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

/**
 * Client errors answer with their message; a fault of our own (status 500) is logged with its instance id and
 * the request id, and both are in the body, so a report quoting either finds the log line.
 */
export function envelopeErrors(): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    if (err instanceof DsyncError && err.status !== 500) {
      if (err.retryAfter !== undefined) res.setHeader('Retry-After', String(err.retryAfter));
      return fail(res, err.status, err.message);
    }
    const e = err as HttpishError;
    if (e.type === 'entity.parse.failed') return fail(res, 400, 'Request body is not valid JSON');
    if (e.type === 'entity.too.large') return fail(res, 413, 'Request body is too large');
    if (!(err instanceof DsyncError) && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
      return fail(res, e.status, e.message);
    }
    const fault =
      err instanceof DsyncError ? err : new DsyncError('Internal server error', 'DSYNC_INTERNAL', { cause: err });
    const { requestId, log } = res.locals;
    log.error({ err, errorId: fault.id }, 'management request failed'); // the child logger carries requestId
    res
      .status(500)
      .json({ data: null, error: { message: 'Internal server error', code: 500, id: fault.id, requestId } });
  };
}
