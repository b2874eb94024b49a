/**
 * One Entra directory's sync on Graph's delta query. Without saved delta links (the first sync) — or when Graph
 * refuses them (410, syncStateNotFound) — a full round lists every user and group and is diffed against the
 * store like a Google run, so a resync emits only the real differences. Otherwise a delta round applies only
 * what changed: new and restored objects, changed properties laid over the stored ones, member additions;
 * deletions and member removals are owed until both rounds are complete and the mass-deletion guard allows
 * them. What reappeared gets its memberships from Graph itself (reappeared.ts). The new delta links are
 * returned for the caller to save only after all of that succeeded.
 */
import { z } from 'zod';
import { sameResource } from '../../core/json-equality.js';
import type { Directory } from '../../core/model.js';
import {
  FullSyncApplier,
  guardMemberships,
  SyncApplier,
  WRITE_CONCURRENCY,
  type ApplierDeps,
  type Deletions,
  type SyncReadStore,
} from '../pull/apply.js';
import type { Upsert } from '../pull/diff.js';
import { forEachLimited } from '../pull/pool.js';
import type { SyncCounts } from '../pull/sync-status.js';
import type { SyncWriters } from '../pull/writers.js';
import { isRemoved, memberChanges, type DeltaApi, type DeltaItem } from './delta-api.js';
import { DeltaExpiredError, IncompleteRoundError, MICROSOFT } from './errors.js';
import { changedUserProps, groupBody, managerOf, USER_SELECT, userBody, userProps, type UserProps } from './mapping.js';
import { NestedGroups, type DirectGraph } from './nested.js';
import { Reappeared } from './reappeared.js';

/** What a directory keeps between runs: Graph's delta links, and its direct graph when it expands nesting. */
export interface DeltaState {
  users: string | null;
  groups: string | null;
  nested?: DirectGraph;
  /** The user properties the links select (Graph keeps a delta link's $select): other ones call for a resync. */
  select?: string;
}

const SELECTED = USER_SELECT.join(',');

export type SyncMode = 'full' | 'delta' | 'resync';

const userItem = z.object({
  displayName: z.string().nullable().optional(),
  givenName: z.string().nullable().optional(),
  surname: z.string().nullable().optional(),
  userPrincipalName: z.string().min(1),
  mail: z.string().nullable().optional(),
  accountEnabled: z.boolean().nullable().optional(),
  jobTitle: z.string().nullable().optional(),
  employeeId: z.string().nullable().optional(),
  department: z.string().nullable().optional(),
  employeeOrgData: z
    .object({ division: z.string().nullable().optional(), costCenter: z.string().nullable().optional() })
    .nullable()
    .optional(),
  officeLocation: z.string().nullable().optional(),
  companyName: z.string().nullable().optional(),
  employeeType: z.string().nullable().optional(),
  employeeHireDate: z.string().nullable().optional(),
  city: z.string().nullable().optional(),
  state: z.string().nullable().optional(),
  country: z.string().nullable().optional(),
  usageLocation: z.string().nullable().optional(),
  preferredLanguage: z.string().nullable().optional(),
  mobilePhone: z.string().nullable().optional(),
  businessPhones: z.array(z.string()).nullable().optional(),
  onPremisesSamAccountName: z.string().nullable().optional(),
  'manager@delta': z.unknown().optional(),
});

