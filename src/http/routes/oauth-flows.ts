/**
 * The browser's side of the pull providers' OAuth flows (providers/oauth/browser-flows.ts), under /api/v1,
 * without Api-Key (the single-use link, the state and the browser's cookie are the credentials):
 *   GET /dsync/oauth/start/<token>           a start link: binds the flow to this browser, then to the consent page
 *   GET /dsync/<provider>/callback?state=&…   the provider sends the browser back: a page, or a redirect to the
 *                                             flow's return URL with `status=success|error` (and `error=<code>`,
 *                                             `error_description=<why>`); or, for a flow of two steps at the
 *                                             provider, on to its next page with the next step's cookie
 * A new provider adds its callback to CALLBACKS.
 */
import { Router, type Response } from 'express';
import { DsyncError } from '../../core/errors.js';
import type { Logger } from '../../logger.js';
import { START_PATH, type BrowserFlows } from '../../providers/oauth/browser-flows.js';
import { setFlowCookie } from '../flow-cookie.js';
import { escapeHtml } from '../html.js';
import { admit } from '../middleware/request-metrics.js';
import { API_PREFIX, methodNotAllowed } from '../openapi/route-table.js';

/**
 * Headers of every browser answer: never cached, nothing loaded, the URL (codes, tokens) never sent on as Referer,
 * and never shown in a frame (a page that starts or finishes a consent must not be clickjacked;
 * `X-Frame-Options` for browsers that predate `frame-ancestors`).
 */
function browserHeaders(res: Response): Response {
  return res
    .setHeader('Cache-Control', 'no-store')
    .setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'")
    .setHeader('X-Frame-Options', 'DENY')
    .setHeader('Referrer-Policy', 'no-referrer');
}

/** The small HTML page the browser gets when a start or a callback ends here. */
function page(res: Response, status: number, title: string, text: string): void {
  browserHeaders(res)
    .status(status)
    .setHeader('Content-Type', 'text/html; charset=utf-8')
    .send(
      `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
        `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`,
    );
}

/**
 * Each provider's callback path (under /api/v1, as documented in docs/reference/http-api.md) and the name its pages
 * give it.
 */
export const CALLBACKS = [
  { provider: 'google', path: '/dsync/google/callback', title: 'Google Workspace' },
  { provider: 'microsoft', path: '/dsync/microsoft/callback', title: 'Microsoft Entra ID' },
] as const;

/** The start route's path under /api/v1. */
export const START_ROUTE = `${START_PATH.slice(API_PREFIX.length)}/:token`;

/** A coded error's message for the page; anything else is logged and told as a generic failure. */
function failure(err: unknown, logger: Logger, what: string): { status: number; code: string; message: string } {
  if (err instanceof DsyncError && err.status < 500)
    return { status: err.status, code: err.code, message: err.message };
  logger.error({ err }, `${what} failed`);
  return {
    status: err instanceof DsyncError ? err.status : 500,
    code: err instanceof DsyncError ? err.code : 'DSYNC_INTERNAL',
    message: 'The authorization could not be completed; try again later',
  };
}

function back(res: Response, returnTo: string, params: Record<string, string>): void {
  const to = new URL(returnTo);
  for (const [k, v] of Object.entries(params)) to.searchParams.set(k, v);
  browserHeaders(res).redirect(303, to.toString());
}

export function oauthRoutes(flows: BrowserFlows, logger: Logger): Router {
  const r = Router();
  r.get(START_ROUTE, async (req, res) => {
    try {
      const started = await flows.open(String(req.params.token));
      admit(res);
      setFlowCookie(res, started.cookie);
      browserHeaders(res).redirect(303, started.authorizationUrl);
    } catch (err) {
      const f = failure(err, logger, 'OAuth start');
      page(res, f.status, 'Authorization could not start', f.message);
    }
  });
  for (const { provider, path, title } of CALLBACKS) {
    r.get(path, async (req, res) => {
      const q = req.query as Record<string, unknown>;
      const spent = flows.spent(q.state);
      if (spent) setFlowCookie(res, spent);
      try {
        const done = await flows.finish(provider, q, req.get('cookie'));
        admit(res); // the state and the browser checked out, whatever the provider's step then said
        if (done.next) {
          setFlowCookie(res, done.next.cookie);
          return browserHeaders(res).redirect(303, done.next.authorizationUrl);
        }
        if (done.error === undefined) {
          if (done.returnTo) return back(res, done.returnTo, { directory_id: done.directoryId, status: 'success' });
          return page(
            res,
            200,
            `${title} connected`,
            done.done ?? `Directory ${done.directoryId} can now sync from ${title}. You can close this window.`,
          );
        }
        const f = failure(done.error, logger, `${title} OAuth callback`);
        // The reason goes back too (OAuth's error_description): the page there says why, not only that it failed.
        if (done.returnTo)
          return back(res, done.returnTo, {
            directory_id: done.directoryId,
            status: 'error',
            error: f.code,
            error_description: f.message,
          });
        page(res, f.status, `${title} authorization failed`, f.message);
      } catch (err) {
        // No flow (bad state) or not this browser's: nothing to send anywhere but this page.
        const f = failure(err, logger, `${title} OAuth callback`);
        page(res, f.status, `${title} authorization failed`, f.message);
      }
    });
  }
  // Every other method, OPTIONS included (the router would answer that one 200 by itself), is a 405 as elsewhere.
  r.all([START_ROUTE, ...CALLBACKS.map((c) => c.path)], methodNotAllowed(['GET', 'HEAD']));
  return r;
}
