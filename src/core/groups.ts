/**
 * The group write use cases, for every writer. Members are a membership set in the store, never inside the
 * group body: changes are add/remove deltas (no read-modify-write of a whole group), membership events fire only
 * on real change, and big lists are handled a chunk at a time (core/memberships.ts).
 */
import { CHUNK_SIZE } from './chunks.js';
import {
  type CommitListener,
  freshResource,
  outcomeOf,
  report,
  retrying,
  retryingOn,
  STALE,
  type WriteOptions,
} from './commit.js';
import { buildEvent, groupData, previousAttributes } from './events.js';
import { newId } from './ids.js';
import { sameResource } from './json-equality.js';
import { groupKeys } from './indexed-keys.js';
import {
  diffMembers,
  displaysOf,
  memberChanges,
  memberIdsOf,
  type MemberRef,
  storeBuiltChanges,
  uniqueRefs,
} from './memberships.js';
import type { Directory, GroupKeys, PendingEvent, ScimBody, StoreBuiltEvent, StoredResource } from './model.js';
import { groupName, namesGroup, namesName } from './roles.js';
import type { GroupStore, GroupWriteResult, MemberChange, UserStore, WriteResult } from './store-port.js';

/** Brings the roles of these users up to date with their groups (core/users.ts refreshRoles). */
export type RolesRefresh = (dir: Directory, userIds: readonly string[]) => Promise<unknown>;

/** The store role the group writer needs. */
export type GroupWriteStore = Pick<
  GroupStore,
  'getGroup' | 'createGroup' | 'updateGroup' | 'deleteGroup' | 'groupMemberIds' | 'buildsMembershipEvents'
> &
  Pick<UserStore, 'getUsersJson'>;

/** The membership changes of one write: removals, then additions (the order of their events). */
interface Changes {
  remove: MemberChange[];
  add: MemberChange[];
}

/** What to change in a group; absent parts stay as they are. */
export interface GroupChange {
  /** The new body (without members). */
  body?: ScimBody;
  /** The full member list (replace semantics, checked against the version read). */
  target?: MemberRef[];
  add?: MemberRef[];
  /** Member (user) ids. */
  remove?: string[];
}

const duplicate = (keys: GroupKeys): string =>
  `Group with displayName "${keys.displayName}" already exists in this directory`;

/** The users whose membership change i (removals, then additions) really happened (`applied[i]`). */
function movedUsers(changes: Changes, applied: boolean[]): string[] {
  const out: string[] = [];
  let i = 0;
  for (const list of [changes.remove, changes.add])
    for (const change of list) if (applied[i++]) out.push(change.userId);
  return out;
}

/** The events a write committed: `events`, then change i (removals, then additions) where `applied[i]`, in order. */
function committedEvents(
  events: PendingEvent[],
  changes: Changes,
  applied: boolean[],
): Array<PendingEvent | StoreBuiltEvent> {
  const out: Array<PendingEvent | StoreBuiltEvent> = [...events];
  let i = 0;
  for (const list of [changes.remove, changes.add]) for (const change of list) if (applied[i++]) out.push(change.event);
  return out;
}

export class GroupWriter {
  private readonly store: GroupWriteStore;
  private readonly committed: CommitListener;

  private readonly keysOf: (body: ScimBody) => GroupKeys;
  private readonly refreshRoles: RolesRefresh;

  /**
   * `keys`: what the store indexes of a group (default: its displayName, unique as SCIM requires). A writer whose
   * source names groups otherwise passes its own (the Google sync: the group's email; Google names repeat).
   * `roles`: run right after a write that may have changed users' roles (members of a group a rule names moved, the
   * group was renamed or deleted), with those users.
   */
  constructor(deps: {
    store: GroupWriteStore;
    committed: CommitListener;
    keys?: (body: ScimBody) => GroupKeys;
    roles?: RolesRefresh;
  }) {
    this.store = deps.store;
    this.committed = deps.committed;
    this.keysOf = deps.keys ?? groupKeys;
    this.refreshRoles = deps.roles ?? (async () => undefined);
  }

