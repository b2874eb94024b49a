/**
 * SCIM protocol errors (RFC 7644 §3.12). Thrown anywhere under src/scim and rendered once by the
 * SCIM error mapper as `{schemas:[Error], status, scimType?, detail}` with the matching HTTP status.
 */
import type { ScimStatusCode, ScimTypeCode } from '../core/error-codes.js';
import { DsyncError } from '../core/errors.js';

export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** The statuses a ScimError is raised with (each has its code, for when it comes without a scimType). */
const SCIM_STATUSES = [400, 401, 403, 404, 405, 412, 413, 415, 429, 501] as const;
export type ScimStatus = (typeof SCIM_STATUSES)[number];
export const isScimStatus = (status: unknown): status is ScimStatus =>
  (SCIM_STATUSES as readonly unknown[]).includes(status);

const TYPE_CODES: Record<ScimType, ScimTypeCode> = {
  invalidFilter: 'DSYNC_SCIM_INVALID_FILTER',
  tooMany: 'DSYNC_SCIM_TOO_MANY',
  uniqueness: 'DSYNC_SCIM_UNIQUENESS',
  mutability: 'DSYNC_SCIM_MUTABILITY',
  invalidSyntax: 'DSYNC_SCIM_INVALID_SYNTAX',
  invalidPath: 'DSYNC_SCIM_INVALID_PATH',
  noTarget: 'DSYNC_SCIM_NO_TARGET',
  invalidValue: 'DSYNC_SCIM_INVALID_VALUE',
  invalidVers: 'DSYNC_SCIM_INVALID_VERS',
};

/** `invalidFilter` → `DSYNC_SCIM_INVALID_FILTER`; without a scimType, the status: `DSYNC_SCIM_405`. */
const codeOf = (status: ScimStatus, scimType?: ScimType): ScimTypeCode | ScimStatusCode =>
  scimType ? TYPE_CODES[scimType] : `DSYNC_SCIM_${status}`;

/** The body of a SCIM error answer, for any status (a core error rendered in SCIM's words too). */
export function scimErrorBody(
  status: number,
  detail: string,
  scimType?: ScimType,
): { schemas: string[]; status: string; scimType?: ScimType; detail: string } {
  return { schemas: [SCIM_ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

export class ScimError extends DsyncError {
  override name = 'ScimError';
  declare readonly status: ScimStatus;
  constructor(
    status: ScimStatus,
    detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail, codeOf(status, scimType), { status });
  }

  get detail(): string {
    return this.message;
  }

  toJSON(): ReturnType<typeof scimErrorBody> {
    return scimErrorBody(this.status, this.message, this.scimType);
  }

  static badRequest(detail: string, scimType: ScimType = 'invalidValue'): ScimError {
    return new ScimError(400, detail, scimType);
  }

  static notFound(detail: string): ScimError {
    return new ScimError(404, detail);
  }
}
