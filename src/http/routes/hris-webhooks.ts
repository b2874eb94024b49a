/**
 * The HRIS providers' webhooks, under /api/v1, without Api-Key:
 *   POST /dsync/hris/webhooks/<directoryId>   a hint: checked (BambooHR's signature), then the directory synced
 *                                             within seconds; answered 202 at once. The payload is never trusted.
 * A call that does not check out counts as a failed authentication of its client (ratelimit/auth-failures.ts);
 * a client over the limit is refused before its body is read. The OpenAPI entry is by hand (openapi/fixed-paths.ts).
 */
import express, { Router } from 'express';
import { DsyncError } from '../../core/errors.js';
import type { Logger } from '../../logger.js';
import type { HrisProvider } from '../../providers/hris/hris.js';
import { HrisWebhookRefusedError } from '../../providers/hris/errors.js';
import { attempt, NOTIFICATIONS_REALM, type AuthFailures } from '../../ratelimit/auth-failures.js';
import { refuseManagement } from '../../ratelimit/refusals.js';
import { fail } from '../middleware/envelope.js';
import { methodNotAllowed } from '../openapi/route-table.js';

export const HRIS_WEBHOOKS = '/dsync/hris/webhooks/:directoryId';

/** A webhook carries ids and a few fields: a megabyte is far more than any provider sends. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

export function hrisWebhookRoute(hris: HrisProvider, logger: Logger, failures: AuthFailures): Router {
  const r = Router();
  r.post(
    HRIS_WEBHOOKS,
    failures.gate(() => NOTIFICATIONS_REALM, refuseManagement),
    // The signature is over the exact bytes: the body is kept raw, whatever its type.
    express.raw({ limit: WEBHOOK_BODY_LIMIT, type: () => true }),
    async (req, res) => {
      const directoryId = req.params.directoryId as string;
      try {
        await hris.webhook(directoryId, {
          headers: req.headers,
          body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        });
        res.status(202).type('text/plain').send('');
      } catch (err) {
        if (err instanceof HrisWebhookRefusedError) await failures.failed(attempt(req, NOTIFICATIONS_REALM));
        if (err instanceof DsyncError && err.status < 500) return fail(res, err.status, err.message);
        logger.error({ err, directoryId }, 'HRIS webhook handling failed');
        fail(res, 503, 'Webhooks cannot be handled right now');
      }
    },
  );
  r.all(HRIS_WEBHOOKS, methodNotAllowed(['POST']));
  return r;
}
