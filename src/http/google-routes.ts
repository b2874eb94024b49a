/**
 * Google Workspace routes (DESIGN.md §4), under /api/v1:
 *   GET  /directory-sync/<id>/google/authorization-url[?redirect_url=]   step 1 → {authorizationUrl}
 *   POST /directory-sync/<id>/google/token {code}                        step 2 → token set
 *   PUT  /directory-sync/<id>/google/token {access_token, refresh_token}  step 3 → the directory's google view
 *   PUT  /directory-sync/<id>/google/service-account {key, admin_email}  service account (domain-wide delegation)
 *   GET  /directory-sync/<id>/google/sync                                the last sync's status
 *   POST /dsync/cron/sync-google[?directoryId=]                          run the sync
 * The admin's browser (no Api-Key) opens step 1's link and comes back to /dsync/google/callback: oauth-routes.ts.
 */
import { z } from 'zod';
import { MAX_ID_LENGTH } from '../core/limits.js';
import { codeInput, tokenInput } from '../providers/google/authorization.js';
import { serviceAccountInput } from '../providers/google/service-account.js';
import { googleDirectoryViewSchema, serviceAccountViewSchema, syncReportSchema, syncStatusSchema, tokenSetSchema } from './google-schemas.js';
import { idParams, queryValue } from './params.js';
import { route, type ApiRoute } from './route-table.js';

const TAG = 'Google Workspace';
const redirectQuery = z.object({ redirect_url: queryValue('redirect_url', 2048).optional().describe('Where the callback sends the browser afterwards') });
const syncQuery = z.object({ directoryId: queryValue('directoryId', MAX_ID_LENGTH).optional().describe('Sync only this directory') });

export const googleRoutes: ApiRoute[] = [
  route({
    method: 'get',
    path: '/directory-sync/:id/google/authorization-url',
    reach: 'directory',
    summary: "Step 1: a single-use link for an admin of the workspace: it binds the flow to the browser that opens it, then goes to Google's consent page",
    tag: TAG,
    params: idParams,
    query: redirectQuery,
    responses: { 200: { description: 'Send the admin there (valid 15 minutes, opened once)', data: z.object({ authorizationUrl: z.string() }) } },
    errors: [404, 409],
    handle: ({ params, query }, dsync) =>
      dsync.google.authorizationUrl({ directoryId: params.id, ...(query.redirect_url && { redirectUrl: query.redirect_url }) }),
  }),
  route({
    method: 'post',
    path: '/directory-sync/:id/google/token',
    reach: 'directory',
    secrets: true,
    summary: 'Step 2: exchange an authorization code for the token set',
    tag: TAG,
    params: idParams,
    body: codeInput,
    responses: { 200: { description: 'The token set (SPEC §2.5)', data: tokenSetSchema } },
    errors: [404, 409, 502],
    handle: ({ params, body }, dsync) => dsync.google.exchangeCode({ directoryId: params.id, code: body.code }),
  }),
  route({
    method: 'put',
    path: '/directory-sync/:id/google/token',
    reach: 'directory',
    secrets: true,
    summary: 'Step 3: set the tokens the sync uses',
    tag: TAG,
    params: idParams,
    body: tokenInput,
    responses: { 200: { description: 'The directory (id, name, tenant, product, type and its google_* fields)', data: googleDirectoryViewSchema } },
    errors: [404],
    handle: ({ params, body }, dsync) =>
      dsync.google.setToken({ directoryId: params.id, accessToken: body.access_token, refreshToken: body.refresh_token }),
  }),
  route({
    method: 'put',
    path: '/directory-sync/:id/google/service-account',
    reach: 'directory',
    summary: 'Use a service account with domain-wide delegation instead of the OAuth flow',
    tag: TAG,
    params: idParams,
    body: serviceAccountInput,
    responses: { 200: { description: 'The service account, without its key', data: serviceAccountViewSchema } },
    errors: [403, 404],
    handle: ({ params, body }, dsync) => dsync.google.setServiceAccount(params.id, body),
  }),
  route({
    method: 'get',
    path: '/directory-sync/:id/google/sync',
    reach: 'directory',
    summary: "The directory's last sync: state, times, counts, error",
    tag: TAG,
    params: idParams,
    responses: { 200: { description: 'The sync status', data: syncStatusSchema } },
    errors: [404],
    handle: ({ params }, dsync) => dsync.google.syncStatus(params.id),
  }),
  route({
    method: 'post',
    path: '/dsync/cron/sync-google',
    summary: 'Sync every active Google directory (or one) now',
    tag: TAG,
    query: syncQuery,
    responses: { 200: { description: 'What each directory did; a failing directory is reported, not an error', data: syncReportSchema } },
    errors: [404],
    handle: ({ query }, dsync) => dsync.google.sync(query.directoryId ? { directoryId: query.directoryId } : {}),
  }),
];
