/** SCIM /Users (RFC 7644 §3): create, read, list, replace, patch, delete; each write commits its event. */
import { buildEvent, groupData, membershipData, previousAttributes, userData } from '../core/events.js';
import { newId } from '../core/ids.js';
import { sameResource } from '../core/json.js';
import type { ScimBody, StoredResource, UserKeys } from '../core/model.js';
import { retrying, settle, STALE } from './commit.js';
import type { ScimContext, ScimQuery, ScimResult } from './context.js';
import { ScimError } from './errors.js';
import { assertPrintable, normalizeResource } from './normalize.js';
import { applyPatch } from './patch.js';
import { checkIfMatch, etagOf, listResponse, locationOf, paging, toScim, view } from './render.js';
import { search } from './search.js';

const SCIM_JSON = 'application/scim+json';

export function userKeys(body: ScimBody): UserKeys {
  const emails = Array.isArray(body.emails) ? (body.emails as Array<{ value?: unknown }>) : [];
  const keys: UserKeys = {
    userName: String(body.userName),
    ...(typeof body.externalId === 'string' && body.externalId !== '' && { externalId: body.externalId }),
    emails: [...new Set(emails.map((e) => e?.value).filter((v): v is string => typeof v === 'string' && v !== ''))],
  };
  assertPrintable({ userName: keys.userName, externalId: keys.externalId, 'emails.value': keys.emails.join('') });
  return keys;
}

const withoutId = (resource: Record<string, unknown>): ScimBody => {
  const { id: _id, meta: _meta, ...body } = resource;
  return body;
};

export function userResult(ctx: ScimContext, user: StoredResource, status: number, query: ScimQuery = {}): ScimResult {
  const headers: Record<string, string> = { 'Content-Type': SCIM_JSON, ETag: etagOf(user.version) };
  if (status === 201) headers.Location = locationOf(ctx.base, 'User', user.id);
  return { status, data: view(toScim(ctx.base, 'User', user), query, 'User'), headers };
}

async function load(ctx: ScimContext, id: string): Promise<StoredResource> {
  const user = await ctx.store.getUser(ctx.directory.id, id);
  if (!user) throw ScimError.notFound(`User ${id} not found`);
  return user;
}

const duplicate = (keys: UserKeys): string => `User with userName "${keys.userName}" already exists in this directory`;

export async function createUser(ctx: ScimContext, input: unknown): Promise<ScimResult> {
  const body = normalizeResource(input, 'User');
  const keys = userKeys(body);
  const now = Date.now();
  const user: StoredResource = { id: newId(), body, created: now, lastModified: now, version: 1 };
  const event = buildEvent(ctx.directory, 'user.created', userData(user.id, body), undefined, now);
  const result = settle(await ctx.store.createUser(ctx.directory.id, user, keys, [event]), 'Directory', duplicate(keys));
  if (result === STALE) throw new Error('createUser cannot be stale');
  ctx.committed.push(event);
  return userResult(ctx, user, 201);
}

export async function getUser(ctx: ScimContext, id: string, query: ScimQuery): Promise<ScimResult> {
  const user = await load(ctx, id);
  if (ctx.ifNoneMatch && ctx.ifNoneMatch.split(',').map((t) => t.trim()).includes(etagOf(user.version))) {
    return { status: 304, data: undefined, headers: { ETag: etagOf(user.version) } };
  }
  return userResult(ctx, user, 200, query);
}

export async function listUsers(ctx: ScimContext, query: ScimQuery): Promise<ScimResult> {
  const { startIndex, count } = paging(query);
  const page = await search(ctx, 'User', query.filter, startIndex, count);
  const resources = page.items.map((u) => view(toScim(ctx.base, 'User', u), query, 'User'));
  return { status: 200, data: listResponse(page.total, startIndex, resources), headers: { 'Content-Type': SCIM_JSON } };
}

/** Commits `next` over `current` unless nothing changed; returns the stored user after the write. */
async function commitUpdate(ctx: ScimContext, current: StoredResource, next: ScimBody): Promise<StoredResource | typeof STALE> {
  if (sameResource(current.body, next)) return current;
  const keys = userKeys(next);
  const now = Date.now();
  const before = userData(current.id, current.body);
  const after = userData(current.id, next);
  const event = buildEvent(ctx.directory, 'user.updated', after, previousAttributes(before, after), now);
  const result = settle(
    await ctx.store.updateUser(ctx.directory.id, current.id, current.version, next, keys, [event], now),
    `User ${current.id}`,
    duplicate(keys),
  );
  if (result === STALE) return STALE;
  ctx.committed.push(event);
  return { ...current, body: next, version: result.version, lastModified: result.lastModified };
}

export async function replaceUser(ctx: ScimContext, id: string, input: unknown, query: ScimQuery): Promise<ScimResult> {
  const body = normalizeResource(input, 'User');
  const user = await retrying(async () => {
    const current = await load(ctx, id);
    checkIfMatch(ctx.ifMatch, current.version);
    return commitUpdate(ctx, current, body);
  });
  return userResult(ctx, user, 200, query);
}

export async function patchUser(ctx: ScimContext, id: string, input: unknown, query: ScimQuery): Promise<ScimResult> {
  const user = await retrying(async () => {
    const current = await load(ctx, id);
    checkIfMatch(ctx.ifMatch, current.version);
    const patched = applyPatch({ ...current.body, id }, input, 'User');
    if (!patched.changed) return current;
    return commitUpdate(ctx, current, normalizeResource(withoutId(patched.resource), 'User'));
  });
  return userResult(ctx, user, 200, query);
}

export async function deleteUser(ctx: ScimContext, id: string): Promise<ScimResult> {
  const dir = ctx.directory.id;
  await retrying(async () => {
    const current = await load(ctx, id);
    checkIfMatch(ctx.ifMatch, current.version);
    const groupIds = await ctx.store.userGroupIds(dir, id);
    const groups = (await ctx.store.getGroups(dir, groupIds)).filter((g): g is StoredResource => g !== null);
    if (groups.length !== groupIds.length) return STALE;
    const now = Date.now();
    const user = userData(id, current.body);
    const events = [
      ...groups.map((g) =>
        buildEvent(ctx.directory, 'group.user_removed', membershipData(user, groupData(g.id, g.body)), undefined, now),
      ),
      buildEvent(ctx.directory, 'user.deleted', user, undefined, now),
    ];
    const result = settle(
      await ctx.store.deleteUser(dir, id, current.version, groups.map((g) => ({ id: g.id, version: g.version })), events, now),
      `User ${id}`,
      '',
    );
    if (result === STALE) return STALE;
    for (const e of events) ctx.committed.push(e);
    return result;
  });
  return { status: 204, data: undefined };
}
