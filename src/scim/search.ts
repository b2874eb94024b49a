/**
 * Filtered, paged listing shared by /Users and /Groups. Indexed `eq` lookups (userName, externalId, email,
 * displayName, id) are served from the store's indexes; anything else scans the directory in creation order.
 * Candidates are always re-checked with the full filter, so an index plan only has to be a superset.
 */
import type { StoredResource } from '../core/model.js';
import type { Page } from '../store/port.js';
import type { ScimContext } from './context.js';
import { matches, parseFilter, planFilter, type FilterNode } from './filter/index.js';
import { toScim, type ScimResourceType } from './render.js';

const SCAN_BATCH = 1000;

export interface Finder {
  byIndex(index: string, value: string): Promise<string[]>;
  byIds(ids: string[]): Promise<Array<StoredResource | null>>;
  page(offset: number, limit: number): Promise<Page<StoredResource>>;
}

export function finderFor(ctx: ScimContext, type: ScimResourceType): Finder {
  const { store, directory } = ctx;
  const dir = directory.id;
  if (type === 'User') {
    return {
      byIndex: (index, value) => store.findUserIds(dir, index as 'userName' | 'externalId' | 'email', value),
      byIds: (ids) => store.getUsers(dir, ids),
      page: (offset, limit) => store.listUsers(dir, offset, limit),
    };
  }
  return {
    byIndex: (index, value) => store.findGroupIds(dir, index as 'displayName' | 'externalId', value),
    byIds: (ids) => store.getGroups(dir, ids),
    page: (offset, limit) => store.listGroups(dir, offset, limit),
  };
}

const byCreation = (a: StoredResource, b: StoredResource): number =>
  a.created - b.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Returns one page of matching resources and the true total. */
export async function search(
  ctx: ScimContext,
  type: ScimResourceType,
  filter: string | undefined,
  startIndex: number,
  count: number,
): Promise<Page<StoredResource>> {
  const finder = finderFor(ctx, type);
  if (!filter || filter.trim() === '') return finder.page(startIndex - 1, count);

  const ast = parseFilter(filter);
  const test = (r: StoredResource): boolean => matches(ast, toScim(ctx.base, type, r), type);
  const matched = await candidates(finder, ast, type, test);
  matched.sort(byCreation);
  return { total: matched.length, items: matched.slice(startIndex - 1, startIndex - 1 + count) };
}

async function candidates(
  finder: Finder,
  ast: FilterNode,
  type: ScimResourceType,
  test: (r: StoredResource) => boolean,
): Promise<StoredResource[]> {
  const plan = planFilter(ast, type);
  if (plan.kind === 'index') {
    const ids = new Set<string>();
    for (const lookup of plan.lookups) {
      const found = lookup.index === 'id' ? [lookup.value] : await finder.byIndex(lookup.index, lookup.value);
      for (const id of found) ids.add(id);
    }
    const records = await finder.byIds([...ids]);
    return records.filter((r): r is StoredResource => r !== null && test(r));
  }
  const out: StoredResource[] = [];
  for (let offset = 0; ; offset += SCAN_BATCH) {
    const { items } = await finder.page(offset, SCAN_BATCH);
    for (const r of items) if (test(r)) out.push(r);
    if (items.length < SCAN_BATCH) return out;
  }
}
