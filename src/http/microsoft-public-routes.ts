/**
 * The Microsoft Entra ID routes without Api-Key, under /api/v1:
 *   POST /dsync/microsoft/notifications   Graph's change notifications: `?validationToken=` is echoed as text/plain
 *                                         (the handshake when a subscription is created); a batch is answered 202
 *                                         at once, each notification's clientState checked, its directory synced soon.
 * Their OpenAPI entries are `microsoftPublicPaths` (the route table documents only Api-Key routes' envelopes).
 */
import express, { Router } from 'express';
import type { Logger } from '../logger.js';
import type { MicrosoftProvider } from '../providers/microsoft/microsoft.js';
import { API_PREFIX } from './route-table.js';
import { fail } from './envelope.js';
import { DsyncError } from '../core/errors.js';

/** Graph's notification batches are small (at most a few hundred notifications). */
const NOTIFICATION_BODY_LIMIT = 1024 * 1024;

export function microsoftPublicRoutes(microsoft: MicrosoftProvider, logger: Logger): Router {
  const r = Router();
  const notifications = '/dsync/microsoft/notifications';
  // The handshake first: its body (if any) is not JSON, and is not read.
  r.post(notifications, (req, res, next) => {
    const token = req.query.validationToken;
    if (token === undefined) return next();
    if (typeof token !== 'string' || token.length > 2048) return fail(res, 400, 'validationToken must be given once');
    // Graph wants the token back exactly, as plain text, within 10 s.
    res.status(200).setHeader('Content-Type', 'text/plain; charset=utf-8').setHeader('X-Content-Type-Options', 'nosniff').send(token);
  });
  r.post(notifications, express.json({ limit: NOTIFICATION_BODY_LIMIT, type: () => true }), async (req, res) => {
    try {
      await microsoft.notifications(req.body);
      res.status(202).end();
    } catch (err) {
      if (err instanceof DsyncError && err.status < 500) return fail(res, err.status, err.message);
      logger.error({ err }, 'Graph notification handling failed');
      fail(res, 503, 'Notifications cannot be handled right now');
    }
  });
  return r;
}

export const microsoftPublicPaths = {
  [`${API_PREFIX}/dsync/microsoft/notifications`]: {
    post: {
      operationId: 'postMicrosoftNotifications',
      summary: "Microsoft Graph's change notifications (no Api-Key: each notification's clientState is checked)",
      tags: ['Microsoft Entra ID'],
      security: [],
      parameters: [{ name: 'validationToken', in: 'query', required: false, schema: { type: 'string' }, description: 'Graph validating the URL: echoed as text/plain' }],
      requestBody: { required: false, content: { 'application/json': { schema: { type: 'object', properties: { value: { type: 'array', items: { type: 'object' } } } } } } },
      responses: {
        200: { description: 'The validation token, echoed', content: { 'text/plain': { schema: { type: 'string' } } } },
        202: { description: 'Accepted: the directories of notifications whose clientState checks out are synced within seconds' },
        400: { description: 'Not a notification batch' },
        503: { description: 'The store does not answer' },
      },
    },
  },
};
