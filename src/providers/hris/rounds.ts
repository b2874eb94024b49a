/**
 * The two rounds of an HRIS sync, one per change-detection mode, both on the shared appliers (pull/apply.ts):
 * - `fullRound`: every employee listed, diffed against the store; departments with their members; what was not
 *   listed deleted at the end, within the mass-deletion guard;
 * - `targetedRound`: only the employees a changed-since feed named, read again: each one's user, its move
 *   between departments, the departments left empty; deletions owed to the end, within the guard.
 */
import { sameResource } from '../../core/json-equality.js';
import type { Directory } from '../../core/model.js';
import { FullSyncApplier, guardMemberships, SyncApplier, type ApplierDeps, type Deletions } from '../pull/apply.js';
import type { Upsert } from '../pull/diff.js';
import type { SyncCounts } from '../pull/sync-status.js';
import { forEachLimited } from '../pull/pool.js';
import type { Changes, Employee, HrisConnection, HrisType } from './connector.js';
import { HrisApiError } from './errors.js';
import { departmentBody, departmentGroupId, userBody } from './mapping.js';

export interface RoundContext {
  dir: Directory;
  type: HrisType;
  deps: ApplierDeps;
  counts: SyncCounts;
  /** Employees read, for the status. */
  read(n: number): void;
}

/** Users read from the store and applied at once in a full round. */
const USER_CHUNK = 1000;
/** Groups applied at once in a full round. */
const GROUP_CHUNK = 500;
/** Employees read again at once in a targeted round. */
const READ_CONCURRENCY = 4;

/** `inactive_users: delete`: a terminated employee is no user at all. */
const keepsInactive = (dir: Directory): boolean => (dir as { inactive_users?: string }).inactive_users !== 'delete';

/** The user an employee is in this directory, or undefined. */
function userOf(dir: Directory, type: HrisType, e: Employee | null): Upsert | undefined {
  if (!e || (!e.active && !keepsInactive(dir))) return undefined;
  const body = userBody(type, e);
  return body && { id: e.id, body };
}

export async function fullRound(conn: HrisConnection, ctx: RoundContext): Promise<void> {
  const { dir, type, deps } = ctx;
  const apply = new FullSyncApplier(dir, deps, ctx.counts);
  const [storedUsers, storedGroups] = await Promise.all([
    deps.store.countUsers(dir.id),
    deps.store.countGroups(dir.id),
  ]);
  const departments = new Map<string, { dept: { id: string; name: string }; members: Set<string> }>();
  for await (const page of conn.employees()) {
    ctx.read(page.length);
    const users: Upsert[] = [];
    for (const e of page) {
      const u = userOf(dir, type, e);
      if (!u) continue;
      users.push(u);
      if (!e.department) continue;
      const id = departmentGroupId(type, e.department.id);
      const d = departments.get(id) ?? { dept: e.department, members: new Set<string>() };
      departments.set(id, d);
      d.members.add(e.id);
    }
    // A provider's page can be everyone (BambooHR's report, Bob's search): applied a thousand at a time.
    for (let i = 0; i < users.length; i += USER_CHUNK) await apply.usersPage(users.slice(i, i + USER_CHUNK));
  }
  // Every company has at least the person whose key this is: an empty listing is an outage, never "everyone left".
  if (apply.usersSeen === 0 && storedUsers > 0)
    throw new HrisApiError(deps.label.name, 'listed no employee with a work email; nothing was deleted');
  const entries = [...departments];
  for (let i = 0; i < entries.length; i += GROUP_CHUNK) {
    const chunk = entries.slice(i, i + GROUP_CHUNK);
    await apply.groupsPage(
      chunk.map(([id, d]) => ({ id, body: departmentBody(type, d.dept) })),
      chunk.map(([, d]) => d.members),
    );
  }
  await apply.finish(storedUsers + storedGroups);
}

export async function targetedRound(conn: HrisConnection, changes: Changes, ctx: RoundContext): Promise<void> {
  const { dir, type, deps } = ctx;
  const { store } = deps;
  const apply = new SyncApplier(dir, deps, ctx.counts);
  const owed: Deletions = { users: [], groups: [], removals: new Map() };
  const ids = [...new Set(changes.changed)].filter((id) => !changes.deleted.includes(id));
  const read: Array<Employee | null> = new Array(ids.length);
  await forEachLimited([...ids.keys()], READ_CONCURRENCY, async (i) => {
    deps.checkpoint();
    read[i] = await conn.employee!(ids[i]!);
  });
  ctx.read(ids.length);
  const stored = await store.getUsers(dir.id, ids);
  /** Departments known to exist as groups (created in this round, or found). */
  const groups = new Set<string>();
  for (const [i, id] of ids.entries()) {
    const u = userOf(dir, type, read[i]!);
    const current = stored[i];
    if (!u) {
      if (current) owed.users.push(id);
      continue;
    }
    if (!current) await apply.createUser(u);
    else if (!sameResource(current.body, u.body)) await apply.updateUser(u);
    const dept = read[i]!.department;
    const wanted = dept ? departmentGroupId(type, dept.id) : undefined;
    const had = current ? await store.userGroupIds(dir.id, id) : [];
    for (const g of had) if (g !== wanted) owed.removals.set(g, [...(owed.removals.get(g) ?? []), id]);
    if (!dept || !wanted || had.includes(wanted)) continue;
    if (!groups.has(wanted) && !(await store.getGroups(dir.id, [wanted]))[0])
      await apply.createGroup({ id: wanted, body: departmentBody(type, dept) }, [id]);
    else await apply.addMembers(wanted, [id]);
    groups.add(wanted);
  }
  const gone = (await store.getUsers(dir.id, changes.deleted)).flatMap((u) => (u ? [u.id] : []));
  owed.users.push(...gone);
  await emptied(ctx, owed);
  const [storedUsers, storedGroups] = await Promise.all([store.countUsers(dir.id), store.countGroups(dir.id)]);
  await apply.delete(owed, storedUsers + storedGroups, await guardMemberships(store, dir.id, owed));
  await apply.retryDeferred();
}

/** Departments this round leaves without members are owed as deletions (their removals then go with them). */
async function emptied(ctx: RoundContext, owed: Deletions): Promise<void> {
  const { store } = ctx.deps;
  const leaving = new Map<string, Set<string>>();
  for (const [g, ids] of owed.removals) leaving.set(g, new Set(ids));
  for (const id of owed.users)
    for (const g of await store.userGroupIds(ctx.dir.id, id)) leaving.set(g, (leaving.get(g) ?? new Set()).add(id));
  for (const [g, out] of leaving) {
    const { total } = await store.groupMemberIds(ctx.dir.id, g, 0, 0);
    if (total > out.size) continue;
    owed.groups.push(g);
    owed.removals.delete(g);
  }
}
