/**
 * Inflight rules (docs/operating/rate-limits.md) as data: which writes to one resource must not run concurrently. A
 * rule names
 * its methods, a path pattern (on the request's canonical path: http/middleware/request-identity.ts, one spelling per
 * resource), the key template and the action: `enforce` answers 429, `report-only` logs and counts, and the
 * request proceeds. GET, HEAD and OPTIONS never match.
 */
export type InflightAction = 'enforce' | 'report-only';

export interface InflightRule {
  name: string;
  methods: readonly string[];
  path: RegExp;
  /** `{project}` = the bucket key (directory id, or API key hash); `{full_path}` = the canonical path, no query. */
  key: string;
  action: InflightAction;
}

const SCIM = '^/api/scim/v2\\.0/[^/]+';
const KEY = '{project}{full_path}';

export const DEFAULT_INFLIGHT_RULES: readonly InflightRule[] = [
  {
    name: 'scim-resource-write',
    methods: ['PUT', 'PATCH', 'DELETE'],
    path: new RegExp(`${SCIM}/(Users|Groups)/[^/]+$`),
    key: KEY,
    action: 'enforce',
  },
  // IdPs create users and groups in parallel; blocking would serialise provisioning, so these are only watched.
  {
    name: 'scim-create',
    methods: ['POST'],
    path: new RegExp(`${SCIM}/(Users|Groups)$`),
    key: KEY,
    action: 'report-only',
  },
  {
    name: 'directory-write',
    methods: ['POST', 'PUT', 'PATCH', 'DELETE'],
    path: /^\/api\/v1\/directory-sync\/[^/]+(\/.*)?$/,
    key: KEY,
    action: 'enforce',
  },
];

const EXEMPT = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface InflightMatch {
  rule: InflightRule;
  key: string;
}

/** The first rule a request matches, with its expanded key; undefined for exempt methods or no match. */
export function matchInflight(
  rules: readonly InflightRule[],
  method: string,
  fullPath: string,
  project: string,
): InflightMatch | undefined {
  if (EXEMPT.has(method)) return undefined;
  const rule = rules.find((r) => r.methods.includes(method) && r.path.test(fullPath));
  if (!rule) return undefined;
  return { rule, key: rule.key.replaceAll('{project}', project).replaceAll('{full_path}', fullPath) };
}
