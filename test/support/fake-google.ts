/**
 * A fake Google for tests and the benchmark, over real HTTP: the Admin SDK Directory API's users, groups and
 * members listings in Google's response shapes and paging (`nextPageToken`, `maxResults` bounds), Google's
 * error bodies, and the OAuth endpoints (fake-google-oauth.ts). Faults can be injected per route: 403 rate-limit
 * reasons, 429, 5xx, a page cut off mid-body, an empty page that ends a listing early. The product talks to it
 * through the real googleapis / google-auth-library clients, pointed here by DSYNC_GOOGLE_*_URL.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeOAuth } from './fake-google-oauth.js';
import {
  type GGroup,
  type GMember,
  type GUser,
  googleError,
  json,
  offsetOf,
  pageToken,
  userResource,
  withAliases,
} from './fake-google-wire.js';
import { bodyOf } from './fake-http.js';

export { FAKE_CLIENT } from './fake-google-oauth.js';

export type Route = 'users' | 'groups' | 'members' | 'token';
export interface Fault {
  route: Route;
  /** `status`: an error answer; `truncate`: a 200 whose JSON body is cut off; `empty`: a last page with no items. */
  kind: 'status' | 'truncate' | 'empty';
  status?: number;
  reason?: string;
  /** Matching requests let through before the fault starts. */
  skip?: number;
  /** How many requests it hits (Infinity: all). */
  times?: number;
}

const MAX_RESULTS = { users: 500, groups: 200, members: 200 } as const;

export class FakeGoogle {
  readonly oauth = new FakeOAuth();
  readonly users = new Map<string, GUser>();
  readonly groups = new Map<string, GGroup>();
  readonly members = new Map<string, Map<string, GMember>>();
  /** Deleted users, which Google keeps (20 days) and can restore (`undeleteUser`); listings leave them out. */
  readonly deletedUsers = new Map<string, GUser>();
  readonly calls: Record<Route, number> = { users: 0, groups: 0, members: 0, token: 0 };
  private faults: Array<Fault & { skip: number; times: number }> = [];
  /** Added to every Directory API answer (to make two runs overlap). */
  delayMs = 0;
  private server: Server | undefined;
  private base = '';
  private nextId = 1;

