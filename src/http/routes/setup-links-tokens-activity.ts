/**
 * Setup links, SCIM tokens and the activity record in the management API (docs/reference/http-api.md), all with
 * `Api-Key`:
 *   POST   /directory-sync/<id>/setup-links {expires_in?}   201 {id, url, expires_at} (the URL shown once)
 *   GET    /directory-sync/<id>/setup-links                 [{id, created_at, expires_at, revoked}]
 *   DELETE /directory-sync/<id>/setup-links/<linkId>        revoked at once
 *   POST   /directory-sync/<id>/scim-tokens                 201 {id, token, created_at} (the token shown once)
 *   GET    /directory-sync/<id>/scim-tokens                 [{id, created_at, last_used_at}]
 *   DELETE /directory-sync/<id>/scim-tokens/<tokenId>       revoked at once
 *   GET    /directory-sync/<id>/activity                    {last_request_at, recent: [{at, method, path, status, error}]}
 * Under the key scopes (middleware/api-keys.ts): a tenant key reaches its tenant's directories only; a read-only key
 * lists,
 * and never creates or revokes (a created link or token is a credential, shown to the key that may write).
 */
import { z } from 'zod';
import { ACTIVITY_KEEP } from '../../core/activity.js';
import { setupLinkInput } from '../../core/setup-links.js';
import { idParam, idParams, intQuery } from '../openapi/params.js';
import { route, type ApiRoute } from '../openapi/route-table.js';

const TAG = 'Setup links, SCIM tokens, activity';
const timestamp = z.iso.datetime();

const AT = '2026-11-21T08:00:00.000Z';
const LATER = '2026-11-28T08:00:00.000Z';
const linkParams = z.object({
  id: idParam('id').describe('The directory id'),
  linkId: idParam('linkId').describe('The setup link id (`sl_…`)'),
});
const tokenParams = z.object({
  id: idParam('id').describe('The directory id'),
  tokenId: idParam('tokenId').describe(
    "The token id: `scim-secret` for the directory's scim.secret, `tok_…` for the others",
  ),
});
const activityQuery = z.object({
  limit: intQuery('limit', 1, ACTIVITY_KEEP, { default: 100, description: 'Newest entries to return' }),
});

const createdLinkSchema = z
  .object({
    id: z.string(),
    url: z.string().describe("The link to send to the customer's IT admin; shown this once"),
    expires_at: timestamp,
  })
  .meta({
    id: 'CreatedSetupLink',
    examples: [{ id: 'sl_5f0c2a9e7b1d4c3a', url: 'https://dsync.example.com/setup/Vq3k9…', expires_at: LATER }],
  });
const linkSchema = z
  .object({ id: z.string(), created_at: timestamp, expires_at: timestamp, revoked: z.boolean() })
  .meta({
    id: 'SetupLink',
    examples: [{ id: 'sl_5f0c2a9e7b1d4c3a', created_at: AT, expires_at: LATER, revoked: false }],
  });
const createdTokenSchema = z
  .object({
    id: z.string(),
    token: z.string().describe('The bearer token for the identity provider; shown this once, stored only as a hash'),
    created_at: timestamp,
  })
  .meta({ id: 'CreatedScimToken', examples: [{ id: 'tok_8a1f3c5e7b9d2f4a', token: 'q9Xo2Lw…', created_at: AT }] });
const tokenSchema = z
  .object({
    id: z.string().describe("`scim-secret` is the directory's scim.secret"),
    created_at: timestamp,
    last_used_at: timestamp.nullable().describe('When the token last authenticated a SCIM request (to the minute)'),
    expires_at: timestamp.optional().describe('Set on the token an operator rotation replaced: it stops working then'),
  })
  .meta({
    id: 'ScimToken',
    examples: [{ id: 'scim-secret', created_at: AT, last_used_at: '2026-11-21T09:12:00.000Z' }],
  });
const activitySchema = z
  .object({
    last_request_at: timestamp.nullable().describe('The last SCIM request of the directory; null before the first'),
    recent: z.array(
      z.object({
        at: timestamp,
        method: z.string(),
        path: z.string().describe('Relative to the SCIM base URL, without the query'),
        status: z.number().int(),
        error: z.string().nullable().describe('The error detail the request was answered with'),
      }),
    ),
  })
  .meta({
    id: 'Activity',
    examples: [
      {
        last_request_at: '2026-11-21T09:12:03.000Z',
        recent: [
          {
            at: '2026-11-21T09:12:03.000Z',
            method: 'POST',
            path: '/Users',
            status: 409,
            error: 'User with userName "ann@acme.io" already exists in this directory',
          },
          { at: '2026-11-21T09:12:01.000Z', method: 'GET', path: '/Users', status: 200, error: null },
        ],
      },
    ],
  });
const revokedSchema = z
  .object({ id: z.string(), revoked: z.literal(true) })
  .meta({ id: 'Revoked', examples: [{ id: 'sl_5f0c2a9e7b1d4c3a', revoked: true }] });

