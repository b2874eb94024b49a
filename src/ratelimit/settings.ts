/**
 * The three `DSYNC_RATE_LIMIT_*` variables (docs/operating/rate-limits.md), validated with zod and resolved into the
 * limits of
 * each bucket: the plan × environment preset, then the overrides on top.
 */
import { z } from 'zod';
import type { AuthFailureLimits } from './auth-failures.js';
import {
  BUCKETS,
  ENVIRONMENTS,
  PLAN_ALIASES,
  PLANS,
  presetFor,
  type Bucket,
  type BucketLimits,
  type Environment,
  type Limits,
  type Plan,
} from './presets.js';

export interface RateLimitPolicy {
  plan: Plan;
  environment: Environment;
  buckets: BucketLimits;
}

const lower = z.string().trim().toLowerCase();

export const planSchema = lower
  .pipe(
    z.enum([...PLANS, ...(Object.keys(PLAN_ALIASES) as Array<keyof typeof PLAN_ALIASES>)], {
      error: `DSYNC_RATE_LIMIT_PLAN must be one of ${[...PLANS, ...Object.keys(PLAN_ALIASES)].join(', ')}`,
    }),
  )
  .transform((name): Plan => (name in PLAN_ALIASES ? PLAN_ALIASES[name as keyof typeof PLAN_ALIASES] : (name as Plan)));

export const environmentSchema = lower.pipe(
  z.enum(ENVIRONMENTS, { error: `DSYNC_RATE_LIMIT_ENV must be one of ${ENVIRONMENTS.join(', ')}` }),
);

const count = (what: string) =>
  z.coerce
    .number()
    .int(`${what} must be a whole number`)
    .positive(`${what} must be > 0`)
    .max(1_000_000, `${what} must be ≤ 1000000`);

const OVERRIDE = /^([a-z]+)=(\d+)\/(\d+)$/;

/** `scim=20/600,default=800/18000` (rps/rpm per bucket) → the buckets it names, each at most once. */
export const overridesSchema = z.string().transform((text, ctx): Partial<Record<Bucket, Limits>> => {
  const out: Partial<Record<Bucket, Limits>> = {};
  for (const item of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = OVERRIDE.exec(item);
    const bucket = m?.[1] as Bucket | undefined;
    if (!m || !BUCKETS.includes(bucket!)) {
      ctx.addIssue({
        code: 'custom',
        message: `"${item}" is not <bucket>=<rps>/<rpm> with bucket ${BUCKETS.join(' or ')} (e.g. scim=20/600)`,
      });
      return z.NEVER;
    }
    if (out[bucket!]) {
      ctx.addIssue({ code: 'custom', message: `bucket ${bucket} is given more than once` });
      return z.NEVER;
    }
    const burst = count(`${bucket} burst`).safeParse(m[2]);
    const sustained = count(`${bucket} sustained`).safeParse(m[3]);
    if (!burst.success || !sustained.success) {
      ctx.addIssue({ code: 'custom', message: (burst.error ?? sustained.error)!.issues[0]!.message });
      return z.NEVER;
    }
    out[bucket!] = { burst: burst.data, sustained: sustained.data };
  }
  return out;
});

/** `DSYNC_AUTH_FAILURE_LIMIT`: `<per client address>/<in total>` failed authentications a minute, e.g. `10/100`. */
export const authFailureLimitSchema = z.string().transform((text, ctx): AuthFailureLimits => {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const perAddress = count('DSYNC_AUTH_FAILURE_LIMIT per address').safeParse(m?.[1]);
  const total = count('DSYNC_AUTH_FAILURE_LIMIT total').safeParse(m?.[2]);
  if (!m || !perAddress.success || !total.success) {
    ctx.addIssue({
      code: 'custom',
      message: `"${text}" is not <per address>/<total> failures a minute (e.g. 10/100), each > 0`,
    });
    return z.NEVER;
  }
  return { perAddress: perAddress.data, total: total.data };
});

export function resolvePolicy(
  plan: Plan,
  environment: Environment,
  overrides: Partial<Record<Bucket, Limits>> = {},
): RateLimitPolicy {
  return { plan, environment, buckets: { ...presetFor(plan, environment), ...overrides } };
}
