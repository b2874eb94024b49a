/**
 * The OpenAPI pieces every route shares: the headers on every answer, error responses by status, the error
 * envelope, the tags, and the webhook headers.
 */
import type { Json } from './json-schemas.js';
import { alwaysNull, ref } from './json-schemas.js';

const header = (description: string, type = 'integer', extra: Json = {}) => ({
  description,
  schema: { type, ...extra },
});

/** Headers as components, each answer naming those it carries. */
export const HEADERS: Json = {
  'X-Request-Id': {
    ...header(
      'The request id: the one the client sent when well-formed (1-128 of A-Z a-z 0-9 . _ : -), else a new UUID; every log line of the request carries it',
      'string',
    ),
    required: true,
  },
  'Retry-After': header('Seconds to wait before retrying'),
  'RateLimit-Limit': header('Requests allowed in the window that binds (only when rate limits are configured)'),
  'RateLimit-Remaining': header('Requests left in that window (only when rate limits are configured)'),
  'RateLimit-Reset': header('Seconds until that window resets (only when rate limits are configured)'),
  'RateLimit-Policy': header(
    'Both windows, e.g. `"burst";q=10;w=1, "sustained";q=600;w=60` (draft-ietf-httpapi-ratelimit-headers)',
    'string',
  ),
  'WWW-Authenticate': header('The Api-Key challenge, with error="invalid_token" when a credential was sent', 'string'),
};

const headerRefs = (names: string[]): Json =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'];

/** What every answer of a route carries: the request id, and behind the Api-Key the rate-limit state. */
export const answerHeaders = (behindApiKey: boolean): Json =>
  headerRefs(['X-Request-Id', ...(behindApiKey ? RATE_LIMIT_HEADERS : [])]);

/** Each status a route can answer with the error envelope: its component name and what it means. */
export const ERROR_RESPONSES: Record<
  number,
  { name: string; description: string; message: string; headers?: string[] }
> = {
  400: {
    name: 'BadRequest',
    description: 'Invalid input: the message names the field',
    message: 'tenant cannot contain the character :',
  },
  401: {
    name: 'Unauthorized',
    description:
      'Missing or wrong Authorization: Api-Key <key> (answered before the rate limits, so without their headers)',
    message: 'Invalid API key',
    headers: ['WWW-Authenticate'],
  },
  403: {
    name: 'Forbidden',
    description:
      "Beyond the API key's scope (a read-only key writing; a tenant key reaching another tenant's directory, or every directory), " +
      'or the directory is managed by a controller (the Kubernetes operator): change its resource',
    message: 'This API key is limited to tenant acme; directory 2b6d… is not',
  },
  404: {
    name: 'NotFound',
    description: 'No such directory, user, group, dead letter or delivery log',
    message: 'Directory 2b6d… not found',
  },
  409: {
    name: 'Conflict',
    description:
      'The request conflicts with the current state, the message says which: a provider not configured on this server (Google OAuth: ' +
      'DSYNC_GOOGLE_CLIENT_ID/SECRET, a service account still works), a deactivated directory, an HRIS directory without credentials yet',
    message:
      'Google OAuth is not configured on this server (set DSYNC_GOOGLE_CLIENT_ID and DSYNC_GOOGLE_CLIENT_SECRET), or use a service account',
  },
  413: { name: 'PayloadTooLarge', description: 'The body is over 1 MiB', message: 'Request body is too large' },
  415: {
    name: 'UnsupportedMediaType',
    description: 'The body is not JSON (send application/json, or no Content-Type)',
    message: 'Content-Type must be application/json or application/scim+json (or be left out)',
  },
  429: {
    name: 'TooManyRequests',
    description:
      'Over a rate limit (when rate limits are configured), or too many failed authentications from this client (always)',
    message: 'Rate limit exceeded: retry after 1 s',
    headers: ['Retry-After'],
  },
  431: {
    name: 'RequestHeaderFieldsTooLarge',
    description:
      "The request line and headers exceed 16 KiB (Node's limit: an over-long URL or header), refused by the HTTP parser before any route; any path can answer it",
    message: "The request line and headers exceed 16 KiB (Node's limit): shorten the URL or the headers",
  },
  500: {
    name: 'InternalError',
    description:
      'A fault of the server: the body carries the id of the logged error and the request id, to quote in a report',
    message: 'Internal server error',
  },
  502: {
    name: 'BadGateway',
    description: 'Google refused or failed the request (after retries)',
    message: 'Google Directory API failed while listing users: HTTP 500',
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'The store does not answer, or a write lost a race it could not retry: retry shortly',
    message: 'The data store is unavailable (connection refused); retry shortly',
    headers: ['Retry-After'],
  },
};

