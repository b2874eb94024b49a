/**
 * Microsoft Entra ID routes (docs/reference/http-api.md), under /api/v1:
 *   GET  /directory-sync/<id>/microsoft/admin-consent-url[?redirect_url=]   a start link for the tenant's admin
 *   GET  /directory-sync/<id>/microsoft/sync         the last sync's status
 *   POST /dsync/cron/sync-microsoft[?directoryId=]   run the sync (Prefer: respond-async: in the background,
 *   GET  /dsync/cron/sync-microsoft/<runId>          and read it here; openapi/sync-run-routes.ts)
 */
import { z } from 'zod';
import { MAX_ID_LENGTH } from '../../core/input-limits.js';
import {
  adminConsentUrlSchema,
  microsoftSyncReportSchema,
  microsoftSyncRunSchema,
  microsoftSyncStatusSchema,
} from '../openapi/microsoft-schemas.js';
import { idParams, queryValue } from '../openapi/params.js';
import { route, type ApiRoute } from '../openapi/route-table.js';
import { syncRunRoutes } from '../openapi/sync-run-routes.js';

const TAG = 'Microsoft Entra ID';
const syncQuery = z.object({
  directoryId: queryValue('directoryId', MAX_ID_LENGTH)
    .optional()
    .describe('Sync only this directory (absent: every active Entra directory)'),
});

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
    summary:
      "A single-use link that sends an admin of the directory's tenant to Microsoft's admin-consent page (read-only directory permissions)",
    tag: TAG,
    params: idParams,
    query: redirectQuery,
    responses: { 200: { description: 'Send the admin there', data: adminConsentUrlSchema } },
    errors: [404, 409],
    handle: ({ params, query }, dsync) =>
      dsync.microsoft.adminConsentUrl({
        directoryId: params.id,
        ...(query.redirect_url && { redirectUrl: query.redirect_url }),
      }),
  }),
  route({
    method: 'get',
    path: '/directory-sync/:id/microsoft/sync',
    reach: 'directory',
    operationId: 'getMicrosoftSyncStatus',
    description:
      'The state of the last (or running) sync of the directory: its mode, counts, Graph requests, throttling, the error that stopped it, and its change-notification subscriptions.',
    summary: "The directory's last sync: state, mode (full, delta, resync), counts, Graph requests, notifications",
    tag: TAG,
    params: idParams,
    responses: { 200: { description: 'The sync status', data: microsoftSyncStatusSchema } },
    errors: [404],
    handle: ({ params }, dsync) => dsync.microsoft.syncStatus(params.id),
  }),
  ...syncRunRoutes({
    provider: 'microsoft',
    name: 'Microsoft',
    tag: TAG,
    what: 'every active Microsoft Entra ID directory',
    does: "Runs Graph's delta query for every active Entra directory (or one) and commits the differences with their events.",
    query: syncQuery,
    report: microsoftSyncReportSchema,
    run: microsoftSyncRunSchema,
    sync: (dsync, filter) => dsync.microsoft.sync(filter),
    runs: (dsync) => dsync.microsoft.runs,
  }),
];
