/**
 * The OAuth-style browser callbacks of the pull providers (Google's consent, Entra's admin consent): no Api-Key
 * (the signed state is the credential), so they answer a small HTML page — or a 303 back to the `redirect_url`
 * the flow was started with, with `status` and `directory_id` (or `error`) — never the JSON envelope.
 */
import { Router, type Response } from 'express';
import { DsyncError } from '../core/errors.js';
import type { Logger } from '../logger.js';
import { html } from './html.js';
import { methodNotAllowed } from './route-table.js';

function page(res: Response, status: number, title: string, text: string): void {
  res
    .status(status)
    .setHeader('Content-Type', 'text/html; charset=utf-8')
    .setHeader('Cache-Control', 'no-store')
    .setHeader('Content-Security-Policy', "default-src 'none'")
    .send(html`<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`.text);
}

export interface BrowserCallback {
  path: string;
  /** The provider's name in the pages ("Google Workspace", "Microsoft Entra ID"). */
  name: string;
  /** Does the flow's last step; says which directory it connected and where the browser goes next. */
  complete(query: Record<string, unknown>): Promise<{ directoryId: string; redirectUrl?: string; done: string }>;
  /** Where a callback with this state would send the browser, if the state is valid (to report a failure there). */
  redirectOf(state: unknown): string | undefined;
}

export function browserCallbackRoute(cb: BrowserCallback, logger: Logger): Router {
  const r = Router();
  r.get(cb.path, async (req, res) => {
    const q = req.query as Record<string, unknown>;
    try {
      const { directoryId, redirectUrl, done } = await cb.complete(q);
      if (redirectUrl) {
        const to = new URL(redirectUrl);
        to.searchParams.set('directory_id', directoryId);
        to.searchParams.set('status', 'success');
        return res.redirect(303, to.toString());
      }
      page(res, 200, `${cb.name} connected`, done);
    } catch (err) {
      const known = err instanceof DsyncError && err.status < 500;
      if (!known) logger.error({ err }, `${cb.name} authorization callback failed`);
      const message = known ? err.message : 'The authorization could not be completed; try again later';
      const redirectUrl = cb.redirectOf(q.state);
      if (redirectUrl) {
        const to = new URL(redirectUrl);
        to.searchParams.set('status', 'error');
        to.searchParams.set('error', err instanceof DsyncError ? err.code : 'DSYNC_INTERNAL');
        return res.redirect(303, to.toString());
      }
      page(res, err instanceof DsyncError ? err.status : 500, `${cb.name} authorization failed`, message);
    }
  });
  // Every other method, OPTIONS included (the router would answer that one 200 by itself), is a 405 as elsewhere.
  r.all(cb.path, methodNotAllowed(['GET', 'HEAD']));
  return r;
}
