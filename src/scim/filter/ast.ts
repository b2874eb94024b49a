/**
 * Filter syntax tree (RFC 7644 §3.4.2.2). Attribute paths stay textual here, split but not
 * resolved: resolution depends on the resource type and happens when a filter is evaluated or
 * planned, so one parsed filter can be checked against any resource type.
 */
import type { AttrPathParts } from '../attribute-paths.js';

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
export type CompValue = string | number | boolean | null;

/**
 * An attribute path in a filter. `filter` and `sub` express Entra's
 * `emails[type eq "work"].value eq "x"`: compare `value` of the emails matching the filter.
 */
export interface FilterPath extends AttrPathParts {
  filter?: FilterNode;
}

export type FilterNode =
  | { kind: 'compare'; path: FilterPath; op: CompareOp; value: CompValue }
  | { kind: 'present'; path: FilterPath }
  /** `emails[type eq "work"]`: some value of a multi-valued attribute matches the inner filter. */
  | { kind: 'valuePath'; path: AttrPathParts; filter: FilterNode }
  | { kind: 'and'; children: FilterNode[] }
  | { kind: 'or'; children: FilterNode[] }
  | { kind: 'not'; child: FilterNode };

export const COMPARE_OPS: ReadonlySet<string> = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);
