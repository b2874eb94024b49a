/**
 * The user write use cases, for every writer (SCIM, the Google pull sync, …): read, build the events, commit
 * with the optimistic retry, report what was committed. Bodies arrive normalised by the caller's protocol.
 */
import { CHUNK_SIZE, chunksOf, SLICE_MS, yieldToLoop } from './chunks.js';
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
import { NotFoundError } from './errors.js';
import { buildEvent, groupData, MembershipEvents, primaryEmail, userData, userEvent, userJson } from './events.js';
import { customAttributesOf, sameCustomAttributes } from './custom-attributes.js';
import { newId } from './ids.js';
import { sameResource } from './json-equality.js';
import { userKeys } from './indexed-keys.js';
import type { CustomAttributes, Directory, ScimBody, StoredResource, UserKeys } from './model.js';
import { groupName, type NamedGroup, rolesOf, sameRoles } from './roles.js';
import type { GroupStore, UserStore } from './store-port.js';

/** The store role the user writer needs. */
export type UserWriteStore = Pick<
  UserStore,
  'getUser' | 'getUsers' | 'listUsers' | 'createUser' | 'updateUser' | 'deleteUser' | 'userGroupIds' | 'findUserIds'
> &
  Pick<GroupStore, 'getGroups'>;

/** The new body computed from the current user; undefined when there is nothing to change. */
export type UserChange = (current: StoredResource) => ScimBody | undefined;

/** Whether a user with this body is deleted rather than kept in this directory (`inactive_users: delete`). */
export const deletesInactive = (dir: Pick<Directory, 'inactive_users'>, body: ScimBody): boolean =>
  dir.inactive_users === 'delete' && body.active === false;

/** Role writes in flight at once (see refreshRoles). */
const ROLE_WRITES = 100;

const duplicate = (keys: UserKeys): string => `User with userName "${keys.userName}" already exists in this directory`;

export class UserWriter {
  private readonly store: UserWriteStore;
  private readonly committed: CommitListener;

  constructor(deps: { store: UserWriteStore; committed: CommitListener }) {
    this.store = deps.store;
    this.committed = deps.committed;
  }

  /**
   * Creates a user (a new id unless `opts.id`); ConflictError when the userName is taken. A user created with an
   * id of its writer's (a pull provider's) may be the manager its reports named before it arrived: their
   * `manager_email` is filled then. A new id was never named by anyone. A new user is in no group: its roles are
   * the mapping's default. Its custom attributes are read from the body by the directory's attribute mapping.
   */
  async create(dir: Directory, body: ScimBody, opts: WriteOptions & { id?: string } = {}): Promise<StoredResource> {
    const named = userKeys(body);
    const id = opts.id ?? newId();
    const created = await retrying(async () => {
      const keys = {
        ...(await this.withManager(dir, named)),
        roles: rolesOf(dir.role_mapping, []),
        customAttributes: customAttributesOf(body, dir.attribute_mapping),
      };
      const now = Date.now();
      const user = withDerived(freshResource(id, body, now), keys);
      const json = userJson(id, body, keys.managerEmail, keys.roles, keys.customAttributes);
      const event = userEvent(dir, 'user.created', id, user, json, undefined, now);
      const result = outcomeOf(
        await this.store.createUser(dir.id, user, keys, [event], json),
        `Directory ${dir.id}`,
        duplicate(keys),
      );
      if (result === STALE) return STALE;
      report(this.committed, dir.id, [event], opts);
      return user;
    });
    if (opts.id !== undefined) await this.refreshReports(dir, id);
    return created;
  }

  /**
   * Replaces the body with what `change` computes from the current user (undefined: nothing to change). `change`
   * runs again on a fresh read when another write got there first. Returns the user as stored after the call. In
   * a directory with `inactive_users: delete`, a change that leaves the user inactive deletes them instead (as
   * `delete` does, no `user.updated`) and returns what the change made of them, stored nowhere.
   */
  async update(dir: Directory, id: string, change: UserChange, opts: WriteOptions = {}): Promise<StoredResource> {
    let before: ScimBody | undefined;
    let deleted = false;
    const updated = await retryingOn(this.reader(dir, id), `User ${id}`, opts, async (current) => {
      const next = change(current);
      if (next === undefined || sameResource(current.body, next)) return current;
      before = current.body;
      if (deletesInactive(dir, next)) {
        deleted = (await this.remove(dir, current, opts)) !== STALE;
        return deleted ? { ...current, body: next } : STALE;
      }
      // Roles are evaluated again: a follow-up a stopped process left undone is made good here.
      const keys = {
        ...(await this.withManager(dir, userKeys(next))),
        roles: await this.rolesNow(dir, id),
        customAttributes: customAttributesOf(next, dir.attribute_mapping),
      };
      return this.commit(dir, current, next, keys, opts);
    });
    // The user's email is its reports' manager_email.
    if (deleted || (before !== undefined && primaryEmail(before) !== primaryEmail(updated.body)))
      await this.refreshReports(dir, id);
    return updated;
  }