  get apiUrl(): string {
    return `${this.base}/`;
  }
  get tokenUrl(): string {
    return `${this.base}/token`;
  }
  get authUrl(): string {
    return `${this.base}/o/oauth2/v2/auth`;
  }
  get totalCalls(): number {
    return this.calls.users + this.calls.groups + this.calls.members;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  inject(fault: Fault): void {
    this.faults.push({ ...fault, skip: fault.skip ?? 0, times: fault.times ?? 1 });
  }

  clearFaults(): void {
    this.faults = [];
  }

  // Data ------------------------------------------------------------------------------------------------
  // The workspace as its admin changes it. One rule of Google's is kept (answer 1397578, "Restore a recently
  // deleted user", and the Directory API's 409 "Entity already exists"): an address belongs to one user or group
  // at a time, as its primary address or an alias. Tests that mutate the maps directly bypass it.

  /** Empties the workspace: a new tenant for the next test, on the same server. */
  clear(): void {
    for (const map of [this.users, this.groups, this.members, this.deletedUsers]) map.clear();
  }

  /** Whether `address` is a live user's or group's primary address or alias. */
  taken(address: string): boolean {
    const a = address.toLowerCase();
    const holds = (x: { aliases: string[] }, primary: string) =>
      primary.toLowerCase() === a || x.aliases.some((y) => y.toLowerCase() === a);
    return (
      [...this.users.values()].some((u) => holds(u, u.primaryEmail)) ||
      [...this.groups.values()].some((g) => holds(g, g.email))
    );
  }

  private claim(address: string): void {
    if (this.taken(address)) throw new Error(`Entity already exists: ${address}`);
  }

  addUser(given: Partial<Omit<GUser, 'name'>> & { givenName?: string; familyName?: string } = {}): GUser {
    const n = this.nextId++;
    const givenName = given.givenName ?? `Given${n}`;
    const familyName = given.familyName ?? `Family${n}`;
    const user: GUser = {
      id: given.id ?? String(100_000_000_000_000_000_000n + BigInt(n)),
      primaryEmail: given.primaryEmail ?? `user${n}@example.com`,
      name: { givenName, familyName, fullName: `${givenName} ${familyName}` },
      suspended: given.suspended ?? false,
      archived: given.archived ?? false,
      orgUnitPath: given.orgUnitPath ?? '/',
      aliases: given.aliases ?? [],
      ...(given.organizations && { organizations: given.organizations }),
      ...(given.externalIds && { externalIds: given.externalIds }),
      ...(given.relations && { relations: given.relations }),
      ...(given.isAdmin !== undefined && { isAdmin: given.isAdmin }),
      ...(given.recoveryEmail !== undefined && { recoveryEmail: given.recoveryEmail }),
      ...(given.locations && { locations: given.locations }),
      ...(given.phones && { phones: given.phones }),
      ...(given.addresses && { addresses: given.addresses }),
      ...(given.customSchemas && { customSchemas: given.customSchemas }),
    };
    this.claim(user.primaryEmail);
    this.users.set(user.id, user);
    return user;
  }

  /** A new primary address; the old one stays the user's, as an alias (as Google keeps it). */
  renameUser(id: string, primaryEmail: string): void {
    const user = this.users.get(id)!;
    this.claim(primaryEmail);
    user.aliases.push(user.primaryEmail);
    user.primaryEmail = primaryEmail;
  }

  /** Deletes the user (kept among the deleted, its addresses freed) and, as Google does, its memberships. */
  removeUser(id: string): void {
    const user = this.users.get(id);
    if (user) this.deletedUsers.set(id, { ...user, aliases: [] });
    this.users.delete(id);
    for (const m of this.members.values()) m.delete(id);
  }

  /**
   * Restores a deleted user, same id, outside every group (its memberships went with the deletion). Refused while
   * its primary address belongs to another user or group, as Google refuses it.
   */
  undeleteUser(id: string): void {
    const user = this.deletedUsers.get(id)!;
    this.claim(user.primaryEmail);
    this.deletedUsers.delete(id);
    this.users.set(id, user);
  }

  addGroup(given: Partial<GGroup> = {}): GGroup {
    const n = this.nextId++;
    const group: GGroup = {
      id: given.id ?? `03${n.toString(16).padStart(13, '0')}`,
      email: given.email ?? `group${n}@example.com`,
      name: given.name ?? `Group ${n}`,
      description: given.description ?? '',
      aliases: given.aliases ?? [],
    };
    this.claim(group.email);
    this.groups.set(group.id, group);
    this.members.set(group.id, new Map());
    return group;
  }

  /** A new address for the group; the old one stays the group's, as an alias. */
  renameGroupEmail(id: string, email: string): void {
    const group = this.groups.get(id)!;
    this.claim(email);
    group.aliases.push(group.email);
    group.email = email;
  }

  /** Frees an alias of a user or group (the admin removes it), so that another user or group may take it. */
  removeAlias(id: string, address: string): void {
    const holder = this.users.get(id) ?? this.groups.get(id)!;
    holder.aliases = holder.aliases.filter((a) => a !== address);
  }

  removeGroup(id: string): void {
    this.groups.delete(id);
    this.members.delete(id);
    for (const m of this.members.values()) m.delete(id);
  }

  addMember(groupId: string, memberId: string, type: GMember['type'] = 'USER'): void {
    const email =
      this.users.get(memberId)?.primaryEmail ?? this.groups.get(memberId)?.email ?? `${memberId}@elsewhere.example`;
    this.members.get(groupId)!.set(memberId, { id: memberId, email, type, role: 'MEMBER', status: 'ACTIVE' });
  }

  removeMember(groupId: string, memberId: string): void {
    this.members.get(groupId)!.delete(memberId);
  }

  // HTTP ------------------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    const path = url.pathname;
    try {
      if (req.method === 'GET' && path === '/o/oauth2/v2/auth') {
        const r = this.oauth.consent(url.searchParams);
        res
          .writeHead(r.status, r.location ? { Location: r.location } : { 'Content-Type': 'text/plain' })
          .end(r.body ?? '');
        return;
      }
      if (req.method === 'POST' && path === '/token') {
        this.calls.token++;
        const form = new URLSearchParams(await bodyOf(req));
        if (this.fault('token', res)) return;
        const r = this.oauth.tokenEndpoint(form, req.headers.authorization);
        return json(res, r.status, r.body);
      }
      const m = /^\/admin\/directory\/v1\/(users|groups)(?:\/([^/]+)\/members)?$/.exec(path);
      if (req.method !== 'GET' || !m) return json(res, 404, googleError(404, `Not found: ${path}`));
      const route: Route = m[2] !== undefined ? 'members' : (m[1] as 'users' | 'groups');
      if (route === 'members' && m[1] !== 'groups') return json(res, 404, googleError(404, `Not found: ${path}`));
      this.calls[route]++;
      if (!this.oauth.validAccess(req.headers.authorization)) {
        return json(
          res,
          401,
          googleError(
            401,
            'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
          ),
        );
      }
      if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
      if (this.fault(route, res)) return;
      this.list(route, m[2] && decodeURIComponent(m[2]), url.searchParams, res);
    } catch (err) {
      json(res, 500, googleError(500, `fake google: ${(err as Error).message}`));
    }
  }

