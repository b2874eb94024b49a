/**
 * Microsoft Entra ID routes (DESIGN.md §4), under /api/v1:
 *   GET  /directory-sync/<id>/microsoft/admin-consent-url[?redirect_url=]   a start link for the tenant's admin
 *   GET  /directory-sync/<id>/microsoft/sync         the last sync's status
 *   POST /dsync/cron/sync-microsoft[?directoryId=]   run the sync (`Prefer: respond-async`: 202 and a Location)
 *   GET  /dsync/cron/sync-microsoft/<runId>          a background run's state and report
 */
import { z } from 'zod';
import { MAX_ID_LENGTH } from '../core/limits.js';
import { NotFoundError } from '../core/errors.js';
import { adminConsentUrlSchema, asyncRunSchema, microsoftSyncReportSchema, microsoftSyncStatusSchema } from './microsoft-schemas.js';
import { idParam, idParams, queryValue } from './params.js';
import { Answer, API_PREFIX, route, type ApiRoute } from './route-table.js';

const TAG = 'Microsoft Entra ID';
const syncQuery = z.object({ directoryId: queryValue('directoryId', MAX_ID_LENGTH).optional().describe('Sync only this directory (absent: every active Entra directory)') });

const redirectQuery = z.object({
  redirect_url: z
    .url({ protocol: /^https?$/, error: 'redirect_url must be an http(s) URL' })
    .max(2048, 'redirect_url must be at most 2048 characters')
    .optional()
    .describe('Where the callback sends the browser afterwards (with directory_id and status)'),
});

export const microsoftRoutes: ApiRoute[] = [
  route({
    method: 'get',
    path: '/directory-sync/:id/microsoft/admin-consent-url',
    reach: 'directory',
    changes: true,
    operationId: 'getMicrosoftAdminConsentUrl',
    description:
      "Send an admin of the customer's tenant to this URL (valid 15 minutes, opened once): it binds the flow to the browser that " +
      "opens it (a cookie), then goes on to Microsoft's admin-consent page; after consent Microsoft sends the browser to the " +
      'callback, which, in that browser only, connects the directory (checking the tenant it names, if any), subscribes to change ' +
      'notifications and starts the first sync. Each URL is a flow of its own. Needs the app configured (DSYNC_MICROSOFT_CLIENT_ID ' +
      'and a secret or certificate), else 409. Not for read-only keys.',
    summary: "A single-use link that sends an admin of the directory's tenant to Microsoft's admin-consent page (read-only directory permissions)",
    tag: TAG,
    params: idParams,
    query: redirectQuery,
    responses: { 200: { description: 'Send the admin there', data: adminConsentUrlSchema } },
    errors: [404, 409],
    handle: ({ params, query }, dsync) =>
      dsync.microsoft.adminConsentUrl({ directoryId: params.id, ...(query.redirect_url && { redirectUrl: query.redirect_url }) }),
  }),
  route({
    method: 'get',
    path: '/directory-sync/:id/microsoft/sync',
    reach: 'directory',
    operationId: 'getMicrosoftSyncStatus',
    description: 'The state of the last (or running) sync of the directory: its mode, counts, Graph requests, throttling, the error that stopped it, and its change-notification subscriptions.',
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
    operationId: 'syncMicrosoft',
    description:
      "Runs Graph's delta query for every active Entra directory (or one) and commits the differences with their events. A directory " +
      'that fails is reported in the answer (`failed`), not as an error status. With `Prefer: respond-async` the answer is a 202 ' +
      'with a `Location` to read the run from; a request while a run of the same scope goes joins it.',
    summary: 'Sync every active Microsoft Entra ID directory (or one) now',
    tag: TAG,
    query: syncQuery,
    responses: {
      200: { description: 'What each directory did; a failing directory is reported, not an error', data: microsoftSyncReportSchema },
      202: { description: '`Prefer: respond-async`: the run goes on (or the one already going is joined); GET its Location', data: asyncRunSchema },
    },
    errors: [404],
    handle: async ({ query }, dsync, res) => {
      const filter = query.directoryId !== undefined ? { directoryId: query.directoryId } : {};
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
    operationId: 'getMicrosoftSyncRun',
    description: 'A run started with `Prefer: respond-async`: running, then succeeded with its report (or failed when it could not work). Runs are kept by the replica that started them.',
    summary: 'A sync run started with `Prefer: respond-async`: its state, and its report once done',
    tag: TAG,
    params: z.object({ runId: idParam('runId').describe('The id in the Location of the 202') }),
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
