/**
 * One Entra tenant of the fake: its users, groups and direct memberships, and the change log that Graph's delta query
 * answers from. Built from Microsoft's delta-query documentation: a first round lists every object in full; a later
 * round lists only what changed since its token — a new (or restored) object in full (a restored user whose manager
 * changed meanwhile with the former one `@removed`), an updated one as its id plus the changed properties, a deleted
 * one as `@removed` (`changed`: soft-deleted, restorable; `deleted`: gone for good), and a group's member changes as
 * `members@delta` (removals carry `@removed`). A group with many members is split over several instances, the later
 * ones carrying only `id` and more members, placed at the end of the round (a client must not assume they are
 * adjacent).
 *
 * Deletion and restore follow Entra (https://learn.microsoft.com/en-us/graph/api/directory-deleteditems-restore):
 * a deleted user, and a deleted Microsoft 365 group (`groupTypes: ['Unified']`), stay restorable for 30 days
 * and come back with their memberships; a security group is deleted for good. A restored user's memberships are
 * not told by the groups' delta (Graph does not promise them there): a client must read them
 * (`/users/{id}/memberOf`). A restored group comes back in the groups' delta as a new one does, with its members,
 * unless `restoredGroupsWithoutMembers` (then only `/groups/{id}/members` tells them).
 */
import { NO_OPTIONAL_PROPS } from './user-props.js';

export interface EUser {
  id: string;
  displayName: string;
  givenName: string | null;
  surname: string | null;
  userPrincipalName: string;
  mail: string | null;
  accountEnabled: boolean;
  jobTitle: string | null;
  employeeId: string | null;
  department: string | null;
  employeeOrgData: { division: string | null; costCenter: string | null } | null;
  officeLocation: string | null;
  companyName: string | null;
  employeeType: string | null;
  /** Graph's DateTimeOffset, e.g. `2021-03-01T00:00:00Z`. */
  employeeHireDate: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  usageLocation: string | null;
  preferredLanguage: string | null;
  mobilePhone: string | null;
  /** A collection: empty when there is none. */
  businessPhones: string[];
  onPremisesSamAccountName: string | null;
  /** The manager's id: a relationship, told as `manager@delta` (with `@removed` when it ends). */
  manager: string | null;
}

export interface EGroup {
  id: string;
  displayName: string;
  description: string | null;
  mailNickname: string;
  mailEnabled: boolean;
  securityEnabled: boolean;
  /** `['Unified']`: a Microsoft 365 group (restorable once deleted); empty: a security group. */
  groupTypes: string[];
}

export type Kind = 'users' | 'groups';
export type MemberType = 'user' | 'group';

interface Change {
  seq: number;
  kind: Kind;
  id: string;
  /** The object (re)appeared: created, or restored from the recycle bin. */
  created?: boolean;
  removed?: boolean;
  props?: readonly string[];
  member?: { id: string; type: MemberType; removed: boolean };
}

/** Graph's default user properties (what a delta without $select returns): accountEnabled is not among them. */
const DEFAULT_USER_PROPS = [
  'businessPhones',
  'displayName',
  'givenName',
  'jobTitle',
  'mail',
  'mobilePhone',
  'officeLocation',
  'preferredLanguage',
  'surname',
  'userPrincipalName',
];
const DEFAULT_GROUP_PROPS = [
  'displayName',
  'description',
  'mailNickname',
  'mailEnabled',
  'securityEnabled',
  'groupTypes',
  'createdDateTime',
];

/** Members per group instance in a delta round. */
export const MEMBERS_PER_INSTANCE = 20;

const odataType = (type: MemberType) => `#microsoft.graph.${type}`;