  private list(
    route: 'users' | 'groups' | 'members',
    groupKey: string | undefined,
    q: URLSearchParams,
    res: ServerResponse,
  ): void {
    if (route !== 'members' && q.get('customer') !== 'my_customer' && !q.get('domain')) {
      return json(res, 400, googleError(400, 'Bad Request', 'badRequest'));
    }
    const max = Number(q.get('maxResults') ?? 100);
    if (!Number.isInteger(max) || max < 1 || max > MAX_RESULTS[route]) {
      return json(
        res,
        400,
        googleError(
          400,
          `Invalid value '${q.get('maxResults')}'. Values must be within the range: [1, ${MAX_RESULTS[route]}]`,
          'invalid',
        ),
      );
    }
    const offset = offsetOf(q.get('pageToken'));
    if (offset === undefined) return json(res, 400, googleError(400, 'Invalid page token', 'invalid'));
    let all: unknown[];
    let render = (item: unknown) => item;
    if (route === 'members') {
      const group = this.groups.get(groupKey ?? '') ?? [...this.groups.values()].find((g) => g.email === groupKey);
      if (!group) return json(res, 404, googleError(404, 'Resource Not Found: groupKey', 'notFound'));
      all = this.memberList(group.id, q.get('includeDerivedMembership') === 'true');
    } else if (route === 'users') {
      all = [...this.users.values()];
      const full = q.get('projection') === 'full';
      render = (u) => userResource(u as GUser, full);
    } else {
      all = [...this.groups.values()];
      render = (g) => this.groupResource(g as GGroup);
    }
    const items = all.slice(offset, offset + max).map(render);
    const next = offset + max < all.length ? pageToken(offset + max) : undefined;
    json(res, 200, {
      kind: `admin#directory#${route}`,
      etag: `"etag-${Date.now()}"`,
      ...(items.length > 0 && { [route]: items }),
      ...(next && { nextPageToken: next }),
    });
  }

  /** Direct members; with derived membership, also the members of nested groups (recursively, once each). */
  private memberList(groupId: string, derived: boolean): Array<GMember & { kind: string; etag: string }> {
    const out = new Map<string, GMember>();
    const visit = (id: string, seen: Set<string>) => {
      for (const member of this.members.get(id)?.values() ?? []) {
        if (!out.has(member.id)) out.set(member.id, member);
        if (derived && member.type === 'GROUP' && !seen.has(member.id)) visit(member.id, new Set([...seen, member.id]));
      }
    };
    visit(groupId, new Set([groupId]));
    // A member's email is its current primary address.
    const email = (m: GMember) => this.users.get(m.id)?.primaryEmail ?? this.groups.get(m.id)?.email ?? m.email;
    return [...out.values()].map((m) => ({
      kind: 'admin#directory#member',
      etag: `"m-${m.id}"`,
      ...m,
      email: email(m),
    }));
  }

  private groupResource({ aliases, ...g }: GGroup) {
    return {
      kind: 'admin#directory#group',
      etag: `"g-${Date.now()}"`,
      directMembersCount: String(this.members.get(g.id)?.size ?? 0),
      adminCreated: true,
      ...g,
      ...withAliases(aliases),
    };
  }

  /** Applies the first matching injected fault; true when it answered. */
  private fault(route: Route, res: ServerResponse): boolean {
    const f = this.faults.find((x) => x.route === route && x.times > 0);
    if (!f) return false;
    if (f.skip > 0) {
      f.skip--;
      return false;
    }
    f.times--;
    if (f.kind === 'empty') {
      json(res, 200, { kind: `admin#directory#${route}`, etag: '"empty"' });
    } else if (f.kind === 'truncate') {
      const body = JSON.stringify({
        kind: `admin#directory#${route}`,
        [route]: [{ id: 'cut', primaryEmail: 'cut@example.com' }],
        nextPageToken: 'x',
      });
      res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' }).end(body.slice(0, body.length >> 1));
    } else {
      const status = f.status ?? 500;
      const headers: Record<string, string> = status === 429 ? { 'Retry-After': '0' } : {};
      json(
        res,
        status,
        googleError(status, f.reason ? `Quota exceeded: ${f.reason}` : 'Injected failure', f.reason),
        headers,
      );
    }
    return true;
  }
}
