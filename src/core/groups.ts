/**
 * The group write use cases, for every writer. Members are a membership set in the store, never inside the
 * group body: changes are add/remove deltas (no read-modify-write of a whole group), membership events fire only
 * on real change, and big lists are handled a chunk at a time (core/memberships.ts).
 */
import { CHUNK_SIZE } from './chunks.js';
import { type CommitListener, freshResource, outcomeOf, report, retrying, retryingOn, STALE, type WriteOptions } from './commit.js';
import { buildEvent, groupData, previousAttributes } from './events.js';
import { newId } from './ids.js';
import { sameResource } from './json.js';
import { groupKeys } from './keys.js';
import { diffMembers, displaysOf, memberChanges, memberIdsOf, type MemberRef, storeBuiltChanges, uniqueRefs } from './memberships.js';
import type { Directory, GroupKeys, PendingEvent, ScimBody, StoreBuiltEvent, StoredResource } from './model.js';
import type { GroupStore, GroupWriteResult, MemberChange, UserStore, WriteResult } from './store-port.js';

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

const duplicate = (keys: GroupKeys): string => `Group with displayName "${keys.displayName}" already exists in this directory`;

/** The events a write committed: `events`, then change i (removals, then additions) where `applied[i]`, in order. */
function committedEvents(events: PendingEvent[], changes: Changes, applied: boolean[]): Array<PendingEvent | StoreBuiltEvent> {
  const out: Array<PendingEvent | StoreBuiltEvent> = [...events];
  let i = 0;
  for (const list of [changes.remove, changes.add]) for (const change of list) if (applied[i++]) out.push(change.event);
  return out;
}

export class GroupWriter {
  private readonly store: GroupWriteStore;
  private readonly committed: CommitListener;

  private readonly keysOf: (body: ScimBody) => GroupKeys;

  /**
   * `keys`: what the store indexes of a group (default: its displayName, unique as SCIM requires). A writer whose
   * source names groups otherwise passes its own (the Google sync: the group's email; Google names repeat).
   */
  constructor(deps: { store: GroupWriteStore; committed: CommitListener; keys?: (body: ScimBody) => GroupKeys }) {
    this.store = deps.store;
    this.committed = deps.committed;
    this.keysOf = deps.keys ?? groupKeys;
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
    return retrying(async () => {
      const now = Date.now();
      const group = freshResource(id, body, now);
      const created = buildEvent(dir, 'group.created', groupData(id, body), undefined, now);
      const { changes, result: written } = await this.withChanges(dir, group, [], refs, 0, now, opts, ({ add }) =>
        this.store.createGroup(dir.id, group, keys, add, [created]),
      );
      const result = outcomeOf(written, `Directory ${dir.id}`, duplicate(keys));
      if (result === STALE) return STALE;
      report(this.committed, dir.id, committedEvents([created], changes, result.applied), opts);
      return group;
    });
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
    return retryingOn(this.reader(dir, id), `Group ${id}`, opts, async (current) => {
      const wanted = change(current);
      return wanted ? this.commit(dir, current, wanted, opts) : current;
    });
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

  async delete(dir: Directory, id: string, opts: WriteOptions = {}): Promise<void> {
    await retryingOn(this.reader(dir, id), `Group ${id}`, opts, async (current) => {
      const event = buildEvent(dir, 'group.deleted', groupData(id, current.body));
      const result = outcomeOf(await this.store.deleteGroup(dir.id, id, current.version, [event]), `Group ${id}`, '');
      if (result === STALE) return STALE;
      report(this.committed, dir.id, [event], opts);
      return undefined;
    });
  }

  /** Writes a new body and/or membership delta; STALE when the group (or a member) moved on since it was read. */
  private async commit(
    dir: Directory,
    current: StoredResource,
    wanted: GroupChange,
    opts: WriteOptions,
  ): Promise<StoredResource | typeof STALE> {
    const next = wanted.body ?? current.body;
    let add = wanted.add ?? [];
    let remove = wanted.remove ?? [];
    if (wanted.target) ({ add, remove } = await diffMembers(await memberIdsOf(this.store, dir.id, current.id), wanted.target));
    const displays = wanted.target ? displaysOf(wanted.target) : [];
    const bodyChanged = !sameResource(current.body, next);
    if (!bodyChanged && add.length === 0 && remove.length === 0 && displays.length === 0) return current;
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
    const { changes, result: written } = await this.withChanges(dir, group, removeRefs, add, displays.length, now, opts, (lists) =>
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
    return { id: current.id, body: next, created: current.created, lastModified: result.lastModified, version: result.version };
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
    if (result.status === 'unbuilt') throw new Error(`the store answered unbuilt for events built by the writer (group ${group.id})`);
    return { changes, result };
  }

  private reader(dir: Directory, id: string): () => Promise<StoredResource | null> {
    return () => this.store.getGroup(dir.id, id);
  }
}
