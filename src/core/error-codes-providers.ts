/**
 * The error codes of the directory providers (Google Workspace, Microsoft Entra ID, the HRIS types) and of
 * their pull syncs: sections of the table in error-codes.ts, kept apart because they are the largest part of it.
 */
import type { Entries } from './error-code-doc.js';

/** The prefixes of the pull providers' runs (one runner each; the HRIS types share one). */
export type RunCodePrefix = 'DSYNC_GOOGLE' | 'DSYNC_MICROSOFT' | 'DSYNC_HRIS';
/** The prefixes of the mass-deletion guard: per provider, each HRIS type on its own. */
export type GuardCodePrefix = 'DSYNC_GOOGLE' | 'DSYNC_MICROSOFT' | 'DSYNC_BAMBOOHR' | 'DSYNC_HIBOB' | 'DSYNC_PERSONIO';

const RUN_PROVIDERS: Record<RunCodePrefix, { name: string; alert: string; guard: string }> = {
  DSYNC_GOOGLE: { name: 'Google Workspace', alert: 'DsyncGoogleSyncFailing', guard: 'DSYNC_GOOGLE_MAX_DELETE_SHARE' },
  DSYNC_MICROSOFT: {
    name: 'Microsoft Entra ID',
    alert: 'DsyncMicrosoftSyncFailing',
    guard: 'DSYNC_MICROSOFT_MAX_DELETE_SHARE',
  },
  DSYNC_HRIS: {
    name: 'HRIS (BambooHR, HiBob, Personio)',
    alert: 'DsyncHrisSyncFailing',
    guard: 'DSYNC_HRIS_MAX_DELETE_SHARE',
  },
};

const GUARD_PROVIDERS: Record<GuardCodePrefix, RunCodePrefix> = {
  DSYNC_GOOGLE: 'DSYNC_GOOGLE',
  DSYNC_MICROSOFT: 'DSYNC_MICROSOFT',
  DSYNC_BAMBOOHR: 'DSYNC_HRIS',
  DSYNC_HIBOB: 'DSYNC_HRIS',
  DSYNC_PERSONIO: 'DSYNC_HRIS',
};

/** The codes every pull provider's runner gives, under its prefix (pull/errors.ts, pull/runner.ts). */
function runCodes<P extends RunCodePrefix>(
  prefix: P,
): Entries<`${P}_SYNC_BUSY` | `${P}_LEASE_LOST` | `${P}_SYNC_FAILED`> {
  const { name, alert } = RUN_PROVIDERS[prefix];
  return {
    [`${prefix}_SYNC_BUSY`]: {
      status: 409,
      meaning: `Another run is syncing this ${name} directory (a directory is synced by one run at a time, across processes); this one skipped it.`,
      action:
        'Nothing: the run going on does the work. Repeated for hours, see the runs of the directory: one may hang on a slow provider.',
    },
    [`${prefix}_LEASE_LOST`]: {
      status: 503,
      meaning: `A ${name} sync lost its lease on the directory (it ran longer than the lease without renewing it, or the store failed or restarted) and stopped; what it wrote is kept.`,
      action:
        'Nothing for one occurrence: the next run goes on from there. Repeated, check the store (restarts, failovers, latency).',
    },
    [`${prefix}_SYNC_FAILED`]: {
      meaning: `A ${name} sync of a directory failed on an error without a code of its own (its message says which); nothing is deleted on a failed run.`,
      action: `Read the message and the logs of the run (\`${name} sync of a directory did not succeed\`); the alert ${alert} fires when it lasts.`,
    },
  } as Entries<`${P}_SYNC_BUSY` | `${P}_LEASE_LOST` | `${P}_SYNC_FAILED`>;
}

function guardCode<P extends GuardCodePrefix>(prefix: P, name: string): Entries<`${P}_MASS_DELETION`> {
  const { guard } = RUN_PROVIDERS[GUARD_PROVIDERS[prefix]];
  return {
    [`${prefix}_MASS_DELETION`]: {
      status: 409,
      meaning: `A ${name} sync would have deleted more than the allowed share of the directory's users, groups or memberships (\`${guard}\`); it deleted nothing, and its status reads \`guarded\`.`,
      action: `Check the directory in ${name} (a filter, a scope or a license change can hide users). If the deletions are intended, raise \`${guard}\` for one run, then set it back.`,
    },
  } as Entries<`${P}_MASS_DELETION`>;
}