  /** Writes `next` over `current` with its `user.updated` event; STALE when another write got there first. */
  private async commit(
    dir: Directory,
    current: StoredResource,
    next: ScimBody,
    keys: UserKeys,
    opts: WriteOptions,
  ): Promise<StoredResource | typeof STALE> {
    const id = current.id;
    const now = Date.now();
    const json = userJson(id, next, keys.managerEmail, keys.roles, keys.customAttributes);
    const state = {
      body: next,
      managerEmail: keys.managerEmail,
      roles: keys.roles,
      customAttributes: keys.customAttributes,
    };
    const event = userEvent(dir, 'user.updated', id, state, json, current, now);
    const result = outcomeOf(
      await this.store.updateUser(dir.id, id, current.version, next, keys, [event], now, json),
      `User ${id}`,
      duplicate(keys),
    );
    if (result === STALE) return STALE;
    report(this.committed, dir.id, [event], opts);
    return withDerived(
      { id, body: next, created: current.created, lastModified: result.lastModified, version: result.version },
      keys,
    );
  }

  /** The keys with the manager's email, read from the directory's user whose id is the manager's (none: absent). */
  private async withManager(dir: Directory, keys: UserKeys): Promise<UserKeys> {
    if (keys.managerId === undefined) return keys;
    const manager = await this.store.getUser(dir.id, keys.managerId);
    const email = manager ? primaryEmail(manager.body) : undefined;
    return email === undefined ? keys : { ...keys, managerEmail: email };
  }

  /**
   * Brings the `manager_email` of the users whose manager is `managerId` (found by the store's index of managers,
   * not by a scan) up to date after that user's write: one `user.updated` for each whose email changed.
   */
  private async refreshReports(dir: Directory, managerId: string): Promise<void> {
    for (const id of await this.store.findUserIds(dir.id, 'managerId', managerId)) {
      try {
        await retryingOn(this.reader(dir, id), `User ${id}`, {}, async (current) => {
          const keys = {
            ...(await this.withManager(dir, userKeys(current.body))),
            roles: current.roles,
            customAttributes: current.customAttributes,
          };
          return keys.managerEmail === current.managerEmail
            ? current
            : this.commit(dir, current, current.body, keys, {});
        });
      } catch (err) {
        // Deleted meanwhile: nothing left to bring up to date.
        if (!(err instanceof NotFoundError)) throw err;
      }
    }
  }

  /**
   * Deletes the user: a `group.user_removed` event for each of its groups, then `user.deleted`; its reports lose
   * their `manager_email`.
   */
  async delete(dir: Directory, id: string, opts: WriteOptions = {}): Promise<void> {
    await retryingOn(this.reader(dir, id), `User ${id}`, opts, (current) => this.remove(dir, current, opts));
    await this.refreshReports(dir, id);
  }

  /** Deletes `current` with its events; STALE when it or its groups moved on since they were read. */
  private async remove(dir: Directory, current: StoredResource, opts: WriteOptions): Promise<undefined | typeof STALE> {
    const id = current.id;
    const groupIds = await this.store.userGroupIds(dir.id, id);
    const groups = (await this.store.getGroups(dir.id, groupIds)).filter((g): g is StoredResource => g !== null);
    if (groups.length !== groupIds.length) return STALE;
    const now = Date.now();
    const user = userData(id, current.body, current.managerEmail, current.roles, current.customAttributes);
    const removals = new MembershipEvents(dir, 'group.user_removed', now);
    const userJson = JSON.stringify(user);
    const events = [
      ...groups.map((g) => removals.of(userJson, JSON.stringify(groupData(g.id, g.body)))),
      buildEvent(dir, 'user.deleted', user, undefined, now),
    ];
    const versions = groups.map((g) => ({ id: g.id, version: g.version }));
    const result = outcomeOf(
      await this.store.deleteUser(dir.id, id, current.version, versions, events, now),
      `User ${id}`,
      '',
    );
    if (result === STALE) return STALE;
    report(this.committed, dir.id, events, opts);
    return undefined;
  }

