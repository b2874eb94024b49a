/**
 * A user's roles (docs/concepts/attributes-and-roles.md), from the directory's `role_mapping` and the user's
 * groups: a rule matches a group by its id or its current name (case-insensitively); the roles of every matching rule,
 * higher
 * priority first (equal priorities in the mapping's order), each once; no match: `[default_role]`, or `[]`.
 * Pure: the writers read the groups and keep the result with the user (core/users.ts).
 */
import type { RoleMapping, ScimBody } from './model.js';

/** A group as rules see it: its id and current name (displayName). */
export interface NamedGroup {
  id: string;
  name: string;
}

export const groupName = (body: ScimBody): string => (typeof body.displayName === 'string' ? body.displayName : '');

type Rule = RoleMapping['rules'][number];
/** A group name as rules compare it: case-insensitively, as the directory keeps names unique. */
const byName = (rule: Rule, name: string): boolean => rule.group.toLowerCase() === name.toLowerCase();
const matches = (rule: Rule, group: NamedGroup): boolean => rule.group === group.id || byName(rule, group.name);

/** Whether some rule names a group by this name. */
export function namesName(mapping: RoleMapping | undefined, name: string): boolean {
  return mapping !== undefined && mapping.rules.some((rule) => byName(rule, name));
}

/** Whether some rule names this group: only such a group's members can gain or lose roles by it. */
export function namesGroup(mapping: RoleMapping | undefined, group: NamedGroup): boolean {
  return mapping !== undefined && mapping.rules.some((rule) => matches(rule, group));
}

/** The roles of a user in these groups. */
export function rolesOf(mapping: RoleMapping | undefined, groups: readonly NamedGroup[]): string[] {
  if (mapping === undefined) return [];
  const matched = mapping.rules.filter((rule) => groups.some((g) => matches(rule, g)));
  // Array.prototype.sort is stable: equal priorities keep the mapping's order.
  matched.sort((a, b) => b.priority - a.priority);
  const roles = [...new Set(matched.map((rule) => rule.role))];
  if (roles.length > 0) return roles;
  return mapping.default_role === undefined ? [] : [mapping.default_role];
}

/** Whether two role lists are the same (absent = none). */
export function sameRoles(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((role, i) => role === y[i]);
}
