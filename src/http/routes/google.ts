/**
 * Google Workspace routes (docs/reference/http-api.md), under /api/v1:
 *   GET  /directory-sync/<id>/google/authorization-url[?redirect_url=]   step 1 → {authorizationUrl}
 *   POST /directory-sync/<id>/google/token {code}                        step 2 → token set
 *   PUT  /directory-sync/<id>/google/token {access_token, refresh_token}  step 3 → the directory's google view
 *   PUT  /directory-sync/<id>/google/service-account {key, admin_email}  service account (domain-wide delegation)
 *   GET  /directory-sync/<id>/google/sync                                the last sync's status
 *   POST /dsync/cron/sync-google[?directoryId=]                          run the sync (Prefer: respond-async: in the
 *   GET  /dsync/cron/sync-google/<runId>                                 background, and read it here; openapi/sync-run-routes.ts)
 * The admin's browser (no Api-Key) opens step 1's link and comes back to /dsync/google/callback: oauth-flows.ts.
 */
import { z } from 'zod';
import { MAX_ID_LENGTH } from '../../core/input-limits.js';
import { codeInput, tokenInput } from '../../providers/google/authorization.js';
import { serviceAccountInput } from '../../providers/google/service-account.js';
import {
  authorizationUrlSchema,
  googleDirectoryViewSchema,
  serviceAccountViewSchema,
  syncReportSchema,
  syncRunRecordSchema,
  syncStatusSchema,
  tokenSetSchema,
} from '../openapi/google-schemas.js';
import { idParams, queryValue } from '../openapi/params.js';
import { route, type ApiRoute } from '../openapi/route-table.js';
import { syncRunRoutes } from '../openapi/sync-run-routes.js';

const TAG = 'Google Workspace';
const redirectQuery = z.object({
  redirect_url: z
    .url({ protocol: /^https?$/, error: 'redirect_url must be an http(s) URL' })
    .max(2048, 'redirect_url must be at most 2048 characters')
    .optional()
    .describe('Where the callback sends the browser afterwards (with directory_id and status)'),
});
const syncQuery = z.object({
  directoryId: queryValue('directoryId', MAX_ID_LENGTH)
    .optional()
    .describe('Sync only this directory (absent: every active Google directory)'),
});

export const googleRoutes: ApiRoute[] = [
  route({
    method: 'get',
    path: '/directory-sync/:id/google/authorization-url',
    reach: 'directory',
    changes: true,
    operationId: 'getGoogleAuthorizationUrl',
    summary: "Step 1: a single-use link that sends an admin of the workspace to Google's consent page",
    description:
      'Send an admin of the workspace to this URL (valid 15 minutes, opened once): it binds the flow to the browser that opens it ' +
      "(a cookie), then goes on to Google's consent page; after consent Google sends the browser to the callback, which does " +
      "steps 2 and 3 in that browser only, for an account of the directory's google_domain. " +
      'Needs the OAuth client configured (DSYNC_GOOGLE_CLIENT_ID/SECRET), else 409. Not for read-only keys.',
    tag: TAG,
    params: idParams,
    query: redirectQuery,
    responses: { 200: { description: 'Send the admin there', data: authorizationUrlSchema } },
    errors: [404, 409],
    handle: ({ params, query }, dsync) =>
      dsync.google.authorizationUrl({
        directoryId: params.id,
        ...(query.redirect_url && { redirectUrl: query.redirect_url }),
      }),
  }),
  route({
    method: 'post',
    path: '/directory-sync/:id/google/token',
    reach: 'directory',
    secrets: true,
    operationId: 'exchangeGoogleCode',
    summary: 'Step 2: exchange an authorization code for the token set',
    description:
      'Exchanges the code Google gave the callback for the token set; nothing is stored (step 3 stores the tokens). With a ' +
      'google_domain, a code from an account of another workspace is a 400 (DSYNC_GOOGLE_WRONG_WORKSPACE).',
    tag: TAG,
    params: idParams,
    body: codeInput,
    requestExample: { code: '4/0AfJohXl' },
    responses: { 200: { description: 'The token set', data: tokenSetSchema } },
    errors: [404, 409, 502],
    handle: ({ params, body }, dsync) => dsync.google.exchangeCode({ directoryId: params.id, code: body.code }),
  }),
  route({
    method: 'put',
    path: '/directory-sync/:id/google/token',
    reach: 'directory',
    secrets: true,
    operationId: 'setGoogleTokens',
    summary: 'Step 3: set the tokens the sync uses',
    description:
      'Stores the tokens on the directory (visible ASCII, as they travel in headers); the next sync uses them.',
    tag: TAG,
    params: idParams,
    body: tokenInput,
    requestExample: { access_token: 'ya29.a0AfB_byC3x', refresh_token: '1//0gLx3bW2Q' },
    responses: {
      200: {
        description: 'The directory (id, name, tenant, product, type and its google_* fields)',
        data: googleDirectoryViewSchema,
      },
    },
    errors: [404],
    handle: ({ params, body }, dsync) =>
      dsync.google.setToken({
        directoryId: params.id,
        accessToken: body.access_token,
        refreshToken: body.refresh_token,
      }),
  }),
  route({
    method: 'put',
    path: '/directory-sync/:id/google/service-account',
    reach: 'directory',
    operationId: 'setGoogleServiceAccount',
    summary: 'Use a service account with domain-wide delegation instead of the OAuth flow',
    description: "The service account's JSON key and the admin it acts for; the key is stored, never shown back.",
    tag: TAG,
    params: idParams,
    body: serviceAccountInput,
    requestExample: {
      key: {
        type: 'service_account',
        client_email: 'sync@acme.iam.gserviceaccount.com',
        private_key: '-----BEGIN PRIVATE KEY-----\n…\n-----END PRIVATE KEY-----\n',
      },
      admin_email: 'admin@acme.io',
    },
    responses: { 200: { description: 'The service account, without its key', data: serviceAccountViewSchema } },
    errors: [403, 404],
    handle: ({ params, body }, dsync) => dsync.google.setServiceAccount(params.id, body),
  }),
  route({
    method: 'get',
    path: '/directory-sync/:id/google/sync',
    reach: 'directory',
    operationId: 'getGoogleSyncStatus',
    summary: "The directory's last sync: state, times, counts, error",
    description: 'The state of the last (or running) sync of the directory, its counts and the error that stopped it.',
    tag: TAG,
    params: idParams,
    responses: { 200: { description: 'The sync status', data: syncStatusSchema } },
    errors: [404],
    handle: ({ params }, dsync) => dsync.google.syncStatus(params.id),
  }),
  ...syncRunRoutes({
    provider: 'google',
    name: 'Google',
    tag: TAG,
    what: 'every active Google directory',
    does: 'Pulls users, groups and memberships from Google and commits the differences with their events.',
    query: syncQuery,
    report: syncReportSchema,
    run: syncRunRecordSchema,
    sync: (dsync, filter) => dsync.google.sync(filter),
    runs: (dsync) => dsync.google.runs,
  }),
];