export class Tenant {
  readonly users = new Map<string, EUser>();
  readonly groups = new Map<string, EGroup>();
  /** Group id → member id → type (direct members only, as Entra keeps them). */
  readonly members = new Map<string, Map<string, MemberType>>();
  /** Soft-deleted users, with the groups they were in (a restore puts them back). */
  private readonly recycled = new Map<string, { user: EUser; groups: string[] }>();
  /** Soft-deleted Microsoft 365 groups, with their members. */
  private readonly recycledGroups = new Map<string, { group: EGroup; members: Map<string, MemberType> }>();
  /** Groups restored since they were last listed in full. */
  private readonly restoredGroups = new Set<string>();
  /** A restored group's delta item carries no members (what a client must survive: Graph does not promise them). */
  restoredGroupsWithoutMembers = false;
  private readonly log: Change[] = [];
  /** The manager a user had before its manager changed: a delta tells it `@removed`. */
  private readonly formerManagers = new Map<string, string>();
  /** Seq at which each object first appeared. */
  private readonly born = new Map<string, number>();
  seq = 0;
  /** Bumped by `expireDeltaTokens`: older tokens answer 410. */
  tokenGeneration = 1;
  /** Admin consent given (the service principal exists), and the app roles granted. */
  consented = false;
  rolesGranted = true;
  private n = 0;

  constructor(
    readonly id: string,
    readonly domain: string,
  ) {}

  private record(change: Omit<Change, 'seq'>): void {
    this.log.push({ ...change, seq: ++this.seq });
    if (change.created && !this.born.has(change.id)) this.born.set(change.id, this.seq);
  }

  private guid(): string {
    const n = (++this.n).toString(16).padStart(12, '0');
    return `${this.id.slice(0, 8)}-0000-4000-8000-${n}`;
  }

  // Users ------------------------------------------------------------------------------------------------

  addUser(given: Partial<EUser> = {}): EUser {
    const id = given.id ?? this.guid();
    const k = this.n;
    const user: EUser = {
      id,
      givenName: `Given${k}`,
      surname: `Family${k}`,
      displayName: given.displayName ?? `${given.givenName ?? `Given${k}`} ${given.surname ?? `Family${k}`}`,
      userPrincipalName: `user${k}@${this.domain}`,
      mail: given.mail === undefined ? `user${k}@${this.domain}` : given.mail,
      accountEnabled: true,
      ...NO_OPTIONAL_PROPS,
      businessPhones: [],
      ...given,
    };
    this.users.set(id, user);
    this.record({ kind: 'users', id, created: true });
    return user;
  }

  updateUser(id: string, change: Partial<Omit<EUser, 'id'>>): void {
    const user = this.users.get(id)!;
    if ('manager' in change && user.manager) this.formerManagers.set(id, user.manager);
    Object.assign(user, change);
    this.record({ kind: 'users', id, props: Object.keys(change) });
  }

  /** Deletes the user into the recycle bin (restorable), and out of its groups. */
  removeUser(id: string): void {
    const user = this.users.get(id)!;
    const groups = [...this.members].filter(([, m]) => m.has(id)).map(([g]) => g);
    for (const g of groups) this.removeMember(g, id);
    this.users.delete(id);
    this.recycled.set(id, { user, groups });
    this.record({ kind: 'users', id, removed: true });
  }

  /** Back from the recycle bin with the memberships it had, silently for the groups' delta. */
  restoreUser(id: string): void {
    const { user, groups } = this.recycled.get(id)!;
    this.recycled.delete(id);
    this.users.set(id, user);
    this.record({ kind: 'users', id, created: true });
    for (const g of groups) this.members.get(g)?.set(id, 'user');
  }

  /** Deletes a soft-deleted user for good. */
  purgeUser(id: string): void {
    this.recycled.delete(id);
    for (const r of this.recycledGroups.values()) r.members.delete(id);
    this.record({ kind: 'users', id, removed: true });
  }

  /** Ids in the recycle bin (users, then groups). */
  get recycleBin(): { users: string[]; groups: string[] } {
    return { users: [...this.recycled.keys()], groups: [...this.recycledGroups.keys()] };
  }

  // Groups -----------------------------------------------------------------------------------------------

