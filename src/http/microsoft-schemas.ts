/**
 * What the Microsoft Entra ID routes answer inside `data`, as zod schemas for the OpenAPI document; `satisfies`
 * ties each to the provider's type, so a field added there without its schema fails to compile. The sync report
 * has the Google route's shape.
 */
import { z } from 'zod';
import type { MicrosoftSyncStatus } from '../providers/microsoft/sync-status.js';
import { baseSyncStatusShape, errorSchema } from './google-schemas.js';

import type { AsyncRun } from '../providers/pull/async-runs.js';
import { syncReportSchema } from './google-schemas.js';

export { syncReportSchema };

const timestamp = z.iso.datetime();

export const microsoftSyncStatusSchema = z.object({
  ...baseSyncStatusShape,
  tenant_id: z.string().nullable().describe('The Entra tenant synced'),
  mode: z.enum(['full', 'delta', 'resync']).nullable().describe('full: first sync; delta: changes only; resync: Graph refused the delta links'),
  seen: z.object({ users: z.int(), groups: z.int() }).describe("Users and groups the last run's delta rounds named"),
  graph_requests: z.int(),
  throttled: z.int().describe('Answers of the last run that told it to slow down (429/503 with Retry-After)'),
  notifications: z.object({
    state: z.enum(['off', 'active', 'failed']),
    expires_at: timestamp.nullable(),
    error: z.string().nullable(),
  }),
}) satisfies z.ZodType<MicrosoftSyncStatus>;

export const asyncRunSchema = z.object({
  id: z.string(),
  state: z.enum(['running', 'succeeded', 'failed']),
  started_at: timestamp,
  finished_at: timestamp.nullable(),
  report: syncReportSchema.nullable().describe('What the synchronous form answers, once the run is done'),
  error: errorSchema.describe('Why the run could not work (the store unreachable); a failing directory is in the report'),
}) satisfies z.ZodType<AsyncRun>;
