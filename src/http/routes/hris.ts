/**
 * HRIS routes (BambooHR, HiBob, Personio; docs/reference/http-api.md), under /api/v1:
 *   PUT  /directory-sync/<id>/hris/credentials   tried with the provider at once; kept only when it accepted them
 *   GET  /directory-sync/<id>/hris/sync          the last sync's status
 *   POST /dsync/cron/sync-hris[?directoryId=]    run the sync (Prefer: respond-async: in the background,
 *   GET  /dsync/cron/sync-hris/<runId>           and read it here; openapi/sync-run-routes.ts)
 * The providers' webhooks (no Api-Key) are hris-webhooks.ts's.
 */
import { z } from 'zod';
import { MAX_ID_LENGTH } from '../../core/input-limits.js';
import {
  hrisConnectionSchema,
  hrisCredentialsInput,
  hrisSyncReportSchema,
  hrisSyncRunSchema,
  hrisSyncStatusSchema,
} from '../openapi/hris-schemas.js';
import { idParams, queryValue } from '../openapi/params.js';
import { route, type ApiRoute } from '../openapi/route-table.js';
import { syncRunRoutes } from '../openapi/sync-run-routes.js';

const TAG = 'HRIS (BambooHR, HiBob, Personio)';
const syncQuery = z.object({
  directoryId: queryValue('directoryId', MAX_ID_LENGTH)
    .optional()
    .describe('Sync only this directory (absent: every active HRIS directory)'),
});

export const hrisRoutes: ApiRoute[] = [
  route({
    method: 'put',
    path: '/directory-sync/:id/hris/credentials',
    reach: 'directory',
    operationId: 'setHrisCredentials',
    description:
      "The credentials of the directory's HR system, by its type: `{subdomain, api_key, webhook_secret?}` (bamboohr), " +
      '`{service_user_id, token}` (hibob), `{client_id, client_secret}` (personio). They are tried with the provider at once: ' +
      "a refusal (401/403) is a 400 that names the provider's answer, and nothing is stored; accepted, they replace the " +
      'previous ones (the next sync lists everything again) and a first sync starts within seconds. The answer never holds a ' +
      'secret. A directory managed by the operator takes them from its DirectoryConnection (403).',
    summary: "Connect the directory's HR system: credentials tried at once, kept only when accepted",
    tag: TAG,
    params: idParams,
    body: hrisCredentialsInput,
    responses: { 200: { description: 'Connected', data: hrisConnectionSchema } },
    errors: [403, 404, 502],
    handle: ({ params, body }, dsync) => dsync.hris.setCredentials(params.id, body),
  }),
  route({
    method: 'get',
    path: '/directory-sync/:id/hris/sync',
    reach: 'directory',
    operationId: 'getHrisSyncStatus',
    description:
      'The state of the last (or running) sync of the directory: its mode, counts, employees read, provider requests, throttling, and the error that stopped it.',
    summary: "The directory's last sync: state, mode (full, changed-since), counts, provider requests",
    tag: TAG,
    params: idParams,
    responses: { 200: { description: 'The sync status', data: hrisSyncStatusSchema } },
    errors: [404],
    handle: ({ params }, dsync) => dsync.hris.syncStatus(params.id),
  }),
  ...syncRunRoutes({
    provider: 'hris',
    name: 'Hris',
    tag: TAG,
    what: 'every active HRIS directory (BambooHR, HiBob, Personio)',
    does: "Reads every active HRIS directory's employees (or, for BambooHR, only those changed since the last run) and commits the differences with their events.",
    query: syncQuery,
    report: hrisSyncReportSchema,
    run: hrisSyncRunSchema,
    sync: (dsync, filter) => dsync.hris.sync(filter),
    runs: (dsync) => dsync.hris.runs,
  }),
];
