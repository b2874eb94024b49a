/**
 * What the HRIS model-based test compares: a directory's stored state (users' event data, groups with their
 * members), and the same state rebuilt by replaying its events in order; and random HR changes on a fake.
 */
import type { Store } from '../../src/core/store-port.js';
import type { HrFake } from './hr-fakes.js';

export interface State {
  users: Record<string, { email: string; first_name: string | null; last_name: string | null; active: boolean }>;
  groups: Record<string, { name: string; members: string[] }>;
}

const userOf = (d: any) => ({
  email: d.email,
  first_name: d.first_name ?? null,
  last_name: d.last_name ?? null,
  active: d.active,
});

/** A directory's state as stored, keyed by id (member lists sorted). */
export async function storedState(store: Store, directoryId: string): Promise<State> {
  const state: State = { users: {}, groups: {} };
  for (let offset = 0; ; offset += 1000) {
    const page = await store.listUsers(directoryId, offset, 1000);
    for (const u of page.items) {
      const b = u.body as any;
      state.users[u.id] = {
        email: b.emails?.[0]?.value ?? b.userName,
        first_name: b.name?.givenName ?? null,
        last_name: b.name?.familyName ?? null,
        active: b.active !== false,
      };
    }
    if (page.items.length < 1000) break;
  }
  for (let offset = 0; ; offset += 1000) {
    const page = await store.listGroups(directoryId, offset, 1000);
    for (const g of page.items) {
      const members = (await store.groupMemberIds(directoryId, g.id, 0, 100_000)).items;
      state.groups[g.id] = { name: String((g.body as any).displayName), members: [...members].sort() };
    }
    if (page.items.length < 1000) break;
  }
  return state;
}

/** The state a receiver of the events builds, replaying them in order. */
export function replay(events: any[]): State {
  const users: State['users'] = {};
  const groups: Record<string, { name: string; members: Set<string> }> = {};
  for (const e of events) {
    const d = e.data;
    switch (e.event) {
      case 'user.created':
      case 'user.updated':
        users[d.id] = userOf(d);
        break;
      case 'user.deleted':
        delete users[d.id];
        for (const g of Object.values(groups)) g.members.delete(d.id);
        break;
      case 'group.created':
      case 'group.updated':
        groups[d.id] = { name: d.name, members: groups[d.id]?.members ?? new Set() };
        break;
      case 'group.deleted':
        delete groups[d.id];
        break;
      case 'group.user_added':
        groups[d.group.id]!.members.add(d.id);
        users[d.id] = userOf(d);
        break;
      case 'group.user_removed':
        groups[d.group.id]?.members.delete(d.id);
        break;
    }
  }
  return {
    users,
    groups: Object.fromEntries(
      Object.entries(groups).map(([id, g]) => [id, { name: g.name, members: [...g.members].sort() }]),
    ),
  };
}

const DEPARTMENTS = ['Engineering', 'Sales', 'Support', 'Finance', 'Legal'];

/**
 * One random HR change on the fake (never more than one departure: the guard is not what is tested here); what it did.
 */
export function randomChange(f: HrFake, random: () => number, n: number): string {
  const ids = f.ids();
  const pick = () => ids[Math.floor(random() * ids.length)]!;
  const dept = () => (random() < 0.1 ? null : DEPARTMENTS[Math.floor(random() * DEPARTMENTS.length)]!);
  const r = random();
  if (r < 0.2 || ids.length < 5) return `hire ${f.hire({ department: dept() }).id}`;
  const id = pick();
  if (r < 0.35) return (f.rename(id, `Renamed${n}`), `rename ${id}`);
  if (r < 0.55) return (f.move(id, dept()), `move ${id}`);
  if (r < 0.65) return (f.terminate(id), `terminate ${id}`);
  if (r < 0.75) return (f.rehire(id), `rehire ${id}`);
  if (r < 0.83) return (f.setEmail(id, random() < 0.5 ? null : `changed${n}@acme.example`), `email ${id}`);
  return (f.remove(id), `remove ${id}`);
}
