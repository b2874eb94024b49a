/** The OpenAPI pieces every route shares: error responses by status, rate-limit headers, webhook headers. */

type Json = Record<string, unknown>;

const header = (description: string, type = 'integer') => ({ description, schema: { type } });

export const RATE_LIMIT_HEADERS: Json = {
  'Retry-After': header('Seconds to wait before retrying'),
  'RateLimit-Limit': header('Requests allowed in the window that binds'),
  'RateLimit-Remaining': header('Requests left in that window'),
  'RateLimit-Reset': header('Seconds until that window resets'),
  'RateLimit-Policy': header('Both windows (draft-ietf-httpapi-ratelimit-headers)', 'string'),
};

const headerRefs = (names: string[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

/** Each status a route can answer with the error envelope: its component name and what it means. */
export const ERROR_RESPONSES: Record<number, { name: string; description: string; headers?: Json }> = {
  400: { name: 'BadRequest', description: 'Invalid input: the message names the field' },
  401: {
    name: 'Unauthorized',
    description: 'Missing or wrong Authorization: Api-Key <key>',
    headers: { 'WWW-Authenticate': header('Api-Key challenge', 'string') },
  },
  403: {
    name: 'Forbidden',
    description:
      "Beyond the API key's scope (a read-only key writing; a tenant key reaching another tenant's directory, or every directory), " +
      'or the directory is managed by a controller (the Kubernetes operator): change its resource',
  },
  404: { name: 'NotFound', description: 'No such directory, user, group, dead letter or delivery log' },
  409: {
    name: 'Conflict',
    description: 'The change conflicts with the current state (Google routes: OAuth is not configured on this server, DSYNC_GOOGLE_CLIENT_ID/SECRET; a service account still works)',
  },
  413: { name: 'PayloadTooLarge', description: 'The body is over 1 MiB' },
  502: { name: 'BadGateway', description: 'Google refused or failed the request (after retries)' },
  415: { name: 'UnsupportedMediaType', description: 'The body is not JSON (send application/json, or no Content-Type)' },
  429: {
    name: 'TooManyRequests',
    description: 'Over a rate limit (when rate limits are configured), or too many failed authentications from this client (always)',
    headers: headerRefs(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']),
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'The store does not answer, or a write lost a race it could not retry: retry shortly',
    headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
  },
};

export function errorResponse(status: number): Json {
  const { description, headers } = ERROR_RESPONSES[status]!;
  return {
    description,
    ...(headers && { headers }),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

/** Standard Webhooks headers on every delivery (src/delivery/signer.ts). */
export const WEBHOOK_HEADERS: Record<string, Json> = {
  'webhook-id': { description: 'The delivery id: the same on every retry of the same events', schema: { type: 'string' } },
  'webhook-timestamp': { description: 'Seconds since the epoch when this attempt was signed', schema: { type: 'string', pattern: '^[0-9]+$' } },
  'webhook-signature': {
    description: 'v1,<base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`> (space-separated when several)',
    schema: { type: 'string', pattern: '^v1,' },
  },
};
