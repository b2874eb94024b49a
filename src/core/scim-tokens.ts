/**
 * `dsync.scimTokens`: a directory's SCIM bearer tokens — list (never a value), create (the value shown once),
 * revoke — and the authentication of a SCIM request against them, which notes when each token was last used:
 * coarsely (at most once a minute per token and process) and off the request path (never awaited).
 */
import { ConflictError, ForbiddenError, NotFoundError } from './errors.js';
import { newSecret } from './ids.js';
import type { Directory, StoredResource } from './model.js';
import {
  activeCount,
  extraTokens,
  matchToken,
  MAX_ACTIVE_TOKENS,
  newTokenId,
  PRIMARY_TOKEN_ID,
  sha256Hex,
  updateTokens,
} from './scim-token-list.js';
import type { AccessStore, DirectoryStore, ResourceRef } from './store-port.js';

export interface ScimTokenView {
  id: string;
  created_at: string;
  last_used_at: string | null;
  /** Set on the token an operator rotation replaced. */
  expires_at?: string;
}

export interface CreatedScimToken {
  id: string;
  /** The bearer token itself: shown this once, stored only as its SHA-256. */
  token: string;
  created_at: string;
}

export type ScimAuthentication =
  | { directory: null }
  /** `resource`: the one asked for, read in the same trip (see AccessStore.getDirectoryAccess). */
  | { directory: Directory; tokenId: string | null; resource?: StoredResource | null };

export interface ScimTokensOptions {
  store: Pick<AccessStore, 'getDirectoryAccess' | 'putScimTokens' | 'scimTokenUsage' | 'recordScimTokenUsage'> &
    Pick<DirectoryStore, 'updateDirectory'>;
  /** How often at most a token's use is written (per process); default a minute. */
  usageIntervalMs?: number;
  /** A failed usage write (it is not retried: the next use writes again). */
  onError?: (err: unknown) => void;
}

/** Past this many remembered (directory, token) pairs the memory of recent writes starts over. */
const MAX_REMEMBERED = 10_000;

export class ScimTokens {
  private readonly store: ScimTokensOptions['store'];
  private readonly usageIntervalMs: number;
  private readonly onError: (err: unknown) => void;
  /** `<directory> <token>` → when its use was last written by this process. */
  private readonly written = new Map<string, number>();

  constructor(options: ScimTokensOptions) {
    this.store = options.store;
    this.usageIntervalMs = options.usageIntervalMs ?? 60_000;
    this.onError = options.onError ?? (() => undefined);
  }

  /** The directory's working tokens, oldest first, without their values. */
  async list(directoryId: string): Promise<ScimTokenView[]> {
    const [access, usage] = await Promise.all([
      this.store.getDirectoryAccess(directoryId),
      this.store.scimTokenUsage(directoryId),
    ]);
    if (!access) throw new NotFoundError(`Directory ${directoryId} not found`);
    const lastUsed = (id: string) => (usage[id] === undefined ? null : new Date(usage[id]).toISOString());
    const views: ScimTokenView[] = [];
    const { directory, tokens } = access;
    if (directory.scim.secret) {
      const meta = tokens.find((t) => t.primary && t.hash === sha256Hex(directory.scim.secret));
      views.push({
        id: PRIMARY_TOKEN_ID,
        created_at: meta?.created_at ?? directory.created_at,
        last_used_at: lastUsed(PRIMARY_TOKEN_ID),
      });
    }
    for (const t of extraTokens(tokens, Date.now())) {
      views.push({
        id: t.id,
        created_at: t.created_at,
        last_used_at: lastUsed(t.id),
        ...(t.expires_at && { expires_at: t.expires_at }),
      });
    }
    return views.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  /** A new token, unless the directory already holds MAX_ACTIVE_TOKENS (409: revoke one first). */
  async create(directoryId: string): Promise<CreatedScimToken> {
    const token = newSecret(32);
    return updateTokens(this.store, directoryId, (access, now) => {
      if (activeCount(access, now) >= MAX_ACTIVE_TOKENS) {
        throw new ConflictError(
          `Directory ${directoryId} already has ${MAX_ACTIVE_TOKENS} active SCIM tokens; revoke one before creating another`,
        );
      }
      const created = { id: newTokenId(), hash: sha256Hex(token), created_at: new Date(now).toISOString() };
      return { tokens: [...access.tokens, created], result: { id: created.id, token, created_at: created.created_at } };
    });
  }

  /**
   * Revokes a token at once. `scim-secret` empties the directory's `scim.secret`, except on a directory a
   * controller manages: its DirectoryConnection's Secret holds that token, and rotating it there is the way.
   */
  async revoke(directoryId: string, tokenId: string): Promise<void> {
    if (tokenId === PRIMARY_TOKEN_ID) return this.revokePrimary(directoryId);
    await updateTokens(this.store, directoryId, (access, now) => {
      if (!extraTokens(access.tokens, now).some((t) => t.id === tokenId)) {
        throw new NotFoundError(`SCIM token ${tokenId} not found in directory ${directoryId}`);
      }
      return { tokens: access.tokens.filter((t) => t.id !== tokenId), result: undefined };
    });
    await this.store.recordScimTokenUsage(directoryId, {}, [tokenId]);
  }

  private async revokePrimary(directoryId: string): Promise<void> {
    const access = await this.store.getDirectoryAccess(directoryId);
    if (!access) throw new NotFoundError(`Directory ${directoryId} not found`);
    const { directory } = access;
    if (!directory.scim.secret)
      throw new NotFoundError(`SCIM token ${PRIMARY_TOKEN_ID} not found in directory ${directoryId}`);
    if (directory.managed_by) {
      throw new ForbiddenError(
        `The scim-secret token of directory ${directoryId} is managed by ${directory.managed_by}; rotate it there (dsync.io/rotate-token)`,
      );
    }
    await this.store.updateDirectory({
      ...directory,
      scim: { ...directory.scim, secret: '' },
      updated_at: new Date().toISOString(),
    });
    await this.store.recordScimTokenUsage(directoryId, {}, [PRIMARY_TOKEN_ID]);
  }

  /**
   * The directory of a SCIM request and the token it presented (null: none of the directory's); with `resource`,
   * the user or group the request names too, read in the same round trip (given out only with a valid token).
   */
  async authenticate(directoryId: string, presented: string, resource?: ResourceRef): Promise<ScimAuthentication> {
    const access = await this.store.getDirectoryAccess(directoryId, resource);
    if (!access) return { directory: null };
    const now = Date.now();
    const tokenId = matchToken(access, presented, now);
    if (!tokenId) return { directory: access.directory, tokenId: null };
    this.used(directoryId, tokenId, now);
    const auth: ScimAuthentication = { directory: access.directory, tokenId };
    if (access.resource !== undefined) auth.resource = access.resource;
    return auth;
  }

  private used(directoryId: string, tokenId: string, now: number): void {
    const key = `${directoryId} ${tokenId}`;
    if (now - (this.written.get(key) ?? 0) < this.usageIntervalMs) return;
    if (this.written.size >= MAX_REMEMBERED) this.written.clear();
    this.written.set(key, now);
    this.store.recordScimTokenUsage(directoryId, { [tokenId]: now }).catch(this.onError);
  }
}
