/**
 * The OpenAPI 3.1 document of the management API and the webhook events, generated from the route table and
 * the zod schemas the routes validate with (never written by hand): `npm run openapi` writes docs/openapi.json,
 * and the app serves the same document at GET /api/v1/openapi.json. What a route leaves out (operationId,
 * description, examples) gets a default, so the document stays valid; test/unit/openapi-routes.test.ts asks
 * every route for its description and examples.
 */
import { createRequire } from 'node:module';
import { z } from 'zod';
import { EVENT_TYPES, directorySyncEventSchema, eventSchemaId, eventSchemas } from '../../core/event-schema.js';
import { errorStatuses, API_PREFIX, type ApiRoute } from './route-table.js';
import { FIXED_SCHEMAS, fixedPaths } from './fixed-paths.js';
import {
  ERROR_RESPONSES,
  ERROR_SCHEMAS,
  HEADERS,
  TAG_DESCRIPTIONS,
  WEBHOOK_HEADERS,
  answerHeaders,
  errorResponse,
} from './responses.js';
import { SchemaCollector, exampleOf, type Json } from './json-schemas.js';

const { version, license } = createRequire(import.meta.url)('../../../package.json') as {
  version: string;
  license: string;
};

/** `/directory-sync/:id` → `/api/v1/directory-sync/{id}`. */
export const openApiPath = (expressPath: string): string => `${API_PREFIX}${expressPath.replace(/:(\w+)/g, '{$1}')}`;

const isRequired = (schema: z.ZodType): boolean => !schema.safeParse(undefined).success;

const pascal = (words: string[]): string => words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');

/**
 * The route's operationId, or one made of method and path: `post /directory-sync/:id/events/replay` →
 * `postDirectorySyncIdEventsReplay`.
 */
export function operationId(r: ApiRoute): string {
  return r.operationId ?? r.method + pascal(r.path.split(/[^A-Za-z0-9]+/).filter(Boolean));
}

function parameters(r: ApiRoute, schemas: SchemaCollector): Json[] {
  const of = (where: 'path' | 'query' | 'header', object: z.ZodType | undefined): Json[] => {
    if (!object) return [];
    if (!(object instanceof z.ZodObject))
      throw new Error(`${r.method} ${r.path}: ${where} parameters must be a z.object`);
    return Object.entries(object.shape as Record<string, z.ZodType>).map(([name, schema]) => {
      const { description, deprecated, examples, ...json } = schemas.convert(schema, 'input');
      return {
        name,
        in: where,
        required: where === 'path' || isRequired(schema),
        ...(description !== undefined && { description }),
        ...(deprecated === true && { deprecated: true }),
        schema: json,
        ...(Array.isArray(examples) && examples.length > 0 && { example: examples[0] }),
      };
    });
  };
  return [...of('path', r.params), ...of('query', r.query), ...of('header', r.headers)];
}

const examples = (value: unknown): Json => (value === undefined ? {} : { examples: { default: { value } } });

