/**
 * What the Google routes answer inside `data`, as zod schemas for the OpenAPI document; `satisfies` ties each to
 * the provider's type, so a field added there without its schema fails to compile.
 */
import { z } from 'zod';
import { DIRECTORY_TYPES } from '../core/model.js';
import type { GoogleDirectoryView, TokenSet } from '../providers/google/authorization.js';
import type { SyncReport } from '../providers/google/google-sync.js';
import type { SyncCounts, SyncState, SyncStatus } from '../providers/google/sync-status.js';
import { runDirectorySchema, runErrorSchema, syncRunSchema } from './sync-run-routes.js';

const timestamp = z.iso.datetime();
const SYNC_STATES = ['pending', 'running', 'succeeded', 'failed', 'guarded', 'invalid_credentials', 'not_authorized'] as const satisfies readonly SyncState[];

export const tokenSetSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  scope: z.string(),
  token_type: z.string(),
  expiry_date: z.number().describe('Epoch milliseconds'),
}) satisfies z.ZodType<TokenSet>;

export const googleDirectoryViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  tenant: z.string(),
  product: z.string(),
  type: z.enum(DIRECTORY_TYPES),
  google_domain: z.string().optional(),
  google_access_token: z.string().optional(),
  google_refresh_token: z.string().optional(),
}) satisfies z.ZodType<GoogleDirectoryView>;

export const serviceAccountViewSchema = z.object({
  id: z.string(),
  client_email: z.string(),
  admin_email: z.string(),
  client_id: z.string().optional(),
});

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

export const syncStatusSchema = z.object({
  directory_id: z.string(),
  state: z.enum(SYNC_STATES),
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
  duration_ms: z.number().nullable(),
  counts: countsSchema,
  listed: z.object({ users: z.int(), groups: z.int() }),
  google_requests: z.int(),
  error: runErrorSchema,
  last_success_at: timestamp.nullable(),
}) satisfies z.ZodType<SyncStatus>;

const reportStateSchema = z.enum([...SYNC_STATES, 'skipped']).describe('skipped: another run holds the directory right now');

export const syncReportSchema = z.object({
  directories: z.array(runDirectorySchema.extend({ state: reportStateSchema, counts: countsSchema, error: runErrorSchema })),
  created: z.int(),
  updated: z.int(),
  deleted: z.int(),
  failed: z.int().describe('Directories whose run failed or was stopped by the mass-deletion guard'),
}) satisfies z.ZodType<SyncReport>;

/** A background run (Prefer: respond-async) of the Google sync. */
export const syncRunRecordSchema = syncRunSchema({ state: reportStateSchema, counts: countsSchema });
