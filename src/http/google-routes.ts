/**
 * Google Workspace routes (DESIGN.md §4), under /api/v1:
 *   GET  /directory-sync/<id>/google/authorization-url[?redirect_url=]   step 1 → {authorizationUrl}
 *   POST /directory-sync/<id>/google/token {code}                        step 2 → token set
 *   PUT  /directory-sync/<id>/google/token {access_token, refresh_token}  step 3 → the directory's google view
 *   PUT  /directory-sync/<id>/google/service-account {key, admin_email}  service account (domain-wide delegation)
 *   GET  /directory-sync/<id>/google/sync                                the last sync's status
 *   POST /dsync/cron/sync-google[?directoryId=]                          run the sync (Prefer: respond-async: in the
 *   GET  /dsync/cron/sync-google/<runId>                                 background, and read it here; sync-run-routes.ts)
 * and, without Api-Key (the admin's browser; the signed state is the credential):
 *   GET  /dsync/google/callback?code=&state=                             steps 2 and 3, then a page or a redirect
 */
import { Router, type Response } from 'express';
import { z } from 'zod';
import { DsyncError } from '../core/errors.js';
import { MAX_ID_LENGTH } from '../core/limits.js';
import type { Logger } from '../logger.js';
import { codeInput, tokenInput } from '../providers/google/authorization.js';
import type { GoogleProvider } from '../providers/google/google.js';
import { serviceAccountInput } from '../providers/google/service-account.js';
import {
  googleDirectoryViewSchema,
  serviceAccountViewSchema,
  syncReportSchema,
  syncRunRecordSchema,
  syncStatusSchema,
  tokenSetSchema,
} from './google-schemas.js';
import { idParams, queryValue } from './params.js';
import { route, type ApiRoute } from './route-table.js';
import { syncRunRoutes } from './sync-run-routes.js';

const TAG = 'Google Workspace';
const redirectQuery = z.object({ redirect_url: queryValue('redirect_url', 2048).optional().describe('Where the callback sends the browser afterwards') });
const syncQuery = z.object({ directoryId: queryValue('directoryId', MAX_ID_LENGTH).optional().describe('Sync only this directory') });

export const googleRoutes: ApiRoute[] = [
  route({
    method: 'get',
    path: '/directory-sync/:id/google/authorization-url',
    summary: 'Step 1: the Google consent URL for an admin of the workspace',
    tag: TAG,
    params: idParams,
    query: redirectQuery,
    responses: { 200: { description: 'Send the admin there', data: z.object({ authorizationUrl: z.string() }) } },
    errors: [404, 409],
    handle: ({ params, query }, dsync) =>
      dsync.google.authorizationUrl({ directoryId: params.id, ...(query.redirect_url && { redirectUrl: query.redirect_url }) }),
  }),
  route({
    method: 'post',
    path: '/directory-sync/:id/google/token',
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
    summary: "The directory's last sync: state, times, counts, error",
    tag: TAG,
    params: idParams,
    responses: { 200: { description: 'The sync status', data: syncStatusSchema } },
    errors: [404],
    handle: ({ params }, dsync) => dsync.google.syncStatus(params.id),
  }),
  ...syncRunRoutes({
    provider: 'google',
    tag: TAG,
    what: 'every active Google directory',
    query: syncQuery,
    report: syncReportSchema,
    run: syncRunRecordSchema,
    sync: (dsync, filter) => dsync.google.sync(filter),
    runs: (dsync) => dsync.google.runs,
  }),
];

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(res: Response, status: number, title: string, text: string): void {
  res
    .status(status)
    .setHeader('Content-Type', 'text/html; charset=utf-8')
    .setHeader('Cache-Control', 'no-store')
    .setHeader('Content-Security-Policy', "default-src 'none'")
    .send(`<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`);
}

/** The browser callback: no Api-Key, so it answers a page (or redirects), never the envelope. */
export function googleCallbackRoute(google: GoogleProvider, logger: Logger): Router {
  const r = Router();
  r.get('/dsync/google/callback', async (req, res) => {
    const q = req.query as Record<string, unknown>;
    try {
      const { directoryId, redirectUrl } = await google.callback({ code: q.code, state: q.state, error: q.error });
      if (redirectUrl) {
        const to = new URL(redirectUrl);
        to.searchParams.set('directory_id', directoryId);
        to.searchParams.set('status', 'success');
        return res.redirect(303, to.toString());
      }
      page(res, 200, 'Google Workspace connected', `Directory ${directoryId} can now sync from Google Workspace. You can close this window.`);
    } catch (err) {
      const known = err instanceof DsyncError && err.status < 500;
      if (!known) logger.error({ err }, 'Google OAuth callback failed');
      const message = known ? err.message : 'The authorization could not be completed; try again later';
      const redirectUrl = google.redirectOf(q.state);
      if (redirectUrl) {
        const to = new URL(redirectUrl);
        to.searchParams.set('status', 'error');
        to.searchParams.set('error', err instanceof DsyncError ? err.code : 'DSYNC_INTERNAL');
        return res.redirect(303, to.toString());
      }
      page(res, err instanceof DsyncError ? err.status : 500, 'Google Workspace authorization failed', message);
    }
  });
  return r;
}
