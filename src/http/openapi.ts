/**
 * The OpenAPI 3.1 document of the management API and the webhook events, generated from the route table and
 * the zod schemas the routes validate with (never written by hand): `npm run openapi` writes docs/openapi.json,
 * and the app serves the same document at GET /api/v1/openapi.json.
 */
import { createRequire } from 'node:module';
import { z } from 'zod';
import { EVENT_TYPES, eventSchemaId, eventSchemas } from '../core/event-schema.js';
import { errorStatuses, API_PREFIX, type ApiRoute } from './route-table.js';
import { ERROR_RESPONSES, RATE_LIMIT_HEADERS, WEBHOOK_HEADERS, errorResponse } from './openapi-responses.js';
import { errorEnvelopeSchema } from './response-schemas.js';

type Json = Record<string, unknown>;

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/** Converts zod schemas to JSON Schema, collecting every schema with a meta `id` once under components. */
class SchemaCollector {
  readonly components: Record<string, Json> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): Json {
    const { $schema: _, $defs, ...root } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
      const rewritten = rewriteRefs(def);
      const known = this.components[id];
      if (known && JSON.stringify(known) !== JSON.stringify(rewritten)) throw new Error(`two different schemas are named ${id}`);
      this.components[id] = rewritten;
    }
    return rewriteRefs(root);
  }
}

function rewriteRefs(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
}

/** `/directory-sync/:id` → `/api/v1/directory-sync/{id}`. */
export const openApiPath = (expressPath: string): string => `${API_PREFIX}${expressPath.replace(/:(\w+)/g, '{$1}')}`;

const isRequired = (schema: z.ZodType): boolean => !schema.safeParse(undefined).success;

function parameters(r: ApiRoute, schemas: SchemaCollector): Json[] {
  const of = (where: 'path' | 'query' | 'header', object: z.ZodType | undefined): Json[] => {
    if (!object) return [];
    if (!(object instanceof z.ZodObject)) throw new Error(`${r.method} ${r.path}: ${where} parameters must be a z.object`);
    return Object.entries(object.shape as Record<string, z.ZodType>).map(([name, schema]) => {
      const { description, deprecated, ...json } = schemas.convert(schema, 'input');
      return {
        name,
        in: where,
        required: where === 'path' || isRequired(schema),
        ...(description !== undefined && { description }),
        ...(deprecated === true && { deprecated: true }),
        schema: json,
      };
    });
  };
  return [...of('path', r.params), ...of('query', r.query), ...of('header', r.headers)];
}

