/**
 * What the Microsoft Entra ID routes answer inside `data`, as named zod schemas with examples for the OpenAPI
 * document; `satisfies` ties each to the provider's type, so a field added there without its schema fails to
 * compile. The sync report and a background run have every pull provider's
 * shapes (pull-sync-schemas.ts).
 */
import { z } from 'zod';
import type { SyncReport } from '../../providers/pull/runner.js';
import type { MicrosoftSyncStatus } from '../../providers/microsoft/sync-status.js';
import {
  baseSyncStatusShape,
  DIRECTORY_ID,
  syncReportObject,
  syncRunObject,
  ZERO_COUNTS,
} from './pull-sync-schemas.js';

const timestamp = z.iso.datetime();
const TENANT_ID = 'aaaaaaaa-1111-4111-8111-111111111111';
const FINISHED = '2026-11-21T08:00:00.640Z';

export const adminConsentUrlSchema = z
  .object({
    adminConsentUrl: z
      .string()
      .describe("A single-use start link of this service, which goes on to Microsoft's admin-consent page"),
  })
  .meta({
    id: 'MicrosoftAdminConsentUrl',
    examples: [
      {
        adminConsentUrl:
          'https://dsync.example.com/api/v1/dsync/oauth/start/q8Hc0mXU3w2vJ3KjB1bH6bRk7mOa9sZl0y2uN4tE5pA',
      },
    ],
  });

const REPORT_EXAMPLE = {
  directories: [
    {
      id: DIRECTORY_ID,
      name: 'Contoso (Entra)',
      tenant: 'contoso',
      product: 'app',
      state: 'succeeded' as const,
      counts: { ...ZERO_COUNTS, users_updated: 2 },
      error: null,
    },
  ],
  created: 0,
  updated: 2,
  deleted: 0,
  failed: 0,
};

export const microsoftSyncReportSchema = syncReportObject.meta({
  id: 'MicrosoftSyncReport',
  examples: [REPORT_EXAMPLE],
}) satisfies z.ZodType<SyncReport>;

export const microsoftSyncStatusSchema = z
  .object({
    ...baseSyncStatusShape,
    tenant_id: z.string().nullable().describe('The Entra tenant synced'),
    mode: z
      .enum(['full', 'delta', 'resync'])
      .nullable()
      .describe('full: first sync; delta: changes only; resync: Graph refused the delta links'),
    seen: z.object({ users: z.int(), groups: z.int() }).describe("Users and groups the last run's delta rounds named"),
    graph_requests: z.int(),
    throttled: z.int().describe('Answers of the last run that told it to slow down (429/503 with Retry-After)'),
    notifications: z
      .object({
        state: z
          .enum(['off', 'active', 'failed'])
          .describe(
            'off: no public https URL; active: both subscriptions live; failed: see error (the sync itself may have succeeded)',
          ),
        expires_at: timestamp.nullable(),
        error: z.string().nullable().describe("Why subscribing failed, with Microsoft Graph's message"),
        retry_at: timestamp.nullable().describe('When subscribing is tried again, after a failure (backing off)'),
      })
      .describe("The change-notification subscriptions, reported apart from the sync's own state"),
  })
  .meta({
    id: 'MicrosoftSyncStatus',
    examples: [
      {
        directory_id: DIRECTORY_ID,
        state: 'succeeded',
        started_at: '2026-11-21T08:00:00.000Z',
        finished_at: FINISHED,
        duration_ms: 640,
        counts: { ...ZERO_COUNTS, users_updated: 2 },
        error: null,
        last_success_at: FINISHED,
        tenant_id: TENANT_ID,
        mode: 'delta',
        seen: { users: 2, groups: 0 },
        graph_requests: 2,
        throttled: 0,
        notifications: { state: 'active', expires_at: '2026-11-24T08:00:00.000Z', error: null, retry_at: null },
      },
    ],
  }) satisfies z.ZodType<MicrosoftSyncStatus>;

export const microsoftSyncRunSchema = syncRunObject.meta({
  id: 'MicrosoftSyncRun',
  examples: [
    {
      id: '5f0c2a1e-8d3b-4c6f-9a7e-1b2c3d4e5f60',
      provider: 'microsoft',
      state: 'succeeded',
      directory_id: null,
      started_at: '2026-11-21T08:00:00.000Z',
      finished_at: FINISHED,
      progress: { directories: 1, done: 1 },
      ...REPORT_EXAMPLE,
      error: null,
    },
  ],
});
