/**
 * SCIM /Groups. Members are kept as a membership set in the store, never inside the group body: PATCHes turn
 * into add/remove deltas (no read-modify-write of a whole group), and membership events fire only on real change.
 */
import { mapChunked } from '../core/chunks.js';
import { buildEvent, groupData, membershipData, previousAttributes, userData } from '../core/events.js';
import { newId } from '../core/ids.js';
import { sameResource } from '../core/json.js';
import type { GroupKeys, PendingEvent, ScimBody, StoredResource } from '../core/model.js';
import type { MemberChange } from '../core/store-port.js';
import { retrying, settle, STALE } from './commit.js';
import type { ScimContext, ScimQuery, ScimResult } from './context.js';
import { ScimError } from './errors.js';
import { assertPrintable, normalizeResource } from './normalize.js';
import { applyPatch, type MemberDelta, type MemberRef } from './patch.js';
import { checkIfMatch, etagOf, listResponse, locationOf, paging, toScim, view } from './render.js';
import { memberIdsOf, search } from './search.js';

const SCIM_JSON = 'application/scim+json';


export function groupKeys(body: ScimBody): GroupKeys {
  const keys: GroupKeys = {
    displayName: String(body.displayName),
    ...(typeof body.externalId === 'string' && body.externalId !== '' && { externalId: body.externalId }),
  };
  assertPrintable({ displayName: keys.displayName, externalId: keys.externalId });
  return keys;
}

/** Splits `members` off a normalised body: the body is stored, the members become a membership set. */
function splitMembers(body: ScimBody): { body: ScimBody; members: MemberRef[] | undefined } {
  const { members, ...rest } = body;
  if (members === undefined) return { body: rest, members: undefined };
  return { body: rest, members: uniqueRefs(members as MemberRef[]) };
}

/** One ref per member id; the last display given wins. */
function uniqueRefs(refs: MemberRef[]): MemberRef[] {
  const byId = new Map<string, MemberRef>();
  for (const ref of refs) {
    const seen = byId.get(ref.value);
    byId.set(ref.value, seen ? { ...seen, ...ref } : ref);
  }
  return [...byId.values()];
}

const wantsMembers = (query: ScimQuery): boolean => {
  const has = (list?: string) => (list ?? '').split(',').some((a) => /(^|:)members(\.|$)/i.test(a.trim()));
  return !has(query.excludedAttributes) && (!query.attributes || has(query.attributes));
};

/** Members as SCIM renders them: `display` is what the client sent, else the user's displayName or userName. */
async function renderMembers(ctx: ScimContext, groupId: string) {
  const ids = await memberIdsOf(ctx, groupId);
  return mapChunked(ids, async (chunk) => {
    const [users, displays] = await Promise.all([
      ctx.store.getUsers(ctx.directory.id, chunk),
      ctx.store.memberDisplays(ctx.directory.id, groupId, chunk),
    ]);
    return users.flatMap((u, i) =>
      u === null
        ? []
        : [{ value: u.id, display: displays[i] ?? String(u.body.displayName ?? u.body.userName), $ref: locationOf(ctx.base, 'User', u.id), type: 'User' }],
    );
  });
}

async function groupResult(ctx: ScimContext, group: StoredResource, status: number, query: ScimQuery = {}): Promise<ScimResult> {
  const headers: Record<string, string> = { 'Content-Type': SCIM_JSON, ETag: etagOf(group.version) };
  if (status === 201) headers.Location = locationOf(ctx.base, 'Group', group.id);
  const extra = wantsMembers(query) ? { members: await renderMembers(ctx, group.id) } : {};
  return { status, data: view(toScim(ctx.base, 'Group', group, extra), query, 'Group'), headers };
}

async function load(ctx: ScimContext, id: string): Promise<StoredResource> {
  const group = await ctx.store.getGroup(ctx.directory.id, id);
  if (!group) throw ScimError.notFound(`Group ${id} not found`);
  return group;
}

const duplicate = (keys: GroupKeys): string =>
  `Group with displayName "${keys.displayName}" already exists in this directory`;