function operation(r: ApiRoute, schemas: SchemaCollector): Json {
  const id = operationId(r);
  const behindKey = r.auth !== false;
  const responses: Json = {};
  for (const [status, response] of Object.entries(r.responses)) {
    const example = response.example ?? exampleOf(response.data);
    responses[status] = {
      description: response.description,
      headers: { ...answerHeaders(behindKey), ...response.headers },
      content: {
        'application/json': {
          schema: schemas.successEnvelope(
            response.data,
            `${pascal([id])}${Object.keys(r.responses).length > 1 ? status : ''}Envelope`,
          ),
          ...examples(example === undefined ? undefined : { data: example, error: null }),
        },
      },
    };
  }
  for (const status of [...errorStatuses(r), 500])
    responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status]!.name}` };
  const params = parameters(r, schemas);
  return {
    operationId: id,
    summary: r.summary,
    ...(r.description && { description: r.description }),
    tags: [r.tag],
    ...(!behindKey && { security: [] }),
    ...(params.length > 0 && { parameters: params }),
    ...(r.body && {
      requestBody: {
        required: !r.body.safeParse({}).success,
        content: {
          'application/json': {
            schema: schemas.convert(r.body, 'input'),
            ...examples(r.requestExample ?? exampleOf(r.body)),
          },
        },
      },
    }),
    responses,
  };
}

const WEBHOOK_DESCRIPTION =
  'Signed the Standard Webhooks way: verify `webhook-signature` over `webhook-id.webhook-timestamp.body` with the ' +
  "directory's webhook secret (e.g. with the `standardwebhooks` package, or `verifyWebhook` of `dsync-service/client`). " +
  "Delivery is at least once: de-duplicate on `webhook-id`. A user's events, a group's events and a membership after its " +
  "user and group arrive in order; `sequence` gives the directory's order of all its events.";

/** A webhook POST: its body, example and the Standard Webhooks headers. */
function webhook(operationId: string, summary: string, schema: Json, example: unknown): Json {
  return {
    post: {
      operationId,
      summary,
      description: WEBHOOK_DESCRIPTION,
      tags: ['Webhooks'],
      security: [],
      // Calls dsync makes, never a client: generators skip them (openapi-generator 7.x writes Python that does not
      // compile for a webhook operation: parameters without types).
      'x-internal': true,
      parameters: Object.entries(WEBHOOK_HEADERS).map(([name, h]) => ({ name, in: 'header', required: true, ...h })),
      requestBody: { required: true, content: { 'application/json': { schema, ...examples(example) } } },
      responses: {
        '2XX': {
          description: 'Delivered; any other status is retried on the schedule (410 Gone disables the webhook)',
        },
      },
    },
  };
}

/** One webhook per event type (real-time mode: one event per POST), and the batch-mode POST of several. */
function webhooks(schemas: SchemaCollector): Json {
  const perType = EVENT_TYPES.map((type) => {
    const schema = eventSchemas[type];
    return [
      type,
      webhook(
        `webhook${eventSchemaId(type)}`,
        `${type} (real-time mode: one event per POST)`,
        schemas.convert(schema, 'output'),
        exampleOf(schema),
      ),
    ];
  });
  const batch = webhook(
    'webhookEventBatch',
    'Batch mode (DSYNC_WEBHOOK_BATCH_SIZE): a JSON array of up to N events of one directory, in order',
    { type: 'array', items: schemas.convert(directorySyncEventSchema, 'output'), minItems: 1 },
    [exampleOf(eventSchemas['user.created']), exampleOf(eventSchemas['group.user_added'])],
  );
  return Object.fromEntries([...perType, ['batch', batch]]);
}

function tags(paths: Json, hooks: Json): Json[] {
  const used = new Set<string>();
  for (const ops of [...Object.values(paths), ...Object.values(hooks)] as Array<Record<string, { tags: string[] }>>) {
    for (const op of Object.values(ops)) op.tags.forEach((t) => used.add(t));
  }
  const ordered = [
    ...Object.keys(TAG_DESCRIPTIONS).filter((t) => used.has(t)),
    ...[...used].filter((t) => !(t in TAG_DESCRIPTIONS)),
  ];
  return ordered.map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] && { description: TAG_DESCRIPTIONS[name] }) }));
}

export function buildOpenApiDocument(routes: ApiRoute[]): Json {
  const schemas = new SchemaCollector();
  for (const [name, schema] of Object.entries({ ...ERROR_SCHEMAS, ...FIXED_SCHEMAS })) schemas.add(name, schema);
  const fixed = fixedPaths();
  const paths: Json = { ...fixed };
  for (const r of routes) {
    const path = openApiPath(r.path);
    paths[path] = { ...(paths[path] as Json | undefined), [r.method]: operation(r, schemas) };
  }
  // The routes' error statuses include it (route-table.ts); the fixed paths meet the same parser.
  for (const ops of Object.values(fixed) as Array<Record<string, { responses: Json }>>) {
    for (const op of Object.values(ops))
      op.responses[431] = { $ref: `#/components/responses/${ERROR_RESPONSES[431]!.name}` };
  }
  const hooks = webhooks(schemas);
  const usedStatuses = new Set([...routes.flatMap(errorStatuses), 500]);
  return {
    openapi: '3.1.0',
    info: {
      title: 'dsync management API',
      version,
      description:
        'Directory sync: directories, the users and groups their IdPs push over SCIM (or the Google sync pulls), the ' +
        'events log and webhook delivery. Every answer is the envelope `{data, error}`: `data` on success with `error` ' +
        'null, `error: {message, code}` with `data` null otherwise (`code` is the HTTP status). Every answer carries ' +
        '`X-Request-Id`; with rate limits configured, answers behind the Api-Key carry `RateLimit-*`. The `webhooks` ' +
        'section describes the signed POSTs dsync sends (Standard Webhooks). The SCIM 2.0 endpoint is described by ' +
        'RFC 7643/7644 and its own /Schemas, not here.',
      license: { name: license, identifier: license },
    },
    // Relative: the server that serves this document (a local `npm start` is http://localhost:5225).
    servers: [
      {
        url: '/',
        description:
          'The dsync server this document comes from: DSYNC_EXTERNAL_URL, or http://localhost:5225 for `npm start`',
      },
    ],
    security: [{ ApiKey: [] }],
    tags: tags(paths, hooks),
    paths,
    webhooks: hooks,
    components: {
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description:
            'The header value is `Api-Key <key>` (a key of DSYNC_API_KEYS). A key has a scope: full access (`key`); ' +
            'read-only (`key:read`: GET only, any directory); or limited to a tenant (`key:tenant=acme`, optionally ' +
            '`:product=app`): only the directories of that tenant (and product), and no cron routes; scopes combine ' +
            '(`key:read:tenant=acme`). Beyond its scope a key gets 403. Only a full-access key sees secret values: ' +
            'for the others `scim.secret`, `webhook.secret` and Google tokens read `[redacted]`. Too many failed ' +
            'keys from one client answer 429 before any key is compared.',
        },
      },
      headers: HEADERS,
      responses: Object.fromEntries([...usedStatuses].sort().map((s) => [ERROR_RESPONSES[s]!.name, errorResponse(s)])),
      schemas: schemas.components,
    },
  };
}
