/**
 * Group memberships as the store keeps them: a set of user ids per group (never inside the group body), changed
 * by add/remove deltas. Big lists (an "all employees" group of 200,000) are read and turned into events a chunk
 * at a time (core/chunks.ts), and every step is linear in the number of members.
 */
import { CHUNK_SIZE, chunksOf, forEachChunked, Slicer, yieldToLoop } from './chunks.js';
import { groupData, MembershipEvents, userDataJson } from './events.js';
import type { Directory, PendingEvent, ScimBody, StoreBuiltEvent } from './model.js';
import { PackedStrings } from './packed-strings.js';
import type { GroupStore, MemberChange, UserStore } from './store-port.js';
import { UserDataCache } from './user-data-cache.js';

/** A member as a writer names it: the user id and, optionally, the display the client sent. */
export interface MemberRef {
  value: string;
  display?: string;
}

const PAGE = 1000;

/** One ref per member id; the last display given wins. In time slices (a list may hold 100,000). */
export async function uniqueRefs(refs: readonly MemberRef[]): Promise<MemberRef[]> {
  const byId = new Map<string, MemberRef>();
  await forEachChunked(refs, (ref) => {
    const seen = byId.get(ref.value);
    byId.set(ref.value, seen ? { ...seen, ...ref } : ref);
  });
  return [...byId.values()];
}

/** Every member id of a group, in the order added, read page by page. */
export async function memberIdsOf(
  store: Pick<GroupStore, 'groupMemberIds'>,
  directoryId: string,
  groupId: string,
): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += PAGE) {
    // The memory store answers without I/O: without a turn here, 200 pages would be one long block.
    if (offset > 0) await yieldToLoop();
    const page = await store.groupMemberIds(directoryId, groupId, offset, PAGE);
    for (const id of page.items) ids.push(id);
    if (page.items.length < PAGE) return ids;
  }
}

/** A membership event whose JSON sits in its chunk's packed block until the store reads it to append it. */
class PackedEvent implements PendingEvent {
  constructor(
    readonly id: string,
    private readonly block: PackedStrings,
    private readonly index: number,
  ) {}

  get json(): string {
    return this.block.at(this.index);
  }
}

/** Users' event data as JSON, shared by the small changes of every directory (core/user-data-cache.ts). */
const usersData = new UserDataCache();

/**
 * One candidate membership event per user that exists; users unknown to the directory are skipped. Users are
 * read a chunk at a time, their bodies as stored JSON, and events built in time slices (building 200,000 events
 * takes seconds of CPU). A change of one chunk (a PATCH of a few members) takes each user's data JSON from
 * `usersData`, which remembers it while the stored body is the same; a bigger change would only churn it, and
 * keeps each chunk's JSON packed outside the heap instead (core/packed-strings.ts): a 200,000-member change holds
 * all its event JSON until the store has appended it, and as live strings that made the event loop's longest
 * pauses (docs/design/performance.md, "A 200,000-member group").
 */
export async function memberChanges(
  store: Pick<UserStore, 'getUsersJson'>,
  directory: Directory,
  type: 'group.user_added' | 'group.user_removed',
  refs: readonly MemberRef[],
  group: { id: string; body: ScimBody },
  now: number,
): Promise<Array<MemberChange<PendingEvent>>> {
  if (refs.length === 0) return [];
  const events = new MembershipEvents(directory, type, now);
  const groupJson = JSON.stringify(groupData(group.id, group.body));
  const pack = refs.length > CHUNK_SIZE;
  const out: Array<MemberChange<PendingEvent>> = [];
  const slicer = new Slicer();
  for (const chunk of chunksOf(refs)) {
    const users = await store.getUsersJson(
      directory.id,
      chunk.map((r) => r.value),
    );
    const built: Array<MemberChange<PendingEvent>> = [];
    for (let i = 0; i < users.length; i++) {
      if (slicer.spent()) await slicer.yield();
      const u = users[i];
      if (!u) continue;
      const display = chunk[i]!.display;
      const userJson = pack
        ? userDataJson(u.id, u.bodyJson, u.managerEmail, u.roles, u.customAttributes)
        : usersData.of(u.id, u.bodyJson, u.managerEmail, u.roles, u.customAttributes);
      built.push({
        userId: u.id,
        userVersion: u.version,
        ...(display !== undefined && { display }),
        event: events.of(userJson, groupJson),
      });
    }
    if (pack) {
      const block = new PackedStrings(built.map((c) => c.event.json));
      built.forEach((c, j) => out.push({ ...c, event: new PackedEvent(c.event.id, block, j) }));
    } else for (const c of built) out.push(c);
  }
  return out;
}

/**
 * The same changes for a store that builds their events from the users it holds (`buildsMembershipEvents`): no
 * user is read here, and one that does not exist is skipped by the store. For up to a chunk of members.
 */
export function storeBuiltChanges(
  directory: Directory,
  type: 'group.user_added' | 'group.user_removed',
  refs: readonly MemberRef[],
  group: { id: string; body: ScimBody },
  now: number,
): Array<MemberChange<StoreBuiltEvent>> {
  if (refs.length === 0) return [];
  const events = new MembershipEvents(directory, type, now);
  const template = { middle: events.middle, groupJson: JSON.stringify(groupData(group.id, group.body)) };
  return refs.map((r) => {
    // Assigned, not spread: a conditional spread is a copy per member (see object-literals.bench.ts).
    const change: MemberChange<StoreBuiltEvent> = { userId: r.value, event: events.inStore(template) };
    if (r.display !== undefined) change.display = r.display;
    return change;
  });
}

export function displaysOf(refs: readonly MemberRef[]): Array<{ userId: string; display: string }> {
  const out: Array<{ userId: string; display: string }> = [];
  for (const r of refs) if (r.display !== undefined) out.push({ userId: r.value, display: r.display });
  return out;
}

/**
 * What a full member list means against the current members: the removals and additions, in linear time and
 * in time slices (a group may hold 200,000).
 */
export async function diffMembers(
  existing: readonly string[],
  target: readonly MemberRef[],
): Promise<{ add: MemberRef[]; remove: string[] }> {
  const slicer = new Slicer();
  const desired = new Set<string>();
  await forEachChunked(target, (r) => desired.add(r.value), slicer);
  const have = new Set<string>();
  await forEachChunked(existing, (id) => have.add(id), slicer);
  const remove: string[] = [];
  await forEachChunked(
    existing,
    (id) => {
      if (!desired.has(id)) remove.push(id);
    },
    slicer,
  );
  const add: MemberRef[] = [];
  await forEachChunked(
    target,
    (r) => {
      if (!have.has(r.value)) add.push(r);
    },
    slicer,
  );
  return { add, remove };
}
