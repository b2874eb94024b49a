/**
 * Google Workspace routes (DESIGN.md §4), under /api/v1:
 *   GET  /directory-sync/<id>/google/authorization-url[?redirect_url=]   step 1 → {authorizationUrl}
 *   POST /directory-sync/<id>/google/token {code}                        step 2 → token set
 *   PUT  /directory-sync/<id>/google/token {access_token, refresh_token}  step 3 → the directory's google view
 *   PUT  /directory-sync/<id>/google/service-account {key, admin_email}  service account (domain-wide delegation)
 *   GET  /directory-sync/<id>/google/sync                                the last sync's status
 *   POST /dsync/cron/sync-google[?directoryId=]                          run the sync
 * and, without Api-Key (the admin's browser; the signed state is the credential):
 *   GET  /dsync/google/callback?code=&state=                             steps 2 and 3, then a page or a redirect
 */
import { Router, type Response } from 'express';
import { DsyncError, ValidationError } from '../core/errors.js';
import type { Logger } from '../logger.js';
import type { GoogleProvider } from '../providers/google/google.js';
import { ok } from './envelope.js';
import { idParam, parseScopeQuery } from './params.js';

const single = (value: unknown, name: string): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ValidationError(`${name} must be given once, as a string`, name);
  return value;
};

export function googleRoutes(google: GoogleProvider): Router {
  const r = Router();
  r.param('id', idParam);

  r.get('/directory-sync/:id/google/authorization-url', async (req, res) => {
    const redirectUrl = single(req.query.redirect_url, 'redirect_url');
    ok(res, await google.authorizationUrl({ directoryId: req.params.id, ...(redirectUrl && { redirectUrl }) }));
  });
  // The provider validates the fields (zod): a missing or non-string token is a 400 naming it.
  r.post('/directory-sync/:id/google/token', async (req, res) => {
    const body = (req.body ?? {}) as { code: string };
    ok(res, await google.exchangeCode({ directoryId: req.params.id, code: body.code }));
  });
  r.put('/directory-sync/:id/google/token', async (req, res) => {
    const body = (req.body ?? {}) as { access_token: string; refresh_token: string };
    ok(res, await google.setToken({ directoryId: req.params.id, accessToken: body.access_token, refreshToken: body.refresh_token }));
  });
  r.put('/directory-sync/:id/google/service-account', async (req, res) => ok(res, await google.setServiceAccount(req.params.id, req.body)));
  r.get('/directory-sync/:id/google/sync', async (req, res) => ok(res, await google.syncStatus(req.params.id)));
  r.post('/dsync/cron/sync-google', async (req, res) => {
    const { directoryId } = parseScopeQuery({ directoryId: req.query.directoryId });
    ok(res, await google.sync(directoryId ? { directoryId } : {}));
  });
  return r;
}

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
