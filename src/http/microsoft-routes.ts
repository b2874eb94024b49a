/**
 * Microsoft Entra ID routes (DESIGN.md §4), under /api/v1:
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

export const microsoftRoutes: ApiRoute[] = [
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
