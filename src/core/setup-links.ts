/**
 * Setup links: an opaque URL that grants the customer's IT admin one directory's setup page, and nothing of the
 * management API. Only the SHA-256 of the URL's secret part is stored; a link stops working the moment it is
 * revoked or expires, and is still recognised for a while after (to say so, rather than "unknown").
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { parseInput } from './directories.js';
import { ConflictError, NotFoundError } from './errors.js';
import { newSecret } from './ids.js';
import type { Directory } from './model.js';
import { sha256Hex } from './scim-token-list.js';
import type { AccessStore, DirectoryStore, StoredSetupLink } from './store-port.js';

export const DEFAULT_LINK_TTL_S = 7 * 86_400;
export const MAX_LINK_TTL_S = 30 * 86_400;
/** How long after it ended a link is still told apart from a guessed one (the page says "no longer valid"). */
const REMEMBER_MS = 30 * 86_400_000;
/** Working links per directory at once: plenty for a few admins, bounded for the store. */
export const MAX_OPEN_LINKS = 20;

export const setupLinkInput = z.strictObject({
  expires_in: z
    .number({ error: 'expires_in must be a number of seconds' })
    .int('expires_in must be a whole number of seconds')
    .min(60, 'expires_in must be at least 60 seconds')
    .max(MAX_LINK_TTL_S, `expires_in must be at most ${MAX_LINK_TTL_S} seconds (30 days)`)
    .optional()
    .describe('Seconds until the link stops working; default 7 days, at most 30'),
});

export interface SetupLinkView {
  id: string;
  created_at: string;
  expires_at: string;
  revoked: boolean;
}

export interface CreatedSetupLink {
  id: string;
  /** The link itself: shown this once (only a hash of it is stored). */
  url: string;
  expires_at: string;
}

export type ResolvedLink =
  | { status: 'valid'; link: StoredSetupLink; directory: Directory }
  | { status: 'expired' | 'revoked'; link: StoredSetupLink }
  | { status: 'unknown' };

export interface SetupLinksOptions {
  store: Pick<AccessStore, 'putSetupLink' | 'findSetupLink' | 'listSetupLinks'> & Pick<DirectoryStore, 'getDirectory'>;
  /** Where the setup routes are mounted, as a browser reaches them, e.g. `https://sync.example.com/setup`. */
  baseUrl: string;
}

/** The secret part of a link: 256 random bits, URL-safe. */
const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const view = (l: StoredSetupLink): SetupLinkView => ({
  id: l.id,
  created_at: l.created_at,
  expires_at: l.expires_at,
  revoked: l.revoked_at !== undefined,
});

export class SetupLinks {
  private readonly store: SetupLinksOptions['store'];
  readonly baseUrl: string;

  constructor(options: SetupLinksOptions) {
    this.store = options.store;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  async create(directoryId: string, input: unknown = {}): Promise<CreatedSetupLink> {
    const { expires_in: expiresIn = DEFAULT_LINK_TTL_S } = parseInput(setupLinkInput, input);
    const existing = await this.links(directoryId);
    const now = Date.now();
    const token = newSecret(32);
    const expiresAt = now + expiresIn * 1000;
    const link: StoredSetupLink = {
      id: `sl_${randomBytes(8).toString('hex')}`,
      directory_id: directoryId,
      hash: sha256Hex(token),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(expiresAt).toISOString(),
    };
    const forgotten = existing.filter((l) => Date.parse(l.expires_at) + REMEMBER_MS <= now);
    // The bound is checked where the link is saved, in one atomic step: concurrent creates cannot pass it together.
    const saved = await this.store.putSetupLink(link, expiresAt + REMEMBER_MS, forgotten, MAX_OPEN_LINKS);
    if (saved === 'full')
      throw new ConflictError(
        `Directory ${directoryId} already has ${MAX_OPEN_LINKS} working setup links; revoke one first`,
      );
    if (saved === 'missing') throw new NotFoundError(`Directory ${directoryId} not found`);
    return { id: link.id, url: `${this.baseUrl}/${token}`, expires_at: link.expires_at };
  }

  /** Whether the directory's link `linkId` still works: neither revoked nor expired. */
  async works(directoryId: string, linkId: string): Promise<boolean> {
    const link = (await this.store.listSetupLinks(directoryId)).find((l) => l.id === linkId);
    return link !== undefined && !link.revoked_at && Date.parse(link.expires_at) > Date.now();
  }

  /** Oldest first, never the URL. */
  async list(directoryId: string): Promise<SetupLinkView[]> {
    return (await this.links(directoryId)).map(view);
  }

  /** Revoked at once; revoking a revoked link again is fine. */
  async revoke(directoryId: string, linkId: string): Promise<void> {
    const link = (await this.links(directoryId)).find((l) => l.id === linkId);
    if (!link) throw new NotFoundError(`Setup link ${linkId} not found in directory ${directoryId}`);
    if (link.revoked_at) return;
    const revoked = { ...link, revoked_at: new Date().toISOString() };
    if ((await this.store.putSetupLink(revoked, Date.parse(link.expires_at) + REMEMBER_MS)) === 'missing') {
      throw new NotFoundError(`Directory ${directoryId} not found`);
    }
  }

  /** What the secret part of a link opens: its directory while it works, else why not. */
  async resolve(token: string): Promise<ResolvedLink> {
    if (!LINK_TOKEN.test(token)) return { status: 'unknown' };
    const link = await this.store.findSetupLink(sha256Hex(token));
    if (!link) return { status: 'unknown' };
    if (link.revoked_at) return { status: 'revoked', link };
    if (Date.parse(link.expires_at) <= Date.now()) return { status: 'expired', link };
    const directory = await this.store.getDirectory(link.directory_id);
    // A deleted directory takes its links with it (a leftover key answers as revoked).
    return directory ? { status: 'valid', link, directory } : { status: 'revoked', link };
  }

  private async links(directoryId: string): Promise<StoredSetupLink[]> {
    if (!(await this.store.getDirectory(directoryId))) throw new NotFoundError(`Directory ${directoryId} not found`);
    return (await this.store.listSetupLinks(directoryId)).sort(
      (a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
    );
  }
}
