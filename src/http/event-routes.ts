/**
 * Event and delivery routes of the management API:
 *   GET  /api/v1/directory-sync/<id>/events?after=&limit=    Events API: poll the directory's event log
 *   POST /api/v1/directory-sync/<id>/events/replay           re-deliver since a time, or one dead letter
 *   GET  /api/v1/directory-sync/<id>/dead-letters            deliveries given up on
 *   GET  /api/v1/dsync/events?directoryId=                   delivery attempt logs (log_webhook_events)
 *   GET  /api/v1/dsync/events/<logId>
 */
import { Router } from 'express';
import { z } from 'zod';
import { parseInput } from '../core/directories.js';
import { ValidationError } from '../core/errors.js';
import type { Dsync } from '../service.js';
import { ok } from './envelope.js';
import { pageOf } from './paging.js';
import { idParam, parseScopeQuery } from './params.js';

const MAX_EVENTS = 1000;

const replayInput = z.strictObject({
  since: z.union([z.iso.datetime({ offset: true }), z.number().int().nonnegative()]).optional(),
  dead_letter_id: z.string().min(1).max(200).optional(),
});

export function eventRoutes(dsync: Dsync): Router {
  const r = Router();
  const { directories, delivery, deliveryReads } = dsync;
  r.param('id', idParam);
  r.param('logId', idParam);

  r.get('/directory-sync/:id/events', async (req, res) => {
    const directory = await directories.get(req.params.id);
    const after = typeof req.query.after === 'string' && req.query.after !== '' ? req.query.after : null;
    const limitText = req.query.limit;
    const limit = limitText === undefined ? 100 : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EVENTS) {
      throw new ValidationError(`limit must be an integer between 1 and ${MAX_EVENTS}`, 'limit');
    }
    ok(res, await deliveryReads.events(directory.id, after, limit));
  });

  r.post('/directory-sync/:id/events/replay', async (req, res) => {
    const directory = await directories.get(req.params.id);
    const input = parseInput(replayInput, req.body);
    if ((input.since === undefined) === (input.dead_letter_id === undefined)) {
      throw new ValidationError('Give exactly one of since (ISO time or epoch ms) and dead_letter_id', 'since');
    }
    if (input.dead_letter_id !== undefined) {
      // An unknown dead letter is a DeadLetterNotFound (404).
      ok(res, await delivery.redeliver(directory.id, input.dead_letter_id));
      return;
    }
    const since = typeof input.since === 'number' ? input.since : Date.parse(input.since!);
    await delivery.replay(directory.id, since);
    ok(res, { directory_id: directory.id, since: new Date(since).toISOString() }, 202);
  });

  r.get('/directory-sync/:id/dead-letters', async (req, res) => {
    const directory = await directories.get(req.params.id);
    ok(res, await deliveryReads.deadLetters(directory.id));
  });

  r.get('/dsync/events', async (req, res) => {
    const { directoryId } = parseScopeQuery(req.query);
    if (!directoryId) throw new ValidationError('directoryId is required', 'directoryId');
    const directory = await directories.get(directoryId);
    ok(res, await deliveryReads.attemptLogs(directory.id, pageOf(req)));
  });

  r.get('/dsync/events/:logId', async (req, res) => {
    ok(res, await deliveryReads.attemptLog(req.params.logId));
  });
  return r;
}
