/**
 * A directory's SCIM token list: how a presented bearer token is matched, and how the list is changed (compare-
 * and-set on the store, retried on a concurrent change). The directory's `scim.secret` is the first token and stays
 * on the directory as the API has always shown it; every other token is kept as its SHA-256 only.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ContentionError, NotFoundError } from './errors.js';
import { secretDigest } from './secrets.js';
import type { Directory } from './model.js';
import type { AccessStore, DirectoryAccess, StoredScimToken } from './store-port.js';

/** The id under which `scim.secret` is listed, used and revoked. */
export const PRIMARY_TOKEN_ID = 'scim-secret';
/** Tokens a directory may hold at once: enough to replace one without a gap (create, update the IdP, revoke). */
export const MAX_ACTIVE_TOKENS = 2;
/** How long the token an operator rotation replaced keeps working, so the IdP can be updated meanwhile. */
export const ROTATION_GRACE_MS = 7 * 86_400_000;

export const newTokenId = (): string => `tok_${randomBytes(8).toString('hex')}`;

export const sha256Hex = (text: string): string => hash('sha256', text, 'hex');

const expired = (t: StoredScimToken, now: number): boolean =>
  t.expires_at !== undefined && Date.parse(t.expires_at) <= now;

/** The tokens besides `scim.secret` that still work. */
export const extraTokens = (tokens: StoredScimToken[], now: number): StoredScimToken[] =>
  tokens.filter((t) => !t.primary && !expired(t, now));

/** Tokens that work: `scim.secret` (unless revoked: empty) and the others. */
export const activeCount = (access: DirectoryAccess, now: number): number =>
  (access.directory.scim.secret ? 1 : 0) + extraTokens(access.tokens, now).length;

/**
 * The digest of each directory's `scim.secret`, by the directory object: a store that hands every request the
 * same frozen directory while its record is unchanged (the Redis store) costs a request one hash, not two. Only a
 * frozen directory is remembered: its secret cannot change under the digest.
 */
const primaryDigests = new WeakMap<Directory, Buffer>();

function primaryDigest(directory: Directory): Buffer {
  if (!Object.isFrozen(directory) || !Object.isFrozen(directory.scim)) return secretDigest(directory.scim.secret);
  let digest = primaryDigests.get(directory);
  if (!digest) primaryDigests.set(directory, (digest = secretDigest(directory.scim.secret)));
  return digest;
}

/**
 * The id of the token `presented` is, or null. Every candidate is compared in constant time and none is skipped,
 * so timing tells neither which token matched nor whether one did.
 */
export function matchToken(access: DirectoryAccess, presented: string, now: number): string | null {
  if (presented === '') return null;
  // One digest of what was presented, compared with every candidate's.
  const digest = secretDigest(presented);
  const secret = access.directory.scim.secret;
  let match: string | null =
    secret !== '' && timingSafeEqual(digest, primaryDigest(access.directory)) ? PRIMARY_TOKEN_ID : null;
  for (const t of extraTokens(access.tokens, now)) {
    if (timingSafeEqual(digest, Buffer.from(t.hash, 'hex'))) match = t.id;
  }
  return match;
}

/** Concurrent writers are few (an admin, the operator): a handful of compare-and-set rounds settle them. */
const CAS_ROUNDS = 8;

/**
 * Reads the directory's access, lets `change` compute the new list (or throw to refuse), and writes it only if
 * nobody changed the list meanwhile; otherwise reads again. Expired tokens are dropped on the way.
 */
export async function updateTokens<T>(
  store: Pick<AccessStore, 'getDirectoryAccess' | 'putScimTokens'>,
  directoryId: string,
  change: (access: DirectoryAccess, now: number) => { tokens: StoredScimToken[]; result: T },
): Promise<T> {
  for (let round = 0; round < CAS_ROUNDS; round++) {
    const access = await store.getDirectoryAccess(directoryId);
    if (!access) throw new NotFoundError(`Directory ${directoryId} not found`);
    const now = Date.now();
    const { tokens, result } = change(access, now);
    const written = await store.putScimTokens(
      directoryId,
      access.tokensRevision,
      tokens.filter((t) => !expired(t, now)),
    );
    if (written === 'ok') return result;
    if (written === 'missing') throw new NotFoundError(`Directory ${directoryId} not found`);
  }
  throw new ContentionError('The SCIM token list changed concurrently too often; retry');
}

/**
 * An operator rotation: `previous` (the `scim.secret` being replaced) keeps working for `graceMs` beside the new
 * one, and the new one is recorded as created now. A no-op when `previous` is already kept (a reconcile retried).
 */
export async function keepPreviousSecret(
  store: Pick<AccessStore, 'getDirectoryAccess' | 'putScimTokens'>,
  directoryId: string,
  previous: string,
  next: string,
  graceMs = ROTATION_GRACE_MS,
): Promise<void> {
  const previousHash = sha256Hex(previous);
  const nextHash = sha256Hex(next);
  await updateTokens(store, directoryId, (access, now) => {
    const others = access.tokens.filter((t) => !t.primary && t.hash !== previousHash && t.hash !== nextHash);
    const primary = access.tokens.find((t) => t.primary);
    const createdAt = primary?.hash === previousHash ? primary.created_at : access.directory.created_at;
    const at = new Date(now).toISOString();
    return {
      tokens: [
        ...others,
        {
          id: newTokenId(),
          hash: previousHash,
          created_at: createdAt,
          expires_at: new Date(now + graceMs).toISOString(),
        },
        { id: PRIMARY_TOKEN_ID, hash: nextHash, created_at: at, primary: true },
      ],
      result: undefined,
    };
  });
}