  /** Creates a group with these members (unknown users are skipped); ConflictError when the displayName is taken. */
  async create(
    dir: Directory,
    body: ScimBody,
    members: readonly MemberRef[],
    opts: WriteOptions & { id?: string } = {},
  ): Promise<StoredResource> {
    const keys = this.keysOf(body);
    const id = opts.id ?? newId();
    const refs = await uniqueRefs(members);
    let moved: string[] = [];
    const created = await retrying(async () => {
      const now = Date.now();
      const group = freshResource(id, body, now);
      const created = buildEvent(dir, 'group.created', groupData(id, body), undefined, now);
      const { changes, result: written } = await this.withChanges(dir, group, [], refs, 0, now, opts, ({ add }) =>
        this.store.createGroup(dir.id, group, keys, add, [created]),
      );
      const result = outcomeOf(written, `Directory ${dir.id}`, duplicate(keys));
      if (result === STALE) return STALE;
      report(this.committed, dir.id, committedEvents([created], changes, result.applied), opts);
      if (namesGroup(dir.role_mapping, { id, name: groupName(body) })) moved = movedUsers(changes, result.applied);
      return group;
    });
    if (moved.length > 0) await this.refreshRoles(dir, moved);
    return created;
  }

  /**
   * Applies what `change` computes from the current group (undefined: nothing to change); `change` runs again on
   * a fresh read when another write got there first. Returns the group as stored after the call.
   */
  async update(
    dir: Directory,
    id: string,
    change: (current: StoredResource) => GroupChange | undefined,
    opts: WriteOptions = {},
  ): Promise<StoredResource> {
    let moved: readonly string[] = [];
    const updated = await retryingOn(this.reader(dir, id), `Group ${id}`, opts, async (current) => {
      const wanted = change(current);
      if (!wanted) return current;
      const written = await this.commit(dir, current, wanted, opts);
      if (written !== STALE) moved = written.moved;
      return written === STALE ? STALE : written.group;
    });
    if (moved.length > 0) await this.refreshRoles(dir, moved);
    return updated;
  }

  /** Adds members (a delta: concurrent member changes commute; unknown users are skipped). */
  async addMembers(dir: Directory, id: string, refs: MemberRef[], opts: WriteOptions = {}): Promise<StoredResource> {
    const add = await uniqueRefs(refs);
    return this.update(dir, id, () => ({ add }), opts);
  }

  /** Removes members by user id (a delta, like addMembers). */
  removeMembers(dir: Directory, id: string, userIds: string[], opts: WriteOptions = {}): Promise<StoredResource> {
    return this.update(dir, id, () => ({ remove: [...new Set(userIds)] }), opts);
  }

  /** Deletes the group; its members lose the roles a rule gave them by it. */
  async delete(dir: Directory, id: string, opts: WriteOptions = {}): Promise<void> {
    let members: string[] = [];
    await retryingOn(this.reader(dir, id), `Group ${id}`, opts, async (current) => {
      const event = buildEvent(dir, 'group.deleted', groupData(id, current.body));
      const named = namesGroup(dir.role_mapping, { id, name: groupName(current.body) });
      // Read before the delete: after it the group has no members to read.
      const before = named ? await memberIdsOf(this.store, dir.id, id) : [];
      const result = outcomeOf(await this.store.deleteGroup(dir.id, id, current.version, [event]), `Group ${id}`, '');
      if (result === STALE) return STALE;
      report(this.committed, dir.id, [event], opts);
      members = before;
      return undefined;
    });
    if (members.length > 0) await this.refreshRoles(dir, members);
  }

