/**
 * Graph's paging as the fake serves it: delta rounds (`@odata.nextLink` through a skip token, ended by an
 * `@odata.deltaLink` whose token carries the tenant's sequence and token generation) and relation lists paged by
 * `$top`. Kept apart from index.ts so the server there only routes, counts and injects faults.
 */
import { graphError } from './subscriptions.js';
import type { Reply } from './authority.js';
import type { Kind, Tenant } from './tenant.js';

const DEFAULT_PAGE = 100;
const MAX_PAGE = 999;

interface Round {
  tenantId: string;
  kind: Kind;
  items: Array<Record<string, unknown>>;
  until: number;
  generation: number;
  select: string[];
}

const encode = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const decode = (s: string): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

/**
 * A page of `/users/{id}/memberOf` (the groups a user is a direct member of) or `/groups/{id}/members` (its direct
 * members, users and groups), paged by `$top` (default 100, at most 999) and `@odata.nextLink`.
 */
export function relationPage(
  base: string,
  tenant: Tenant,
  id: string,
  relation: 'memberOf' | 'members',
  url: URL,
): Reply {
  const refs =
    relation === 'memberOf'
      ? tenant.memberOf(id).map((g) => ({
          '@odata.type': '#microsoft.graph.group',
          id: g,
          displayName: tenant.groups.get(g)?.displayName ?? null,
        }))
      : [...(tenant.members.get(id) ?? [])].map(([mid, type]) => ({
          '@odata.type': `#microsoft.graph.${type}`,
          id: mid,
        }));
  const top = Math.min(MAX_PAGE, Number(url.searchParams.get('$top') ?? DEFAULT_PAGE));
  const skip = Number(url.searchParams.get('$skiptoken') ?? 0);
  const next = skip + top < refs.length;
  const link = new URL(url);
  link.searchParams.set('$skiptoken', String(skip + top));
  return {
    status: 200,
    body: {
      '@odata.context': `https://graph.microsoft.com/v1.0/$metadata#directoryObjects`,
      ...(next && { '@odata.nextLink': `${base}${link.pathname}${link.search}` }),
      value: refs.slice(skip, skip + top),
    },
  };
}

/** The delta rounds in progress, by the id their skip tokens carry. */
export class DeltaRounds {
  private readonly rounds = new Map<string, Round>();

  page(
    base: string,
    tenant: Tenant,
    kind: Kind,
    url: URL,
    select: string[],
    prefer: string | string[] | undefined,
  ): Reply {
    const skip = url.searchParams.get('$skiptoken');
    const deltaToken = url.searchParams.get('$deltatoken');
    const maxPage = Math.min(
      MAX_PAGE,
      Number(/odata\.maxpagesize=(\d+)/.exec(String(prefer ?? ''))?.[1] ?? DEFAULT_PAGE),
    );
    let roundId: string;
    let offset = 0;
    if (skip !== null) {
      const s = decode(skip);
      if (!s || typeof s.r !== 'string' || !this.rounds.has(s.r))
        return graphError(400, 'Request_BadRequest', 'Invalid skip token.');
      roundId = s.r;
      offset = Number(s.o);
    } else {
      let since = 0;
      let sel = select;
      if (deltaToken !== null) {
        const d = decode(deltaToken);
        if (!d || d.t !== tenant.id || d.k !== kind)
          return graphError(400, 'Request_BadRequest', 'Invalid delta token.');
        if (d.g !== tenant.tokenGeneration) {
          return graphError(
            410,
            'syncStateNotFound',
            'The sync state generated from the specified delta token is not found. Restart the sync without a token.',
          );
        }
        since = Number(d.s);
        sel = d.sel as string[];
      }
      roundId = `${tenant.id}/${kind}/${this.rounds.size + 1}/${Date.now()}`;
      this.rounds.set(roundId, {
        tenantId: tenant.id,
        kind,
        items: tenant.deltaItems(kind, since, sel),
        until: tenant.seq,
        generation: tenant.tokenGeneration,
        select: sel,
      });
    }
    const round = this.rounds.get(roundId)!;
    if (round.tenantId !== tenant.id) return graphError(400, 'Request_BadRequest', 'Invalid skip token.');
    const value = round.items.slice(offset, offset + maxPage);
    const root = `https://graph.microsoft.com/v1.0/$metadata#${kind}`;
    const next = offset + maxPage < round.items.length;
    if (!next) this.rounds.delete(roundId);
    const link = `${base}/v1.0/${kind}/delta?`;
    return {
      status: 200,
      body: {
        '@odata.context': `${root}(${round.select.join(',') || '*'})`,
        ...(next
          ? { '@odata.nextLink': `${link}$skiptoken=${encode({ r: roundId, o: offset + maxPage })}` }
          : {
              '@odata.deltaLink': `${link}$deltatoken=${encode({ t: tenant.id, k: kind, s: round.until, g: round.generation, sel: round.select })}`,
            }),
        value,
      },
    };
  }
}
