/**
 * Graph's change notifications, under /api/v1, without Api-Key:
 *   POST /dsync/microsoft/notifications   `?validationToken=` is echoed as text/plain (the handshake when a
 *                                         subscription is created); a batch is answered 202 at once, each
 *                                         notification's clientState checked, its directory synced soon.
 * A batch holding a clientState that names a directory with another secret counts as a failed authentication
 * of its client (ratelimit/auth-failures.ts); a client over the limit is refused before its body is read.
 * (Entra's admin-consent callback is the browser flows', oauth-flows.ts.) The OpenAPI entry is by hand
 * (openapi/fixed-paths.ts): the route table documents only Api-Key routes' envelopes.
 */
import express, { Router } from 'express';
import { DsyncError } from '../../core/errors.js';
import type { Logger } from '../../logger.js';
import type { MicrosoftProvider } from '../../providers/microsoft/microsoft.js';
import { attempt, NOTIFICATIONS_REALM, type AuthFailures } from '../../ratelimit/auth-failures.js';
import { refuseManagement } from '../../ratelimit/refusals.js';
import { fail } from '../middleware/envelope.js';
import { admit } from '../middleware/request-metrics.js';
import { methodNotAllowed } from '../openapi/route-table.js';

export const MICROSOFT_NOTIFICATIONS = '/dsync/microsoft/notifications';

/** Graph's notification batches are small (at most a few hundred notifications). */
const NOTIFICATION_BODY_LIMIT = 1024 * 1024;

export function microsoftNotificationRoute(
  microsoft: MicrosoftProvider,
  logger: Logger,
  failures: AuthFailures,
): Router {
  const r = Router();
  r.post(
    MICROSOFT_NOTIFICATIONS,
    failures.gate(() => NOTIFICATIONS_REALM, refuseManagement),
    // The handshake first: its body (if any) is not JSON, and is not read.
    (req, res, next) => {
      const token = req.query.validationToken;
      if (token === undefined) return next();
      if (typeof token !== 'string' || token.length > 2048) return fail(res, 400, 'validationToken must be given once');
      // Graph's handshake has no body: one with a body is not Graph validating the URL.
      if (Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'])
        return fail(res, 400, 'A validation request has no body');
      // Graph wants the token back exactly, as plain text, within 10 s.
      admit(res);
      res
        .status(200)
        .setHeader('Content-Type', 'text/plain; charset=utf-8')
        .setHeader('X-Content-Type-Options', 'nosniff')
        .send(token);
    },
    express.json({ limit: NOTIFICATION_BODY_LIMIT, type: () => true }),
    async (req, res) => {
      admit(res); // a body that parsed: each of its notifications is checked on its own
      try {
        const { forged } = await microsoft.notifications(req.body);
        if (forged > 0) await failures.failed(attempt(req, NOTIFICATIONS_REALM));
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
