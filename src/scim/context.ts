/** Per-request state of one SCIM call: never module-level (the peer's cross-tenant bug). */
import type { Directory, PendingEvent } from '../core/model.js';
import type { Store } from '../core/store-port.js';

export interface ScimContext {
  directory: Directory;
  store: Store;
  /** `scim.endpoint` of the directory: base of every `Location`/`meta.location`. */
  base: string;
  /** Events committed by this request, in log order (fed to the embedded per-request callback). */
  committed: PendingEvent[];
  /** Conditional request headers (RFC 7644 §3.14). */
  ifMatch?: string;
  ifNoneMatch?: string;
}

export type ScimQuery = {
  filter?: string;
  startIndex?: number | string;
  count?: number | string;
  attributes?: string;
  excludedAttributes?: string;
};

export interface ScimResult {
  status: number;
  data: unknown;
  headers?: Record<string, string>;
}
