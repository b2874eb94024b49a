/** Builds directory-sync events (DESIGN.md §4) from stored resources. Pure functions. */
import { newEventId } from './ids.js';
import { sameJson } from './json.js';
import type {
  Directory,
  DirectorySyncEvent,
  EventDataOf,
  EventType,
  GroupEventData,
  MembershipEventData,
  PendingEvent,
  ScimBody,
  UserEventData,
} from './model.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function primaryEmail(body: ScimBody): string | undefined {
  const emails = Array.isArray(body.emails) ? (body.emails as Array<Record<string, unknown>>) : [];
  const primary = emails.find((e) => e && e.primary === true) ?? emails[0];
  return str(primary?.value) ?? (str(body.userName)?.includes('@') ? str(body.userName) : undefined);
}

export function userData(id: string, body: ScimBody): UserEventData {
  const name = (body.name ?? {}) as Record<string, unknown>;
  const first = str(name.givenName);
  const last = str(name.familyName);
  const email = primaryEmail(body);
  return {
    id,
    ...(first !== undefined && { first_name: first }),
    ...(last !== undefined && { last_name: last }),
    ...(email !== undefined && { email }),
    active: body.active !== false,
    raw: { ...body, id },
  };
}

/** Group data carries the group without its members: membership travels as group.user_added/removed events. */
export function groupData(id: string, body: ScimBody): GroupEventData {
  return { id, name: str(body.displayName) ?? '', raw: { ...body, id } };
}

export function membershipData(user: UserEventData, group: GroupEventData): MembershipEventData {
  return { ...user, group };
}

/**
 * WorkOS-style `previous_attributes`: the top-level data fields that changed, with their old values; for
 * `raw`, only the changed raw attributes (absent before = null).
 */
export function previousAttributes(before: object, after: object): Record<string, unknown> | undefined {
  const prev: Record<string, unknown> = {};
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (key === 'raw') continue;
    if (!sameJson(b[key], a[key])) prev[key] = b[key] ?? null;
  }
  const rawBefore = (b.raw ?? {}) as Record<string, unknown>;
  const rawAfter = (a.raw ?? {}) as Record<string, unknown>;
  const raw: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(rawBefore), ...Object.keys(rawAfter)])) {
    if (!sameJson(rawBefore[key], rawAfter[key])) raw[key] = rawBefore[key] ?? null;
  }
  if (Object.keys(raw).length > 0) prev.raw = raw;
  return Object.keys(prev).length > 0 ? prev : undefined;
}

export function buildEvent<T extends EventType>(
  directory: Pick<Directory, 'id' | 'tenant' | 'product'>,
  event: T,
  data: EventDataOf<T>,
  previous?: Record<string, unknown>,
  now = Date.now(),
): PendingEvent {
  const e: { event: T; data: EventDataOf<T>; previous_attributes?: Record<string, unknown> } & Omit<DirectorySyncEvent, 'event' | 'data'> = {
    id: newEventId(now),
    event,
    created_at: new Date(now).toISOString(),
    directory_id: directory.id,
    tenant: directory.tenant,
    product: directory.product,
    data,
  };
  if (previous) e.previous_attributes = previous;
  return { id: e.id, json: JSON.stringify(e) };
}
