/**
 * One directory's pull sync: users, then groups with their members, then — only when every listing was complete
 * and the mass-deletion guard allows it — the deletions. Pages are diffed and applied as they arrive; a run keeps
 * only the ids it has seen and the deletions it owes.
 */
import { ConflictError } from '../../core/errors.js';
import { sameResource } from '../../core/json.js';
import type { Directory, StoredResource } from '../../core/model.js';
import type { GroupStore, UserStore } from '../../core/store-port.js';
import { exceedsDeleteShare, memberDelta, pageChanges, unseen, type Upsert } from '../pull/diff.js';
import type { DirectoryApi } from './directory-api.js';
import { MassDeletionError } from '../pull/errors.js';
import { GOOGLE, IncompleteListingError } from './errors.js';
import { groupBody, userBody, userMemberIds } from './mapping.js';
import { forEachLimited } from '../pull/pool.js';
import type { SyncCounts } from './sync-status.js';
import type { SyncWriters } from '../pull/writers.js';

/** What the run reads from the store (the writes go through the writers). */
export type SyncReadStore = Pick<UserStore, 'getUsers' | 'listUsers' | 'countUsers'> &
  Pick<GroupStore, 'getGroups' | 'listGroups' | 'countGroups' | 'groupMemberIds'>;

/** Writes in flight per directory: enough to hide store round trips, few enough to keep event order readable. */
const WRITE_CONCURRENCY = 16;
/** Groups whose members are listed at once. */
const GROUP_CONCURRENCY = 8;
const READ_PAGE = 1000;

export interface DirectorySyncDeps {
  store: SyncReadStore;
  writers: SyncWriters;
  api: DirectoryApi;
  maxDeleteShare: number;
  /** Throws when the run must stop (its lease was lost). */
  checkpoint: () => void;
}

export class DirectorySync {
  readonly counts: SyncCounts;
  readonly listed = { users: 0, groups: 0 };
  private readonly seenUsers = new Set<string>();
  private readonly seenGroups = new Set<string>();
  /** Membership removals owed, applied only after the guard (group id → user ids). */
  private readonly removals = new Map<string, string[]>();
  private storedMemberships = 0;
  /** Writes refused by a uniqueness clash (an email moving between users): tried again after the deletions. */
  private readonly deferred: Upsert[] = [];

  constructor(
    private readonly dir: Directory,
    private readonly deps: DirectorySyncDeps,
    counts: SyncCounts,
  ) {
    this.counts = counts;
  }

  async run(): Promise<void> {
    const { store } = this.deps;
    const [storedUsers, storedGroups] = await Promise.all([store.countUsers(this.dir.id), store.countGroups(this.dir.id)]);
    await this.syncUsers(storedUsers);
    await this.syncGroups();
    await this.deleteUnseen(storedUsers + storedGroups);
    await this.retryDeferred();
  }

  private async syncUsers(storedUsers: number): Promise<void> {
    for await (const page of this.deps.api.users()) {
      this.deps.checkpoint();
      const listed = page.map((u) => ({ id: u.id, body: userBody(u) }));
      for (const u of listed) this.seenUsers.add(u.id);
      this.listed.users += listed.length;
      const { create, update } = pageChanges(listed, await this.deps.store.getUsers(this.dir.id, listed.map((u) => u.id)));
      await forEachLimited(create, WRITE_CONCURRENCY, (u) => this.createUser(u));
      await forEachLimited(update, WRITE_CONCURRENCY, (u) => this.updateUser(u));
    }
    // Every workspace has at least its admin: an empty listing is an outage or a bug, never "everyone left".
    if (this.seenUsers.size === 0 && storedUsers > 0) throw new IncompleteListingError('users: Google listed none');
  }

  private async createUser(u: Upsert): Promise<void> {
    await this.deferOnConflict(u, async () => {
      await this.deps.writers.users.create(this.dir, u.body, { id: u.id });
      this.counts.users_created++;
    });
  }

  private async updateUser(u: Upsert): Promise<void> {
    await this.deferOnConflict(u, async () => {
      await this.deps.writers.users.update(this.dir, u.id, () => u.body);
      this.counts.users_updated++;
    });
  }

