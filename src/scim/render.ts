/** Turns stored resources into SCIM representations (meta, location, ETag) and ListResponses. */
import { NotFoundError } from '../core/errors.js';
import { isoTime } from '../core/iso-time.js';
import type { StoredResource } from '../core/model.js';
import type { ScimResult } from './context.js';
import { ScimError } from './errors.js';
import { projector } from './projection.js';
import { LIST_RESPONSE_SCHEMA } from './schemas.js';

export type ScimResourceType = 'User' | 'Group';
export const endpointOf = { User: 'Users', Group: 'Groups' } as const;

export const etagOf = (version: number): string => `W/"${version}"`;

export function locationOf(base: string, type: ScimResourceType, id: string): string {
  return `${base}/${endpointOf[type]}/${id}`;
}

/** The representation used for filtering and rendering: body + id + meta (schemas first, meta last). */
export function toScim(base: string, type: ScimResourceType, r: StoredResource, extra: Record<string, unknown> = {}) {
  // The body's own `schemas` lands in the first slot (no rest copy without it: it renders every answer).
  return {
    schemas: r.body.schemas,
    id: r.id,
    ...r.body,
    ...extra,
    meta: {
      resourceType: type,
      created: isoTime(r.created),
      lastModified: isoTime(r.lastModified),
      location: locationOf(base, type, r.id),
      version: etagOf(r.version),
    },
  };
}

/**
 * Applies attributes/excludedAttributes (parsed once: call it once per request, then on each resource). Without them
 * the stored representation is returned as is: nothing stored is `returned: never` (password is dropped on input)
 * and no attribute is `returned: request`.
 */
export function viewer(
  query: { attributes?: string; excludedAttributes?: string },
  type: ScimResourceType,
): (resource: Record<string, unknown>) => Record<string, unknown> {
  if (!query.attributes && !query.excludedAttributes) return (resource) => resource;
  return projector(query, type);
}

export function listResponse(total: number, startIndex: number, resources: unknown[]) {
  return {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

/** If-Match (RFC 7644 §3.14): `*` or a list of ETags, one of which must be current. */
export function checkIfMatch(ifMatch: string | undefined, version: number): void {
  if (!ifMatch || ifMatch.trim() === '*') return;
  const current = etagOf(version);
  const tags = ifMatch.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (!tags.includes(current.replace(/^W\//, ''))) {
    throw new ScimError(412, `Resource version ${current} does not match If-Match ${ifMatch}`, 'invalidVers');
  }
}

export const MAX_COUNT = 1000;
const MAX_START_INDEX = 2 ** 31;
export const DEFAULT_COUNT = 100;

/** startIndex/count per RFC 7644 §3.4.2.4: 1-based, <1 ⇒ 1; negative count ⇒ 0; capped at MAX_COUNT. */
export function paging(query: { startIndex?: number | string; count?: number | string }): {
  startIndex: number;
  count: number;
} {
  const int = (v: number | string | undefined, name: string): number | undefined => {
    if (v === undefined || v === '') return undefined;
    const n = typeof v === 'number' ? v : Number(v);
    if (!Number.isFinite(n)) throw ScimError.badRequest(`${name} must be an integer`, 'invalidValue');
    return Math.trunc(n);
  };
  // Capped far beyond any directory so it stays a safe integer for the store (a bigger one is simply past the end).
  const startIndex = Math.min(MAX_START_INDEX, Math.max(1, int(query.startIndex, 'startIndex') ?? 1));
  const count = Math.min(MAX_COUNT, Math.max(0, int(query.count, 'count') ?? DEFAULT_COUNT));
  return { startIndex, count };
}

/**
 * GET of one resource: 404 when it does not exist, 304 when If-None-Match (RFC 7644 §3.14) names its current
 * ETag, else what `render` makes of it.
 */
export async function conditionalGet(
  ifNoneMatch: string | undefined,
  found: StoredResource | null,
  what: string,
  render: (resource: StoredResource) => ScimResult | Promise<ScimResult>,
): Promise<ScimResult> {
  if (!found) throw new NotFoundError(`${what} not found`);
  const current = etagOf(found.version);
  if (
    ifNoneMatch &&
    ifNoneMatch
      .split(',')
      .map((t) => t.trim())
      .includes(current)
  ) {
    return { status: 304, data: undefined, headers: { ETag: current } };
  }
  return render(found);
}
