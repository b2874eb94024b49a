/**
 * Event and delivery routes of the management API:
 *   GET  /api/v1/directory-sync/<id>/events?after=&limit=    Events API: poll the directory's event log
 *   POST /api/v1/directory-sync/<id>/events/replay           re-deliver since a time, or one dead letter
 *   GET  /api/v1/directory-sync/<id>/dead-letters            deliveries given up on
 *   GET  /api/v1/dsync/events?directoryId=                   delivery attempt logs (log_webhook_events)
 *   GET  /api/v1/dsync/events/<logId>
 */
import { z } from 'zod';
import { exactlyOneOf } from '../../core/cross-field.js';
import { MAX_ID_LENGTH } from '../../core/input-limits.js';
import { idParam, idParams, intQuery, pageOf, pageQuery, queryValue, requiredQueryValue } from '../openapi/params.js';
import {
  deadLetterSchema,
  deliveryLogSchema,
  eventPageSchema,
  redeliverySchema,
  replayAcceptedSchema,
} from '../openapi/response-schemas.js';
import { Answer, route, type ApiRoute } from '../openapi/route-table.js';

const MAX_EVENTS = 1000;
const TAG = 'Events and delivery';

const eventsQuery = z.object({
  after: queryValue('after', MAX_ID_LENGTH)
    .optional()
    .describe('The next_cursor of the previous page; absent = from the oldest kept event'),
  limit: intQuery('limit', 1, MAX_EVENTS, { default: 100, description: 'Events in the page' }),
});

/** The latest time a Date holds (ECMA-262: 8.64e15 ms after the epoch); a later `since` has no time to answer. */
const LATEST_TIME_MS = 8_640_000_000_000_000;

const replayInput = exactlyOneOf(
  z.strictObject({
    since: z
      .union([z.iso.datetime({ offset: true }), z.int().min(0).max(LATEST_TIME_MS)])
      .optional()
      .describe(
        'Re-deliver every event still kept that was committed at or after this time (ISO 8601, or epoch ms up to 8.64e15); a time before the oldest kept event replays them all',
      ),
    dead_letter_id: z.string().min(1).max(200).optional().describe('Re-deliver this dead letter now'),
  }),
  ['since', 'dead_letter_id'],
  'Give exactly one of since (ISO time or epoch ms) and dead_letter_id',
).meta({ id: 'ReplayInput', examples: [{ since: '2026-11-21T08:00:00Z' }] });

export const eventRoutes: ApiRoute[] = [
  route({
    method: 'get',
    path: '/directory-sync/:id/events',
    reach: 'directory',
    operationId: 'listEvents',
    summary: "Events API: read the directory's event log by cursor",
    description:
      'The events as committed (the webhook payloads), oldest first, from the cursor on; poll with the `next_cursor` of the ' +
      'previous page. Works with or without a webhook. The log keeps events for DSYNC_EVENT_RETENTION.',
    tag: TAG,
    params: idParams,
    query: eventsQuery,
    responses: { 200: { description: 'The next events, oldest first', data: eventPageSchema } },
    errors: [404],
    handle: async ({ params, query }, dsync) => {
      const directory = await dsync.directories.get(params.id);
      return dsync.deliveryReads.events(directory.id, query.after || null, query.limit ?? 100);
    },
  }),
  route({
    method: 'post',
    path: '/directory-sync/:id/events/replay',
    reach: 'directory',
    operationId: 'replayEvents',
    summary: 'Re-deliver events since a time, or one dead letter',
    description:
      'With `since`: every event still kept from that time on is delivered again, in order, with its original id (202; ' +
      'the deliverer applies it under its lease). A time before the oldest kept event (0, or before 1970) replays them all; ' +
      'a time after the newest replays nothing. With `dead_letter_id`: that dead letter is delivered now, and the answer ' +
      'says how it went (200).',
    tag: TAG,
    params: idParams,
    body: replayInput,
    status: 202,
    responses: {
      202: { description: 'Replay since the time requested (delivered in the background)', data: replayAcceptedSchema },
      200: { description: 'The dead letter was re-delivered (or failed again)', data: redeliverySchema },
    },
    errors: [404],
    handle: async ({ params, body }, dsync) => {
      const directory = await dsync.directories.get(params.id);
      // An unknown dead letter is a DeadLetterNotFound (404).
      if (body.dead_letter_id !== undefined)
        return new Answer(200, await dsync.delivery.redeliver(directory.id, body.dead_letter_id));
      const since = typeof body.since === 'number' ? body.since : Date.parse(body.since!);
      await dsync.delivery.replay(directory.id, since);
      return { directory_id: directory.id, since: new Date(since).toISOString() };
    },
  }),
  route({
    method: 'get',
    path: '/directory-sync/:id/dead-letters',
    reach: 'directory',
    operationId: 'listDeadLetters',
    summary: 'List the deliveries given up on',
    description: 'Deliveries that failed their last retry, oldest first; replay one with `dead_letter_id`.',
    tag: TAG,
    params: idParams,
    responses: { 200: { description: 'Oldest first', data: z.array(deadLetterSchema) } },
    errors: [404],
    handle: async ({ params }, dsync) => dsync.deliveryReads.deadLetters((await dsync.directories.get(params.id)).id),
  }),
  route({
    method: 'get',
    path: '/dsync/events',
    reach: 'query',
    operationId: 'listDeliveryLogs',
    summary: "List a directory's webhook delivery attempts",
    description:
      'Every delivery attempt of a directory with `log_webhook_events`, newest first, kept for DSYNC_WEBHOOK_LOG_RETENTION. Paged with `pageOffset`/`pageLimit`.',
    tag: TAG,
    query: z
      .object({
        directoryId: requiredQueryValue('directoryId', MAX_ID_LENGTH, 'directoryId is required').describe(
          'The directory id',
        ),
      })
      .extend(pageQuery.shape),
    responses: { 200: { description: 'Newest first', data: z.array(deliveryLogSchema) } },
    errors: [404],
    handle: async ({ query }, dsync) => {
      const directory = await dsync.directories.get(query.directoryId);
      return dsync.deliveryReads.attemptLogs(directory.id, pageOf(query));
    },
  }),
  route({
    method: 'get',
    path: '/dsync/events/:logId',
    operationId: 'getDeliveryLog',
    summary: 'Get one delivery attempt',
    description: 'One attempt, by the id listDeliveryLogs gave it.',
    tag: TAG,
    params: z.object({ logId: idParam('logId').describe('The delivery log id') }),
    responses: { 200: { description: 'The attempt', data: deliveryLogSchema } },
    errors: [404],
    handle: ({ params }, dsync) => dsync.deliveryReads.attemptLog(params.logId),
  }),
];
