/**
 * The one SCIM error mapper: any failure of a SCIM request — a ScimError, one of core's coded errors (400, 404,
 * 409, 503 with Retry-After, …), a body-parser error, a fault of our own — becomes a SCIM Error response
 * (RFC 7644 §3.12). A 5xx is logged, and its body names the error's instance id (and the request id, when the
 * transport has one) so an operator can find the log line.
 */
import { ConflictError, DsyncError, ValidationError } from '../core/errors.js';
import { MAX_BODY_BYTES } from '../core/input-limits.js';
import { SCIM_JSON, type ScimResult } from './context.js';
import { isScimStatus, ScimError, scimErrorBody, type ScimType } from './errors.js';

export interface ErrorContext {
  requestId?: string;
  /** Told about every 5xx: the error as thrown and the instance id the body names. */
  log?: (err: unknown, errorId: string) => void;
}

/** Body-parser failures carry `status`/`type`; they are the client's fault and say so. */
interface HttpishError {
  status?: unknown;
  type?: unknown;
  message?: unknown;
}

/** core's error kinds in SCIM's words. */
function scimTypeOf(err: DsyncError): ScimType | undefined {
  if (err instanceof ConflictError) return 'uniqueness';
  if (err instanceof ValidationError) return 'invalidValue';
  return undefined;
}

function asDsyncError(err: unknown): DsyncError {
  if (err instanceof DsyncError) return err;
  const e = (err ?? {}) as HttpishError;
  if (e.type === 'entity.parse.failed') return new ScimError(400, 'Request body is not valid JSON', 'invalidSyntax');
  if (e.type === 'entity.too.large') return new ScimError(413, `Request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (isScimStatus(e.status)) return new ScimError(e.status, String(e.message ?? 'error'));
  // A 4xx the HTTP layer has no SCIM code for (none it raises today) is the client's fault all the same.
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500)
    return new ScimError(400, String(e.message ?? 'error'));
  return new DsyncError('Internal server error', 'DSYNC_INTERNAL', { cause: err });
}

export function scimErrorResult(err: unknown, context: ErrorContext = {}): ScimResult {
  const error = asDsyncError(err);
  const headers: Record<string, string> = { 'Content-Type': SCIM_JSON };
  // 503s that pass by themselves (store outage, contention) tell the IdP when to come back.
  if (error.retryAfter !== undefined) headers['Retry-After'] = String(error.retryAfter);
  let detail = error.message;
  if (error.status >= 500) {
    context.log?.(err, error.id);
    detail += ` (error id ${error.id}${context.requestId ? `, request id ${context.requestId}` : ''})`;
  }
  const scimType = error instanceof ScimError ? error.scimType : scimTypeOf(error);
  return { status: error.status, data: scimErrorBody(error.status, detail, scimType), headers };
}
