/**
 * The JSON of a user's event data, remembered per user for as long as its stored body is the same text. Every
 * membership event carries the whole user, and a user is added to many groups: an IdP pushing 2,000 groups of 25
 * reads, parses and serialises each user ten times for the same bytes. The answer is a pure function of the id
 * and the body's text, both compared on every hit, so a remembered entry is never stale, whichever directory or
 * replica wrote the user.
 *
 * Bounded by characters held, in two generations: entries go into the young one, and when it has used half the
 * budget the old one is dropped whole and the young one takes its place; a hit in the old one moves it back to
 * the young. That costs the same per call however full it is (an LRU on a Map pays for scanning the holes its
 * deletions leave). A directory bigger than the budget, pushed group by group, may find nothing it remembered:
 * keeping entries nobody reads again only feeds the garbage collector, so a generation that ends with less than
 * one hit in five calls makes it rest (look up, keep nothing new) for four generations' worth of calls.
 */
import { userDataJson } from './events.js';

/** Characters held (keys, bodies and data): about 16 MB at most, the data of some 10,000 Okta-shaped users. */
export const USER_DATA_BUDGET = 8_000_000;

const MIN_HIT_SHARE = 0.2;
const REST_GENERATIONS = 4;

interface Entry {
  bodyJson: string;
  dataJson: string;
}

export class UserDataJson {
  private young = new Map<string, Entry>();
  private old = new Map<string, Entry>();
  private youngHeld = 0;
  private oldHeld = 0;
  private calls = 0;
  private hits = 0;
  private resting = 0;

  constructor(private readonly budget = USER_DATA_BUDGET) {}

  /** `userDataJson(id, bodyJson)`, from memory when this body was seen lately. */
  of(id: string, bodyJson: string): string {
    this.calls++;
    const young = this.young.get(id);
    if (young !== undefined && young.bodyJson === bodyJson) {
      this.hits++;
      return young.dataJson;
    }
    const old = this.old.get(id);
    if (old !== undefined && old.bodyJson === bodyJson) {
      this.hits++;
      this.keep(id, old, young);
      return old.dataJson;
    }
    const entry = { bodyJson, dataJson: userDataJson(id, bodyJson) };
    if (this.resting > 0) this.resting--;
    else this.keep(id, entry, young);
    return entry.dataJson;
  }

  /** Characters held now, both generations (an entry in both is counted twice: it is held once). */
  get size(): number {
    return this.youngHeld + this.oldHeld;
  }

  private keep(id: string, entry: Entry, replaced: Entry | undefined): void {
    const added = size(id, entry);
    if (added > this.budget / 2) return;
    const held = this.youngHeld - (replaced === undefined ? 0 : size(id, replaced));
    // A replaced entry turning old with its generation stays counted there.
    if (held + added > this.budget / 2) this.turnOver();
    else this.youngHeld = held;
    this.young.set(id, entry);
    this.youngHeld += added;
  }

  /** The young generation becomes the old one; the cache rests if it was of little use. */
  private turnOver(): void {
    if (this.hits < this.calls * MIN_HIT_SHARE) this.resting = this.calls * REST_GENERATIONS;
    this.calls = 0;
    this.hits = 0;
    this.old = this.young;
    this.oldHeld = this.youngHeld;
    this.young = new Map();
    this.youngHeld = 0;
  }
}

const size = (id: string, e: Entry): number => id.length + e.bodyJson.length + e.dataJson.length;
