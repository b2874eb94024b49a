/**
 * SCIM /Groups: protocol work around core's group use cases (core/groups.ts). `members` is split off the body
 * (the store keeps a membership set) and PATCH member operations become add/remove deltas.
 */
import { mapChunked } from '../core/chunks.js';
import type { GroupChange } from '../core/groups.js';
import { memberIdsOf, type MemberRef } from '../core/memberships.js';
import type { ScimBody, StoredResource } from '../core/model.js';
import { SCIM_JSON, type ScimContext, type ScimQuery, type ScimResult } from './context.js';
import { readNamed, writeOptions } from './write-options.js';
import { withSlicedMemberOperations, withSlicedMembers } from './member-lists.js';
import type { MemberDelta } from './members.js';
import { normalizeResource } from './normalize.js';
import { applyPatch } from './patch.js';
import { conditionalGet, etagOf, listResponse, locationOf, paging, toScim, viewer } from './render.js';
import { search } from './search.js';

/**
 * Splits `members` off a normalised body: the body is stored, the members (unique already: normalisation keeps
 * the first of each id) become a membership set.
 */
function splitMembers(body: ScimBody): { body: ScimBody; members: MemberRef[] | undefined } {
  const { members, ...rest } = body;
  return { body: rest, members: members as MemberRef[] | undefined };
}

const wantsMembers = (query: ScimQuery): boolean => {
  const has = (list?: string) => (list ?? '').split(',').some((a) => /(^|:)members(\.|$)/i.test(a.trim()));
  return !has(query.excludedAttributes) && (!query.attributes || has(query.attributes));
};

/** Members as SCIM renders them: `display` is what the client sent, else the user's displayName or userName. */
async function renderMembers(ctx: ScimContext, groupId: string) {
  const ids = await memberIdsOf(ctx.reads, ctx.directory.id, groupId);
  return mapChunked(ids, async (chunk) => {
    const [users, displays] = await Promise.all([
      ctx.reads.getUsers(ctx.directory.id, chunk),
      ctx.reads.memberDisplays(ctx.directory.id, groupId, chunk),
    ]);
    const members = [];
    for (const [i, u] of users.entries()) {
      if (u === null) continue;
      members.push({
        value: u.id,
        display: displays[i] ?? String(u.body.displayName ?? u.body.userName),
        $ref: locationOf(ctx.base, 'User', u.id),
        type: 'User',
      });
    }
    return members;
  });
}

/** `members`: the rendered members when known without a read. */
async function groupResult(
  ctx: ScimContext,
  group: StoredResource,
  status: number,
  query: ScimQuery = {},
  members?: unknown[],
): Promise<ScimResult> {
  const headers: Record<string, string> = { 'Content-Type': SCIM_JSON, ETag: etagOf(group.version) };
  if (status === 201) headers.Location = locationOf(ctx.base, 'Group', group.id);
  const extra = wantsMembers(query) ? { members: members ?? (await renderMembers(ctx, group.id)) } : {};
  return { status, data: viewer(query, 'Group')(toScim(ctx.base, 'Group', group, extra)), headers };
}

export async function createGroup(ctx: ScimContext, input: unknown): Promise<ScimResult> {
  const { body, members } = splitMembers(normalizeResource(await withSlicedMembers(input), 'Group'));
  const group = await ctx.groups.create(ctx.directory, body, members ?? [], writeOptions(ctx));
  // Created without members, a group has none to read back (its id was unknown until this write): no round trips.
  return groupResult(ctx, group, 201, {}, members && members.length > 0 ? undefined : []);
}

export async function getGroup(ctx: ScimContext, id: string, query: ScimQuery): Promise<ScimResult> {
  const found = await readNamed(ctx, { kind: 'group', id }, () => ctx.reads.getGroup(ctx.directory.id, id));
  return conditionalGet(ctx.ifNoneMatch, found, `Group ${id}`, (group) => groupResult(ctx, group, 200, query));
}

export async function listGroups(ctx: ScimContext, query: ScimQuery): Promise<ScimResult> {
  const { startIndex, count } = paging(query);
  const page = await search(ctx, 'Group', query.filter, startIndex, count);
  const withMembers = wantsMembers(query);
  const show = viewer(query, 'Group');
  const resources = await Promise.all(
    page.items.map(async (g) =>
      show(toScim(ctx.base, 'Group', g, withMembers ? { members: await renderMembers(ctx, g.id) } : {})),
    ),
  );
  return { status: 200, data: listResponse(page.total, startIndex, resources), headers: { 'Content-Type': SCIM_JSON } };
}

/** PUT replaces the body; it replaces the members too when `members` is present (absent = left as they are). */
export async function replaceGroup(
  ctx: ScimContext,
  id: string,
  input: unknown,
  query: ScimQuery,
): Promise<ScimResult> {
  const { body, members } = splitMembers(normalizeResource(await withSlicedMembers(input), 'Group'));
  const group = await ctx.groups.update(
    ctx.directory,
    id,
    () => ({ body, ...(members && { target: members }) }),
    writeOptions(ctx, { kind: 'group', id }),
  );
  return groupResult(ctx, group, 200, query);
}

/**
 * A PATCH's net member delta as a core change: a replace or remove-all becomes the full member list (the
 * builder has folded later additions into `replace`, or into `add` after a remove-all, and removals out).
 */
function resolveDelta(delta: MemberDelta | undefined): GroupChange {
  if (!delta) return {};
  if (delta.replace || delta.removeAll) return { target: delta.replace ?? delta.add };
  return { add: delta.add, remove: delta.remove };
}

/** PATCH answers 204 (Entra's preference, and no O(members) body) unless the client asks for attributes. */
export async function patchGroup(ctx: ScimContext, id: string, input: unknown, query: ScimQuery): Promise<ScimResult> {
  const operations = await withSlicedMemberOperations(input);
  const patch = (current: StoredResource): GroupChange => {
    const patched = applyPatch(current.body, operations, 'Group', id);
    const change = resolveDelta(patched.members);
    if (patched.changed) change.body = splitMembers(normalizeResource(patched.resource, 'Group')).body;
    return change;
  };
  const group = await ctx.groups.update(ctx.directory, id, patch, writeOptions(ctx, { kind: 'group', id }));
  if (query.attributes || query.excludedAttributes) return groupResult(ctx, group, 200, query);
  return { status: 204, data: undefined, headers: { ETag: etagOf(group.version) } };
}

export async function deleteGroup(ctx: ScimContext, id: string): Promise<ScimResult> {
  await ctx.groups.delete(ctx.directory, id, writeOptions(ctx, { kind: 'group', id }));
  return { status: 204, data: undefined };
}
