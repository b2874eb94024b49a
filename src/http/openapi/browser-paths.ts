/**
 * The routes an admin's browser opens while authorizing a directory, described by hand: the OAuth start link and
 * the Google and Entra callbacks. They answer HTML pages (or redirects), not the `{data, error}` envelope, so
 * they share the page's headers and example kept here.
 */
import { API_PREFIX } from './route-table.js';
import { answerHeaders } from './responses.js';
import type { Json } from './json-schemas.js';

const PAGE_HEADERS: Json = {
  'Cache-Control': { description: 'no-store', schema: { type: 'string' } },
  'Content-Security-Policy': { description: "default-src 'none'; frame-ancestors 'none'", schema: { type: 'string' } },
  'X-Frame-Options': { description: 'DENY', schema: { type: 'string' } },
  'Referrer-Policy': { description: 'no-referrer', schema: { type: 'string' } },
};

/** A page for the admin's browser. */
const page = (description: string, title: string, text: string): Json => ({
  description,
  headers: { ...answerHeaders(false), ...PAGE_HEADERS },
  content: {
    'text/html': {
      schema: { type: 'string' },
      examples: {
        default: {
          value: `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`,
        },
      },
    },
  },
});

const FAILED = 'Google Workspace authorization failed';
const MS_FAILED = 'Microsoft Entra ID authorization failed';
const STARTING = 'Authorization could not start';

