/**
 * Read side of the management API: users, groups and members of a directory, or of every directory of a
 * tenant and product (concatenated in directory creation order).
 */
import type { GroupStore, UserStore } from './store-port.js';
import type { DirectoryService } from './directories.js';
import { NotFoundError, ValidationError } from './errors.js';
import { groupData, userData } from './events.js';
import type { Directory, GroupEventData, StoredResource, UserEventData } from './model.js';

export interface DirectoryScope {
  directoryId?: string;
  tenant?: string;
  product?: string;
}

export interface PageRequest {
  offset: number;
  limit: number;
}

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1000;

export type GroupWithMembers = GroupEventData & { members: Array<{ group_id: string; user_id: string }> };

type Kind = 'users' | 'groups';

export class DirectoryQueries {
  constructor(
    private readonly store: UserStore & GroupStore,
    private readonly directories: DirectoryService,
  ) {}

  /** The directories a scope names; a directoryId wins, and must agree with tenant/product when both are given. */
  async resolve(scope: DirectoryScope): Promise<Directory[]> {
    if (scope.directoryId) {
      const d = await this.directories.get(scope.directoryId);
      if ((scope.tenant && scope.tenant !== d.tenant) || (scope.product && scope.product !== d.product)) {
        throw new NotFoundError(`Directory ${scope.directoryId} not found for this tenant and product`);
      }
      return [d];
    }
    if (!scope.tenant || !scope.product) {
      throw new ValidationError('Provide directoryId, or both tenant and product', scope.tenant ? 'product' : 'tenant');
    }
    return this.directories.list({ tenant: scope.tenant, product: scope.product });
  }

  async listUsers(scope: DirectoryScope, page: PageRequest): Promise<UserEventData[]> {
    const items = await this.pageAcross(await this.resolve(scope), 'users', page);
    return items.map((u) => userData(u.id, u.body, u.managerEmail, u.roles, u.customAttributes));
  }

  async listGroups(scope: DirectoryScope, page: PageRequest): Promise<GroupEventData[]> {
    const items = await this.pageAcross(await this.resolve(scope), 'groups', page);
    return items.map((g) => groupData(g.id, g.body));
  }

  async getUser(scope: DirectoryScope, id: string): Promise<UserEventData> {
    for (const d of await this.resolve(scope)) {
      const u = await this.store.getUser(d.id, id);
      if (u) return userData(u.id, u.body, u.managerEmail, u.roles, u.customAttributes);
    }
    throw new NotFoundError(`User ${id} not found`);
  }

  async getGroup(scope: DirectoryScope, id: string): Promise<GroupWithMembers> {
    const found = await this.findGroup(scope, id);
    const members: GroupWithMembers['members'] = [];
    for (let offset = 0; ; offset += MAX_PAGE_LIMIT) {
      const page = await this.store.groupMemberIds(found.directory.id, id, offset, MAX_PAGE_LIMIT);
      for (const userId of page.items) members.push({ group_id: id, user_id: userId });
      if (page.items.length < MAX_PAGE_LIMIT) break;
    }
    return { ...groupData(found.group.id, found.group.body), members };
  }

  async groupMembers(scope: DirectoryScope, id: string, page: PageRequest): Promise<Array<{ user_id: string }>> {
    const found = await this.findGroup(scope, id);
    const { items } = await this.store.groupMemberIds(found.directory.id, id, page.offset, page.limit);
    return items.map((userId) => ({ user_id: userId }));
  }

  private async findGroup(scope: DirectoryScope, id: string): Promise<{ directory: Directory; group: StoredResource }> {
    for (const directory of await this.resolve(scope)) {
      const group = await this.store.getGroup(directory.id, id);
      if (group) return { directory, group };
    }
    throw new NotFoundError(`Group ${id} not found`);
  }

  /** Pages over the concatenation of several directories' resources without loading any directory whole. */
  private async pageAcross(directories: Directory[], kind: Kind, page: PageRequest): Promise<StoredResource[]> {
    const out: StoredResource[] = [];
    let skip = page.offset;
    for (const d of directories) {
      if (out.length >= page.limit) break;
      const count = kind === 'users' ? await this.store.countUsers(d.id) : await this.store.countGroups(d.id);
      if (skip >= count) {
        skip -= count;
        continue;
      }
      const want = page.limit - out.length;
      const { items } =
        kind === 'users' ? await this.store.listUsers(d.id, skip, want) : await this.store.listGroups(d.id, skip, want);
      out.push(...items);
      skip = 0;
    }
    return out;
  }
}
