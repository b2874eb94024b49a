/**
 * Group membership changes from a PATCH, folded into one net delta. The store keeps members as
 * a set and applies the delta in one step, so a PATCH never rewrites a whole group from a stale
 * read (the failure behind silently dropped members in other servers).
 *
 * The store applies it as: start from `replace` if set, else from nothing if `removeAll`, else
 * from the current members; remove `remove`; add `add`. The builder keeps `add` and `remove`
 * disjoint and folds later changes into `replace`, so operation order is already accounted for.
 */
export interface MemberRef {
  value: string;
  display?: string;
}

export interface MemberDelta {
  replace?: MemberRef[];
  add: MemberRef[];
  /** Member (user) ids. */
  remove: string[];
  removeAll?: boolean;
}

export class MemberDeltaBuilder {
  private delta: MemberDelta = { add: [], remove: [] };

  add(refs: readonly MemberRef[]): void {
    for (const ref of refs) {
      this.delta.remove = this.delta.remove.filter((id) => id !== ref.value);
      const list = this.delta.replace ?? this.delta.add;
      if (!list.some((m) => m.value === ref.value)) list.push(ref);
    }
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) {
      this.delta.add = this.delta.add.filter((m) => m.value !== id);
      if (this.delta.replace) this.delta.replace = this.delta.replace.filter((m) => m.value !== id);
      else if (!this.delta.removeAll && !this.delta.remove.includes(id)) this.delta.remove.push(id);
    }
  }

  replace(refs: readonly MemberRef[]): void {
    this.delta = { replace: [], add: [], remove: [] };
    this.add(refs);
  }

  removeAll(): void {
    this.delta = { add: [], remove: [], removeAll: true };
  }

  /** The net delta, or undefined when the operations change nothing about membership. */
  result(): MemberDelta | undefined {
    const { replace, add, remove, removeAll } = this.delta;
    return replace || removeAll || add.length > 0 || remove.length > 0 ? this.delta : undefined;
  }
}
