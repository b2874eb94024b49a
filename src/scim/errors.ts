/**
 * SCIM protocol errors (RFC 7644 §3.12). Thrown anywhere under src/scim and rendered once by the
 * SCIM error mapper as `{schemas:[Error], status, scimType?, detail}` with the matching HTTP status.
 */
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

export class ScimError extends Error {
  override readonly name = 'ScimError';
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
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

  static conflict(detail: string): ScimError {
    return new ScimError(409, detail, 'uniqueness');
  }
}
