/**
 * SCIM protocol errors (RFC 7644 §3.12). Thrown anywhere under src/scim and rendered once by the
 * SCIM error mapper as `{schemas:[Error], status, scimType?, detail}` with the matching HTTP status.
 */
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
  | 'invalidVers'
  | 'sensitive';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** `invalidFilter` → `DSYNC_SCIM_INVALID_FILTER`; without a scimType, the status: `DSYNC_SCIM_405`. */
const codeOf = (status: number, scimType?: ScimType): string =>
  `DSYNC_SCIM_${scimType ? scimType.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase() : status}`;

export class ScimError extends DsyncError {
  override name = 'ScimError';
  constructor(
    status: number,
    detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail, codeOf(status, scimType), status);
  }

  get detail(): string {
    return this.message;
  }

  toJSON(): { schemas: string[]; status: string; scimType?: ScimType; detail: string } {
    return {
      schemas: [SCIM_ERROR_SCHEMA],
      status: String(this.status),
      ...(this.scimType ? { scimType: this.scimType } : {}),
      detail: this.message,
    };
  }

  static badRequest(detail: string, scimType: ScimType = 'invalidValue'): ScimError {
    return new ScimError(400, detail, scimType);
  }

  static notFound(detail: string): ScimError {
    return new ScimError(404, detail);
  }
}
