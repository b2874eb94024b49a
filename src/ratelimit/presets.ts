/**
 * The project rate-limit table as data (docs/operating/rate-limits.md): burst (requests per second) and sustained
 * (requests per minute) limits by plan and
 * environment. Only the two rows that name our routes are kept: `/scim/**` (our `scim` bucket) and `*` (our
 * `default` bucket); the other rows name another product's endpoints.
 */
export const PLANS = ['developer', 'production', 'growth', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
/** Legacy plan names and the plan whose limits they have. */
export const PLAN_ALIASES = { essential: 'production', scale: 'growth' } as const satisfies Record<string, Plan>;
export const ENVIRONMENTS = ['production', 'staging', 'development'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
export const BUCKETS = ['scim', 'default'] as const;
export type Bucket = (typeof BUCKETS)[number];

export interface Limits {
  /** Requests per second. */
  burst: number;
  /** Requests per minute. */
  sustained: number;
}
export type BucketLimits = Record<Bucket, Limits>;

/** A column of the table: Developer (any environment), each paid plan's Production env, and non-production. */
type Column = 'developer' | 'production' | 'growth' | 'enterprise' | 'nonProduction';

const l = (burst: number, sustained: number): Limits => ({ burst, sustained });

export const PRESETS: Record<Column, BucketLimits> = {
  developer: { scim: l(1, 10), default: l(5, 150) },
  production: { scim: l(10, 300), default: l(40, 900) },
  growth: { scim: l(10, 300), default: l(400, 9000) },
  enterprise: { scim: l(20, 600), default: l(800, 18000) },
  // The Production, Growth and Enterprise plans outside their Production environment.
  nonProduction: { scim: l(1, 10), default: l(5, 150) },
};

/** The limits of a plan in an environment: Developer has one row for every environment. */
export function presetFor(plan: Plan, environment: Environment): BucketLimits {
  const column: Column = plan === 'developer' ? 'developer' : environment === 'production' ? plan : 'nonProduction';
  const preset = PRESETS[column];
  return { scim: { ...preset.scim }, default: { ...preset.default } };
}