export const GOOGLE = {
  DSYNC_GOOGLE_NOT_CONFIGURED: {
    // A 409, not a 5xx: the request cannot work in this server's state, and nothing is failing or retried.
    status: 409,
    meaning: 'Google OAuth is not configured on this server, so the consent flow cannot start.',
    action: 'Set `DSYNC_GOOGLE_CLIENT_ID` and `DSYNC_GOOGLE_CLIENT_SECRET`, or give the directory a service account.',
  },
  DSYNC_GOOGLE_WRONG_TYPE: {
    status: 400,
    meaning: 'A Google route was called for a directory of another type.',
    action: "Use the routes of the directory's own type.",
  },
  DSYNC_GOOGLE_WRONG_WORKSPACE: {
    status: 400,
    meaning:
      "The Google account that consented is not of the directory's workspace (`google_domain`); its tokens were not kept.",
    action: "Sign in as an administrator of the directory's workspace.",
  },
  DSYNC_GOOGLE_INVALID_CREDENTIALS: {
    status: 400,
    meaning:
      'Google refused the credentials for good: a revoked or expired refresh token (`invalid_grant`), a code already used, a service account without domain-wide delegation.',
    action:
      "An administrator of the workspace authorizes again (a new setup link), or fix the service account's delegation.",
  },
  DSYNC_GOOGLE_NOT_AUTHORIZED: {
    status: 409,
    meaning: 'The directory has no Google credentials yet (no tokens, no service account).',
    action: 'Run the OAuth flow (a setup link) or give the directory a service account.',
  },
  DSYNC_GOOGLE_API: {
    status: 502,
    meaning:
      "A call to Google's Directory API failed after its retries (or at once, for errors retrying cannot fix); the message gives Google's status and reason.",
    action:
      "Read Google's reason; a passing outage heals on the next run. Lasting, see the DsyncGoogleSyncFailing runbook.",
  },
  DSYNC_GOOGLE_INCOMPLETE_LISTING: {
    status: 502,
    meaning:
      'A Google listing did not end as a complete one does (a page missing, a repeated page token); nothing was deleted on its basis.',
    action: 'Nothing for one occurrence: the next run lists again. Lasting, see the DsyncGoogleSyncFailing runbook.',
  },
} satisfies Entries<string>;

export const MICROSOFT = {
  DSYNC_MICROSOFT_NOT_CONFIGURED: {
    status: 409,
    meaning: 'The Microsoft Entra ID app registration is not configured on this server.',
    action:
      'Set `DSYNC_MICROSOFT_CLIENT_ID` and `DSYNC_MICROSOFT_CLIENT_SECRET` or `DSYNC_MICROSOFT_CERTIFICATE_FILE`.',
  },
  DSYNC_MICROSOFT_WRONG_TYPE: {
    status: 400,
    meaning: 'A Microsoft route was called for a directory of another type.',
    action: "Use the routes of the directory's own type.",
  },
  DSYNC_MICROSOFT_NOT_CONSENTED: {
    status: 409,
    meaning: 'No administrator of an Entra tenant has consented for the directory yet (it has no tenant).',
    action: "Send an administrator of the customer's tenant the admin-consent URL (or a setup link).",
  },
  DSYNC_MICROSOFT_INVALID_CREDENTIALS: {
    status: 400,
    meaning:
      'Entra ID or Graph refused the credentials for good: consent revoked (the app removed from the tenant, or its permissions taken away), a wrong secret, an unknown certificate.',
    action:
      "An administrator of the tenant consents again; check the app's secret or certificate. See the DsyncMicrosoftConsentRevoked runbook.",
  },
  DSYNC_MICROSOFT_GRAPH: {
    status: 502,
    meaning:
      "A Microsoft Graph (or token) call failed after its retries, or at once for errors retrying cannot fix; the message gives Graph's status and code.",
    action:
      "Read Graph's code; a passing outage heals on the next run. Lasting, see the DsyncMicrosoftSyncFailing runbook.",
  },
  DSYNC_MICROSOFT_DELTA_EXPIRED: {
    status: 502,
    meaning:
      "Graph no longer knows the directory's delta token (410 Gone, resync required); a full round follows on its own.",
    action: 'Nothing: the next round reads the tenant in full.',
  },
  DSYNC_MICROSOFT_INCOMPLETE_ROUND: {
    status: 502,
    meaning:
      'A Graph delta round did not end as a complete one does (no deltaLink, a repeated nextLink, a garbled page); nothing was deleted.',
    action:
      'Nothing for one occurrence: the next run starts the round again. Lasting, see the DsyncMicrosoftSyncFailing runbook.',
  },
  DSYNC_MICROSOFT_CONSENT_REFUSED: {
    status: 400,
    meaning:
      "The admin-consent callback names another tenant than the directory's, the administrator refused, or the answer carries no code.",
    action: "An administrator of the directory's own tenant consents, from a new admin-consent URL.",
  },
  DSYNC_MICROSOFT_SIGN_IN_NOT_PROVED: {
    status: 400,
    meaning:
      "The administrator's sign-in did not prove a tenant: Microsoft refused the code, its ID token failed a check, or the account is a guest. Nothing was saved.",
    action: 'Sign in again with an account that belongs to the tenant (not a guest).',
  },
} satisfies Entries<string>;

