/**
 * The schemas every pull provider's routes share (Google Workspace, Microsoft Entra ID, the HRIS): a sync status's
 * common fields, a sync run's report and a background run, for the OpenAPI document; `satisfies` ties each to the
 * provider-neutral type (providers/pull/), so a field added there without its schema fails to compile.
 */
import { z } from 'zod';
import type { SyncCounts, SyncState } from '../../providers/pull/sync-status.js';
import type { SyncRun } from '../../providers/pull/sync-runs.js';
import { DIRECTORY_EXAMPLE } from './response-schemas.js';

const timestamp = z.iso.datetime();
const SYNC_STATES = [
  'pending',
  'running',
  'succeeded',
  'failed',
  'guarded',
  'invalid_credentials',
  'not_authorized',
] as const satisfies readonly SyncState[];

/** The directory the examples name. */
export const DIRECTORY_ID = DIRECTORY_EXAMPLE.id;

const runErrorSchema = z.object({ code: z.string(), message: z.string() }).nullable();
/** A directory as a run and a report name it, before its outcome's fields. */
const runDirectorySchema = z.object({ id: z.string(), name: z.string(), tenant: z.string(), product: z.string() });

/** A run record's schema, with the provider's own per-directory states and counts. */
function syncRunSchema(outcome: { state: z.ZodType<string>; counts: z.ZodType<Record<string, number>> }) {
  return z.object({
    id: z.string(),
    provider: z.string(),
    state: z
      .enum(['running', 'succeeded', 'failed'])
      .describe('succeeded: every directory was tried (each reports its own outcome); failed: the run stopped (error)'),
    directory_id: z.string().nullable().describe('The directoryId the run was asked for; null: every directory'),
    started_at: timestamp,
    finished_at: timestamp.nullable(),
    progress: z.object({ directories: z.int(), done: z.int() }),
    directories: z.array(
      runDirectorySchema.extend({
        state: outcome.state.describe('pending, running, then the outcome of its sync'),
        counts: outcome.counts.nullable(),
        error: runErrorSchema,
      }),
    ),
    created: z.int(),
    updated: z.int(),
    deleted: z.int(),
    failed: z.int().describe('Directories whose sync failed or was stopped by the mass-deletion guard'),
    error: runErrorSchema.describe('Why the run stopped (state failed)'),
  }) satisfies z.ZodType<SyncRun>;
}

export const ZERO_COUNTS = {
  users_created: 0,
  users_updated: 0,
  users_deleted: 0,
  groups_created: 0,
  groups_updated: 0,
  groups_deleted: 0,
  members_added: 0,
  members_removed: 0,
};

const countsSchema = z.object({
  users_created: z.int(),
  users_updated: z.int(),
  users_deleted: z.int(),
  groups_created: z.int(),
  groups_updated: z.int(),
  groups_deleted: z.int(),
  members_added: z.int(),
  members_removed: z.int(),
}) satisfies z.ZodType<SyncCounts>;

const errorSchema = runErrorSchema.describe('Why the last run did not succeed');

/** The fields every pull provider's sync status has (pull/sync-status.ts). */
export const baseSyncStatusShape = {
  directory_id: z.string(),
  state: z.enum(SYNC_STATES),
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
  duration_ms: z.number().nullable(),
  counts: countsSchema,
  error: errorSchema,
  last_success_at: timestamp.nullable(),
};

/** A sync run's report, as both pull providers' cron routes answer it. */
const reportStateSchema = z
  .enum([...SYNC_STATES, 'skipped'])
  .describe('skipped: another run holds the directory right now');

export const syncReportObject = z.object({
  directories: z.array(
    runDirectorySchema.extend({ state: reportStateSchema, counts: countsSchema, error: errorSchema }),
  ),
  created: z.int(),
  updated: z.int(),
  deleted: z.int(),
  failed: z.int().describe('Directories whose run failed or was stopped by the mass-deletion guard'),
});

/** A background run (Prefer: respond-async) of a pull provider's sync: each provider names it and gives its example. */
export const syncRunObject = syncRunSchema({ state: reportStateSchema, counts: countsSchema });
