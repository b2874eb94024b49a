/**
 * What the directory providers' environment variables (Google Workspace, Microsoft Entra ID, the HRIS types) mean:
 * entries of ENV_DOCS in config-docs.ts, kept apart because they are its largest part. Literal (`as const`) so
 * config-docs.ts checks them against its EnvDoc where it spreads them in, without this file importing it back.
 */
import { GOOGLE_DEFAULTS } from './providers/google/options.js';
import { MICROSOFT_DEFAULTS } from './providers/microsoft/options.js';
import { HRIS_DEFAULTS } from './providers/hris/options.js';

export const PROVIDER_ENV_DOCS = {
  DSYNC_GOOGLE_CLIENT_ID: {
    group: 'Google Workspace',
    meaning:
      'OAuth client of a Google Cloud "web application" (the three-step consent flow); set with `DSYNC_GOOGLE_CLIENT_SECRET`, or neither (service accounts only).',
  },
  DSYNC_GOOGLE_CLIENT_SECRET: { group: 'Google Workspace', meaning: "That OAuth client's secret." },
  DSYNC_GOOGLE_REDIRECT_URL: {
    group: 'Google Workspace',
    default: '`$DSYNC_EXTERNAL_URL/api/v1/dsync/google/callback`',
    meaning: 'The OAuth redirect URI registered on that client.',
  },
  DSYNC_GOOGLE_API_URL: {
    group: 'Google Workspace',
    default: `\`${GOOGLE_DEFAULTS.apiUrl}\``,
    meaning: "Google's Admin SDK base URL (tests point it at a fake Google).",
  },
  DSYNC_GOOGLE_TOKEN_URL: {
    group: 'Google Workspace',
    default: `\`${GOOGLE_DEFAULTS.tokenUrl}\``,
    meaning: "Google's OAuth token endpoint.",
  },
  DSYNC_GOOGLE_AUTH_URL: {
    group: 'Google Workspace',
    default: `\`${GOOGLE_DEFAULTS.authUrl}\``,
    meaning: "Google's OAuth consent page.",
  },
  DSYNC_GOOGLE_SYNC_INTERVAL: {
    group: 'Google Workspace',
    type: 'integer (seconds)',
    meaning: '`dsync serve` runs the pull sync in-process at this interval (besides the route and the CronJob).',
  },
  DSYNC_GOOGLE_QUERIES_PER_MINUTE: {
    group: 'Google Workspace',
    default: `\`${GOOGLE_DEFAULTS.queriesPerMinute}\``,
    meaning: "Directory API requests started per minute by one process (Google's default quota); `0` = not paced.",
  },
  DSYNC_GOOGLE_MAX_DELETE_SHARE: {
    group: 'Google Workspace',
    default: `\`${GOOGLE_DEFAULTS.maxDeleteShare * 100}%\``,
    type: 'share (`20%` or `0.2`)',
    meaning:
      "A sync that would delete more than this share of a directory's users and groups (or memberships) deletes nothing and reports `guarded`.",
  },
  DSYNC_MICROSOFT_CLIENT_ID: {
    group: 'Microsoft Entra ID',
    meaning:
      'The multi-tenant Entra app registration (its application id) the pull sync signs in as; with one credential below.',
  },
  DSYNC_MICROSOFT_CLIENT_SECRET: {
    group: 'Microsoft Entra ID',
    meaning: "The app's client secret (or use `DSYNC_MICROSOFT_CERTIFICATE_FILE`).",
  },
  DSYNC_MICROSOFT_CERTIFICATE_FILE: {
    group: 'Microsoft Entra ID',
    meaning:
      "The app's credential as a PEM file: the private key and the certificate uploaded to the app (instead of a client secret).",
  },
  DSYNC_MICROSOFT_AUTHORITY_URL: {
    group: 'Microsoft Entra ID',
    default: `\`${MICROSOFT_DEFAULTS.authorityUrl}\``,
    meaning: "Entra's sign-in authority (https only): a national cloud's host, or a test's fake.",
  },
  DSYNC_MICROSOFT_GRAPH_URL: {
    group: 'Microsoft Entra ID',
    default: `\`${MICROSOFT_DEFAULTS.graphUrl}\``,
    meaning: "Microsoft Graph (https only): a national cloud's host, or a test's fake.",
  },
  DSYNC_MICROSOFT_SYNC_INTERVAL: {
    group: 'Microsoft Entra ID',
    type: 'integer (seconds)',
    meaning:
      '`dsync serve` runs the Entra delta sync in-process at this interval (besides the CronJob and change notifications).',
  },
  DSYNC_MICROSOFT_MAX_DELETE_SHARE: {
    group: 'Microsoft Entra ID',
    default: `\`${MICROSOFT_DEFAULTS.maxDeleteShare * 100}%\``,
    type: 'share (`20%` or `0.2`)',
    meaning: 'The mass-deletion guard of the Entra sync, as `DSYNC_GOOGLE_MAX_DELETE_SHARE`.',
  },
  DSYNC_BAMBOOHR_API_URL: {
    group: 'HRIS (BambooHR, HiBob, Personio)',
    default: `\`${HRIS_DEFAULTS.apiUrls.bamboohr}\``,
    type: 'URL',
    meaning:
      "BambooHR's API; each company's subdomain goes in the path (`<url>/api/gateway.php/<subdomain>/v1/...`). Tests point it at a fake.",
  },
  DSYNC_HIBOB_API_URL: {
    group: 'HRIS (BambooHR, HiBob, Personio)',
    default: `\`${HRIS_DEFAULTS.apiUrls.hibob}\``,
    type: 'URL',
    meaning: "HiBob's API. Tests point it at a fake.",
  },
  DSYNC_PERSONIO_API_URL: {
    group: 'HRIS (BambooHR, HiBob, Personio)',
    default: `\`${HRIS_DEFAULTS.apiUrls.personio}\``,
    type: 'URL',
    meaning: "Personio's API (v2). Tests point it at a fake.",
  },
  DSYNC_HRIS_SYNC_INTERVAL: {
    group: 'HRIS (BambooHR, HiBob, Personio)',
    type: 'integer (seconds)',
    meaning:
      "`dsync serve` runs the HRIS syncs in-process at this interval (besides the CronJob and the providers' webhooks).",
  },
  DSYNC_HRIS_MAX_DELETE_SHARE: {
    group: 'HRIS (BambooHR, HiBob, Personio)',
    default: `\`${HRIS_DEFAULTS.maxDeleteShare * 100}%\``,
    type: 'share (`20%` or `0.2`)',
    meaning: 'The mass-deletion guard of the HRIS syncs, as `DSYNC_GOOGLE_MAX_DELETE_SHARE`.',
  },
} as const;
