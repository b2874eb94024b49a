/**
 * Options of webhook delivery — the sender, the retry schedule and the engine's tuning — documented, defaulted
 * and checked here, once (config.ts, engine.ts and service.ts take their defaults from this module).
 */
import { z } from 'zod';
import { InvalidDeliveryOptionError } from './errors.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Default retry schedule: 12 attempts spread over about three days (WorkOS/Stripe-like), exponential with
 * jitter applied by the retry policy.
 */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [
  5 * SECOND,
  30 * SECOND,
  2 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  4 * HOUR,
  8 * HOUR,
  12 * HOUR,
  18 * HOUR,
  DAY,
];

const positiveMs = z.number().positive('must be > 0').finite();
/** A retention of 0 keeps nothing once delivered (the log holds only what still waits). */
const retentionMs = z.number().nonnegative('must be >= 0').finite();

export const MAX_BATCH_SIZE = 1000;
export const MAX_POSTS_PER_DIRECTORY = 256;
export const ORDERINGS = ['resource', 'directory'] as const;
export type Ordering = (typeof ORDERINGS)[number];

/** The webhook sender and the retry policy (`DsyncOptions.webhook`). */
const webhookOptions = z.strictObject({
  /** Batch mode: up to N events per POST, delivered when `processEvents()` runs; unset = real time. */
  batchSize: z
    .int('must be an integer')
    .min(1, 'must be >= 1')
    .max(MAX_BATCH_SIZE, `must be <= ${MAX_BATCH_SIZE}`)
    .optional(),
  /** Allow webhook URLs that resolve to private, loopback or link-local addresses (the SSRF guard is off). */
  allowPrivate: z.boolean().default(true),
  /** Delays before each retry of a failed delivery; after the last one it is dead-lettered. */
  retrySchedule: z
    .array(z.number().nonnegative('must be >= 0').finite())
    .min(1, 'must list at least one delay')
    .default([...DEFAULT_RETRY_SCHEDULE]),
  /** One POST's time limit. */
  timeoutMs: positiveMs.default(15 * SECOND),
});

/** The engine's tuning (`DsyncOptions.delivery`, or the engine's own options). */
const engineTuning = z.strictObject({
  /** A deliverer's lease on a directory (renewed while it works): how long a crashed replica's directories wait. */
  leaseMs: positiveMs.default(30 * SECOND),
  /** Directories delivered at once by one process. */
  concurrency: z.int('must be an integer').min(1, 'must be >= 1').max(4096, 'must be <= 4096').default(64),
  /**
   * `resource`: an event waits only for earlier events of its directory that name the same user or group, and
   * up to `postsPerDirectory` POSTs are in flight per directory; `directory`: one POST in flight, in log order.
   */
  ordering: z.enum(ORDERINGS).default('resource'),
  /**
   * POSTs in flight at once in one process with `resource` ordering, all directories together (at least
   * `postsPerDirectory`): many busy directories share them, as many as `directory` ordering has in flight with
   * `concurrency` directories (every directory's webhook is often one application's endpoint).
   */
  postsPerProcess: z.int('must be an integer').min(1, 'must be >= 1').max(65_536, 'must be <= 65536').default(64),
  /** POSTs in flight per directory with `resource` ordering. */
  postsPerDirectory: z
    .int('must be an integer')
    .min(1, 'must be >= 1')
    .max(MAX_POSTS_PER_DIRECTORY, `must be <= ${MAX_POSTS_PER_DIRECTORY}`)
    .default(64),
  /** Real time: how often the due set is polled (a commit in this process starts delivery at once anyway). */
  pollIntervalMs: positiveMs.default(250),
  /** How often directories whose log is ahead of their cursor are re-marked due (repairs lost wake-ups). */
  sweepIntervalMs: positiveMs.default(30 * SECOND),
  /** Delivered events older than this are trimmed from the log (the Events API window). */
  retentionMs: retentionMs.default(7 * DAY),
  /** Delivery attempt logs (directories with log_webhook_events) older than this are dropped. */
  logRetentionMs: retentionMs.default(7 * DAY),
});

export type WebhookOptions = z.input<typeof webhookOptions>;
export type ResolvedWebhookOptions = z.output<typeof webhookOptions>;
export type EngineTuning = z.input<typeof engineTuning>;
export type ResolvedEngineTuning = z.output<typeof engineTuning>;

/** Defaults for callers that name them (config.ts documents the environment with them). */
export const DELIVERY_DEFAULTS = { ...engineTuning.parse({}), timeoutMs: webhookOptions.parse({}).timeoutMs };

function resolve<S extends z.ZodType>(schema: S, input: unknown, prefix: string): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map(
    (i) => `${prefix}${i.path.join('.') || (i.code === 'unrecognized_keys' ? i.keys.join(', ') : '')}: ${i.message}`,
  );
  throw new InvalidDeliveryOptionError(`invalid delivery option: ${issues.join('; ')}`);
}

export const resolveWebhookOptions = (input: WebhookOptions | undefined): ResolvedWebhookOptions =>
  resolve(webhookOptions, input, 'webhook.');

export const resolveEngineTuning = (input: EngineTuning | undefined): ResolvedEngineTuning =>
  resolve(engineTuning, input, 'delivery.');