  addGroup(given: Partial<EGroup> = {}): EGroup {
    const id = given.id ?? this.guid();
    const k = this.n;
    const group: EGroup = {
      id,
      displayName: `Group ${k}`,
      description: null,
      mailNickname: `group${k}`,
      mailEnabled: false,
      securityEnabled: true,
      groupTypes: [],
      ...given,
    };
    this.groups.set(id, group);
    this.members.set(id, new Map());
    this.record({ kind: 'groups', id, created: true });
    return group;
  }

  updateGroup(id: string, change: Partial<Omit<EGroup, 'id'>>): void {
    Object.assign(this.groups.get(id)!, change);
    this.record({ kind: 'groups', id, props: Object.keys(change) });
  }

  /** Deletes the group (and its nesting in other groups): a Microsoft 365 group into the recycle bin. */
  removeGroup(id: string): void {
    for (const [g, m] of this.members) if (m.has(id)) this.removeMember(g, id);
    const group = this.groups.get(id)!;
    if (group.groupTypes.includes('Unified')) this.recycledGroups.set(id, { group, members: this.members.get(id)! });
    this.groups.delete(id);
    this.members.delete(id);
    this.restoredGroups.delete(id);
    this.record({ kind: 'groups', id, removed: true });
  }

  /** A Microsoft 365 group back from the recycle bin, with its members (of whom those still there). */
  restoreGroup(id: string): void {
    const { group, members } = this.recycledGroups.get(id)!;
    this.recycledGroups.delete(id);
    for (const m of members.keys()) if (!this.users.has(m) && !this.groups.has(m)) members.delete(m);
    this.groups.set(id, group);
    this.members.set(id, members);
    this.restoredGroups.add(id);
    this.record({ kind: 'groups', id, created: true });
  }

  /** Deletes a soft-deleted group for good. */
  purgeGroup(id: string): void {
    this.recycledGroups.delete(id);
    this.record({ kind: 'groups', id, removed: true });
  }

  /** The groups a user or group is a direct member of (`/memberOf`). */
  memberOf(id: string): string[] {
    return [...this.members].filter(([, m]) => m.has(id)).map(([g]) => g);
  }

  addMember(groupId: string, memberId: string, type: MemberType = this.groups.has(memberId) ? 'group' : 'user'): void {
    this.members.get(groupId)!.set(memberId, type);
    this.record({ kind: 'groups', id: groupId, member: { id: memberId, type, removed: false } });
  }

  removeMember(groupId: string, memberId: string): void {
    const type = this.members.get(groupId)!.get(memberId);
    if (!type) return;
    this.members.get(groupId)!.delete(memberId);
    this.record({ kind: 'groups', id: groupId, member: { id: memberId, type, removed: true } });
  }

  // Delta ------------------------------------------------------------------------------------------------

  /** One object with the properties asked for (`select` empty: Graph's defaults). */
  render(
    kind: Kind,
    id: string,
    select: readonly string[],
    only?: ReadonlySet<string>,
    managerChanged = only !== undefined,
  ): Record<string, unknown> {
    const object = (kind === 'users' ? this.users.get(id) : this.groups.get(id)) as unknown as Record<string, unknown>;
    const wanted = (select.length > 0 ? select : kind === 'users' ? DEFAULT_USER_PROPS : DEFAULT_GROUP_PROPS).filter(
      (p) => p !== 'members' && p !== 'id',
    );
    const out: Record<string, unknown> = { id };
    for (const p of wanted) {
      if (only && !only.has(p)) continue;
      if (p === 'manager') Object.assign(out, this.managerDelta(id, managerChanged));
      else out[p] = object[p] ?? null;
    }
    return out;
  }

  /** `manager@delta`: the manager, and on a change the former one `@removed`; nothing in full when there is none. */
  private managerDelta(id: string, changed: boolean): Record<string, unknown> {
    const ref = (managerId: string) => ({ '@odata.type': odataType('user'), id: managerId });
    const refs: Array<Record<string, unknown>> = [];
    const former = this.formerManagers.get(id);
    if (changed && former) refs.push({ ...ref(former), '@removed': { reason: 'deleted' } });
    const manager = this.users.get(id)?.manager;
    if (manager) refs.push(ref(manager));
    return refs.length > 0 ? { 'manager@delta': refs } : {};
  }