function fullUser(i: DeltaItem): UserProps | undefined {
  const u = userItem.safeParse(i);
  if (!u.success) return undefined;
  return {
    displayName: u.data.displayName ?? null,
    givenName: u.data.givenName ?? null,
    surname: u.data.surname ?? null,
    userPrincipalName: u.data.userPrincipalName,
    mail: u.data.mail ?? null,
    accountEnabled: u.data.accountEnabled ?? null,
    jobTitle: u.data.jobTitle ?? null,
    employeeId: u.data.employeeId ?? null,
    department: u.data.department ?? null,
    employeeOrgData: u.data.employeeOrgData ?? null,
    officeLocation: u.data.officeLocation ?? null,
    companyName: u.data.companyName ?? null,
    employeeType: u.data.employeeType ?? null,
    employeeHireDate: u.data.employeeHireDate ?? null,
    city: u.data.city ?? null,
    state: u.data.state ?? null,
    country: u.data.country ?? null,
    usageLocation: u.data.usageLocation ?? null,
    preferredLanguage: u.data.preferredLanguage ?? null,
    mobilePhone: u.data.mobilePhone ?? null,
    businessPhones: u.data.businessPhones ?? [],
    onPremisesSamAccountName: u.data.onPremisesSamAccountName ?? null,
    manager: managerOf(u.data['manager@delta']),
  };
}

const nameOf = (i: DeltaItem): string | undefined => ('displayName' in i ? String(i.displayName ?? '') : undefined);

export interface DeltaSyncDeps {
  store: SyncReadStore;
  writers: SyncWriters;
  api: DeltaApi;
  maxDeleteShare: number;
  checkpoint: () => void;
}

export class DeltaSync {
  mode: SyncMode = 'full';
  /** Objects the rounds of this run named (every object in a full round; the changes in a delta round). */
  readonly seen = { users: 0, groups: 0 };
  private readonly applierDeps: ApplierDeps;
  private readonly nestedOn: boolean;

  constructor(
    private readonly dir: Directory,
    private readonly deps: DeltaSyncDeps,
    private readonly counts: SyncCounts,
  ) {
    this.applierDeps = {
      store: deps.store,
      writers: deps.writers,
      label: MICROSOFT,
      maxDeleteShare: deps.maxDeleteShare,
      checkpoint: deps.checkpoint,
    };
    this.nestedOn = dir.microsoft_nested_groups === true;
  }

  async run(state: DeltaState | null): Promise<DeltaState> {
    // Links saved without the nesting the directory now asks for (or the reverse) describe another graph: resync.
    // So do links selecting other user properties than this release maps (a later round would never send them).
    const usable =
      state?.users && state.groups && (state.nested !== undefined) === this.nestedOn && state.select === SELECTED;
    if (!usable) return this.full(state ? 'resync' : 'full');
    try {
      return await this.delta(state);
    } catch (err) {
      if (!(err instanceof DeltaExpiredError)) throw err;
      return this.full('resync');
    }
  }

  // Full round -------------------------------------------------------------------------------------------

  private async full(mode: SyncMode): Promise<DeltaState> {
    this.mode = mode;
    const { store, api } = this.deps;
    const apply = new FullSyncApplier(this.dir, this.applierDeps, this.counts);
    const [storedUsers, storedGroups] = await Promise.all([
      store.countUsers(this.dir.id),
      store.countGroups(this.dir.id),
    ]);
    let usersLink: string | undefined;
    for await (const page of api.round('users', null)) {
      const listed: Upsert[] = [];
      for (const i of page.items) {
        if (isRemoved(i)) continue;
        const props = fullUser(i) ?? fullUser((await api.object('users', i.id)) ?? { id: i.id });
        if (props) listed.push({ id: i.id, body: userBody(i.id, props) });
      }
      this.seen.users += listed.length;
      await apply.usersPage(listed);
      usersLink = page.deltaLink;
    }
    // Every tenant has at least its admin: an empty listing is an outage or a bug, never "everyone left".
    if (apply.usersSeen === 0 && storedUsers > 0) throw new IncompleteRoundError('users: Graph listed none');
    // A group's members may be spread over several instances anywhere in the round: gather the round first.
    const groups = new Map<string, { name?: string; users: Set<string> }>();
    const graph = this.nestedOn ? new NestedGroups() : undefined;
    let groupsLink: string | undefined;
    for await (const page of api.round('groups', null)) {
      this.deps.checkpoint();
      for (const i of page.items) {
        if (isRemoved(i)) continue;
        const g = groups.get(i.id) ?? { users: new Set<string>() };
        groups.set(i.id, g);
        g.name = nameOf(i) ?? g.name;
        for (const m of memberChanges(i)) {
          if (m.removed || m.type === 'other' || (m.type === 'user' && !apply.isUser(m.id))) continue;
          if (m.type === 'user') g.users.add(m.id);
          graph?.member(i.id, m.id, m.type, false);
        }
      }
      groupsLink = page.deltaLink;
    }
    for (const [id, g] of groups) {
      if (g.name !== undefined) continue;
      const fetched = await api.object('groups', id);
      if (fetched) g.name = nameOf(fetched) ?? '';
      else groups.delete(id);
    }
    this.seen.groups = groups.size;
    const entries = [...groups];
    for (let i = 0; i < entries.length; i += 500) {
      const chunk = entries.slice(i, i + 500);
      await apply.groupsPage(
        chunk.map(([id, g]) => ({ id, body: groupBody(id, g.name!) })),
        chunk.map(([id, g]) => (graph ? graph.effective(id) : g.users)),
      );
    }
    await apply.finish(storedUsers + storedGroups);
    if (!usersLink || !groupsLink) throw new IncompleteRoundError('no deltaLink');
    return { users: usersLink, groups: groupsLink, select: SELECTED, ...(graph && { nested: graph.toJSON() }) };
  }

