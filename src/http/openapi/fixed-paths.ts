/**
 * The routes that answer outside the `{data, error}` envelope, described by hand beside the route table: the
 * health probes, this document, the OAuth start link, the Google and Entra callbacks that an admin's browser comes
 * back to (in browser-paths.ts, with the pages they answer), the endpoint Microsoft Graph posts change
 * notifications to, and the HR systems' webhooks.
 */
import { API_PREFIX } from './route-table.js';
import { answerHeaders } from './responses.js';
import { browserPaths } from './browser-paths.js';
import { ref, type Json } from './json-schemas.js';

export const FIXED_SCHEMAS: Record<string, Json> = {
  Liveness: {
    type: 'object',
    properties: { status: { type: 'string', const: 'ok' } },
    required: ['status'],
    additionalProperties: false,
  },
  Readiness: {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['ready', 'unavailable', 'below-min-replicas', 'draining'] },
      store: { type: 'string', enum: ['memory', 'redis'], description: 'Which store the service runs on' },
      degraded: {
        type: 'array',
        items: ref('ShardReplication'),
        description:
          'Ready: shards with fewer replicas in sync than DSYNC_REDIS_WAIT_REPLICAS (their writes count as degraded)',
      },
      shards: {
        type: 'array',
        items: ref('ShardReplication'),
        description: 'below-min-replicas: the shards that refuse writes',
      },
    },
    required: ['status', 'store'],
    additionalProperties: false,
  },
  ShardReplication: {
    type: 'object',
    properties: {
      master: { type: 'string', description: '`host:port` of the master' },
      replicas_in_sync: { type: 'integer', description: 'Replicas connected and in sync (lag at most 3 s)' },
      wait_replicas: { type: 'integer', description: 'DSYNC_REDIS_WAIT_REPLICAS' },
      min_replicas: { type: 'integer', description: 'DSYNC_REDIS_MIN_REPLICAS' },
    },
    required: ['master', 'replicas_in_sync', 'wait_replicas', 'min_replicas'],
    additionalProperties: false,
  },
};

const json = (schema: Json, example: unknown) => ({
  'application/json': { schema, examples: { default: { value: example } } },
});