/**
 * One candidate membership event per user that exists; users unknown to the directory are skipped. Built a
 * chunk at a time (building 200,000 events takes seconds of CPU).
 */
async function memberChanges(
  ctx: ScimContext,
  type: 'group.user_added' | 'group.user_removed',
  refs: MemberRef[],
  group: StoredResource['body'],
  groupId: string,
  now: number,
): Promise<MemberChange[]> {
  const g = groupData(groupId, group);
  return mapChunked(refs, async (chunk) => {
    const users = await ctx.store.getUsers(ctx.directory.id, chunk.map((r) => r.value));
    return users.flatMap((u, i) => {
      if (u === null) return [];
      const event = buildEvent(ctx.directory, type, membershipData(userData(u.id, u.body), g), undefined, now);
      const display = chunk[i]!.display;
      return [{ userId: u.id, userVersion: u.version, event, ...(display !== undefined && { display }) }];
    });
  });
}

const displaysOf = (refs: MemberRef[]) =>
  refs.flatMap((r) => (r.display === undefined ? [] : [{ userId: r.value, display: r.display }]));

/** Records the events a write committed (`applied[i]` for change i of `changes`, in order), for the callback. */
function recordCommitted(ctx: ScimContext, events: PendingEvent[], changes: MemberChange[][], applied: boolean[]): void {
  for (const e of events) ctx.committed.push(e);
  let i = 0;
  for (const list of changes) for (const change of list) if (applied[i++]) ctx.committed.push(change.event);
}

export async function createGroup(ctx: ScimContext, input: unknown): Promise<ScimResult> {
  const { body, members } = splitMembers(normalizeResource(input, 'Group'));
  const keys = groupKeys(body);
  const now = Date.now();
  const group: StoredResource = { id: newId(), body, created: now, lastModified: now, version: 1 };
  const created = buildEvent(ctx.directory, 'group.created', groupData(group.id, body), undefined, now);
  const adds = await memberChanges(ctx, 'group.user_added', members ?? [], body, group.id, now);
  const result = settle(
    await ctx.store.createGroup(ctx.directory.id, group, keys, adds, [created]),
    'Directory',
    duplicate(keys),
  );
  if (result === STALE) throw new Error('createGroup cannot be stale');
  recordCommitted(ctx, [created], [adds], result.applied);
  return groupResult(ctx, group, 201);
}

export async function getGroup(ctx: ScimContext, id: string, query: ScimQuery): Promise<ScimResult> {
  const group = await load(ctx, id);
  if (ctx.ifNoneMatch && ctx.ifNoneMatch.split(',').map((t) => t.trim()).includes(etagOf(group.version))) {
    return { status: 304, data: undefined, headers: { ETag: etagOf(group.version) } };
  }
  return groupResult(ctx, group, 200, query);
}

export async function listGroups(ctx: ScimContext, query: ScimQuery): Promise<ScimResult> {
  const { startIndex, count } = paging(query);
  const page = await search(ctx, 'Group', query.filter, startIndex, count);
  const withMembers = wantsMembers(query);
  const resources = await Promise.all(
    page.items.map(async (g) =>
      view(toScim(ctx.base, 'Group', g, withMembers ? { members: await renderMembers(ctx, g.id) } : {}), query, 'Group'),
    ),
  );
  return { status: 200, data: listResponse(page.total, startIndex, resources), headers: { 'Content-Type': SCIM_JSON } };
}

interface MembershipPlan {
  /** Full member list: replace semantics, checked against the version read. */
  target?: MemberRef[];
  add: MemberRef[];
  remove: string[];
}

/**
 * Writes a new body and/or membership delta. A `target` (full member list) means replace semantics and is
 * checked against the version read; plain add/remove deltas need no version unless the body changes too.
 */
