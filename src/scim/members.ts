/**
 * Group membership changes from a PATCH, folded into one net delta. The store keeps members as
 * a set and applies the delta in one step, so a PATCH never rewrites a whole group from a stale
 * read (the failure behind silently dropped members in other servers).
 *
 * The store applies it as: start from `replace` if set, else from nothing if `removeAll`, else
 * from the current members; remove `remove`; add `add`. The builder keeps `add` and `remove`
 * disjoint and folds later changes into `replace`, so operation order is already accounted for.
 * Every step is a Map/Set operation: a PATCH naming 100,000 members costs 100,000 steps, not their square.
 */
import type { MemberRef } from '../core/memberships.js';
import { ScimError } from './errors.js';
import type { FilterNode } from './filter/ast.js';
import { normalizeMembers } from './normalize.js';
import type { AttributePath } from './path.js';

export type { MemberRef };

export interface MemberDelta {
  replace?: MemberRef[];
  add: MemberRef[];
  /** Member (user) ids. */
  remove: string[];
  removeAll?: boolean;
}

export class MemberDeltaBuilder {
  /** Keyed by member id; insertion order is the order members were first named. */
  private replacing: Map<string, MemberRef> | undefined;
  private added = new Map<string, MemberRef>();
  private removed = new Set<string>();
  private removingAll = false;

  add(refs: readonly MemberRef[]): void {
    const target = this.replacing ?? this.added;
    for (const ref of refs) {
      this.removed.delete(ref.value);
      if (!target.has(ref.value)) target.set(ref.value, ref);
    }
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) {
      this.added.delete(id);
      if (this.replacing) this.replacing.delete(id);
      else if (!this.removingAll) this.removed.add(id);
    }
  }

  replace(refs: readonly MemberRef[]): void {
    this.reset();
    this.replacing = new Map();
    this.add(refs);
  }

  removeAll(): void {
    this.reset();
    this.removingAll = true;
  }

  private reset(): void {
    this.replacing = undefined;
    this.added = new Map();
    this.removed = new Set();
    this.removingAll = false;
  }

  /** The net delta, or undefined when the operations change nothing about membership. */
  result(): MemberDelta | undefined {
    if (!this.replacing && !this.removingAll && this.added.size === 0 && this.removed.size === 0) return undefined;
    return {
      ...(this.replacing && { replace: [...this.replacing.values()] }),
      add: [...this.added.values()],
      remove: [...this.removed],
      ...(this.removingAll && { removeAll: true }),
    };
  }
}

/** Folds one PATCH operation on a group's `members` into `members`. */
export function patchMembers(
  members: MemberDeltaBuilder,
  op: 'add' | 'replace' | 'remove',
  path: AttributePath,
  value: unknown,
): void {
  if (path.attr.sub !== undefined) {
    throw ScimError.badRequest('Member sub-attributes cannot be patched; add or remove the member', 'invalidPath');
  }
  if (path.filter) {
    if (op !== 'remove')
      throw ScimError.badRequest(`"${op}" cannot target members[...]; use path "members"`, 'invalidPath');
    const ids = memberIds(path.filter.node);
    if (!ids) {
      throw ScimError.badRequest(
        'members[...] supports only value eq "<id>", optionally joined with or',
        'invalidFilter',
      );
    }
    return members.remove(ids);
  }
  if (op === 'remove') {
    // A value lists the members to remove (Entra's default dialect); only no value removes all.
    if (value === undefined || value === null) return members.removeAll();
    return members.remove(memberRefs(value).map((m) => m.value));
  }
  if (value === undefined) throw ScimError.badRequest(`"${op}" needs a "value"`);
  if (op === 'add') members.add(memberRefs(value));
  else members.replace(memberRefs(value));
}

function memberRefs(value: unknown): MemberRef[] {
  return normalizeMembers(value).map(({ value: id, display }) =>
    display === undefined ? { value: id } : { value: id, display },
  );
}

/** Ids named by `value eq "a"` or `value eq "a" or value eq "b"`; undefined for anything else. */
function memberIds(node: FilterNode): string[] | undefined {
  if (node.kind === 'or') {
    const parts = node.children.map(memberIds);
    return parts.every((p) => p !== undefined) ? parts.flat() : undefined;
  }
  const isValueEq =
    node.kind === 'compare' &&
    node.op === 'eq' &&
    typeof node.value === 'string' &&
    node.path.name.toLowerCase() === 'value' &&
    node.path.sub === undefined;
  return isValueEq ? [node.value as string] : undefined;
}
