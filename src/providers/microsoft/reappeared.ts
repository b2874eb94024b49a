/**
 * Users and groups that (re)appear in a delta round come back whole. A restored user (Entra keeps deleted users
 * 30 days) or Microsoft 365 group comes back with the memberships the restore kept, but Graph does not promise
 * to tell them in the groups' delta; so for each user the round created, and each user it listed as present yet
 * removed from a group (deleted and restored between two runs), the user's `memberOf` is read, and for each group
 * it created, the group's `members`: what Graph has now rules. A removal Graph contradicts is dropped; a missing
 * membership is added after the round's deletions (the object first, then its memberships, in the same run).
 * With nesting, the direct graph takes them instead, and the effective members follow from it.
 */
import type { Directory } from '../../core/model.js';
import type { Deletions, SyncApplier, SyncReadStore } from '../pull/apply.js';
import { forEachLimited } from '../pull/pool.js';
import type { DeltaApi } from './delta-api.js';
import type { NestedGroups } from './nested.js';

/** Graph reads in flight for reappeared objects (each is one small request, or a few pages). */
const READ_CONCURRENCY = 8;

const pair = (groupId: string, userId: string) => `${groupId} ${userId}`;

export interface ReappearedDeps {
  dir: Directory;
  api: DeltaApi;
  store: SyncReadStore;
  /** With nesting: the direct graph (memberships go there, not to the store). */
  graph?: NestedGroups;
}

export class Reappeared {
  private readonly users = new Set<string>();
  private readonly groups = new Set<string>();
  private readonly listed = new Set<string>();
  private readonly removedFromGroups = new Set<string>();
  /** Memberships the round itself added (not added twice). */
  private readonly added = new Set<string>();
  /** Memberships to add once the round's deletions are done: group → users. */
  private readonly owedAdds = new Map<string, string[]>();

  constructor(private readonly deps: ReappearedDeps) {}

  userCreated(id: string): void {
    this.users.add(id);
  }
  userListed(id: string): void {
    this.listed.add(id);
  }
  groupCreated(id: string): void {
    this.groups.add(id);
  }
  memberAdded(groupId: string, userIds: readonly string[]): void {
    for (const u of userIds) this.added.add(pair(groupId, u));
  }
  memberRemoved(userId: string): void {
    this.removedFromGroups.add(userId);
  }

  /** After both rounds, before the deletions: Graph's memberships of what reappeared, against what the round owes. */
  async read(owed: Deletions): Promise<void> {
    const { api } = this.deps;
    const users = [...new Set([...this.users, ...[...this.listed].filter((u) => this.removedFromGroups.has(u))])];
    await forEachLimited(users, READ_CONCURRENCY, async (userId) => {
      const memberOf = await api.relation('users', userId, 'memberOf');
      const groupIds = (memberOf ?? []).filter((m) => m.type === 'group').map((m) => m.id);
      for (const groupId of await this.stored(groupIds)) this.member(groupId, userId, owed);
    });
    await forEachLimited([...this.groups], READ_CONCURRENCY, async (groupId) => {
      const members = (await api.relation('groups', groupId, 'members')) ?? [];
      const graph = this.deps.graph;
      if (graph) {
        for (const m of members) if (m.type !== 'other') graph.member(groupId, m.id, m.type, false);
        // A group nested in others: their delta does not tell a restore either.
        for (const parent of (await api.relation('groups', groupId, 'memberOf')) ?? [])
          if (parent.type === 'group') graph.member(parent.id, groupId, 'group', false);
        return;
      }
      const userIds = members.filter((m) => m.type === 'user').map((m) => m.id);
      const known = (await this.deps.store.getUsers(this.deps.dir.id, userIds)).flatMap((u) => (u ? [u.id] : []));
      for (const userId of known) this.member(groupId, userId, owed);
    });
  }

  /** After the deletions and the deferred writes: the memberships Graph has that the round did not add. */
  async apply(apply: SyncApplier): Promise<void> {
    for (const [groupId, userIds] of this.owedAdds) await apply.addMembers(groupId, userIds);
  }

  /** Graph says the user is in the group now: a removal owed is dropped, and an addition owed where it is missing. */
  private member(groupId: string, userId: string, owed: Deletions): void {
    if (this.deps.graph) return this.deps.graph.member(groupId, userId, 'user', false);
    const removals = owed.removals.get(groupId);
    const contradicted = removals?.includes(userId) === true;
    if (contradicted) {
      const kept = removals!.filter((u) => u !== userId);
      if (kept.length > 0) owed.removals.set(groupId, kept);
      else owed.removals.delete(groupId);
    }
    // Both known before the run and no removal told: the store has it. A removal told may hide an addition it
    // undid (added, then removed by a deletion the restore undid): added again, a no-op if it is there.
    if (!contradicted && !this.users.has(userId) && !this.groups.has(groupId)) return;
    if (this.added.has(pair(groupId, userId))) return;
    this.added.add(pair(groupId, userId));
    this.owedAdds.set(groupId, [...(this.owedAdds.get(groupId) ?? []), userId]);
  }

  /** The ids of groups the directory has. */
  private async stored(groupIds: string[]): Promise<string[]> {
    const found = await this.deps.store.getGroups(this.deps.dir.id, groupIds);
    return groupIds.filter((_, k) => found[k]);
  }
}