  /**
   * Writes a new body and/or membership delta; STALE when the group (or a member) moved on since it was read.
   * `moved`: the users whose roles it may have changed.
   */
  private async commit(
    dir: Directory,
    current: StoredResource,
    wanted: GroupChange,
    opts: WriteOptions,
  ): Promise<{ group: StoredResource; moved: readonly string[] } | typeof STALE> {
    const next = wanted.body ?? current.body;
    let add = wanted.add ?? [];
    let remove = wanted.remove ?? [];
    if (wanted.target)
      ({ add, remove } = await diffMembers(await memberIdsOf(this.store, dir.id, current.id), wanted.target));
    const displays = wanted.target ? displaysOf(wanted.target) : [];
    const bodyChanged = !sameResource(current.body, next);
    if (!bodyChanged && add.length === 0 && remove.length === 0 && displays.length === 0)
      return { group: current, moved: [] };
    const now = Date.now();
    const events: PendingEvent[] = [];
    if (bodyChanged) {
      const before = groupData(current.id, current.body);
      const after = groupData(current.id, next);
      events.push(buildEvent(dir, 'group.updated', after, previousAttributes(before, after), now));
    }
    const group = { id: current.id, body: next };
    const keys = this.keysOf(next);
    const removeRefs = remove.map((value) => ({ value }));
    const { changes, result: written } = await this.withChanges(
      dir,
      group,
      removeRefs,
      add,
      displays.length,
      now,
      opts,
      (lists) =>
        this.store.updateGroup(dir.id, current.id, {
          ...(bodyChanged && { body: next, keys }),
          // The version read is checked when the write depends on it: a new body, a full member list, or a
          // precondition. Otherwise only the body the membership events carry must be unchanged (concurrent
          // member edits commute).
          ...(bodyChanged || wanted.target || opts.precondition
            ? { expectedVersion: current.version }
            : { expectedBody: JSON.stringify(current.body) }),
          ...lists,
          events,
          ...(displays.length > 0 && { displays }),
          now,
        }),
    );
    const result = outcomeOf(written, `Group ${current.id}`, duplicate(keys));
    if (result === STALE) return STALE;
    report(this.committed, dir.id, committedEvents(events, changes, result.applied), opts);
    const stored = {
      id: current.id,
      body: next,
      created: current.created,
      lastModified: result.lastModified,
      version: result.version,
    };
    return { group: stored, moved: await this.movedByRoles(dir, current, next, changes, result.applied) };
  }

  /**
   * The users whose roles a committed group write may have changed: none unless a rule names the group (before or
   * after); every member when a rename changed which rules name it; else those whose membership changed.
   */
  private async movedByRoles(
    dir: Directory,
    current: StoredResource,
    next: ScimBody,
    changes: Changes,
    applied: boolean[],
  ): Promise<readonly string[]> {
    const mapping = dir.role_mapping;
    const before = { id: current.id, name: groupName(current.body) };
    const after = { id: current.id, name: groupName(next) };
    const namedBefore = namesGroup(mapping, before);
    const namedAfter = namesGroup(mapping, after);
    if (!namedBefore && !namedAfter) return [];
    const moved = movedUsers(changes, applied);
    const renamed = before.name !== after.name && (namesName(mapping, before.name) || namesName(mapping, after.name));
    if (!renamed) return moved;
    return [...new Set([...moved, ...(await memberIdsOf(this.store, dir.id, current.id))])];
  }

  /**
   * Makes a write's membership changes and commits them with `write`. A small change whose events nobody in this
   * process reads (no `onCommitted`) is left to a store that builds membership events from the users it holds;
   * otherwise, or when the store answers `unbuilt` (a user stored by an older version), the users are read and the
   * events built here. `others`: the write's entries besides these changes (member displays), as the store counts them.
   */
  private async withChanges(
    dir: Directory,
    group: { id: string; body: ScimBody },
    remove: MemberRef[],
    add: MemberRef[],
    others: number,
    now: number,
    opts: WriteOptions,
    write: (changes: Changes) => Promise<GroupWriteResult>,
  ): Promise<{ changes: Changes; result: WriteResult }> {
    if (this.store.buildsMembershipEvents && !opts.onCommitted && remove.length + add.length + others <= CHUNK_SIZE) {
      const changes = {
        remove: storeBuiltChanges(dir, 'group.user_removed', remove, group, now),
        add: storeBuiltChanges(dir, 'group.user_added', add, group, now),
      };
      const result = await write(changes);
      if (result.status !== 'unbuilt') return { changes, result };
    }
    const changes = {
      remove: await memberChanges(this.store, dir, 'group.user_removed', remove, group, now),
      add: await memberChanges(this.store, dir, 'group.user_added', add, group, now),
    };
    const result = await write(changes);
    if (result.status === 'unbuilt')
      throw new Error(`the store answered unbuilt for events built by the writer (group ${group.id})`);
    return { changes, result };
  }

  private reader(dir: Directory, id: string): () => Promise<StoredResource | null> {
    return () => this.store.getGroup(dir.id, id);
  }
}
