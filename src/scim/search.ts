/**
 * Filtered, paged listing shared by /Users and /Groups. Indexed `eq` lookups (userName, externalId, email,
 * displayName, id) are served from the store's indexes; anything else scans the directory in creation order.
 * Candidates are always re-checked with the full filter, so an index plan only has to be a superset.
 */
import { memberIdsOf } from '../core/memberships.js';
import type { StoredResource } from '../core/model.js';
import type { Page } from '../core/store-port.js';
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
  const { reads: store, directory } = ctx;
  const dir = directory.id;
  if (type === 'User') {
    return {
      byIndex: (index, value) => store.findUserIds(dir, index as 'userName' | 'externalId' | 'email', value),
      byIds: (ids) => store.getUsers(dir, ids),
      page: (offset, limit) => store.listUsers(dir, offset, limit),
    };
  }
  return {
    // `members` is served by the user's set of groups.
    byIndex: (index, value) =>
      index === 'member'
        ? store.userGroupIds(dir, value)
        : store.findGroupIds(dir, index as 'displayName' | 'externalId', value),
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
  // Group members are not part of the stored body: a filter that mentions them gets them added.
  const withMembers = type === 'Group' && mentions(ast, 'members');
  const test = async (r: StoredResource): Promise<boolean> => {
    const members = withMembers
      ? (await memberIdsOf(ctx.reads, ctx.directory.id, r.id)).map((value) => ({ value }))
      : undefined;
    return matches(ast, toScim(ctx.base, type, r, members ? { members } : {}), type);
  };
  const matched = await candidates(finder, ast, type, test);
  matched.sort(byCreation);
  return { total: matched.length, items: matched.slice(startIndex - 1, startIndex - 1 + count) };
}

/** Whether a filter refers to the attribute `name` anywhere. */
function mentions(node: FilterNode, name: string): boolean {
  switch (node.kind) {
    case 'compare':
    case 'present':
      return (
        node.path.name.toLowerCase() === name || (node.path.filter !== undefined && mentions(node.path.filter, name))
      );
    case 'valuePath':
      return node.path.name.toLowerCase() === name || mentions(node.filter, name);
    case 'and':
    case 'or':
      return node.children.some((c) => mentions(c, name));
    case 'not':
      return mentions(node.child, name);
  }
}

async function candidates(
  finder: Finder,
  ast: FilterNode,
  type: ScimResourceType,
  test: (r: StoredResource) => Promise<boolean>,
): Promise<StoredResource[]> {
  const plan = planFilter(ast, type);
  if (plan.kind === 'index') {
    const ids = new Set<string>();
    for (const lookup of plan.lookups) {
      const found = lookup.index === 'id' ? [lookup.value] : await finder.byIndex(lookup.index, lookup.value);
      for (const id of found) ids.add(id);
    }
    const records = (await finder.byIds([...ids])).filter((r): r is StoredResource => r !== null);
    return keep(records, test);
  }
  const out: StoredResource[] = [];
  for (let offset = 0; ; offset += SCAN_BATCH) {
    const { items } = await finder.page(offset, SCAN_BATCH);
    out.push(...(await keep(items, test)));
    if (items.length < SCAN_BATCH) return out;
  }
}

async function keep(
  records: StoredResource[],
  test: (r: StoredResource) => Promise<boolean>,
): Promise<StoredResource[]> {
  const verdicts = await Promise.all(records.map(test));
  return records.filter((_, i) => verdicts[i]);
}
