/**
 * Microsoft Entra ID routes (DESIGN.md §4), under /api/v1:
 *   GET  /directory-sync/<id>/microsoft/admin-consent-url[?redirect_url=]   where to send the tenant's admin
 *   GET  /directory-sync/<id>/microsoft/sync         the last sync's status
 *   POST /dsync/cron/sync-microsoft[?directoryId=]   run the sync
 */
import { z } from 'zod';
import { MAX_ID_LENGTH } from '../core/limits.js';
import { microsoftSyncStatusSchema, syncReportSchema } from './microsoft-schemas.js';
import { idParams, queryValue } from './params.js';
import { route, type ApiRoute } from './route-table.js';

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
    responses: { 200: { description: 'What each directory did; a failing directory is reported, not an error', data: syncReportSchema } },
    errors: [404],
    handle: ({ query }, dsync) => dsync.microsoft.sync(query.directoryId ? { directoryId: query.directoryId } : {}),
  }),
];