/** The start link and the callbacks, in the order the document lists them. */
export function browserPaths(): Json {
  return {
    [`${API_PREFIX}/dsync/oauth/start/{token}`]: {
      get: {
        operationId: 'oauthStart',
        summary: 'Open a step-1 link: start the authorization in this browser',
        description:
          "The link step 1 answers (the admin's browser, no Api-Key; valid 15 minutes, opened once). It sets an HttpOnly " +
          "cookie binding the flow to this browser and redirects to the provider's consent page; a second opening is a 410.",
        tags: ['OAuth flows'],
        security: [],
        parameters: [
          {
            name: 'token',
            in: 'path',
            required: true,
            description: "The link's single-use token",
            schema: { type: 'string' },
            example: 'q8Hc0mXU3w2vJ3KjB1bH6bRk7mOa9sZl0y2uN4tE5pA',
          },
        ],
        responses: {
          303: {
            description: "To the provider's consent page, with the flow's cookie set",
            headers: {
              ...answerHeaders(false),
              ...PAGE_HEADERS,
              Location: {
                description: "The provider's consent page",
                required: true,
                schema: { type: 'string', format: 'uri' },
              },
              'Set-Cookie': {
                description: '`__Host-dsync-oauth-<id>` (https) or `dsync-oauth-<id>` (http): HttpOnly, SameSite=Lax',
                schema: { type: 'string' },
              },
            },
          },
          400: page(
            "The directory cannot start this flow (not of the provider's type): a page saying why",
            STARTING,
            'Directory 2b6d… is not of type google',
          ),
          404: page('The directory is gone: a page saying so', STARTING, 'Directory 2b6d… not found'),
          409: page(
            'The provider is not configured on this server: a page saying so',
            STARTING,
            'Google OAuth is not configured on this server',
          ),
          410: page(
            'The link has expired or was already opened: a page saying so',
            STARTING,
            'This authorization link has expired or was already opened: ask for a new one',
          ),
          500: page(
            'A fault of the server: a page saying so (the error is logged)',
            STARTING,
            'The authorization could not be completed; try again later',
          ),
          503: page(
            'The store does not answer: a page saying so',
            STARTING,
            'The data store is unavailable; retry shortly',
          ),
        },
      },
    },
    [`${API_PREFIX}/dsync/google/callback`]: {
      get: {
        operationId: 'googleCallback',
        summary: "Google's redirect after consent: steps 2 and 3 of the authorization",
        description:
          "The admin's browser comes back here from Google's consent page (no Api-Key: the flow's single-use state and the " +
          "browser's cookie set by the start link are the credential). The code is exchanged, the consenting account checked " +
          "against the directory's google_domain and the tokens set on the directory; the answer is a page, or a 303 to the " +
          '`redirect_url` given at step 1 with `directory_id` and `status` (and `error`, `error_description`).',
        tags: ['Google Workspace'],
        security: [],
        parameters: [
          {
            name: 'state',
            in: 'query',
            required: true,
            description: 'The state of the flow (single use)',
            schema: { type: 'string' },
            example: 'Zk3vJ8c1pQm2uN4tE5pAq8Hc0mXU3w2vJ3KjB1bH6bR',
          },
          {
            name: 'code',
            in: 'query',
            required: false,
            description: "Google's authorization code (absent when the admin refused)",
            schema: { type: 'string' },
            example: '4/0AfJohXl',
          },
          {
            name: 'error',
            in: 'query',
            required: false,
            description: "Google's error when the admin refused (e.g. access_denied)",
            schema: { type: 'string' },
          },
        ],
        responses: {
          200: page(
            'Authorized: a page saying so',
            'Google Workspace connected',
            'Directory 2b6d… can now sync from Google Workspace. You can close this window.',
          ),
          303: {
            description:
              'Authorized or failed: back to the redirect_url given at step 1, with directory_id and status (and error, error_description)',
            headers: {
              ...answerHeaders(false),
              Location: {
                description:
                  'The redirect_url with directory_id and status=success, or status=error with error (the code) and error_description (why)',
                required: true,
                schema: { type: 'string', format: 'uri' },
              },
            },
          },
          400: page(
            'A missing, unknown, expired or used state, another browser, a refused code or an account of another workspace: a page saying why',
            FAILED,
            'Invalid OAuth state (unknown, expired or already used): start the authorization again',
          ),
          404: page('The directory of the state is gone: a page saying so', FAILED, 'Directory 2b6d… not found'),
          409: page(
            'Google OAuth is not configured on this server: a page saying so',
            FAILED,
            'Google OAuth is not configured on this server',
          ),
          500: page(
            'A fault of the server: a page saying so (the error is logged)',
            FAILED,
            'The authorization could not be completed; try again later',
          ),
          502: page(
            'Google failed the code exchange: a page saying so',
            FAILED,
            'Google failed the code exchange: try again',
          ),
          503: page(
            'The store does not answer: a page saying so',
            FAILED,
            'The data store is unavailable; retry shortly',
          ),
        },
      },
    },
    [`${API_PREFIX}/dsync/microsoft/callback`]: {
      get: {
        operationId: 'microsoftCallback',
        summary:
          "Microsoft's redirect after the admin's sign-in (on to the admin consent) and after the admin consent (connects the directory)",
        description:
          "The tenant admin's browser comes back here twice (no Api-Key: the flow's single-use states and the browser's cookie " +
          "are the credential). After Microsoft's sign-in, with `code`: the code is redeemed, the ID token verified (signature " +
          "against the authority's keys, issuer, audience, lifetime, nonce) and its `tid` taken as the tenant, then a 303 on to " +
          "Microsoft's admin-consent page of that tenant, with a new cookie. After the admin consent, with `admin_consent` and " +
          '`tenant`: the tenant must be the one the sign-in proved (and the one the directory names), the grant is proved with a ' +
          'token, the directory connected, subscribed and synced; the answer is a page, or a 303 to the `redirect_url` given with ' +
          'the consent URL, with `directory_id` and `status` (and `error`, `error_description`).',
        tags: ['Microsoft Entra ID'],
        security: [],
        parameters: [
          {
            name: 'state',
            in: 'query',
            required: true,
            description: 'The state of the flow (single use)',
            schema: { type: 'string' },
            example: 'Zk3vJ8c1pQm2uN4tE5pAq8Hc0mXU3w2vJ3KjB1bH6bR',
          },
          {
            name: 'code',
            in: 'query',
            required: false,
            description: "The sign-in's authorization code (first callback)",
            schema: { type: 'string' },
          },
          {
            name: 'admin_consent',
            in: 'query',
            required: false,
            description: '`True` when the admin consented',
            schema: { type: 'string' },
            example: 'True',
          },
          {
            name: 'tenant',
            in: 'query',
            required: false,
            description: 'The id (GUID) of the tenant whose admin consented',
            schema: { type: 'string' },
            example: 'aaaaaaaa-1111-4111-8111-111111111111',
          },
          {
            name: 'scope',
            in: 'query',
            required: false,
            description: 'The permissions granted',
            schema: { type: 'string' },
          },
          {
            name: 'error',
            in: 'query',
            required: false,
            description: "Microsoft's error when the admin declined (e.g. access_denied)",
            schema: { type: 'string' },
          },
          {
            name: 'error_description',
            in: 'query',
            required: false,
            description: "Microsoft's explanation (AADSTS…)",
            schema: { type: 'string' },
          },
        ],
        responses: {
          200: page(
            'Connected: a page saying so (the first sync starts)',
            'Microsoft Entra ID connected',
            'Directory 2b6d… is connected to tenant aaaaaaaa-…; its first sync starts now.',
          ),
          303: {
            description:
              "Signed in: on to Microsoft's admin-consent page of the proved tenant (with the next step's cookie). Connected or failed: back to the redirect_url given with the consent URL, with directory_id and status (and error, error_description)",
            headers: {
              ...answerHeaders(false),
              Location: {
                description:
                  "Microsoft's admin-consent page; or the redirect_url with directory_id and status=success, or status=error with error (the code) and error_description (why)",
                required: true,
                schema: { type: 'string', format: 'uri' },
              },
            },
          },
          400: page(
            'A missing, unknown, expired or used state, another browser, a refusal, an ID token that does not check out, a guest account, or another tenant than the sign-in proved or the directory names: a page saying why',
            MS_FAILED,
            'This authorization was started in another browser (or the browser did not send its cookie back): start it again, and finish it in the same browser',
          ),
          404: page('The directory of the state is gone: a page saying so', MS_FAILED, 'Directory 2b6d… not found'),
          409: page(
            'Microsoft Entra ID is not configured on this server: a page saying so',
            MS_FAILED,
            'Microsoft Entra ID is not configured on this server',
          ),
          500: page(
            'A fault of the server: a page saying so (the error is logged)',
            MS_FAILED,
            'The authorization could not be completed; try again later',
          ),
          502: page(
            'Entra did not confirm the consent with a token, or its sign-in keys could not be read: a page saying so',
            MS_FAILED,
            'Getting a Graph token for the tenant failed',
          ),
          503: page(
            'The store does not answer: a page saying so',
            MS_FAILED,
            'The data store is unavailable; retry shortly',
          ),
        },
      },
    },
  };
}