  // Delta round ------------------------------------------------------------------------------------------

  private async delta(state: DeltaState): Promise<DeltaState> {
    this.mode = 'delta';
    const apply = new SyncApplier(this.dir, this.applierDeps, this.counts);
    const owed: Deletions = { users: [], groups: [], removals: new Map() };
    const graph = this.nestedOn ? NestedGroups.from(state.nested) : undefined;
    const { store, api } = this.deps;
    const back = new Reappeared({ dir: this.dir, api, store, ...(graph && { graph }) });
    const usersLink = await this.deltaUsers(state.users!, apply, owed, graph, back);
    const groupsLink = await this.deltaGroups(state.groups!, apply, owed, graph, back);
    await back.read(owed);
    if (graph) await this.nestedMembers(graph, apply, owed);
    for (const g of owed.groups) owed.removals.delete(g);
    const [storedUsers, storedGroups] = await Promise.all([
      store.countUsers(this.dir.id),
      store.countGroups(this.dir.id),
    ]);
    await apply.delete(owed, storedUsers + storedGroups, await this.membershipsFor(owed));
    await apply.retryDeferred();
    await back.apply(apply);
    return { users: usersLink, groups: groupsLink, select: SELECTED, ...(graph && { nested: graph.toJSON() }) };
  }

  private async deltaUsers(
    link: string,
    apply: SyncApplier,
    owed: Deletions,
    graph: NestedGroups | undefined,
    back: Reappeared,
  ): Promise<string> {
    const { store, api } = this.deps;
    let next: string | undefined;
    for await (const page of api.round('users', link)) {
      this.deps.checkpoint();
      this.seen.users += page.items.length;
      const stored = await store.getUsers(
        this.dir.id,
        page.items.map((i) => i.id),
      );
      const create: Upsert[] = [];
      const update: Upsert[] = [];
      for (const [k, i] of page.items.entries()) {
        const current = stored[k];
        if (isRemoved(i)) {
          if (current) owed.users.push(i.id);
          graph?.removeUser(i.id);
          continue;
        }
        back.userListed(i.id);
        if (current) {
          const body = userBody(i.id, { ...userProps(current.body), ...changedUserProps(i) } as UserProps);
          if (!sameResource(current.body, body)) update.push({ id: i.id, body });
        } else {
          // New or restored: Graph sends it in full; if not, it is read once.
          const props = fullUser(i) ?? fullUser((await api.object('users', i.id)) ?? { id: i.id });
          if (props) create.push({ id: i.id, body: userBody(i.id, props) });
          if (props) back.userCreated(i.id);
        }
      }
      await forEachLimited(create, WRITE_CONCURRENCY, (u) => apply.createUser(u));
      await forEachLimited(update, WRITE_CONCURRENCY, (u) => apply.updateUser(u));
      next = page.deltaLink;
    }
    return next!;
  }