export function errorResponse(status: number): Json {
  const { description, message, headers = [] } = ERROR_RESPONSES[status]!;
  const error = {
    message,
    code: status,
    ...(status === 500 && { id: 'err_01JD2Q8M0Y3W5Z7X9V1T3R5P7N', requestId: '6f1c2a7e-5b8d-4e0f-9a3c-2d4e6f8a0b1c' }),
  };
  return {
    description,
    // 401 comes before the rate limits; everything else behind the key has their headers.
    headers: { ...answerHeaders(status !== 401), ...headerRefs(headers) },
    content: {
      'application/json': {
        schema: ref('ErrorEnvelope'),
        examples: { [ERROR_RESPONSES[status]!.name]: { value: { data: null, error } } },
      },
    },
  };
}

/** Every error answer of the management API (src/http/middleware/envelope.ts), and its `error` member. */
export const ERROR_SCHEMAS: Record<string, Json> = {
  ErrorDetail: {
    type: 'object',
    description: 'What went wrong',
    properties: {
      message: { type: 'string', description: 'For a person; names the field on a 400' },
      code: { type: 'integer', description: 'The HTTP status' },
      id: { type: 'string', description: 'On a 500: the id of the logged error' },
      requestId: { type: 'string', description: 'On a 500: the request id (also the X-Request-Id header)' },
    },
    required: ['message', 'code'],
    additionalProperties: false,
  },
  ErrorEnvelope: {
    type: 'object',
    description: 'Every error answer: data is null, error says what went wrong',
    properties: {
      data: { ...alwaysNull({ type: 'object' }), description: 'null on an error' },
      error: ref('ErrorDetail'),
    },
    required: ['data', 'error'],
    additionalProperties: false,
  },
};

/** The tags, in the order a reader meets them; a route's tag missing here is declared without a description. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Directories:
    'Directory connections: each one a SCIM endpoint for an IdP (or a Google Workspace to pull) and a webhook',
  'Users and groups': 'What the IdPs pushed (or the Google sync pulled), read by directory or by tenant and product',
  'Events and delivery':
    'The event log of each directory (the Events API), replays, dead letters and delivery attempt logs',
  'Google Workspace': 'Authorizing and running the pull sync from the Google Admin SDK Directory API',
  'Microsoft Entra ID':
    "Admin consent and the pull sync on Microsoft Graph's delta query, with its change notifications",
  'HRIS (BambooHR, HiBob, Personio)':
    "Connecting an HR system with the key its IT admin pastes (tried at once), the pull sync, and the providers' webhooks as hints",
  'OAuth flows': "The admin's browser in the consent flows of Google Workspace and Microsoft Entra ID (no Api-Key)",
  'Setup links, SCIM tokens, activity':
    "Self-serve setup for the customer's IT admin: setup links to a page of its own, the SCIM bearer tokens (at most two), and the recent SCIM requests",
  Cron: 'One-shot runs for CronJobs (also run in-process when the matching interval is set)',
  Health: 'Liveness and readiness probes',
  Meta: 'This document',
  Webhooks: 'The signed POSTs dsync sends to each directory webhook (Standard Webhooks)',
};

/** Standard Webhooks headers on every delivery (src/delivery/signer.ts). */
export const WEBHOOK_HEADERS: Record<string, Json> = {
  'webhook-id': {
    description: 'The delivery id: the same on every retry of the same events',
    schema: { type: 'string' },
    example: 'evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N',
  },
  'webhook-timestamp': {
    description: 'Seconds since the epoch when this attempt was signed',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '1795251600',
  },
  'webhook-signature': {
    description:
      'v1,<base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`> (space-separated when several)',
    schema: { type: 'string', pattern: '^v1,' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
};