  private memberRefs(groupId: string): Array<Record<string, unknown>> {
    return [...(this.members.get(groupId) ?? [])].map(([id, type]) => ({ '@odata.type': odataType(type), id }));
  }

  /**
   * The items of a delta round over `kind` for changes after `since` (0: the first round, every object in full),
   * as of now. `members` is whether `members` was selected (groups).
   */
  deltaItems(kind: Kind, since: number, select: readonly string[]): Array<Record<string, unknown>> {
    const withMembers = kind === 'groups' && select.includes('members');
    const items: Array<Record<string, unknown>> = [];
    const overflow: Array<Record<string, unknown>> = [];
    const full = (id: string, managerChanged = false) => {
      const item = this.render(kind, id, select, undefined, managerChanged);
      if (!withMembers) return items.push(item);
      if (since > 0 && this.restoredGroupsWithoutMembers && this.restoredGroups.has(id)) return items.push(item);
      const refs = this.memberRefs(id);
      items.push({ ...item, 'members@delta': refs.slice(0, MEMBERS_PER_INSTANCE) });
      for (let i = MEMBERS_PER_INSTANCE; i < refs.length; i += MEMBERS_PER_INSTANCE) {
        overflow.push({ id, 'members@delta': refs.slice(i, i + MEMBERS_PER_INSTANCE) });
      }
    };
    const current = kind === 'users' ? this.users : this.groups;
    if (since === 0) {
      for (const id of current.keys()) full(id);
      return [...items, ...overflow];
    }

    const touched = new Map<
      string,
      { created: boolean; props: Set<string>; members: Map<string, { type: MemberType; removed: boolean }> }
    >();
    /** Whether the client's token saw each object present. */
    const knew = new Map<string, boolean>();
    for (const c of this.log) {
      if (c.kind !== kind) continue;
      if (c.seq <= since) {
        if (c.created) knew.set(c.id, true);
        else if (c.removed) knew.set(c.id, false);
        continue;
      }
      const t = touched.get(c.id) ?? { created: false, props: new Set<string>(), members: new Map() };
      touched.set(c.id, t);
      if (c.created) t.created = true;
      for (const p of c.props ?? []) t.props.add(p);
      if (c.member) t.members.set(c.member.id, { type: c.member.type, removed: c.member.removed });
    }
    for (const [id, t] of touched) {
      if (!current.has(id)) {
        // Born after the token and gone again: the client never knew it.
        if ((this.born.get(id) ?? 0) > since) continue;
        items.push({
          id,
          '@removed': { reason: this.recycled.has(id) || this.recycledGroups.has(id) ? 'changed' : 'deleted' },
        });
      } else if (t.created && (kind === 'users' || !knew.get(id))) {
        // A user the token knew, deleted and restored since: its manager's change in between is still a change.
        full(id, knew.get(id) === true && t.props.has('manager'));
      } else {
        // A group the client knew, deleted and restored since, comes with its properties and its member changes.
        const selected = t.created
          ? undefined
          : select.length > 0
            ? [...t.props].filter((p) => select.includes(p))
            : [...t.props];
        const item: Record<string, unknown> = !selected
          ? this.render(kind, id, select)
          : selected.length > 0
            ? this.render(kind, id, select, new Set(selected))
            : { id };
        if (withMembers && t.members.size > 0 && !(t.created && this.restoredGroupsWithoutMembers)) {
          item['members@delta'] = [...t.members].map(([mid, m]) => ({
            '@odata.type': odataType(m.type),
            id: mid,
            ...(m.removed && { '@removed': { reason: 'deleted' } }),
          }));
        }
        if (Object.keys(item).length > 1) items.push(item);
      }
    }
    return [...items, ...overflow];
  }
}
