import type { GroupKeys, ScimBody } from '../../core/model.js';

/**
 * What the store indexes of a pulled group: its provider key (Google's email, Graph's object id, kept as
 * externalId) as the unique name, since display names repeat in both (two groups called "Eng" both sync).
 */
export function externalIdGroupKeys(body: ScimBody): GroupKeys {
  const key = String(body.externalId);
  return { displayName: key, externalId: key };
}
