/**
 * Chooses the store indexes that can narrow a filter down to candidates. Plans are supersets:
 * the caller always re-checks candidates with `matches`, so a plan only has to never miss.
 * Only `eq` with a string is indexable; values for case-insensitive indexes are passed as given
 * and the store folds case.
 */
import { type AttrPathParts, resolveParts } from '../attribute-paths.js';
import { type ResourceType } from '../schemas.js';
import type { FilterNode, FilterPath } from './ast.js';
import { compileFilter } from './evaluate.js';

export type IndexName = 'id' | 'userName' | 'externalId' | 'email' | 'displayName' | 'member';
export interface IndexLookup {
  index: IndexName;
  value: string;
}
export type Plan = { kind: 'index'; lookups: IndexLookup[] } | { kind: 'scan' };

const INDEXED: Record<ResourceType, Partial<Record<string, IndexName>>> = {
  User: { id: 'id', userName: 'userName', externalId: 'externalId', emails: 'email' },
  Group: { id: 'id', displayName: 'displayName', externalId: 'externalId', members: 'member' },
};

/** Most selective first: used to pick one conjunct of an `and`. */
const PREFERENCE: readonly IndexName[] = ['id', 'userName', 'externalId', 'displayName', 'email', 'member'];

export function planFilter(node: FilterNode, resourceType: ResourceType): Plan {
  // Compiling type-checks the filter, so a bad one is rejected before the store is touched.
  compileFilter(node, resourceType);
  const lookups = lookupsFor(node, resourceType);
  return lookups ? { kind: 'index', lookups } : { kind: 'scan' };
}

function lookupsFor(node: FilterNode, resourceType: ResourceType, parent?: AttrPathParts): IndexLookup[] | undefined {
  switch (node.kind) {
    case 'compare': {
      if (node.op !== 'eq' || typeof node.value !== 'string') return undefined;
      const index = indexFor(node.path, resourceType, parent);
      return index ? [{ index, value: node.value }] : undefined;
    }
    case 'valuePath':
      return lookupsFor(node.filter, resourceType, node.path);
    case 'and': {
      const options = node.children
        .map((c) => lookupsFor(c, resourceType, parent))
        .filter((l): l is IndexLookup[] => l !== undefined);
      return options.sort((a, b) => a.length - b.length || rank(a) - rank(b))[0];
    }
    case 'or': {
      const branches = node.children.map((c) => lookupsFor(c, resourceType, parent));
      if (branches.some((l) => l === undefined)) return undefined;
      const seen = new Set<string>();
      return branches.flat().filter((l) => {
        const key = `${l!.index}\u0000${l!.value}`;
        return !seen.has(key) && seen.add(key);
      }) as IndexLookup[];
    }
    default:
      return undefined;
  }
}

function rank(lookups: IndexLookup[]): number {
  return PREFERENCE.indexOf(lookups[0]!.index);
}

/**
 * `emails eq`, `emails.value eq`, `emails[type eq "work"].value eq` and `emails[value eq ...]`
 * all look at email values (likewise `members` of a group); any `[...]` filter only narrows further,
 * so it can be ignored here.
 */
function indexFor(path: FilterPath, resourceType: ResourceType, parent?: AttrPathParts): IndexName | undefined {
  const parts: AttrPathParts = parent ? { ...parent, sub: path.name } : path;
  const attr = resolveParts(resourceType, parts);
  if (!attr.known || attr.extension) return undefined;
  const index = INDEXED[resourceType][attr.name];
  // Multi-valued: `x eq`, `x.value eq` and `x[value eq …]` all compare the values.
  if (index === 'email' || index === 'member')
    return attr.sub === undefined || attr.sub === 'value' ? index : undefined;
  return attr.sub === undefined && path.filter === undefined ? index : undefined;
}
