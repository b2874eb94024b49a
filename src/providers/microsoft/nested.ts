/**
 * Nested groups, as the Google sync treats them: with `microsoft_nested_groups`, the members of a group nested
 * in another are members of the outer group too (at any depth, cycles tolerated); without it, only direct user
 * members count. Graph's delta tells direct membership only, so the sync keeps the directory's direct graph
 * (saved with its delta links) and recomputes the groups a change reaches: the changed group and its ancestors.
 */

/** The direct graph as saved: group id → direct user ids and direct child group ids. */
export type DirectGraph = Record<string, { u: string[]; g: string[] }>;

export class NestedGroups {
  private readonly users = new Map<string, Set<string>>();
  private readonly children = new Map<string, Set<string>>();
  private readonly dirty = new Set<string>();

  static from(saved: DirectGraph = {}): NestedGroups {
    const graph = new NestedGroups();
    for (const [id, { u, g }] of Object.entries(saved)) {
      graph.users.set(id, new Set(u));
      graph.children.set(id, new Set(g));
    }
    return graph;
  }

  private node(id: string): { users: Set<string>; children: Set<string> } {
    if (!this.users.has(id)) {
      this.users.set(id, new Set());
      this.children.set(id, new Set());
    }
    this.dirty.add(id);
    return { users: this.users.get(id)!, children: this.children.get(id)! };
  }

  has(id: string): boolean {
    return this.users.has(id);
  }

  member(groupId: string, memberId: string, type: 'user' | 'group', removed: boolean): void {
    const n = this.node(groupId);
    const set = type === 'user' ? n.users : n.children;
    if (removed) set.delete(memberId);
    else set.add(memberId);
  }

  /** A group gone: out of the graph, and out of every group it was nested in (those change). */
  removeGroup(id: string): void {
    this.users.delete(id);
    this.children.delete(id);
    this.dirty.delete(id);
    for (const [parent, kids] of this.children) if (kids.delete(id)) this.dirty.add(parent);
  }

  /** A user gone: out of every group. */
  removeUser(id: string): void {
    for (const [g, users] of this.users) if (users.delete(id)) this.dirty.add(g);
  }

  /** Every user of the group, through nested groups at any depth. */
  effective(id: string): Set<string> {
    const out = new Set<string>();
    const seen = new Set<string>();
    const visit = (g: string) => {
      if (seen.has(g)) return;
      seen.add(g);
      for (const u of this.users.get(g) ?? []) out.add(u);
      for (const c of this.children.get(g) ?? []) visit(c);
    };
    visit(id);
    return out;
  }

  /** The groups whose effective members may have changed since the last call: the changed ones and their ancestors. */
  takeAffected(): string[] {
    const parents = new Map<string, string[]>();
    for (const [g, kids] of this.children) for (const c of kids) parents.set(c, [...(parents.get(c) ?? []), g]);
    const out = new Set<string>();
    const climb = (g: string) => {
      if (out.has(g)) return;
      out.add(g);
      for (const p of parents.get(g) ?? []) climb(p);
    };
    for (const g of this.dirty) climb(g);
    this.dirty.clear();
    return [...out].filter((g) => this.users.has(g));
  }

  toJSON(): DirectGraph {
    const out: DirectGraph = {};
    for (const [id, users] of this.users) out[id] = { u: [...users], g: [...(this.children.get(id) ?? [])] };
    return out;
  }
}
