/**
 * One directory's Google pull sync: users, then groups with their members, then — only when every listing was
 * complete and the mass-deletion guard allows it — the deletions (pull/apply.ts). Pages are diffed and applied as
 * they arrive; a run keeps only the ids it has seen and the deletions it owes.
 */
import type { Directory } from '../../core/model.js';
import { FullSyncApplier, type SyncReadStore } from '../pull/apply.js';
import { forEachLimited } from '../pull/pool.js';
import type { SyncCounts } from '../pull/sync-status.js';
import type { SyncWriters } from '../pull/writers.js';
import type { DirectoryApi } from './directory-api.js';
import { GOOGLE, IncompleteListingError } from './errors.js';
import { groupBody, userBody, userMemberIds } from './mapping.js';

export type { SyncReadStore } from '../pull/apply.js';

/** Groups whose members are listed at once. */
const GROUP_CONCURRENCY = 8;

export interface DirectorySyncDeps {
  store: SyncReadStore;
  writers: SyncWriters;
  api: DirectoryApi;
  maxDeleteShare: number;
  /** Throws when the run must stop (its lease was lost). */
  checkpoint: () => void;
}

export class DirectorySync {
  private readonly apply: FullSyncApplier;

  constructor(
    private readonly dir: Directory,
    private readonly deps: DirectorySyncDeps,
    counts: SyncCounts,
  ) {
    this.apply = new FullSyncApplier(dir, { ...deps, label: GOOGLE }, counts);
  }

  get listed(): { users: number; groups: number } {
    return this.apply.listed;
  }

  async run(): Promise<void> {
    const { store } = this.deps;
    const [storedUsers, storedGroups] = await Promise.all([
      store.countUsers(this.dir.id),
      store.countGroups(this.dir.id),
    ]);
    for await (const page of this.deps.api.users())
      await this.apply.usersPage(page.map((u) => ({ id: u.id, body: userBody(u) })));
    // Every workspace has at least its admin: an empty listing is an outage or a bug, never "everyone left".
    if (this.apply.usersSeen === 0 && storedUsers > 0) throw new IncompleteListingError('users: Google listed none');
    for await (const page of this.deps.api.groups()) {
      this.deps.checkpoint();
      const listed = page.map((g) => ({ id: g.id, body: groupBody(g) }));
      // Members are listed concurrently, and applied group by group in listing order.
      const members: Array<Set<string>> = new Array(listed.length);
      await forEachLimited([...listed.keys()], GROUP_CONCURRENCY, async (i) => {
        members[i] = await this.listedMembers(listed[i]!.id);
      });
      await this.apply.groupsPage(listed, members);
    }
    await this.apply.finish(storedUsers + storedGroups);
  }

  /** The group's USER members that are users of this directory (nested groups expanded when the directory asks). */
  private async listedMembers(groupId: string): Promise<Set<string>> {
    const ids = new Set<string>();
    for await (const page of this.deps.api.members(groupId, this.dir.google_nested_groups === true)) {
      for (const id of userMemberIds(page, this.apply.isUser)) ids.add(id);
    }
    return ids;
  }
}