  /**
   * Brings the roles of these users up to date with their groups (after a membership change, a group's rename or
   * delete, a new role mapping), and their custom attributes with the attribute mapping: one `user.updated` for
   * each whose roles or custom attributes changed, none for the others. A chunk of users at a time, their groups
   * read once per run, so a 200,000-member group costs a linear pass with turns of the event loop in between.
   * Users gone meanwhile are skipped. Returns how many users it found to update.
   */
  async refreshRoles(dir: Directory, ids: readonly string[]): Promise<number> {
    const groups = new Map<string, NamedGroup | null>();
    let updated = 0;
    let first = true;
    for (const chunk of chunksOf(ids)) {
      if (!first) await yieldToLoop();
      first = false;
      const [users, groupIds] = await Promise.all([
        this.store.getUsers(dir.id, chunk),
        Promise.all(chunk.map((id) => this.store.userGroupIds(dir.id, id))),
      ]);
      const unknown = [...new Set(groupIds.flat())].filter((id) => !groups.has(id));
      (await this.store.getGroups(dir.id, unknown)).forEach((g, i) =>
        groups.set(unknown[i]!, g && { id: g.id, name: groupName(g.body) }),
      );
      const changed: Array<[StoredResource, Derived]> = [];
      users.forEach((user, i) => {
        if (!user) return;
        const named = groupIds[i]!.map((id) => groups.get(id)).filter((g): g is NamedGroup => g != null);
        const derived = {
          roles: rolesOf(dir.role_mapping, named),
          customAttributes: customAttributesOf(user.body, dir.attribute_mapping),
        };
        if (!sameDerived(user, derived)) changed.push([user, derived]);
      });
      updated += changed.length;
      // Written a few at a time, each batch in parallel: a store that answers without I/O (memory) would otherwise
      // run a whole chunk's writes in one turn of the event loop.
      let slice = performance.now();
      for (const batch of chunksOf(changed, ROLE_WRITES)) {
        await Promise.all(batch.map(([user, derived]) => this.setDerived(dir, user, derived)));
        if (performance.now() - slice < SLICE_MS) continue;
        await yieldToLoop();
        slice = performance.now();
      }
    }
    return updated;
  }

  /**
   * `refreshRoles` for every user of the directory (its role or attribute mapping changed), a page at a time,
   * telling `progress` the users evaluated and updated so far after each.
   */
  async reevaluateAll(dir: Directory, progress?: (evaluated: number, updated: number) => Promise<void>): Promise<void> {
    let updated = 0;
    for (let offset = 0; ; offset += CHUNK_SIZE) {
      if (offset > 0) await yieldToLoop();
      const page = await this.store.listUsers(dir.id, offset, CHUNK_SIZE);
      updated += await this.refreshRoles(
        dir,
        page.items.map((u) => u.id),
      );
      await progress?.(offset + page.items.length, updated);
      if (page.items.length < CHUNK_SIZE) return;
    }
  }

  /** Writes `derived` (as evaluated from `current`) over `current`; on a retry, evaluates it again. */
  private async setDerived(dir: Directory, current: StoredResource, derived: Derived): Promise<void> {
    let known: Derived | undefined = derived;
    try {
      await retryingOn(this.reader(dir, current.id), `User ${current.id}`, { current }, async (user) => {
        const next = known ?? {
          roles: await this.rolesNow(dir, user.id),
          customAttributes: customAttributesOf(user.body, dir.attribute_mapping),
        };
        known = undefined;
        if (sameDerived(user, next)) return user;
        const keys = {
          ...userKeys(user.body),
          ...(user.managerEmail !== undefined && { managerEmail: user.managerEmail }),
          ...next,
        };
        return this.commit(dir, user, user.body, keys, {});
      });
    } catch (err) {
      // Deleted meanwhile: no roles left to bring up to date.
      if (!(err instanceof NotFoundError)) throw err;
    }
  }

  /** The roles user `id` holds by its groups now ([] without a mapping: no group read). */
  private async rolesNow(dir: Directory, id: string): Promise<string[]> {
    if (dir.role_mapping === undefined) return [];
    const groups = await this.store.getGroups(dir.id, await this.store.userGroupIds(dir.id, id));
    return rolesOf(
      dir.role_mapping,
      groups.filter((g): g is StoredResource => g !== null).map((g) => ({ id: g.id, name: groupName(g.body) })),
    );
  }

  private reader(dir: Directory, id: string): () => Promise<StoredResource | null> {
    return () => this.store.getUser(dir.id, id);
  }
}

/** What a user's writer evaluates besides the body: its roles and custom attributes. */
interface Derived {
  roles: string[];
  customAttributes: CustomAttributes;
}

const sameDerived = (user: StoredResource, d: Derived): boolean =>
  sameRoles(user.roles, d.roles) && sameCustomAttributes(user.customAttributes, d.customAttributes);

/** `user` with what its keys keep beside the body (absent when empty, as the stores keep it). */
function withDerived(user: StoredResource, keys: UserKeys): StoredResource {
  if (keys.managerEmail !== undefined) user.managerEmail = keys.managerEmail;
  if (keys.roles !== undefined && keys.roles.length > 0) user.roles = keys.roles;
  if (keys.customAttributes !== undefined && Object.keys(keys.customAttributes).length > 0)
    user.customAttributes = keys.customAttributes;
  return user;
}
