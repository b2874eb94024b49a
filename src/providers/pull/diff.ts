/**
 * The diff between what is stored and what a provider lists (Google's listing, a full Graph delta round): pure
 * functions, one page (or one group) at a time, so a run holds the differences and the ids seen, never several
 * copies of a whole directory. And the mass-deletion guard's rule, which every pull provider applies.
 */
import { sameResource } from '../../core/json-equality.js';
import type { ScimBody, StoredResource } from '../../core/model.js';

export interface Upsert {
  id: string;
  body: ScimBody;
}

/** Creations and real updates for one listed page, given the stored resource at each listed id (null = none). */
export function pageChanges(
  listed: readonly Upsert[],
  stored: ReadonlyArray<StoredResource | null>,
): { create: Upsert[]; update: Upsert[] } {
  const create: Upsert[] = [];
  const update: Upsert[] = [];
  listed.forEach((item, i) => {
    const current = stored[i];
    if (!current) create.push(item);
    else if (!sameResource(current.body, item.body)) update.push(item);
  });
  return { create, update };
}

/** Members to add and to remove so that `stored` becomes `listed`. */
export function memberDelta(
  stored: readonly string[],
  listed: ReadonlySet<string>,
): { add: string[]; remove: string[] } {
  const had = new Set(stored);
  return { add: [...listed].filter((id) => !had.has(id)), remove: stored.filter((id) => !listed.has(id)) };
}

/** Stored ids that the (complete) listing did not mention. */
export const unseen = (stored: readonly string[], seen: ReadonlySet<string>): string[] =>
  stored.filter((id) => !seen.has(id));

/**
 * Deletions up to this many are always allowed, whatever the share: a five-person directory removing one person
 * must not trip the guard. Larger ones must stay within `maxShare` of what was stored.
 */
export const GUARD_FLOOR = 10;

export function exceedsDeleteShare(deletions: number, stored: number, maxShare: number): boolean {
  return deletions > GUARD_FLOOR && deletions > maxShare * stored;
}
