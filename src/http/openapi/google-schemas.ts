/**
 * What the Google routes answer inside `data`, as zod schemas for the OpenAPI document; `satisfies` ties each to
 * the provider's type, so a field added there without its schema fails to compile.
 */
import { z } from 'zod';
import { DIRECTORY_TYPES } from '../../core/model.js';
import type { GoogleDirectoryView, TokenSet } from '../../providers/google/authorization.js';
import type { SyncReport } from '../../providers/pull/runner.js';
import type { SyncStatus } from '../../providers/google/sync-status.js';
import {
  baseSyncStatusShape,
  DIRECTORY_ID,
  syncReportObject,
  syncRunObject,
  ZERO_COUNTS,
} from './pull-sync-schemas.js';

const TOKENS = { access_token: 'ya29.a0AfB_byC3x', refresh_token: '1//0gLx3bW2Q' };

export const tokenSetSchema = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    scope: z.string().describe('Space-separated scopes granted'),
    token_type: z.string(),
    expiry_date: z.int().describe('When the access token expires, epoch milliseconds'),
  })
  .meta({
    id: 'GoogleTokenSet',
    examples: [
      {
        ...TOKENS,
        scope: 'https://www.googleapis.com/auth/admin.directory.user.readonly',
        token_type: 'Bearer',
        expiry_date: 1795255200000,
      },
    ],
  }) satisfies z.ZodType<TokenSet>;

export const authorizationUrlSchema = z
  .object({
    authorizationUrl: z
      .string()
      .describe(
        "A single-use start link of this service, which goes on to Google's consent page, under the name the API has always given it",
      ),
  })
  .meta({
    id: 'GoogleAuthorizationUrl',
    examples: [
      {
        authorizationUrl:
          'https://dsync.example.com/api/v1/dsync/oauth/start/q8Hc0mXU3w2vJ3KjB1bH6bRk7mOa9sZl0y2uN4tE5pA',
      },
    ],
  });

export const googleDirectoryViewSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    tenant: z.string(),
    product: z.string(),
    type: z.enum(DIRECTORY_TYPES),
    google_domain: z.string().optional(),
    google_access_token: z.string().optional(),
    google_refresh_token: z.string().optional(),
  })
  .meta({
    id: 'GoogleDirectory',
    examples: [
      {
        id: DIRECTORY_ID,
        name: 'Acme (Google)',
        tenant: 'acme',
        product: 'app',
        type: 'google',
        google_domain: 'acme.io',
        google_access_token: TOKENS.access_token,
        google_refresh_token: TOKENS.refresh_token,
      },
    ],
  }) satisfies z.ZodType<GoogleDirectoryView>;

export const serviceAccountViewSchema = z
  .object({
    id: z.string(),
    client_email: z.string(),
    admin_email: z.string(),
    client_id: z.string().optional(),
  })
  .meta({
    id: 'GoogleServiceAccount',
    examples: [{ id: DIRECTORY_ID, client_email: 'sync@acme.iam.gserviceaccount.com', admin_email: 'admin@acme.io' }],
  });

export const syncStatusSchema = z
  .object({
    ...baseSyncStatusShape,
    listed: z.object({ users: z.int(), groups: z.int() }),
    google_requests: z.int(),
  })
  .meta({
    id: 'GoogleSyncStatus',
    examples: [
      {
        directory_id: DIRECTORY_ID,
        state: 'succeeded',
        started_at: '2026-11-21T08:00:00.000Z',
        finished_at: '2026-11-21T08:00:04.210Z',
        duration_ms: 4210,
        counts: { ...ZERO_COUNTS, users_created: 30, groups_created: 5, members_added: 3 },
        listed: { users: 30, groups: 5 },
        google_requests: 7,
        error: null,
        last_success_at: '2026-11-21T08:00:04.210Z',
      },
    ],
  }) satisfies z.ZodType<SyncStatus>;

export const syncReportSchema = syncReportObject.meta({
  id: 'GoogleSyncReport',
  examples: [
    {
      directories: [
        {
          id: DIRECTORY_ID,
          name: 'Acme (Google)',
          tenant: 'acme',
          product: 'app',
          state: 'succeeded',
          counts: { ...ZERO_COUNTS, users_created: 30 },
          error: null,
        },
      ],
      created: 30,
      updated: 0,
      deleted: 0,
      failed: 0,
    },
  ],
}) satisfies z.ZodType<SyncReport>;

export const syncRunRecordSchema = syncRunObject.meta({
  id: 'GoogleSyncRun',
  examples: [
    {
      id: '5f0c2a1e-8d3b-4c6f-9a7e-1b2c3d4e5f60',
      provider: 'google',
      state: 'succeeded',
      directory_id: null,
      started_at: '2026-11-21T08:00:00.000Z',
      finished_at: '2026-11-21T08:00:04.210Z',
      progress: { directories: 1, done: 1 },
      directories: [
        {
          id: DIRECTORY_ID,
          name: 'Acme (Google)',
          tenant: 'acme',
          product: 'app',
          state: 'succeeded',
          counts: { ...ZERO_COUNTS, users_created: 30 },
          error: null,
        },
      ],
      created: 30,
      updated: 0,
      deleted: 0,
      failed: 0,
      error: null,
    },
  ],
});