  private async deltaGroups(
    link: string,
    apply: SyncApplier,
    owed: Deletions,
    graph: NestedGroups | undefined,
    back: Reappeared,
  ): Promise<string> {
    const { store, api } = this.deps;
    let next: string | undefined;
    for await (const page of api.round('groups', link)) {
      this.deps.checkpoint();
      this.seen.groups += page.items.length;
      const ids = [...new Set(page.items.map((i) => i.id))];
      const storedList = await store.getGroups(this.dir.id, ids);
      const stored = new Map(ids.map((id, k) => [id, storedList[k] ?? null]));
      // Member additions name users: only those the directory has are worth a write.
      const userIds = [
        ...new Set(
          page.items.flatMap((i) =>
            isRemoved(i)
              ? []
              : memberChanges(i)
                  .filter((m) => m.type === 'user' && !m.removed)
                  .map((m) => m.id),
          ),
        ),
      ];
      const known = new Set((await store.getUsers(this.dir.id, userIds)).flatMap((u) => (u ? [u.id] : [])));
      for (const i of page.items) {
        if (isRemoved(i)) {
          if (stored.get(i.id)) owed.groups.push(i.id);
          graph?.removeGroup(i.id);
          continue;
        }
        const changes = memberChanges(i);
        const adds = changes.filter((m) => m.type === 'user' && !m.removed && known.has(m.id)).map((m) => m.id);
        for (const m of changes) if (m.type === 'user' && m.removed) back.memberRemoved(m.id);
        const current = stored.get(i.id);
        let name = nameOf(i);
        if (!current) {
          if (name === undefined) name = nameOf((await api.object('groups', i.id)) ?? { id: i.id });
          if (name === undefined) continue; // gone again since
          await apply.createGroup({ id: i.id, body: groupBody(i.id, name) }, graph ? [] : adds);
          stored.set(i.id, { id: i.id, body: groupBody(i.id, name), created: 0, lastModified: 0, version: 1 });
          back.groupCreated(i.id);
        } else {
          if (name !== undefined && !sameResource(current.body, groupBody(i.id, name)))
            await apply.updateGroup(i.id, groupBody(i.id, name));
          if (!graph) await apply.addMembers(i.id, adds);
        }
        if (!graph) back.memberAdded(i.id, adds);
        if (graph) {
          for (const m of changes) if (m.type !== 'other') graph.member(i.id, m.id, m.type, m.removed);
          continue;
        }
        const removed = changes.filter((m) => m.type === 'user' && m.removed).map((m) => m.id);
        if (removed.length > 0) owed.removals.set(i.id, [...(owed.removals.get(i.id) ?? []), ...removed]);
      }
      next = page.deltaLink;
    }
    return next!;
  }

  /** With nesting: the groups a change reached get their effective members (additions now, removals owed). */
  private async nestedMembers(graph: NestedGroups, apply: SyncApplier, owed: Deletions): Promise<void> {
    const affected = graph.takeAffected();
    const present = await this.deps.store.getGroups(this.dir.id, affected);
    for (const [k, id] of affected.entries()) {
      if (!present[k]) continue;
      const effective = graph.effective(id);
      const stored = await apply.memberIds(id);
      const had = new Set(stored);
      const candidates = [...effective].filter((u) => !had.has(u));
      const known = (await this.deps.store.getUsers(this.dir.id, candidates)).flatMap((u) => (u ? [u.id] : []));
      await apply.addMembers(id, known);
      const remove = stored.filter((u) => !effective.has(u));
      if (remove.length > 0) owed.removals.set(id, remove);
    }
  }

  /** The memberships a removal share is measured against (pull/apply.ts). */
  private membershipsFor(owed: Deletions): Promise<number> {
    return guardMemberships(this.deps.store, this.dir.id, owed);
  }
}
