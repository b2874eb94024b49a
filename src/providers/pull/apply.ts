/**
 * The write side of a pull sync, through the shared writers: creations and updates as they are listed (a
 * uniqueness clash — an address moving between users, or between groups — is deferred until after the
 * deletions and the writes that free it, and a new user's memberships wait with it), and the deletions
 * only at the end of a complete round, within the mass-deletion guard. `FullSyncApplier` adds what a complete
 * listing needs (a Google run, a first or resync round of Graph's delta): the ids seen, the member diff, and
 * the deletion of whatever was not seen.
 */
import { ConflictError } from '../../core/errors.js';
import { sameResource } from '../../core/json-equality.js';
import type { Directory, ScimBody, StoredResource } from '../../core/model.js';
import type { GroupStore, UserStore } from '../../core/store-port.js';
import { deletesInactive } from '../../core/users.js';
import { exceedsDeleteShare, GUARD_FLOOR, memberDelta, pageChanges, unseen, type Upsert } from './diff.js';
import type { GuardCodePrefix } from '../../core/error-codes-providers.js';
import { MassDeletionError, type ProviderLabel } from './errors.js';
import { forEachLimited } from './pool.js';
import type { SyncCounts } from './sync-status.js';
import type { SyncWriters } from './writers.js';

/** What a run reads from the store (the writes go through the writers). */
export type SyncReadStore = Pick<UserStore, 'getUsers' | 'listUsers' | 'countUsers' | 'userGroupIds'> &
  Pick<GroupStore, 'getGroups' | 'listGroups' | 'countGroups' | 'groupMemberIds'>;

/** Writes in flight per directory: enough to hide store round trips, few enough to keep event order readable. */
export const WRITE_CONCURRENCY = 16;
const READ_PAGE = 1000;

export interface ApplierDeps {
  store: SyncReadStore;
  writers: SyncWriters;
  label: ProviderLabel<GuardCodePrefix>;
  maxDeleteShare: number;
  /** Throws when the run must stop (its lease was lost). */
  checkpoint: () => void;
}

/** Deletions a round owes, applied together once the round is complete. */
export interface Deletions {
  users: string[];
  groups: string[];
  /** Membership removals: group id → user ids. */
  removals: Map<string, string[]>;
}

export class SyncApplier {
  /** User writes refused by a uniqueness clash: tried again after the deletions. */
  private readonly deferred: Upsert[] = [];
  /** Group writes refused by a clash of their key (Google's email): a creation carries its members. */
  private readonly deferredGroups: Array<Upsert & { members?: string[] }> = [];
  /** Users whose creation was deferred: their memberships wait for them (the store skips unknown members). */
  private readonly waitingUsers = new Set<string>();
  /** Group id → waiting users listed as its members, added once those users exist. */
  private readonly waitingMembers = new Map<string, string[]>();

  constructor(
    protected readonly dir: Directory,
    protected readonly deps: ApplierDeps,
    readonly counts: SyncCounts,
  ) {}

  async createUser(u: Upsert): Promise<void> {
    if (!(await this.unlessClash(() => this.writeNewUser(u)))) {
      this.deferred.push(u);
      this.waitingUsers.add(u.id);
    }
  }

  async updateUser(u: Upsert): Promise<void> {
    if (!(await this.unlessClash(() => this.writeUser(u)))) this.deferred.push(u);
  }

  async createGroup(g: Upsert, members: Iterable<string>): Promise<void> {
    const all = [...members];
    if (!(await this.unlessClash(() => this.writeNewGroup(g, all)))) this.deferredGroups.push({ ...g, members: all });
  }

  async updateGroup(id: string, body: ScimBody): Promise<void> {
    if (!(await this.unlessClash(() => this.writeGroup({ id, body })))) this.deferredGroups.push({ id, body });
  }

  async addMembers(groupId: string, userIds: string[]): Promise<void> {
    const ready = this.ready(groupId, userIds);
    if (ready.length === 0) return;
    await this.deps.writers.groups.addMembers(
      this.dir,
      groupId,
      ready.map((value) => ({ value })),
    );
    this.counts.members_added += ready.length;
  }

  private async writeNewUser(u: Upsert): Promise<void> {
    // A directory that deletes inactive users stores none: one listed inactive is left out (as if deleted).
    if (deletesInactive(this.dir, u.body)) return;
    await this.deps.writers.users.create(this.dir, u.body, { id: u.id });
    this.counts.users_created++;
  }

  private async writeUser(u: Upsert): Promise<void> {
    if (deletesInactive(this.dir, u.body)) {
      await this.deps.writers.users.delete(this.dir, u.id);
      this.counts.users_deleted++;
      return;
    }
    await this.deps.writers.users.update(this.dir, u.id, () => u.body);
    this.counts.users_updated++;
  }

