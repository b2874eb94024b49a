/** Optimistic concurrency: re-run read-compute-commit while the store answers `stale`. */
import { ContentionError } from '../core/errors.js';
import type { WriteResult } from '../core/store-port.js';
import { ScimError } from './errors.js';

export const STALE = Symbol('stale');
const MAX_ATTEMPTS = 20;

export async function retrying<T>(attempt: () => Promise<T | typeof STALE>): Promise<T> {
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    const result = await attempt();
    if (result !== STALE) return result;
    // Back off a little so two writers on one resource interleave instead of colliding again.
    await new Promise((r) => setTimeout(r, Math.random() * 2 * (i + 1)));
  }
  throw new ContentionError();
}

/** Maps a non-ok write to its SCIM error; `stale` is returned for the retry loop. */
export function settle<T extends WriteResult>(
  result: T,
  what: string,
  conflict: string,
): Extract<T, { status: 'ok' }> | typeof STALE {
  switch (result.status) {
    case 'ok':
      return result as Extract<T, { status: 'ok' }>;
    case 'stale':
      return STALE;
    case 'conflict':
      throw ScimError.conflict(conflict);
    case 'missing':
      throw ScimError.notFound(`${what} not found`);
  }
  throw new Error('unreachable');
}