export function fixedPaths(): Json {
  return {
    '/healthz': {
      get: {
        operationId: 'getLiveness',
        summary: 'Liveness',
        description: 'Answers 200 while the process serves HTTP; it does not look at the store (see /readyz).',
        tags: ['Health'],
        security: [],
        responses: {
          200: {
            description: 'The process is up',
            headers: answerHeaders(false),
            content: json(ref('Liveness'), { status: 'ok' }),
          },
        },
      },
    },
    '/readyz': {
      get: {
        operationId: 'getReadiness',
        summary: 'Readiness: the store answers, and no shard has fewer replicas in sync than DSYNC_REDIS_MIN_REPLICAS',
        description:
          'Pings the store with a 500 ms deadline, so a stalled store reads as not ready rather than as a probe timeout. A shard ' +
          'whose master has fewer replicas in sync than DSYNC_REDIS_MIN_REPLICAS refuses writes: not ready either, told apart ' +
          '(`below-min-replicas`, naming the shards). Below DSYNC_REDIS_WAIT_REPLICAS but at the minimum, writes are taken ' +
          '(counted as degraded) and the service is ready, the shards listed under `degraded`. A process stopping (SIGTERM) ' +
          'answers `draining` until it exits, whatever the store says.',
        tags: ['Health'],
        security: [],
        responses: {
          200: {
            description: 'Ready; `degraded` lists shards with fewer replicas in sync than DSYNC_REDIS_WAIT_REPLICAS',
            headers: answerHeaders(false),
            content: json(ref('Readiness'), { status: 'ready', store: 'redis' }),
          },
          503: {
            description:
              '`unavailable`: the store does not answer; `below-min-replicas`: the `shards` listed refuse writes; `draining`: the process is stopping',
            headers: { ...answerHeaders(false), 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
            content: json(ref('Readiness'), {
              status: 'below-min-replicas',
              store: 'redis',
              shards: [{ master: '10.0.0.12:6379', replicas_in_sync: 0, wait_replicas: 1, min_replicas: 1 }],
            }),
          },
        },
      },
    },
    ...browserPaths(),
    [`${API_PREFIX}/dsync/microsoft/notifications`]: {
      post: {
        operationId: 'microsoftNotifications',
        summary: "Microsoft Graph's change notifications (and its validation handshake)",
        description:
          'Called by Microsoft Graph, never by a client (no Api-Key: each notification carries the clientState secret of its ' +
          'directory, checked; one that does not check out is ignored, and one naming a directory with another secret counts as a ' +
          'failed authentication of the caller: over DSYNC_AUTH_FAILURE_LIMIT, a 429). `?validationToken=` is Graph validating the URL: the ' +
          'token is echoed as text/plain. A notification batch is answered 202 at once; each directory named is synced through ' +
          "Graph's delta query within seconds (a burst is one sync).",
        tags: ['Microsoft Entra ID'],
        security: [],
        'x-internal': true,
        parameters: [
          {
            name: 'validationToken',
            in: 'query',
            required: false,
            description: 'Graph validating the URL: echoed as text/plain',
            schema: { type: 'string' },
          },
        ],
        requestBody: {
          required: false,
          content: json(
            {
              type: 'object',
              properties: { value: { type: 'array', items: { type: 'object' } } },
              required: ['value'],
            },
            {
              value: [
                {
                  subscriptionId: '7f1c…',
                  changeType: 'updated',
                  resource: 'Users/2b6d…',
                  clientState: '2b6d…:secret',
                  tenantId: 'aaaaaaaa-…',
                },
              ],
            },
          ),
        },
        responses: {
          200: {
            description: 'The validation token, echoed',
            headers: answerHeaders(false),
            content: {
              'text/plain': {
                schema: { type: 'string' },
                examples: { default: { value: 'Validation: Testing client application reachability' } },
              },
            },
          },
          202: {
            description:
              'Accepted: the directories of the notifications whose clientState checks out are synced within seconds (no body)',
            headers: answerHeaders(false),
            content: {
              'text/plain': { schema: { type: 'string', maxLength: 0 }, examples: { default: { value: '' } } },
            },
          },
          400: { $ref: '#/components/responses/BadRequest' },
          429: { $ref: '#/components/responses/TooManyRequests' },
          503: { $ref: '#/components/responses/ServiceUnavailable' },
        },
      },
    },
    [`${API_PREFIX}/dsync/hris/webhooks/{directoryId}`]: {
      post: {
        operationId: 'hrisWebhook',
        summary: "An HR system's webhook (BambooHR, HiBob, Personio): a hint that starts a sync of the directory",
        description:
          'Called by the HR system, never by a client (no Api-Key). The body is never trusted: the call only starts a sync of the ' +
          'directory within seconds (a burst is one sync), which reads from the provider what changed. BambooHR calls are checked: ' +
          '`X-BambooHR-Signature` must be the hex HMAC-SHA256 of the body followed by `X-BambooHR-Timestamp` (within 5 minutes), keyed ' +
          "with the webhook private key given as the credentials' `webhook_secret`; without one, BambooHR calls are refused. A call " +
          'refused counts as a failed authentication of the caller (over DSYNC_AUTH_FAILURE_LIMIT, a 429).',
        tags: ['HRIS (BambooHR, HiBob, Personio)'],
        security: [],
        'x-internal': true,
        parameters: [
          {
            name: 'directoryId',
            in: 'path',
            required: true,
            description: 'The directory whose webhook this is (the URL its setup page shows)',
            schema: { type: 'string' },
          },
        ],
        requestBody: {
          required: false,
          content: json({ type: 'object' }, { employees: [{ id: '123', action: 'Updated' }] }),
        },
        responses: {
          202: {
            description: 'Accepted: the directory is synced within seconds (no body)',
            headers: answerHeaders(false),
            content: {
              'text/plain': { schema: { type: 'string', maxLength: 0 }, examples: { default: { value: '' } } },
            },
          },
          400: { $ref: '#/components/responses/BadRequest' },
          401: { $ref: '#/components/responses/Unauthorized' },
          404: { $ref: '#/components/responses/NotFound' },
          409: { $ref: '#/components/responses/Conflict' },
          413: { $ref: '#/components/responses/PayloadTooLarge' },
          429: { $ref: '#/components/responses/TooManyRequests' },
          503: { $ref: '#/components/responses/ServiceUnavailable' },
        },
      },
    },
    [`${API_PREFIX}/openapi.json`]: {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This document',
        description:
          'Public (no Api-Key): it holds no data, and client generators, gateways and fuzzers fetch it without a credential.',
        tags: ['Meta'],
        security: [],
        responses: {
          200: {
            description: 'The OpenAPI 3.1 document',
            headers: answerHeaders(false),
            content: json(
              { type: 'object' },
              { openapi: '3.1.0', info: { title: 'dsync management API', version: '0.1.0' }, paths: {} },
            ),
          },
        },
      },
    },
  };
}