export const setupApiRoutes: ApiRoute[] = [
  route({
    method: 'post',
    path: '/directory-sync/:id/setup-links',
    operationId: 'createSetupLink',
    description:
      "A link to this directory's setup page for the customer's IT admin (`$DSYNC_EXTERNAL_URL/setup/<token>`): it opens that page and its actions, nothing else. " +
      'Shown once (only its hash is stored); 7 days unless `expires_in` says otherwise, at most 30. A directory has at most 20 ' +
      'working links (neither revoked nor expired), checked atomically as the link is saved: a 21st is 409 until one is revoked.',
    summary: "Create a setup link for the customer's IT admin (this directory's setup page, nothing else)",
    tag: TAG,
    reach: 'directory',
    params: idParams,
    body: setupLinkInput,
    status: 201,
    responses: { 201: { description: 'The link, shown this once', data: createdLinkSchema } },
    errors: [404, 409],
    handle: ({ params, body }, dsync) => dsync.setupLinks.create(params.id, body),
  }),
  route({
    method: 'get',
    path: '/directory-sync/:id/setup-links',
    operationId: 'listSetupLinks',
    description: 'Every link of the directory (working, expired or revoked), oldest first; never a URL.',
    summary: "List the directory's setup links (never their URLs)",
    tag: TAG,
    reach: 'directory',
    params: idParams,
    responses: { 200: { description: 'Oldest first', data: z.array(linkSchema) } },
    errors: [404],
    handle: ({ params }, dsync) => dsync.setupLinks.list(params.id),
  }),
  route({
    method: 'delete',
    path: '/directory-sync/:id/setup-links/:linkId',
    operationId: 'revokeSetupLink',
    description:
      'The link stops working at once: its page then says it is no longer valid (410). Revoking it again is fine.',
    summary: 'Revoke a setup link at once',
    tag: TAG,
    reach: 'directory',
    params: linkParams,
    responses: { 200: { description: 'Revoked', data: revokedSchema } },
    errors: [404],
    handle: async ({ params }, dsync) => {
      await dsync.setupLinks.revoke(params.id, params.linkId);
      return { id: params.linkId, revoked: true as const };
    },
  }),
  route({
    method: 'post',
    path: '/directory-sync/:id/scim-tokens',
    operationId: 'createScimToken',
    description:
      'A new bearer token for the IdP, shown once (stored as its SHA-256). A directory holds at most two tokens, `scim.secret` ' +
      'counting as the first: a third is 409, so a token is replaced by creating the new one, updating the IdP, revoking the old.',
    summary: 'Create a SCIM bearer token (at most two active per directory)',
    tag: TAG,
    reach: 'directory',
    params: idParams,
    status: 201,
    responses: { 201: { description: 'The token, shown this once', data: createdTokenSchema } },
    errors: [404, 409],
    handle: ({ params }, dsync) => dsync.scimTokens.create(params.id),
  }),
  route({
    method: 'get',
    path: '/directory-sync/:id/scim-tokens',
    operationId: 'listScimTokens',
    description:
      'The working tokens, oldest first, with when each last authenticated a request (to the minute); never a value.',
    summary: "List the directory's SCIM tokens (never their values)",
    tag: TAG,
    reach: 'directory',
    params: idParams,
    responses: { 200: { description: 'Oldest first', data: z.array(tokenSchema) } },
    errors: [404],
    handle: ({ params }, dsync) => dsync.scimTokens.list(params.id),
  }),
  route({
    method: 'delete',
    path: '/directory-sync/:id/scim-tokens/:tokenId',
    operationId: 'revokeScimToken',
    description:
      "The token gets 401 at once. `scim-secret` empties the directory's `scim.secret`; on a directory the operator manages it is 403 " +
      '(rotate it with the `dsync.io/rotate-token` annotation instead).',
    summary: 'Revoke a SCIM token at once',
    tag: TAG,
    reach: 'directory',
    params: tokenParams,
    responses: { 200: { description: 'Revoked', data: revokedSchema } },
    errors: [403, 404],
    handle: async ({ params }, dsync) => {
      await dsync.scimTokens.revoke(params.id, params.tokenId);
      return { id: params.tokenId, revoked: true as const };
    },
  }),
  route({
    method: 'get',
    path: '/directory-sync/:id/activity',
    operationId: 'getActivity',
    description:
      'The last SCIM requests of the directory (at most 1,000, within 7 days), newest first: time, method, path, status and the ' +
      'error detail it was answered with. No bodies, headers or queries. Requests that presented no token are not recorded; ' +
      'a wrong token is (a 401), without moving `last_request_at`, the last authenticated request, which outlives the entries.',
    summary: "The directory's recent SCIM requests, newest first, with the error detail of failures",
    tag: TAG,
    reach: 'directory',
    params: idParams,
    query: activityQuery,
    responses: { 200: { description: 'The activity record', data: activitySchema } },
    errors: [404],
    handle: async ({ params, query }, dsync) => {
      const directory = await dsync.directories.get(params.id);
      return dsync.activity.read(directory.id, query.limit ?? 100);
    },
  }),
];