  /** A new group with those of its members that exist now (waiting users are added after them). */
  private async writeNewGroup(g: Upsert, members: string[]): Promise<void> {
    const refs = members.filter((id) => !this.waitingUsers.has(id)).map((value) => ({ value }));
    await this.deps.writers.groups.create(this.dir, g.body, refs, { id: g.id });
    this.ready(g.id, members);
    this.counts.groups_created++;
    this.counts.members_added += refs.length;
  }

  private async writeGroup(g: Upsert): Promise<void> {
    await this.deps.writers.groups.update(this.dir, g.id, () => ({ body: g.body }));
    this.counts.groups_updated++;
  }

  /** The members that exist now; the others (waiting users) are kept, to be added after them. */
  private ready(groupId: string, userIds: string[]): string[] {
    const waiting = userIds.filter((id) => this.waitingUsers.has(id));
    if (waiting.length === 0) return userIds;
    this.waitingMembers.set(groupId, [...(this.waitingMembers.get(groupId) ?? []), ...waiting]);
    return userIds.filter((id) => !this.waitingUsers.has(id));
  }

  /** Makes the write; false when a uniqueness clash refused it (an address another user or group still holds). */
  private async unlessClash(write: () => Promise<void>): Promise<boolean> {
    try {
      await write();
      return true;
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      return false;
    }
  }

  /**
   * The deletions of a complete round: refused whole by the guard when users and groups (against `stored`) or
   * membership removals (against `storedMemberships`) exceed the allowed share; then removals, groups, users.
   */
  async delete(d: Deletions, stored: number, storedMemberships: number): Promise<void> {
    const { writers, maxDeleteShare, label } = this.deps;
    if (exceedsDeleteShare(d.users.length + d.groups.length, stored, maxDeleteShare)) {
      throw new MassDeletionError(label, 'users and groups', d.users.length + d.groups.length, stored, maxDeleteShare);
    }
    const removed = [...d.removals.values()].reduce((n, ids) => n + ids.length, 0);
    if (exceedsDeleteShare(removed, storedMemberships, maxDeleteShare)) {
      throw new MassDeletionError(label, 'group memberships', removed, storedMemberships, maxDeleteShare);
    }
    this.deps.checkpoint();
    await forEachLimited([...d.removals], WRITE_CONCURRENCY, async ([groupId, userIds]) => {
      await writers.groups.removeMembers(this.dir, groupId, userIds);
      this.counts.members_removed += userIds.length;
    });
    await forEachLimited(d.groups, WRITE_CONCURRENCY, async (id) => {
      await writers.groups.delete(this.dir, id);
      this.counts.groups_deleted++;
    });
    await forEachLimited(d.users, WRITE_CONCURRENCY, async (id) => {
      await writers.users.delete(this.dir, id);
      this.counts.users_deleted++;
    });
  }

  /**
   * The writes refused by a clash, after the deletions freed what they held: users, then groups (a deferred
   * creation with all its members), then the memberships that waited for their users. A write may wait for
   * another (A takes B's old address, B took C's): each pass writes what it can, until a pass writes nothing;
   * a clash left then is real (two users cannot share an email), and the run reports it.
   */
  async retryDeferred(): Promise<void> {
    await this.inPasses(this.deferred.splice(0), 'users', (u, exists) =>
      exists ? this.writeUser(u) : this.writeNewUser(u),
    );
    this.waitingUsers.clear();
    await this.inPasses(this.deferredGroups.splice(0), 'groups', (g, exists) =>
      exists ? this.writeGroup(g) : this.writeNewGroup(g, g.members ?? []),
    );
    for (const [groupId, userIds] of this.waitingMembers) await this.addMembers(groupId, userIds);
    this.waitingMembers.clear();
  }

  /** Writes each pending item, pass after pass, until all are written or a pass writes none (then throws its clash). */
  private async inPasses<T extends Upsert>(
    pending: T[],
    kind: 'users' | 'groups',
    write: (item: T, exists: boolean) => Promise<void>,
  ): Promise<void> {
    while (pending.length > 0) {
      const ids = pending.map((x) => x.id);
      const existing =
        kind === 'users'
          ? await this.deps.store.getUsers(this.dir.id, ids)
          : await this.deps.store.getGroups(this.dir.id, ids);
      const clashed: T[] = [];
      let clash: unknown;
      for (const [i, item] of pending.entries()) {
        try {
          await write(item, existing[i] !== null);
        } catch (err) {
          if (!(err instanceof ConflictError)) throw err;
          clashed.push(item);
          clash = err;
        }
      }
      if (clashed.length === pending.length) throw clash;
      pending = clashed;
    }
  }

