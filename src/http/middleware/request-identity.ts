/**
 * One canonical identity per request, computed once at the edge, before any limiter, lock or metric sees it: the
 * route template the request addresses (a bounded set of labels), the directory it names and its path in one
 * spelling. Express routes ASCII case-insensitively, ignores one trailing slash and percent-decodes parameters,
 * so `/API/V1/Directory-Sync/%39…/` reaches the same handler as `/api/v1/directory-sync/9…`; anything keyed on
 * the raw path (rate-limit buckets, inflight locks, the `route` label) made each spelling a new bucket, lock or
 * series. Here every segment is decoded, literal segments compare case-insensitively and take the template's
 * spelling, and parameters are re-encoded one way, so all spellings that reach a handler share one identity;
 * a spelling that matches no template is `unmatched` (express answers it 404 or 400 without doing any work).
 */
import type { RequestHandler } from 'express';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** This request's canonical identity (request-identity.ts). */
      identity: RequestIdentity;
    }
  }
}

export interface RequestIdentity {
  /** The template's label: one of a fixed set, `unmatched` for every path no template matches. */
  route: string;
  /**
   * The canonical path (template spelling, parameters decoded then encoded one way); absent when no handler
   * serves the request (unmatched, or a method the path does not answer: a 405).
   */
  path?: string;
  /** The decoded directory id, for the templates that name one. */
  directoryId?: string;
  /** The route is served without a credential (health, the OpenAPI document, the OAuth browser hops). */
  open?: true;
}

export interface RouteTemplate {
  /** Express syntax, `:name` for a parameter: `/api/v1/directory-sync/:id`. */
  path: string;
  /** Methods the template answers; unset = all. A path known under other methods still takes its label (405). */
  methods?: readonly string[];
  /** The metric label; default the path. */
  label?: string;
  /** The parameter that holds a directory id. */
  directoryParam?: string;
  /** Served without a credential: every request of a method it serves reaches its handler. */
  open?: boolean;
}

export const UNMATCHED: RequestIdentity = Object.freeze({ route: 'unmatched' });

interface Compiled {
  label: string;
  methods?: ReadonlySet<string>;
  /** Per segment: the literal in the template's spelling, or null for a parameter. */
  literals: Array<string | null>;
  lower: Array<string | null>;
  directoryIndex: number;
  open: boolean;
}

function compile(t: RouteTemplate): Compiled {
  const segments = t.path.split('/').slice(1);
  const literals = segments.map((s) => (s.startsWith(':') ? null : s));
  return {
    label: t.label ?? t.path,
    ...(t.methods && { methods: new Set(t.methods.map((m) => m.toUpperCase())) }),
    literals,
    lower: literals.map((s) => s?.toLowerCase() ?? null),
    directoryIndex: t.directoryParam === undefined ? -1 : segments.indexOf(`:${t.directoryParam}`),
    open: t.open === true,
  };
}

/** The request path's segments, decoded; undefined when one is not valid percent-encoding (express: 400). */
function decodedSegments(path: string): string[] | undefined {
  const parts = path.split('/');
  parts.shift();
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop(); // one trailing slash, as express allows
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.includes('%')) {
      try {
        parts[i] = decodeURIComponent(p);
      } catch {
        return undefined;
      }
    }
  }
  return parts;
}

export class RequestIdentities {
  /** Templates by segment count, in the order given (the order express tries its routes in). */
  private readonly bySize = new Map<number, Compiled[]>();

  constructor(templates: readonly RouteTemplate[]) {
    for (const t of templates) {
      const c = compile(t);
      const list = this.bySize.get(c.literals.length) ?? [];
      list.push(c);
      this.bySize.set(c.literals.length, list);
    }
  }

  /** `path`: the URL's path, no query. */
  of(method: string, path: string): RequestIdentity {
    const segments = decodedSegments(path);
    const candidates = segments && this.bySize.get(segments.length);
    if (!segments || !candidates) return UNMATCHED;
    let lowered: string[] | undefined;
    let pathOnly: Compiled | undefined;
    for (const c of candidates) {
      lowered ??= segments.map((s) => s.toLowerCase());
      if (!c.lower.every((lit, i) => lit === null || lit === lowered![i])) continue;
      if (!c.methods || c.methods.has(method)) return identityOf(c, segments, true);
      pathOnly ??= c;
    }
    return pathOnly ? identityOf(pathOnly, segments, false) : UNMATCHED;
  }
}

function identityOf(c: Compiled, segments: string[], served: boolean): RequestIdentity {
  const directory = c.directoryIndex >= 0 ? { directoryId: segments[c.directoryIndex]! } : {};
  if (!served) return { route: c.label, ...directory };
  let path = '';
  for (let i = 0; i < segments.length; i++) path += `/${c.literals[i] ?? encodeURIComponent(segments[i]!)}`;
  return { route: c.label, path, ...directory, ...(c.open && { open: true as const }) };
}

/** Sets `res.locals.identity`; mount first, so every later step (limits, locks, metrics) reads the same one. */
export function requestIdentity(identities: RequestIdentities): RequestHandler {
  return (req, res, next) => {
    res.locals.identity = identities.of(req.method, req.path);
    next();
  };
}
