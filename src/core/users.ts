/**
 * The user write use cases, for every writer (SCIM, the Google pull sync, …): read, build the events, commit
 * with the optimistic retry, report what was committed. Bodies arrive normalised by the caller's protocol.
 */
import { type CommitListener, freshResource, outcomeOf, report, retrying, retryingOn, STALE, type WriteOptions } from './commit.js';
import { buildEvent, groupData, MembershipEvents, userData, userEvent, userJson } from './events.js';
import { newId } from './ids.js';
import { sameResource } from './json.js';
import { userKeys } from './keys.js';
import type { Directory, ScimBody, StoredResource, UserKeys } from './model.js';
import type { GroupStore, UserStore } from './store-port.js';

/** The store role the user writer needs. */
export type UserWriteStore = Pick<UserStore, 'getUser' | 'createUser' | 'updateUser' | 'deleteUser' | 'userGroupIds'> &
  Pick<GroupStore, 'getGroups'>;

/** The new body computed from the current user; undefined when there is nothing to change. */
export type UserChange = (current: StoredResource) => ScimBody | undefined;

const duplicate = (keys: UserKeys): string => `User with userName "${keys.userName}" already exists in this directory`;

export class UserWriter {
  private readonly store: UserWriteStore;
  private readonly committed: CommitListener;

  constructor(deps: { store: UserWriteStore; committed: CommitListener }) {
    this.store = deps.store;
    this.committed = deps.committed;
  }

  /** Creates a user (a new id unless `opts.id`); ConflictError when the userName is taken. */
  async create(dir: Directory, body: ScimBody, opts: WriteOptions & { id?: string } = {}): Promise<StoredResource> {
    const keys = userKeys(body);
    const id = opts.id ?? newId();
    return retrying(async () => {
      const now = Date.now();
      const user = freshResource(id, body, now);
      const json = userJson(id, body);
      const event = userEvent(dir, 'user.created', id, body, json, undefined, now);
      const result = outcomeOf(await this.store.createUser(dir.id, user, keys, [event], json), `Directory ${dir.id}`, duplicate(keys));
      if (result === STALE) return STALE;
      report(this.committed, dir.id, [event], opts);
      return user;
    });
  }

  /**
   * Replaces the body with what `change` computes from the current user (undefined: nothing to change). `change`
   * runs again on a fresh read when another write got there first. Returns the user as stored after the call.
   */
  async update(dir: Directory, id: string, change: UserChange, opts: WriteOptions = {}): Promise<StoredResource> {
    return retryingOn(this.reader(dir, id), `User ${id}`, opts, async (current) => {
      const next = change(current);
      if (next === undefined || sameResource(current.body, next)) return current;
      const keys = userKeys(next);
      const now = Date.now();
      const json = userJson(id, next);
      const event = userEvent(dir, 'user.updated', id, next, json, current.body, now);
      const result = outcomeOf(
        await this.store.updateUser(dir.id, id, current.version, next, keys, [event], now, json),
        `User ${id}`,
        duplicate(keys),
      );
      if (result === STALE) return STALE;
      report(this.committed, dir.id, [event], opts);
      return { id: current.id, body: next, created: current.created, lastModified: result.lastModified, version: result.version };
    });
  }

  /** Deletes the user: a `group.user_removed` event for each of its groups, then `user.deleted`. */
  async delete(dir: Directory, id: string, opts: WriteOptions = {}): Promise<void> {
    await retryingOn(this.reader(dir, id), `User ${id}`, opts, async (current) => {
      const groupIds = await this.store.userGroupIds(dir.id, id);
      const groups = (await this.store.getGroups(dir.id, groupIds)).filter((g): g is StoredResource => g !== null);
      if (groups.length !== groupIds.length) return STALE;
      const now = Date.now();
      const user = userData(id, current.body);
      const removals = new MembershipEvents(dir, 'group.user_removed', now);
      const userJson = JSON.stringify(user);
      const events = [
        ...groups.map((g) => removals.of(userJson, JSON.stringify(groupData(g.id, g.body)))),
        buildEvent(dir, 'user.deleted', user, undefined, now),
      ];
      const versions = groups.map((g) => ({ id: g.id, version: g.version }));
      const result = outcomeOf(await this.store.deleteUser(dir.id, id, current.version, versions, events, now), `User ${id}`, '');
      if (result === STALE) return STALE;
      report(this.committed, dir.id, events, opts);
      return undefined;
    });
  }

  private reader(dir: Directory, id: string): () => Promise<StoredResource | null> {
    return () => this.store.getUser(dir.id, id);
  }
}
