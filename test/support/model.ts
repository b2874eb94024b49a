/**
 * What the model-based tests of the pull syncs share: a seeded random source, a directory's state as the store
 * holds it and as its events replay, and the loop that runs sequences and names the seed of one that fails.
 * A model test applies random changes to a provider's fake, syncs one directory after each step, and checks at the
 * end that this directory holds what a fresh directory gets from one full sync of the same tenant, and that the
 * events it emitted along the way replay to that same state.
 */
import { expect } from 'chai';
import { attributesOf } from '../../src/core/attributes.js';
import type { Store } from '../../src/core/store-port.js';

/** A seeded source of randomness (mulberry32): the same seed gives the same sequence of changes. */
export class Rng {
  private s: number;
  constructor(readonly seed: number) {
    this.s = seed >>> 0;
  }
  /** [0, 1) */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : items[Math.floor(this.next() * items.length)];
  }
  /** A hex string of `n` digits. */
  hex(n: number): string {
    let out = '';
    while (out.length < n) out += this.int(0, 15).toString(16);
    return out;
  }
}

/** A possible change: its weight, and the change, which tells what it did, or undefined when it cannot apply now. */
export type Choice = [weight: number, apply: () => string | undefined];

/**
 * Draws one of `choices` by weight and applies it, drawing again (up to 20 times) while the one drawn cannot apply
 * (what exists decides what can happen); what it did goes to `log`.
 */
export function applyOne(rng: Rng, log: string[], choices: readonly Choice[]): void {
  const total = choices.reduce((s, [w]) => s + w, 0);
  for (let attempt = 0; attempt < 20; attempt++) {
    let r = rng.next() * total;
    const [, apply] = choices.find(([w]) => (r -= w) < 0) ?? choices[0]!;
    const said = apply();
    if (said) return void log.push(said);
  }
}

/**
 * A directory's users (their bodies and predefined attributes) and groups (body and member ids), by id: what a
 * receiver should hold.
 */
export interface DirectoryState {
  users: Record<string, unknown>;
  groups: Record<string, { body: unknown; members: string[] }>;
}

/** What the store holds for the directory. */
export async function storeState(store: Store, directoryId: string): Promise<DirectoryState> {
  const state: DirectoryState = { users: {}, groups: {} };
  for (let offset = 0; ; offset += 1000) {
    const page = await store.listUsers(directoryId, offset, 1000);
    for (const u of page.items) state.users[u.id] = { body: u.body, attributes: attributesOf(u.body, u.managerEmail) };
    if (page.items.length < 1000) break;
  }
  for (let offset = 0; ; offset += 1000) {
    const page = await store.listGroups(directoryId, offset, 1000);
    for (const g of page.items) {
      const members = await store.groupMemberIds(directoryId, g.id, 0, 100_000);
      state.groups[g.id] = { body: g.body, members: [...members.items].sort() };
    }
    if (page.items.length < 1000) break;
  }
  return sorted(state);
}

/** Every event of the directory, in order. */
export async function allEvents(store: Store, directoryId: string): Promise<Array<{ event: string; data: any }>> {
  const events = [];
  for (let after: string | null = null; ; ) {
    const page = await store.readEvents(directoryId, after, 1000);
    if (page.length === 0) return events;
    events.push(...page.map((e) => JSON.parse(e.json)));
    after = page.at(-1)!.seq;
  }
}

/**
 * What a receiver holds after applying `events` in order, as a receiver would: a user's or group's `raw` is its
 * body (without the `id` the event adds), memberships from `group.user_added`/`removed`; a deleted group takes its
 * memberships with it. A membership of a user or group the receiver does not hold is a fault of the events.
 */
export function replayState(events: ReadonlyArray<{ event: string; data: any }>): DirectoryState {
  const users = new Map<string, unknown>();
  const groups = new Map<string, { body: unknown; members: Set<string> }>();
  const body = (raw: Record<string, unknown>) => {
    const { id: _id, ...rest } = raw;
    return rest;
  };
  for (const [k, e] of events.entries()) {
    const where = `event ${k} (${e.event} ${e.data?.id})`;
    switch (e.event) {
      case 'user.created':
      case 'user.updated':
        users.set(e.data.id, { body: body(e.data.raw), attributes: e.data.attributes });
        break;
      case 'user.deleted':
        expect(users.has(e.data.id), `${where}: a user the events never created`).to.equal(true);
        users.delete(e.data.id);
        break;
      case 'group.created':
      case 'group.updated':
        groups.set(e.data.id, { body: body(e.data.raw), members: groups.get(e.data.id)?.members ?? new Set() });
        break;
      case 'group.deleted':
        groups.delete(e.data.id);
        break;
      case 'group.user_added':
      case 'group.user_removed': {
        const group = groups.get(e.data.group.id);
        expect(group, `${where}: a membership of a group the events never created`).to.not.equal(undefined);
        expect(users.has(e.data.id), `${where}: a membership of a user the events never created (or deleted)`).to.equal(
          true,
        );
        if (e.event === 'group.user_added') group!.members.add(e.data.id);
        else group!.members.delete(e.data.id);
        break;
      }
      default:
        throw new Error(`${where}: an event type the replay does not know`);
    }
  }
  const state: DirectoryState = { users: Object.fromEntries(users), groups: {} };
  for (const [id, g] of groups) state.groups[id] = { body: g.body, members: [...g.members].sort() };
  return sorted(state);
}

function sorted(state: DirectoryState): DirectoryState {
  return {
    users: Object.fromEntries(Object.entries(state.users).sort(([a], [b]) => a.localeCompare(b))),
    groups: Object.fromEntries(Object.entries(state.groups).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** The seed of a run: DSYNC_MODEL_SEED to replay one, a new one otherwise. */
export function modelSeed(): number {
  const given = process.env.DSYNC_MODEL_SEED;
  return given ? Number(given) : Math.floor(Math.random() * 2 ** 31);
}

/** How many sequences a run makes: DSYNC_MODEL_SEQUENCES, or the default. */
export function modelSequences(fallback: number): number {
  return Number(process.env.DSYNC_MODEL_SEQUENCES ?? fallback);
}

/**
 * Runs `count` sequences, the i-th with the seed `seed + i`; a failing one is reported with its seed and the
 * changes it made (`log`), and how to run it alone. It prints how many ran, and how fast.
 */
export async function runSequences(
  name: string,
  { seed, count }: { seed: number; count: number },
  sequence: (rng: Rng, log: string[]) => Promise<void>,
): Promise<void> {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const log: string[] = [];
    const rng = new Rng(seed + i);
    try {
      await sequence(rng, log);
    } catch (err) {
      const e = err as Error;
      e.message =
        `${name}: sequence ${i} of seed ${seed} failed (run it alone: DSYNC_MODEL_SEED=${seed + i} DSYNC_MODEL_SEQUENCES=1)\n` +
        `changes:\n  ${log.join('\n  ')}\n${e.message}`;
      throw e;
    }
  }
  const ms = performance.now() - started;
  console.log(
    `      ${name}: ${count} sequences from seed ${seed} in ${(ms / 1000).toFixed(1)} s (${((count * 1000) / ms).toFixed(1)} sequences/s)`,
  );
}
