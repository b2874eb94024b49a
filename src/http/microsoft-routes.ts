/**
 * Microsoft Entra ID routes (DESIGN.md §4), under /api/v1:
 *   GET  /directory-sync/<id>/microsoft/admin-consent-url[?redirect_url=]   where to send the tenant's admin
 *   GET  /directory-sync/<id>/microsoft/sync         the last sync's status
 *   POST /dsync/cron/sync-microsoft[?directoryId=]   run the sync (`Prefer: respond-async`: 202 and a Location)
 *   GET  /dsync/cron/sync-microsoft/<runId>          a background run's state and report
 */
import { z } from 'zod';
import { MAX_ID_LENGTH } from '../core/limits.js';
import { NotFoundError } from '../core/errors.js';
import { asyncRunSchema, microsoftSyncStatusSchema, syncReportSchema } from './microsoft-schemas.js';
import { idParam, idParams, queryValue } from './params.js';
import { Answer, API_PREFIX, route, type ApiRoute } from './route-table.js';

const TAG = 'Microsoft Entra ID';
const syncQuery = z.object({ directoryId: queryValue('directoryId', MAX_ID_LENGTH).optional().describe('Sync only this directory') });

const redirectQuery = z.object({ redirect_url: queryValue('redirect_url', 2048).optional().describe('Where the callback sends the browser afterwards') });

export const microsoftRoutes: ApiRoute[] = [
  route({
    method: 'get',
    path: '/directory-sync/:id/microsoft/admin-consent-url',
    summary: "Microsoft's admin-consent URL for an admin of the directory's tenant (read-only directory permissions)",
    tag: TAG,
    params: idParams,
    query: redirectQuery,
    responses: { 200: { description: 'Send the admin there', data: z.object({ adminConsentUrl: z.string() }) } },
    errors: [404, 409],
    handle: ({ params, query }, dsync) =>
      dsync.microsoft.adminConsentUrl({ directoryId: params.id, ...(query.redirect_url && { redirectUrl: query.redirect_url }) }),
  }),
  route({
    method: 'get',
    path: '/directory-sync/:id/microsoft/sync',
    summary: "The directory's last sync: state, mode (full, delta, resync), counts, Graph requests, notifications",
    tag: TAG,
    params: idParams,
    responses: { 200: { description: 'The sync status', data: microsoftSyncStatusSchema } },
    errors: [404],
    handle: ({ params }, dsync) => dsync.microsoft.syncStatus(params.id),
  }),
  route({
    method: 'post',
    path: '/dsync/cron/sync-microsoft',
    summary: 'Sync every active Microsoft Entra ID directory (or one) now',
    tag: TAG,
    query: syncQuery,
    responses: {
      200: { description: 'What each directory did; a failing directory is reported, not an error', data: syncReportSchema },
      202: { description: '`Prefer: respond-async`: the run goes on (or the one already going is joined); GET its Location', data: asyncRunSchema },
    },
    errors: [404],
    handle: async ({ query }, dsync, res) => {
      const filter = query.directoryId ? { directoryId: query.directoryId } : {};
      if (!/\brespond-async\b/i.test(String(res.req.headers.prefer ?? ''))) return dsync.microsoft.sync(filter);
      const { run } = await dsync.microsoft.startSync(filter);
      res.setHeader('Location', `${API_PREFIX}/dsync/cron/sync-microsoft/${run.id}`);
      res.setHeader('Preference-Applied', 'respond-async');
      return new Answer(202, run);
    },
  }),
  route({
    method: 'get',
    path: '/dsync/cron/sync-microsoft/:runId',
    summary: 'A sync run started with `Prefer: respond-async`: its state, and its report once done',
    tag: TAG,
    params: z.object({ runId: idParam('runId') }),
    responses: { 200: { description: 'The run', data: asyncRunSchema } },
    errors: [404],
    handle: async ({ params }, dsync) => {
      // Like every route, a 503 while the store is down: no run can be progressing then.
      await dsync.health.ping();
      const run = dsync.microsoft.syncRun(params.runId);
      if (!run) throw new NotFoundError(`Sync run ${params.runId} not found (runs are kept by the replica that started them)`);
      return run;
    },
  }),
];
