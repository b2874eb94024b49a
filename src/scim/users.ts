/** SCIM /Users (RFC 7644 §3): protocol work around core's user use cases (core/users.ts). */
import type { ScimBody, StoredResource } from '../core/model.js';
import { SCIM_JSON, type ScimContext, type ScimQuery, type ScimResult } from './context.js';
import { readNamed, writeOptions } from './write-options.js';
import { normalizeResource } from './normalize.js';
import { applyPatch } from './patch.js';
import { conditionalGet, etagOf, listResponse, locationOf, paging, toScim, viewer } from './render.js';
import { search } from './search.js';

export function userResult(ctx: ScimContext, user: StoredResource, status: number, query: ScimQuery = {}): ScimResult {
  const headers: Record<string, string> = { 'Content-Type': SCIM_JSON, ETag: etagOf(user.version) };
  if (status === 201) headers.Location = locationOf(ctx.base, 'User', user.id);
  return { status, data: viewer(query, 'User')(toScim(ctx.base, 'User', user)), headers };
}

export async function createUser(ctx: ScimContext, input: unknown): Promise<ScimResult> {
  const user = await ctx.users.create(ctx.directory, normalizeResource(input, 'User'), writeOptions(ctx));
  return userResult(ctx, user, 201);
}

export async function getUser(ctx: ScimContext, id: string, query: ScimQuery): Promise<ScimResult> {
  const found = await readNamed(ctx, { kind: 'user', id }, () => ctx.reads.getUser(ctx.directory.id, id));
  return conditionalGet(ctx.ifNoneMatch, found, `User ${id}`, (user) => userResult(ctx, user, 200, query));
}

export async function listUsers(ctx: ScimContext, query: ScimQuery): Promise<ScimResult> {
  const { startIndex, count } = paging(query);
  const page = await search(ctx, 'User', query.filter, startIndex, count);
  const show = viewer(query, 'User');
  const resources = page.items.map((u) => show(toScim(ctx.base, 'User', u)));
  return { status: 200, data: listResponse(page.total, startIndex, resources), headers: { 'Content-Type': SCIM_JSON } };
}

export async function replaceUser(ctx: ScimContext, id: string, input: unknown, query: ScimQuery): Promise<ScimResult> {
  const body = normalizeResource(input, 'User');
  const user = await ctx.users.update(ctx.directory, id, () => body, writeOptions(ctx, { kind: 'user', id }));
  return userResult(ctx, user, 200, query);
}

export async function patchUser(ctx: ScimContext, id: string, input: unknown, query: ScimQuery): Promise<ScimResult> {
  const patch = (current: StoredResource): ScimBody | undefined => {
    // The stored body as it is (the patch works on its own copy); normalising drops any read-only id or meta.
    const patched = applyPatch(current.body, input, 'User', id);
    return patched.changed ? normalizeResource(patched.resource, 'User') : undefined;
  };
  const user = await ctx.users.update(ctx.directory, id, patch, writeOptions(ctx, { kind: 'user', id }));
  return userResult(ctx, user, 200, query);
}

export async function deleteUser(ctx: ScimContext, id: string): Promise<ScimResult> {
  await ctx.users.delete(ctx.directory, id, writeOptions(ctx, { kind: 'user', id }));
  return { status: 204, data: undefined };
}