  /** Every member id of a stored group, in pages. */
  async memberIds(groupId: string): Promise<string[]> {
    const ids: string[] = [];
    for (let offset = 0; ; offset += READ_PAGE) {
      const page = await this.deps.store.groupMemberIds(this.dir.id, groupId, offset, READ_PAGE);
      ids.push(...page.items);
      if (page.items.length < READ_PAGE) return ids;
    }
  }
}

/** A complete listing: what it did not mention is deleted at the end (within the guard). */
export class FullSyncApplier extends SyncApplier {
  readonly listed = { users: 0, groups: 0 };
  private readonly seenUsers = new Set<string>();
  private readonly seenGroups = new Set<string>();
  private readonly removals = new Map<string, string[]>();
  private storedMemberships = 0;

  /** Whether the listing so far had this user (a member that is no user of the directory is skipped). */
  isUser = (id: string): boolean => this.seenUsers.has(id);
  get usersSeen(): number {
    return this.seenUsers.size;
  }

  /** One page of listed users: created or updated where they differ from what is stored. */
  async usersPage(listed: Upsert[]): Promise<void> {
    this.deps.checkpoint();
    for (const u of listed) this.seenUsers.add(u.id);
    this.listed.users += listed.length;
    const { create, update } = pageChanges(
      listed,
      await this.deps.store.getUsers(
        this.dir.id,
        listed.map((u) => u.id),
      ),
    );
    await forEachLimited(create, WRITE_CONCURRENCY, (u) => this.createUser(u));
    await forEachLimited(update, WRITE_CONCURRENCY, (u) => this.updateUser(u));
  }

  /** Listed groups with their complete member sets, applied in listing order (a readable event order). */
  async groupsPage(listed: Upsert[], members: ReadonlyArray<ReadonlySet<string>>): Promise<void> {
    this.deps.checkpoint();
    const stored = await this.deps.store.getGroups(
      this.dir.id,
      listed.map((g) => g.id),
    );
    for (const [i, g] of listed.entries()) await this.group(g, stored[i] ?? null, members[i]!);
  }

  private async group(g: Upsert, current: StoredResource | null, members: ReadonlySet<string>): Promise<void> {
    this.seenGroups.add(g.id);
    this.listed.groups++;
    if (!current) return this.createGroup(g, members);
    if (!sameResource(current.body, g.body)) await this.updateGroup(g.id, g.body);
    const stored = await this.memberIds(g.id);
    this.storedMemberships += stored.length;
    const { add, remove } = memberDelta(stored, members);
    await this.addMembers(g.id, add);
    if (remove.length > 0) this.removals.set(g.id, remove);
  }

  /** The end of a complete listing: stored ids it did not mention are deleted (guarded), then clashes retried. */
  async finish(storedTotal: number): Promise<void> {
    const users = await this.unseenIds((d, o, l) => this.deps.store.listUsers(d, o, l), this.seenUsers);
    const groups = await this.unseenIds((d, o, l) => this.deps.store.listGroups(d, o, l), this.seenGroups);
    await this.delete({ users, groups, removals: this.removals }, storedTotal, this.storedMemberships);
    await this.retryDeferred();
  }

  /** Stored ids the (complete) listing did not mention, page by page: only the deletions are held. */
  private async unseenIds(
    list: (dirId: string, offset: number, limit: number) => Promise<{ items: StoredResource[] }>,
    seen: ReadonlySet<string>,
  ): Promise<string[]> {
    const ids: string[] = [];
    for (let offset = 0; ; offset += READ_PAGE) {
      const page = await list(this.dir.id, offset, READ_PAGE);
      ids.push(
        ...unseen(
          page.items.map((r) => r.id),
          seen,
        ),
      );
      if (page.items.length < READ_PAGE) return ids;
    }
  }
}

/**
 * The stored memberships a round's removals are measured against (the guard's share): counted only when the
 * removals could trip it, since counting reads every group.
 */
export async function guardMemberships(store: SyncReadStore, directoryId: string, owed: Deletions): Promise<number> {
  const removals = [...owed.removals.values()].reduce((n, ids) => n + ids.length, 0);
  if (removals <= GUARD_FLOOR) return 0;
  let total = 0;
  for (let offset = 0; ; offset += READ_PAGE) {
    const page = await store.listGroups(directoryId, offset, READ_PAGE);
    for (const g of page.items) total += (await store.groupMemberIds(directoryId, g.id, 0, 0)).total;
    if (page.items.length < READ_PAGE) return total;
  }
}