function operation(r: ApiRoute, schemas: SchemaCollector): Json {
  const responses: Json = {};
  for (const [status, { description, data, headers }] of Object.entries(r.responses)) {
    const envelope = z.object({ data, error: z.null() });
    responses[status] = {
      description,
      ...(headers && { headers: Object.fromEntries(Object.entries(headers).map(([name, said]) => [name, { description: said, schema: { type: 'string' } }])) }),
      content: { 'application/json': { schema: schemas.convert(envelope, 'output') } },
    };
  }
  for (const status of errorStatuses(r)) responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status]!.name}` };
  const params = parameters(r, schemas);
  return {
    operationId: operationId(r),
    summary: r.summary,
    tags: [r.tag],
    ...(r.auth === false && { security: [] }),
    ...(params.length > 0 && { parameters: params }),
    ...(r.body && {
      requestBody: {
        required: !r.body.safeParse({}).success,
        content: { 'application/json': { schema: schemas.convert(r.body, 'input') } },
      },
    }),
    responses,
  };
}

/** `post /directory-sync/:id/events/replay` → `postDirectorySyncIdEventsReplay`. */
function operationId(r: ApiRoute): string {
  const words = r.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return r.method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/** A shard's replicas in sync, as `/readyz` lists them. */
const SHARDS: Json = {
  type: 'array',
  items: {
    type: 'object',
    properties: { master: { type: 'string' }, replicas_in_sync: { type: 'integer' }, wait_replicas: { type: 'integer' }, min_replicas: { type: 'integer' } },
    required: ['master', 'replicas_in_sync', 'wait_replicas', 'min_replicas'],
  },
};

/** The routes that answer outside the `{data, error}` envelope: health probes and this document. */
function fixedPaths(): Json {
  const status = (description: string, extra: Json = {}) => ({
    description,
    content: { 'application/json': { schema: { type: 'object', properties: { status: { type: 'string' }, ...extra }, required: ['status'] } } },
  });
  return {
    '/healthz': { get: { operationId: 'getHealthz', summary: 'Liveness', tags: ['Health'], security: [], responses: { 200: status('The process is up') } } },
    '/readyz': {
      get: {
        operationId: 'getReadyz',
        summary: 'Readiness: the store answers, and no shard has fewer replicas in sync than DSYNC_REDIS_MIN_REPLICAS',
        tags: ['Health'],
        security: [],
        responses: {
          200: status('Ready; `degraded` lists shards with fewer replicas in sync than DSYNC_REDIS_WAIT_REPLICAS', { store: { type: 'string' }, degraded: SHARDS }),
          503: {
            ...status('`unavailable`: the store does not answer; `below-min-replicas`: the `shards` listed refuse writes', { store: { type: 'string' }, shards: SHARDS }),
            headers: { 'Retry-After': { schema: { type: 'integer' } } },
          },
        },
      },
    },
    [`${API_PREFIX}/dsync/google/callback`]: {
      get: {
        operationId: 'getGoogleCallback',
        summary: "Google's redirect after consent (the admin's browser; the signed state is the credential): steps 2 and 3",
        tags: ['Google Workspace'],
        security: [],
        parameters: ['code', 'state', 'error'].map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } })),
        responses: Object.fromEntries(
          [
            [200, 'Authorized: a page saying so'],
            [303, 'Authorized or failed: back to the redirect_url given at step 1, with status (and error)'],
            [400, 'A forged, expired or missing state, or a refused code: a page saying why'],
            [404, 'The directory of the state is gone: a page saying so'],
            [409, 'Google OAuth is not configured on this server: a page saying so'],
            [502, 'Google failed the code exchange: a page saying so'],
            [503, 'The store does not answer: a page saying so'],
          ].map(([status, description]) => [
            status,
            { description, ...(status !== 303 && { content: { 'text/html': { schema: { type: 'string' } } } }) },
          ]),
        ),
      },
    },
    [`${API_PREFIX}/openapi.json`]: {
      get: {
        operationId: 'getOpenApi',
        summary: 'This document',
        tags: ['Meta'],
        security: [],
        responses: { 200: { description: 'The OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
  };
}

function webhooks(schemas: SchemaCollector): Json {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook${eventSchemaId(type)}`,
          summary: `${type} (real-time mode: one event per POST; batch mode: a JSON array of events of one directory)`,
          tags: ['Webhooks'],
          security: [],
          parameters: Object.entries(WEBHOOK_HEADERS).map(([name, h]) => ({ name, in: 'header', required: true, ...h })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { oneOf: [schemas.convert(eventSchemas[type], 'output'), { type: 'array', items: { $ref: '#/components/schemas/DirectorySyncEvent' } }] },
              },
            },
          },
          responses: {
            '2XX': { description: 'Delivered; any other status is retried on the schedule (410 Gone disables the webhook)' },
          },
        },
      },
    ]),
  );
}

export function buildOpenApiDocument(routes: ApiRoute[]): Json {
  const schemas = new SchemaCollector();
  schemas.convert(errorEnvelopeSchema, 'output'); // components.schemas.Error, which every error response names
  const paths: Json = fixedPaths();
  for (const r of routes) {
    const path = openApiPath(r.path);
    paths[path] = { ...(paths[path] as Json | undefined), [r.method]: operation(r, schemas) };
  }
  const hooks = webhooks(schemas);
  const usedStatuses = new Set(routes.flatMap(errorStatuses));
  return {
    openapi: '3.1.0',
    info: {
      title: 'dsync management API',
      version,
      description:
        'Directory sync: directories, the users and groups their IdPs push over SCIM (or Google sync pulls), the events ' +
        'log and webhook delivery. Every answer is the envelope {data, error}; error.code is the HTTP status. ' +
        'The webhooks section describes the signed POSTs dsync sends (Standard Webhooks).',
    },
    security: [{ ApiKey: [] }],
    paths,
    webhooks: hooks,
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The header value is `Api-Key <key>` (a key of DSYNC_API_KEYS).' },
      },
      headers: RATE_LIMIT_HEADERS,
      responses: Object.fromEntries([...usedStatuses].sort().map((s) => [ERROR_RESPONSES[s]!.name, errorResponse(s)])),
      schemas: schemas.components,
    },
  };
}