  private async deferOnConflict(u: Upsert, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      this.deferred.push(u);
    }
  }

  private async syncGroups(): Promise<void> {
    for await (const page of this.deps.api.groups()) {
      this.deps.checkpoint();
      const listed = page.map((g) => ({ id: g.id, body: groupBody(g) }));
      for (const g of listed) this.seenGroups.add(g.id);
      this.listed.groups += listed.length;
      const stored = await this.deps.store.getGroups(this.dir.id, listed.map((g) => g.id));
      // Members are listed concurrently, and applied group by group in listing order (a readable event order).
      const members: Array<Set<string>> = new Array(listed.length);
      await forEachLimited([...listed.keys()], GROUP_CONCURRENCY, async (i) => {
        members[i] = await this.listedMembers(listed[i]!.id);
      });
      for (const [i, g] of listed.entries()) await this.syncGroup(g, stored[i] ?? null, members[i]!);
    }
  }

  private async syncGroup(g: Upsert, current: StoredResource | null, members: Set<string>): Promise<void> {
    const { groups } = this.deps.writers;
    if (!current) {
      await groups.create(this.dir, g.body, [...members].map((value) => ({ value })), { id: g.id });
      this.counts.groups_created++;
      this.counts.members_added += members.size;
      return;
    }
    if (!sameResource(current.body, g.body)) {
      await groups.update(this.dir, g.id, () => ({ body: g.body }));
      this.counts.groups_updated++;
    }
    const stored = await this.storedMembers(g.id);
    this.storedMemberships += stored.length;
    const { add, remove } = memberDelta(stored, members);
    if (add.length > 0) {
      await groups.addMembers(this.dir, g.id, add.map((value) => ({ value })));
      this.counts.members_added += add.length;
    }
    if (remove.length > 0) this.removals.set(g.id, remove);
  }

  /** The group's USER members that are users of this directory (nested groups expanded when the directory asks). */
  private async listedMembers(groupId: string): Promise<Set<string>> {
    const ids = new Set<string>();
    const isUser = (id: string) => this.seenUsers.has(id);
    for await (const page of this.deps.api.members(groupId, this.dir.google_nested_groups === true)) {
      for (const id of userMemberIds(page, isUser)) ids.add(id);
    }
    return ids;
  }

  private async storedMembers(groupId: string): Promise<string[]> {
    const ids: string[] = [];
    for (let offset = 0; ; offset += READ_PAGE) {
      const page = await this.deps.store.groupMemberIds(this.dir.id, groupId, offset, READ_PAGE);
      ids.push(...page.items);
      if (page.items.length < READ_PAGE) return ids;
    }
  }

  /** Stored ids the (complete) listing did not mention, page by page: only the deletions are held. */
  private async unseenIds(
    list: (dirId: string, offset: number, limit: number) => Promise<{ items: StoredResource[] }>,
    seen: ReadonlySet<string>,
  ): Promise<string[]> {
    const ids: string[] = [];
    for (let offset = 0; ; offset += READ_PAGE) {
      const page = await list(this.dir.id, offset, READ_PAGE);
      ids.push(...unseen(page.items.map((r) => r.id), seen));
      if (page.items.length < READ_PAGE) return ids;
    }
  }

  /** Deletions happen only here: every listing completed, and the guard allows them. */
  private async deleteUnseen(storedTotal: number): Promise<void> {
    const { store, writers, maxDeleteShare } = this.deps;
    const users = await this.unseenIds((d, o, l) => store.listUsers(d, o, l), this.seenUsers);
    const groups = await this.unseenIds((d, o, l) => store.listGroups(d, o, l), this.seenGroups);
    if (exceedsDeleteShare(users.length + groups.length, storedTotal, maxDeleteShare)) {
      throw new MassDeletionError(GOOGLE, 'users and groups', users.length + groups.length, storedTotal, maxDeleteShare);
    }
    const removed = [...this.removals.values()].reduce((n, ids) => n + ids.length, 0);
    if (exceedsDeleteShare(removed, this.storedMemberships, maxDeleteShare)) {
      throw new MassDeletionError(GOOGLE, 'group memberships', removed, this.storedMemberships, maxDeleteShare);
    }
    this.deps.checkpoint();
    await forEachLimited([...this.removals], WRITE_CONCURRENCY, async ([groupId, userIds]) => {
      await writers.groups.removeMembers(this.dir, groupId, userIds);
      this.counts.members_removed += userIds.length;
    });
    await forEachLimited(groups, WRITE_CONCURRENCY, async (id) => {
      await writers.groups.delete(this.dir, id);
      this.counts.groups_deleted++;
    });
    await forEachLimited(users, WRITE_CONCURRENCY, async (id) => {
      await writers.users.delete(this.dir, id);
      this.counts.users_deleted++;
    });
  }

  /** Clashes left after the deletions are real (two Google users cannot share an email): the run reports them. */
  private async retryDeferred(): Promise<void> {
    const pending = this.deferred.splice(0);
    const existing = await this.deps.store.getUsers(this.dir.id, pending.map((u) => u.id));
    for (const [i, u] of pending.entries()) {
      if (existing[i]) await this.deps.writers.users.update(this.dir, u.id, () => u.body).then(() => this.counts.users_updated++);
      else await this.deps.writers.users.create(this.dir, u.body, { id: u.id }).then(() => this.counts.users_created++);
    }
  }
}
