/**
 * The JSON of a user's event data, remembered per user for as long as its stored body is the same text (and its
 * manager's email the same). Every
 * membership event carries the whole user, and a user is added to many groups: an IdP pushing 2,000 groups of 25
 * reads, parses and serialises each user ten times for the same bytes. The answer is a pure function of the id
 * and the body's text, both compared on every hit, so a remembered entry is never stale, whichever directory or
 * replica wrote the user.
 *
 * Bounded by characters held, in two generations: entries go into the young one, and when it has used half the
 * budget the old one is dropped whole and the young one takes its place; a hit in the old one moves it back to
 * the young. That costs the same per call however full it is (an LRU on a Map pays for scanning the holes its
 * deletions leave). A directory bigger than the budget, pushed group by group, may find little it remembered;
 * its misses still cost less than building without it (`userDataJson` does not serialise the body again). No
 * rule stops it keeping entries when hits are few: every new directory and every first push starts with
 * nothing but misses, and such a rule would stop it just before it pays.
 */
import { sameCustomAttributes } from './custom-attributes.js';
import { userDataJson } from './events.js';
import type { CustomAttributes } from './model.js';
import { sameRoles } from './roles.js';

/** Characters held (keys, bodies and data): about 16 MB at most, the data of some 10,000 Okta-shaped users. */
export const USER_DATA_BUDGET = 8_000_000;

interface Entry {
  bodyJson: string;
  managerEmail: string | undefined;
  roles: readonly string[] | undefined;
  custom: CustomAttributes | undefined;
  dataJson: string;
}

const same = (
  e: Entry,
  bodyJson: string,
  managerEmail: string | undefined,
  roles: readonly string[] | undefined,
  custom: CustomAttributes | undefined,
): boolean =>
  e.bodyJson === bodyJson &&
  e.managerEmail === managerEmail &&
  sameRoles(e.roles, roles) &&
  sameCustomAttributes(e.custom, custom);

export class UserDataCache {
  private young = new Map<string, Entry>();
  private old = new Map<string, Entry>();
  private youngHeld = 0;
  private oldHeld = 0;

  constructor(
    private readonly budget = USER_DATA_BUDGET,
    private readonly build: (
      id: string,
      bodyJson: string,
      managerEmail?: string,
      roles?: readonly string[],
      custom?: CustomAttributes,
    ) => string = userDataJson,
  ) {}

  /** `userDataJson(id, bodyJson, managerEmail, roles, custom)`, from memory when this body was seen lately. */
  of(
    id: string,
    bodyJson: string,
    managerEmail?: string,
    roles?: readonly string[],
    custom?: CustomAttributes,
  ): string {
    const young = this.young.get(id);
    if (young !== undefined && same(young, bodyJson, managerEmail, roles, custom)) return young.dataJson;
    const old = this.old.get(id);
    if (old !== undefined && same(old, bodyJson, managerEmail, roles, custom)) {
      this.keep(id, old, young);
      return old.dataJson;
    }
    const entry = {
      bodyJson,
      managerEmail,
      roles,
      custom,
      dataJson: this.build(id, bodyJson, managerEmail, roles, custom),
    };
    this.keep(id, entry, young);
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

  /** The young generation becomes the old one; the old one is dropped. */
  private turnOver(): void {
    this.old = this.young;
    this.oldHeld = this.youngHeld;
    this.young = new Map();
    this.youngHeld = 0;
  }
}

const size = (id: string, e: Entry): number => id.length + e.bodyJson.length + e.dataJson.length;