export const HRIS = {
  DSYNC_HRIS_INVALID_CREDENTIALS: {
    status: 400,
    meaning:
      'The HR system refused the credentials (401 or 403): at connect nothing was stored; in a sync nothing was touched.',
    action:
      'Check the credentials and the permissions they carry, then enter them again. See the DsyncHrisCredentialsRefused runbook.',
  },
  DSYNC_HRIS_NOT_CONNECTED: {
    status: 409,
    meaning: 'The HRIS directory has no credentials yet.',
    action: 'Give it credentials (`PUT /api/v1/directory-sync/{id}/hris/credentials`, or a setup link).',
  },
  DSYNC_HRIS_WRONG_TYPE: {
    status: 400,
    meaning: 'An HRIS route was called for a directory that is not of an HRIS type (bamboohr, hibob, personio).',
    action: "Use the routes of the directory's own type.",
  },
  DSYNC_HRIS_API_ERROR: {
    status: 502,
    meaning:
      'The HR system answered with something other than its documented shape, or kept failing; nothing was deleted.',
    action: 'Read the message; a passing outage heals on the next run. Lasting, see the DsyncHrisSyncFailing runbook.',
  },
  DSYNC_HRIS_WEBHOOK_REFUSED: {
    status: 401,
    meaning:
      'A call to the HRIS webhook did not check out: no webhook secret configured for the directory, or a bad or stale signature.',
    action: "Give the credentials the provider's webhook secret (`webhook_secret`), the same as set in the HR system.",
  },
} satisfies Entries<string>;

export const PULL = {
  ...runCodes('DSYNC_GOOGLE'),
  ...runCodes('DSYNC_MICROSOFT'),
  ...runCodes('DSYNC_HRIS'),
  ...guardCode('DSYNC_GOOGLE', 'Google Workspace'),
  ...guardCode('DSYNC_MICROSOFT', 'Microsoft Entra ID'),
  ...guardCode('DSYNC_BAMBOOHR', 'BambooHR'),
  ...guardCode('DSYNC_HIBOB', 'HiBob'),
  ...guardCode('DSYNC_PERSONIO', 'Personio'),
  DSYNC_SYNC_RUN_ABANDONED: {
    meaning: 'A background sync run (`Prefer: respond-async`) was left unfinished: the process running it stopped.',
    action: 'Start another run; directories it had synced keep their results.',
  },
  DSYNC_SYNC_RUN_FAILED: {
    meaning: 'A background sync run failed as a whole on an error without a code of its own (its message says which).',
    action: 'Read the message and the logs, then start another run.',
  },
} satisfies Entries<string>;
