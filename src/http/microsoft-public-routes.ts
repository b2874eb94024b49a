/**
 * The Microsoft Entra ID routes without Api-Key, under /api/v1:
 *   GET  /dsync/microsoft/callback        the admin's browser back from the admin-consent page (the signed,
 *                                         single-use state vouches for it): connects the directory
 *   POST /dsync/microsoft/notifications   Graph's change notifications: `?validationToken=` is echoed as text/plain
 *                                         (the handshake when a subscription is created); a batch is answered 202
 *                                         at once, each notification's clientState checked, its directory synced soon.
 * Their OpenAPI entries are `microsoftPublicPaths` (the route table documents only Api-Key routes' envelopes).
 */
import express, { Router } from 'express';
import type { Logger } from '../logger.js';
import type { MicrosoftProvider } from '../providers/microsoft/microsoft.js';
import { methodNotAllowed } from './route-table.js';
import { fail } from './envelope.js';
import { DsyncError } from '../core/errors.js';
import { browserCallbackRoute } from './browser-callback.js';

export const MICROSOFT_CALLBACK = '/dsync/microsoft/callback';
export const MICROSOFT_NOTIFICATIONS = '/dsync/microsoft/notifications';

/** Graph's notification batches are small (at most a few hundred notifications). */
const NOTIFICATION_BODY_LIMIT = 1024 * 1024;

/** The admin's browser back from the admin-consent page. */
export function microsoftCallbackRoute(microsoft: MicrosoftProvider, logger: Logger): Router {
  return browserCallbackRoute(
    {
      path: MICROSOFT_CALLBACK,
      name: 'Microsoft Entra ID',
      complete: async (q) => {
        const { directoryId, tenantId, redirectUrl } = await microsoft.callback(q);
        const done = `Directory ${directoryId} is connected to tenant ${tenantId}; its first sync starts now. You can close this window.`;
        return { directoryId, done, ...(redirectUrl && { redirectUrl }) };
      },
      redirectOf: (state) => microsoft.redirectOf(state),
    },
    logger,
  );
}

/** Graph's change notifications. */
export function microsoftNotificationRoute(microsoft: MicrosoftProvider, logger: Logger): Router {
  const r = Router();
  r.post(
    MICROSOFT_NOTIFICATIONS,
    // The handshake first: its body (if any) is not JSON, and is not read.
    (req, res, next) => {
      const token = req.query.validationToken;
      if (token === undefined) return next();
      if (typeof token !== 'string' || token.length > 2048) return fail(res, 400, 'validationToken must be given once');
      // Graph's handshake has no body: one with a body is not Graph validating the URL.
      if (Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding']) return fail(res, 400, 'A validation request has no body');
      // Graph wants the token back exactly, as plain text, within 10 s.
      res.status(200).setHeader('Content-Type', 'text/plain; charset=utf-8').setHeader('X-Content-Type-Options', 'nosniff').send(token);
    },
    express.json({ limit: NOTIFICATION_BODY_LIMIT, type: () => true }),
    async (req, res) => {
      try {
        await microsoft.notifications(req.body);
        res.status(202).type('text/plain').send('');
      } catch (err) {
        if (err instanceof DsyncError && err.status < 500) return fail(res, err.status, err.message);
        logger.error({ err }, 'Graph notification handling failed');
        fail(res, 503, 'Notifications cannot be handled right now');
      }
    },
  );
  r.all(MICROSOFT_NOTIFICATIONS, methodNotAllowed(['POST']));
  return r;
}
