/**
 * Graph's delta query for users and groups: a round starts at `/users/delta` (every object) or at the saved
 * `@odata.deltaLink` (what changed since), follows `@odata.nextLink` page by page, and ends with a new
 * `@odata.deltaLink`. A round that ends otherwise (no link, a repeated nextLink, a garbled page) is incomplete:
 * nothing is deleted on its basis.
 */
import { z } from 'zod';
import { GraphApiError, IncompleteRoundError } from './errors.js';
import type { GraphApi } from './graph-api.js';
import { GROUP_SELECT, USER_OBJECT_SELECT, USER_SELECT } from './mapping.js';

export type Kind = 'users' | 'groups';

const item = z.looseObject({ id: z.string().min(1) });
const page = z.looseObject({
  value: z.array(item),
  '@odata.nextLink': z.string().optional(),
  '@odata.deltaLink': z.string().optional(),
});
const memberRef = z.looseObject({
  '@odata.type': z.string().optional(),
  id: z.string().min(1),
  '@removed': z.unknown().optional(),
});
const refsPage = z.looseObject({ value: z.array(memberRef), '@odata.nextLink': z.string().optional() });

export type DeltaItem = z.infer<typeof item>;
export interface DeltaPage {
  items: DeltaItem[];
  /** Set on the last page of the round. */
  deltaLink?: string;
}
export interface MemberChange {
  id: string;
  type: 'user' | 'group' | 'other';
  removed: boolean;
}

const SELECT: Record<Kind, readonly string[]> = { users: USER_SELECT, groups: GROUP_SELECT };
/** Graph's largest page for directory objects: fewer round trips on a first sync. */
const PREFER = { Prefer: 'odata.maxpagesize=999' };

export const isRemoved = (i: DeltaItem): boolean => '@removed' in i;

/** The member changes a group instance carries (`members@delta`; a removal has `@removed`). */
export function memberChanges(i: DeltaItem): MemberChange[] {
  const refs = z.array(memberRef).safeParse(i['members@delta'] ?? []);
  if (!refs.success) throw new IncompleteRoundError(`garbled members@delta of group ${i.id}`);
  return refs.data.map(toChange);
}

function toChange(r: z.infer<typeof memberRef>): MemberChange {
  const type = r['@odata.type']?.toLowerCase();
  return {
    id: r.id,
    type: type === '#microsoft.graph.user' ? 'user' : type === '#microsoft.graph.group' ? 'group' : 'other',
    removed: r['@removed'] !== undefined,
  };
}

export class DeltaApi {
  constructor(private readonly graph: GraphApi) {}

  /** One round over `kind` from `deltaLink` (null: the first round, every object in full). */
  async *round(kind: Kind, deltaLink: string | null): AsyncGenerator<DeltaPage> {
    let url = deltaLink ?? `/${kind}/delta?$select=${SELECT[kind].join(',')}`;
    const seen = new Set<string>();
    for (;;) {
      const parsed = page.safeParse(await this.graph.get(url, `reading the ${kind} delta`, PREFER));
      if (!parsed.success) throw new IncompleteRoundError(`${kind}: a page that is not Graph's`);
      const next = parsed.data['@odata.nextLink'];
      const delta = parsed.data['@odata.deltaLink'];
      if (!next && !delta) throw new IncompleteRoundError(`${kind}: a page with neither nextLink nor deltaLink`);
      yield { items: parsed.data.value, ...(delta && { deltaLink: delta }) };
      if (delta) return;
      if (seen.has(next!)) throw new IncompleteRoundError(`${kind}: Graph repeated a nextLink`);
      seen.add(next!);
      url = next!;
    }
  }

  /**
   * An object's direct memberships as Graph has them now: `memberOf` (the groups a user or group is in) or
   * `members` (a group's users and groups); null when Graph no longer has the object. What a restore brings back
   * is read here: the groups' delta does not promise to tell it.
   */
  async relation(kind: Kind, id: string, relation: 'memberOf' | 'members'): Promise<MemberChange[] | null> {
    const out: MemberChange[] = [];
    let url = `/${kind}/${encodeURIComponent(id)}/${relation}?$select=id&$top=999`;
    const seen = new Set<string>();
    try {
      for (;;) {
        const parsed = refsPage.safeParse(await this.graph.get(url, `reading the ${relation} of ${kind} ${id}`));
        if (!parsed.success) throw new IncompleteRoundError(`${relation} of ${kind} ${id}: a page that is not Graph's`);
        out.push(...parsed.data.value.map(toChange));
        const next = parsed.data['@odata.nextLink'];
        if (!next) return out;
        if (seen.has(next)) throw new IncompleteRoundError(`${relation} of ${kind} ${id}: Graph repeated a nextLink`);
        seen.add(next);
        url = next;
      }
    } catch (err) {
      if (err instanceof GraphApiError && err.httpStatus === 404) return null;
      throw err;
    }
  }

  /** One object in full (a delta that named it without its properties); null when Graph no longer has it. */
  async object(kind: Kind, id: string): Promise<DeltaItem | null> {
    const select = (kind === 'users' ? USER_OBJECT_SELECT : SELECT[kind].filter((p) => p !== 'members')).join(',');
    try {
      return item.parse(
        await this.graph.get(`/${kind}/${encodeURIComponent(id)}?$select=${select}`, `reading ${kind} ${id}`),
      );
    } catch (err) {
      if (err instanceof GraphApiError && err.httpStatus === 404) return null;
      throw err;
    }
  }
}