async function commitGroup(
  ctx: ScimContext,
  current: StoredResource,
  next: ScimBody,
  plan: MembershipPlan,
): Promise<StoredResource | typeof STALE> {
  let { add, remove } = plan;
  if (plan.target) {
    const existing = await memberIdsOf(ctx, current.id);
    const desired = new Set(plan.target.map((r) => r.value));
    const have = new Set(existing);
    remove = existing.filter((id) => !desired.has(id));
    add = plan.target.filter((r) => !have.has(r.value));
  }
  const displays = plan.target ? displaysOf(plan.target) : [];
  const bodyChanged = !sameResource(current.body, next);
  if (!bodyChanged && add.length === 0 && remove.length === 0 && displays.length === 0) return current;
  const now = Date.now();
  const events: PendingEvent[] = [];
  if (bodyChanged) {
    const before = groupData(current.id, current.body);
    const after = groupData(current.id, next);
    events.push(buildEvent(ctx.directory, 'group.updated', after, previousAttributes(before, after), now));
  }
  const removes = await memberChanges(ctx, 'group.user_removed', remove.map((value) => ({ value })), next, current.id, now);
  const adds = await memberChanges(ctx, 'group.user_added', add, next, current.id, now);
  const result = settle(
    await ctx.store.updateGroup(ctx.directory.id, current.id, {
      ...(bodyChanged && { body: next, keys: groupKeys(next) }),
      // The version read is checked when the write depends on it: a new body, a full member list, or If-Match.
      // Otherwise only the body the membership events carry must be unchanged (concurrent member edits commute).
      ...(bodyChanged || plan.target || ctx.ifMatch
        ? { expectedVersion: current.version }
        : { expectedBody: JSON.stringify(current.body) }),
      add: adds,
      remove: removes,
      events,
      ...(displays.length > 0 && { displays }),
      now,
    }),
    `Group ${current.id}`,
    duplicate(groupKeys(next)),
  );
  if (result === STALE) return STALE;
  recordCommitted(ctx, events, [removes, adds], result.applied);
  return { ...current, body: next, version: result.version, lastModified: result.lastModified };
}

/** PUT replaces the body; it replaces the members too when `members` is present (absent = left as they are). */
export async function replaceGroup(ctx: ScimContext, id: string, input: unknown, query: ScimQuery): Promise<ScimResult> {
  const { body, members } = splitMembers(normalizeResource(input, 'Group'));
  const group = await retrying(async () => {
    const current = await load(ctx, id);
    checkIfMatch(ctx.ifMatch, current.version);
    return commitGroup(ctx, current, body, { ...(members && { target: members }), add: [], remove: [] });
  });
  return groupResult(ctx, group, 200, query);
}

function resolveDelta(delta: MemberDelta | undefined): MembershipPlan {
  if (!delta) return { add: [], remove: [] };
  if (delta.replace || delta.removeAll) {
    const removed = new Set(delta.remove);
    const target = uniqueRefs([...(delta.replace ?? []), ...delta.add]).filter((r) => !removed.has(r.value));
    return { target, add: [], remove: [] };
  }
  return { add: delta.add, remove: delta.remove };
}

/** PATCH answers 204 (Entra's preference, and no O(members) body) unless the client asks for attributes. */
export async function patchGroup(ctx: ScimContext, id: string, input: unknown, query: ScimQuery): Promise<ScimResult> {
  const group = await retrying(async () => {
    const current = await load(ctx, id);
    checkIfMatch(ctx.ifMatch, current.version);
    const patched = applyPatch({ ...current.body, id }, input, 'Group');
    const { id: _id, meta: _meta, ...rest } = patched.resource;
    const next = patched.changed ? splitMembers(normalizeResource(rest, 'Group')).body : current.body;
    return commitGroup(ctx, current, next, resolveDelta(patched.members));
  });
  if (query.attributes || query.excludedAttributes) return groupResult(ctx, group, 200, query);
  return { status: 204, data: undefined, headers: { ETag: etagOf(group.version) } };
}

export async function deleteGroup(ctx: ScimContext, id: string): Promise<ScimResult> {
  await retrying(async () => {
    const current = await load(ctx, id);
    checkIfMatch(ctx.ifMatch, current.version);
    const event = buildEvent(ctx.directory, 'group.deleted', groupData(id, current.body));
    const result = settle(await ctx.store.deleteGroup(ctx.directory.id, id, current.version, [event]), `Group ${id}`, '');
    if (result === STALE) return STALE;
    ctx.committed.push(event);
    return result;
  });
  return { status: 204, data: undefined };
}
