/**
 * The group write use cases, for every writer. Members are a membership set in the store, never inside the
 * group body: changes are add/remove deltas (no read-modify-write of a whole group), membership events fire only
 * on real change, and big lists are handled a chunk at a time (core/memberships.ts).
 */
import { type CommitListener, freshResource, outcomeOf, report, retrying, retryingOn, STALE, type WriteOptions } from './commit.js';
import { buildEvent, groupData, previousAttributes } from './events.js';
import { newId } from './ids.js';
import { sameResource } from './json.js';
import { groupKeys } from './keys.js';
import { diffMembers, displaysOf, memberChanges, memberIdsOf, type MemberRef, uniqueRefs } from './memberships.js';
import type { Directory, GroupKeys, PendingEvent, ScimBody, StoredResource } from './model.js';
import type { GroupStore, MemberChange, UserStore } from './store-port.js';

/** The store role the group writer needs. */
export type GroupWriteStore = Pick<GroupStore, 'getGroup' | 'createGroup' | 'updateGroup' | 'deleteGroup' | 'groupMemberIds'> &
  Pick<UserStore, 'getUsersJson'>;

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

/** The events a write committed: `events`, then change i of `changes` where `applied[i]`, in order. */
function committedEvents(events: PendingEvent[], changes: MemberChange[][], applied: boolean[]): PendingEvent[] {
  const out = [...events];
  let i = 0;
  for (const list of changes) for (const change of list) if (applied[i++]) out.push(change.event);
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
      const adds = await memberChanges(this.store, dir, 'group.user_added', refs, group, now);
      const result = outcomeOf(
        await this.store.createGroup(dir.id, group, keys, adds, [created]),
        `Directory ${dir.id}`,
        duplicate(keys),
      );
      if (result === STALE) return STALE;
      report(this.committed, dir.id, committedEvents([created], [adds], result.applied), opts);
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
    const removes = await memberChanges(this.store, dir, 'group.user_removed', remove.map((value) => ({ value })), group, now);
    const adds = await memberChanges(this.store, dir, 'group.user_added', add, group, now);
    const keys = this.keysOf(next);
    const result = outcomeOf(
      await this.store.updateGroup(dir.id, current.id, {
        ...(bodyChanged && { body: next, keys }),
        // The version read is checked when the write depends on it: a new body, a full member list, or a
        // precondition. Otherwise only the body the membership events carry must be unchanged (concurrent
        // member edits commute).
        ...(bodyChanged || wanted.target || opts.precondition
          ? { expectedVersion: current.version }
          : { expectedBody: JSON.stringify(current.body) }),
        add: adds,
        remove: removes,
        events,
        ...(displays.length > 0 && { displays }),
        now,
      }),
      `Group ${current.id}`,
      duplicate(keys),
    );
    if (result === STALE) return STALE;
    report(this.committed, dir.id, committedEvents(events, [removes, adds], result.applied), opts);
    return { ...current, body: next, version: result.version, lastModified: result.lastModified };
  }

  private reader(dir: Directory, id: string): () => Promise<StoredResource | null> {
    return () => this.store.getGroup(dir.id, id);
  }
}
