/** Structural equality of JSON values, independent of object key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => sameJson(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = Object.keys(ao);
  return keys.length === Object.keys(bo).length && keys.every((k) => k in bo && sameJson(ao[k], bo[k]));
}

/**
 * Whether two SCIM bodies say the same thing: structurally equal, `schemas` compared as a set (a client
 * resending its URNs in another order changes nothing).
 */
export function sameResource(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const schemas = (v: unknown) => (Array.isArray(v) ? [...new Set(v.map(String))].sort() : v);
  if (!sameJson(schemas(a.schemas), schemas(b.schemas))) return false;
  // The other keys as sameJson compares them, without copying either body (it runs on every update).
  let others = 0;
  for (const key in a) {
    if (key === 'schemas') continue;
    if (!(key in b) || !sameJson(a[key], b[key])) return false;
    others++;
  }
  for (const key in b) if (key !== 'schemas') others--;
  return others === 0;
}
