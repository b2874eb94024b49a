/**
 * What the HRIS routes take and answer inside `data`, as named zod schemas with examples for the OpenAPI
 * document; `satisfies` ties each to the provider's type. The sync report and a background run have every pull
 * provider's shapes (pull-sync-schemas.ts).
 */
import { z } from 'zod';
import type { SyncReport } from '../../providers/pull/runner.js';
import { HRIS_TYPES } from '../../providers/hris/connector.js';
import type { HrisConnectionView } from '../../providers/hris/hris.js';
import type { HrisSyncStatus } from '../../providers/hris/sync-status.js';
import {
  baseSyncStatusShape,
  DIRECTORY_ID,
  syncReportObject,
  syncRunObject,
  ZERO_COUNTS,
} from './pull-sync-schemas.js';

const FINISHED = '2026-11-21T08:00:01.200Z';

/** The PUT body: one of the three credential shapes (the directory's type decides which; checked by the provider). */
export const hrisCredentialsInput = z
  .looseObject({
    subdomain: z.string().optional().describe('BambooHR: the company part of <subdomain>.bamboohr.com'),
    api_key: z.string().optional().describe('BambooHR: an API key of a user who may read every employee'),
    webhook_secret: z
      .string()
      .optional()
      .describe("BambooHR (optional): the webhook's private key; without it, webhook calls are refused"),
    service_user_id: z.string().optional().describe('HiBob: the service user id'),
    token: z.string().optional().describe("HiBob: the service user's token"),
    client_id: z.string().optional().describe('Personio: the API credential client id'),
    client_secret: z.string().optional().describe('Personio: the API credential client secret'),
  })
  .meta({
    id: 'HrisCredentialsInput',
    examples: [{ subdomain: 'acme', api_key: 'b5e1c0ffee0d15ea5e7b0b5e1c0ffee0d15ea5e7' }],
  });

export const hrisConnectionSchema = z
  .object({
    directory_id: z.string(),
    type: z.enum(HRIS_TYPES),
    provider: z.string().describe('BambooHR, HiBob or Personio'),
    connected_at: z.iso.datetime(),
    account: z.record(z.string(), z.string()).describe('The credentials’ fields that are not secret'),
  })
  .meta({
    id: 'HrisConnection',
    examples: [
      {
        directory_id: DIRECTORY_ID,
        type: 'bamboohr',
        provider: 'BambooHR',
        connected_at: '2026-11-21T08:00:00.000Z',
        account: { subdomain: 'acme', webhook_signing: 'off' },
      },
    ],
  }) satisfies z.ZodType<HrisConnectionView>;

const REPORT_EXAMPLE = {
  directories: [
    {
      id: DIRECTORY_ID,
      name: 'Acme (BambooHR)',
      tenant: 'acme',
      product: 'app',
      state: 'succeeded' as const,
      counts: { ...ZERO_COUNTS, users_updated: 1 },
      error: null,
    },
  ],
  created: 0,
  updated: 1,
  deleted: 0,
  failed: 0,
};

export const hrisSyncReportSchema = syncReportObject.meta({
  id: 'HrisSyncReport',
  examples: [REPORT_EXAMPLE],
}) satisfies z.ZodType<SyncReport>;

export const hrisSyncStatusSchema = z
  .object({
    ...baseSyncStatusShape,
    provider: z.enum(HRIS_TYPES).nullable(),
    mode: z
      .enum(['full', 'changed-since'])
      .nullable()
      .describe("full: every employee listed and diffed; changed-since: only the employees BambooHR's feed named"),
    employees_read: z.int().describe('Employees the last run read'),
    provider_requests: z.int().describe('Requests to the provider in the last run (retries included)'),
    throttled: z.int().describe('Answers of the last run that told it to slow down (429, or 503 with Retry-After)'),
  })
  .meta({
    id: 'HrisSyncStatus',
    examples: [
      {
        directory_id: DIRECTORY_ID,
        state: 'succeeded',
        started_at: '2026-11-21T08:00:00.000Z',
        finished_at: FINISHED,
        duration_ms: 1200,
        counts: { ...ZERO_COUNTS, users_updated: 1 },
        error: null,
        last_success_at: FINISHED,
        provider: 'bamboohr',
        mode: 'changed-since',
        employees_read: 1,
        provider_requests: 2,
        throttled: 0,
      },
    ],
  }) satisfies z.ZodType<HrisSyncStatus>;

export const hrisSyncRunSchema = syncRunObject.meta({
  id: 'HrisSyncRun',
  examples: [
    {
      id: '7a1c2a1e-8d3b-4c6f-9a7e-1b2c3d4e5f61',
      provider: 'hris',
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
