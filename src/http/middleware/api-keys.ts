/**
 * Scoped management API keys. `DSYNC_API_KEYS` is a comma-separated list of `key[:scope…]`: a bare key has full
 * access; `:read` makes it read-only (GET and HEAD only, and not the GETs that hand out a consent link);
 * `:tenant=<tenant>` limits it to the directories of one
 * tenant, `:product=<product>` (with a tenant) to one product of it; they combine (`key:read:tenant=acme`).
 * Only a full-access key ever sees a secret: for the others `scim.secret`, `webhook.secret` and the Google
 * tokens of an answer are redacted. Keys are compared in constant time (auth.ts) and never logged: a bad entry
 * is named by its position, never by its text.
 */
import { z } from 'zod';
import { ForbiddenError } from '../../core/errors.js';

export interface KeyScope {
  /** GET and HEAD only. */
  readOnly: boolean;
  tenant?: string;
  /** Only with `tenant`. */
  product?: string;
}

export interface ApiKey {
  key: string;
  scope: KeyScope;
}

export const FULL_ACCESS: KeyScope = Object.freeze({ readOnly: false });

/** A bare string is a full-access key (the embedding application's and the generated key's form). */
export const toApiKey = (k: string | ApiKey): ApiKey => (typeof k === 'string' ? { key: k, scope: FULL_ACCESS } : k);

/** Whether answers may show this key secret values. */
export const seesSecrets = (scope: KeyScope): boolean => !scope.readOnly && scope.tenant === undefined;

/** `DSYNC_API_KEYS` → its keys; an issue names the entry by position (its text holds a key). */
export const apiKeysSchema = z.string().transform((text, ctx): ApiKey[] => {
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const keys: ApiKey[] = [];
  for (const [i, entry] of entries.entries()) {
    const [key = '', ...parts] = entry.split(':');
    const problem = scopeProblem(key, parts, keys);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: `entry ${i + 1} ${problem}` });
      return z.NEVER;
    }
    const value = (name: string) => parts.find((p) => p.startsWith(`${name}=`))?.slice(name.length + 1);
    const tenant = value('tenant');
    const product = value('product');
    keys.push({
      key,
      scope: {
        readOnly: parts.includes('read'),
        ...(tenant !== undefined && { tenant }),
        ...(product !== undefined && { product }),
      },
    });
  }
  return keys;
});

function scopeProblem(key: string, parts: string[], earlier: ApiKey[]): string | undefined {
  if (key === '' || /\s/.test(key)) return 'has an empty key or one with spaces';
  if (earlier.some((k) => k.key === key)) return 'repeats the key of an earlier entry';
  const names = parts.map((p) =>
    p === 'read' ? 'read' : /^(tenant|product)=.+$/.test(p) ? p.slice(0, p.indexOf('=')) : undefined,
  );
  if (names.includes(undefined))
    return 'has an unknown scope (use read, tenant=<tenant>, product=<product>, joined by ":")';
  if (new Set(names).size !== names.length) return 'repeats a scope';
  if (names.includes('product') && !names.includes('tenant')) return 'has product= without tenant=';
  return undefined;
}

/**
 * Which directories a route reaches, for a key limited to a tenant: `directory` (the path's `:id`), `query`
 * (its `directoryId`, `tenant`, `product` query parameters), `body` (the created directory's tenant and product),
 * `all` (every directory: cron runs, a delivery log by id; full and read-only keys only).
 */
export type Reach = 'directory' | 'query' | 'body' | 'all';

/** A route's parsed input (its schemas have checked it): the fields a reach reads are strings or absent. */
interface RouteInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

const field = (part: unknown, name: string): string | undefined => {
  const v = (part as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : undefined;
};

/**
 * Throws a 403 unless `scope` may make this call (`writes`: it changes something, or its answer lets its holder
 * do so); `directoryOf` reads a directory (404 when there is none).
 */
export async function authorize(
  scope: KeyScope,
  writes: boolean,
  reach: Reach,
  input: RouteInput,
  directoryOf: (id: string) => Promise<{ tenant: string; product: string }>,
): Promise<void> {
  if (scope.readOnly && writes) throw new ForbiddenError('This API key is read-only');
  const { tenant, product } = scope;
  if (tenant === undefined) return;
  const limited = `This API key is limited to tenant ${tenant}${product === undefined ? '' : ` and product ${product}`}`;
  const within = (t: string | undefined, p: string | undefined) =>
    t === tenant && (product === undefined || p === product);
  const checkDirectory = async (id: string) => {
    const d = await directoryOf(id);
    if (!within(d.tenant, d.product)) throw new ForbiddenError(`${limited}; directory ${id} is not`);
  };
  switch (reach) {
    case 'all':
      throw new ForbiddenError(`${limited}; this route reaches every directory`);
    case 'directory':
      return checkDirectory(field(input.params, 'id') ?? '');
    case 'body':
      if (!within(field(input.body, 'tenant'), field(input.body, 'product'))) throw new ForbiddenError(limited);
      return;
    case 'query': {
      const [directoryId, t, p] = ['directoryId', 'tenant', 'product'].map((name) => field(input.query, name));
      if (directoryId) await checkDirectory(directoryId);
      // The tenant and product named (which a read without a directoryId needs) must be the key's.
      if ((t !== undefined || !directoryId) && !within(t, p)) throw new ForbiddenError(limited);
    }
  }
}

const SECRET_KEYS = new Set([
  'secret',
  'google_access_token',
  'google_refresh_token',
  'access_token',
  'refresh_token',
  'api_key',
  'client_secret',
  'webhook_secret',
]);
export const REDACTED = '[redacted]';

/** A copy of an answer with every non-empty secret value (by key name) replaced by `[redacted]`. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      SECRET_KEYS.has(k) && typeof v === 'string' && v !== '' ? REDACTED : redactSecrets(v),
    ]),
  );
}
