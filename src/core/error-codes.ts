/**
 * Every error code of the product: a DsyncError's `code` (logs, the OAuth callbacks' `error=`, a sync's
 * `error.code`) and the codes of sync results, each with what it means and what to do. DsyncError's `code` is
 * typed to this table's keys, so a new code does not build until it is described here; an error's HTTP status
 * defaults to its entry's. docs/reference/errors.md is generated from it (scripts/docs/reference/errors.ts).
 */

export interface ErrorCodeDoc {
  /** The HTTP status a request failing with it is answered with; none for codes no request answers with. */
  status?: number;
  meaning: string;
  action: string;
}

type Entries<K extends string> = Record<K, ErrorCodeDoc>;

/** The prefixes of the pull providers' runs (one runner each; the HRIS types share one). */
export type RunCodePrefix = 'DSYNC_GOOGLE' | 'DSYNC_MICROSOFT' | 'DSYNC_HRIS';
/** The prefixes of the mass-deletion guard: per provider, each HRIS type on its own. */
export type GuardCodePrefix = 'DSYNC_GOOGLE' | 'DSYNC_MICROSOFT' | 'DSYNC_BAMBOOHR' | 'DSYNC_HIBOB' | 'DSYNC_PERSONIO';

const RUN_PROVIDERS: Record<RunCodePrefix, { name: string; alert: string; guard: string }> = {
  DSYNC_GOOGLE: { name: 'Google Workspace', alert: 'DsyncGoogleSyncFailing', guard: 'DSYNC_GOOGLE_MAX_DELETE_SHARE' },
  DSYNC_MICROSOFT: { name: 'Microsoft Entra ID', alert: 'DsyncMicrosoftSyncFailing', guard: 'DSYNC_MICROSOFT_MAX_DELETE_SHARE' },
  DSYNC_HRIS: { name: 'HRIS (BambooHR, HiBob, Personio)', alert: 'DsyncHrisSyncFailing', guard: 'DSYNC_HRIS_MAX_DELETE_SHARE' },
};

const GUARD_PROVIDERS: Record<GuardCodePrefix, RunCodePrefix> = {
  DSYNC_GOOGLE: 'DSYNC_GOOGLE',
  DSYNC_MICROSOFT: 'DSYNC_MICROSOFT',
  DSYNC_BAMBOOHR: 'DSYNC_HRIS',
  DSYNC_HIBOB: 'DSYNC_HRIS',
  DSYNC_PERSONIO: 'DSYNC_HRIS',
};

/** The codes every pull provider's runner gives, under its prefix (pull/errors.ts, pull/runner.ts). */
function runCodes<P extends RunCodePrefix>(prefix: P): Entries<`${P}_SYNC_BUSY` | `${P}_LEASE_LOST` | `${P}_SYNC_FAILED`> {
  const { name, alert } = RUN_PROVIDERS[prefix];
  return {
    [`${prefix}_SYNC_BUSY`]: {
      status: 409,
      meaning: `Another run is syncing this ${name} directory (a directory is synced by one run at a time, across processes); this one skipped it.`,
      action: 'Nothing: the run going on does the work. Repeated for hours, see the runs of the directory: one may hang on a slow provider.',
    },
    [`${prefix}_LEASE_LOST`]: {
      status: 503,
      meaning: `A ${name} sync lost its lease on the directory (it ran longer than the lease without renewing it, or the store failed or restarted) and stopped; what it wrote is kept.`,
      action: 'Nothing for one occurrence: the next run goes on from there. Repeated, check the store (restarts, failovers, latency).',
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

const CORE = {
  DSYNC_INVALID_INPUT: {
    status: 400,
    meaning: 'The request is malformed or a field is invalid; the message names the field.',
    action: 'Fix the request as the message says; the HTTP API reference lists each field.',
  },
  DSYNC_NOT_FOUND: {
    status: 404,
    meaning: 'The directory, user, group or other object named does not exist.',
    action: 'Check the id (list the objects to find it).',
  },
  DSYNC_CONFLICT: {
    status: 409,
    meaning: "The request conflicts with what is stored: a duplicate, or a change the object's current state does not allow; the message says which.",
    action: 'Read the object as it is now, then send a request that fits it.',
  },
  DSYNC_FORBIDDEN: {
    status: 403,
    meaning: 'The API key is valid but its scope does not allow this (a read-only key writing, a tenant key outside its tenant or on a cron route).',
    action: 'Use a key whose scope covers the request (`DSYNC_API_KEYS`).',
  },
  DSYNC_CONTENTION: {
    status: 503,
    meaning: 'A write lost an optimistic-concurrency race on the same object too many times in a row.',
    action: 'Retry after the `Retry-After` (1 s). Frequent, find what writes the same object many times at once.',
  },
  STORE_UNAVAILABLE: {
    status: 503,
    meaning: 'The store (Redis) did not answer in time or cannot be reached: stalled, restarting, failing over. A write that failed so either committed whole, with its events, or not at all.',
    action: 'Retry after the `Retry-After` (1 s). Lasting, see the DsyncStoreErrors runbook.',
  },
  STORE_NOT_DURABLE: {
    status: 503,
    meaning: 'A write ran, but fewer replicas than `DSYNC_REDIS_WAIT_REPLICAS` confirmed it in time: it may not survive a failover, so it is not acknowledged.',
    action: 'Retry (safe: an update re-applies, a create that did survive answers 409). Lasting, see the DsyncStoreNotDurable runbook.',
  },
  DSYNC_INTERNAL: {
    status: 500,
    meaning: "A fault of dsync itself. The answer carries the error's instance id (and the request id), logged with the error.",
    action: 'Find the log line by the id in the answer and report it with that line.',
  },
} satisfies Entries<string>;

const PROCESS = {
  DSYNC_CONFIG: {
    meaning: 'The configuration (environment variables, a kubeconfig, a certificate file) is invalid or incomplete; the process prints `dsync: configuration error: …` and exits with status 1.',
    action: 'Fix the variable the message names; the configuration reference lists them all.',
  },
  DSYNC_PORT_UNAVAILABLE: {
    meaning: 'A port could not be bound: in use by another process, or below 1024 without the privilege. The process prints one line naming the variable and exits with status 1.',
    action: 'Set the variable the message names (`PORT`, `METRICS_PORT`) to a free port above 1023.',
  },
} satisfies Entries<string>;

const DELIVERY = {
  DSYNC_DEAD_LETTER_NOT_FOUND: {
    status: 404,
    meaning: 'A re-delivery named a dead letter this directory does not have (or no longer has).',
    action: "List the directory's dead letters and use an id from that list.",
  },
  DSYNC_SSRF_BLOCKED: {
    status: 400,
    meaning: 'A delivery was refused: the webhook URL resolves to a private, loopback, link-local or reserved address. The attempt fails like any other, retried on the schedule.',
    action: 'Use a public webhook URL. For a receiver inside your network, set `DSYNC_WEBHOOK_ALLOW_PRIVATE=true`.',
  },
  DSYNC_DELIVERY_INVALID_OPTION: {
    status: 500,
    meaning: 'An application embedding dsync passed an invalid delivery option to `createDsync`; the message names the option.',
    action: 'Fix the option in the embedding code.',
  },
  DSYNC_DELIVERY_LEASE_LOST: {
    status: 503,
    meaning: "A directory's delivery lease was gone mid-run (the store lost it, or it lapsed and another process took over); the events sent are delivered again from the saved cursor, so a receiver may see them twice.",
    action: 'Nothing for one occurrence (receivers deduplicate by event id). Repeated, check the store and `DSYNC_DELIVERY_LEASE`.',
  },
} satisfies Entries<string>;

const OAUTH = {
  DSYNC_OAUTH_INVALID_STATE: {
    status: 400,
    meaning: 'An OAuth callback came with a `state` that is missing, unknown, expired, already used, for another provider, or from a setup link revoked or expired since.',
    action: 'Start the authorization again from a fresh link.',
  },
  DSYNC_OAUTH_BROWSER_MISMATCH: {
    status: 400,
    meaning: 'The callback reached a browser other than the one that opened the start link (or the browser did not send its cookie back).',
    action: 'Open a new link and finish the authorization in the same browser, with cookies allowed.',
  },
  DSYNC_OAUTH_LINK_USED: {
    status: 410,
    meaning: 'An authorization start link is unknown, expired (15 minutes), or was already opened.',
    action: 'Ask for a new link (each opens once).',
  },
} satisfies Entries<string>;

const GOOGLE = {
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
    meaning: "The Google account that consented is not of the directory's workspace (`google_domain`); its tokens were not kept.",
    action: "Sign in as an administrator of the directory's workspace.",
  },
  DSYNC_GOOGLE_INVALID_CREDENTIALS: {
    status: 400,
    meaning: 'Google refused the credentials for good: a revoked or expired refresh token (`invalid_grant`), a code already used, a service account without domain-wide delegation.',
    action: "An administrator of the workspace authorizes again (a new setup link), or fix the service account's delegation.",
  },
  DSYNC_GOOGLE_NOT_AUTHORIZED: {
    status: 409,
    meaning: 'The directory has no Google credentials yet (no tokens, no service account).',
    action: 'Run the OAuth flow (a setup link) or give the directory a service account.',
  },
  DSYNC_GOOGLE_API: {
    status: 502,
    meaning: "A call to Google's Directory API failed after its retries (or at once, for errors retrying cannot fix); the message gives Google's status and reason.",
    action: "Read Google's reason; a passing outage heals on the next run. Lasting, see the DsyncGoogleSyncFailing runbook.",
  },
  DSYNC_GOOGLE_INCOMPLETE_LISTING: {
    status: 502,
    meaning: 'A Google listing did not end as a complete one does (a page missing, a repeated page token); nothing was deleted on its basis.',
    action: 'Nothing for one occurrence: the next run lists again. Lasting, see the DsyncGoogleSyncFailing runbook.',
  },
} satisfies Entries<string>;

const MICROSOFT = {
  DSYNC_MICROSOFT_NOT_CONFIGURED: {
    status: 409,
    meaning: 'The Microsoft Entra ID app registration is not configured on this server.',
    action: 'Set `DSYNC_MICROSOFT_CLIENT_ID` and `DSYNC_MICROSOFT_CLIENT_SECRET` or `DSYNC_MICROSOFT_CERTIFICATE_FILE`.',
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
    meaning: 'Entra ID or Graph refused the credentials for good: consent revoked (the app removed from the tenant, or its permissions taken away), a wrong secret, an unknown certificate.',
    action: "An administrator of the tenant consents again; check the app's secret or certificate. See the DsyncMicrosoftConsentRevoked runbook.",
  },
  DSYNC_MICROSOFT_GRAPH: {
    status: 502,
    meaning: "A Microsoft Graph (or token) call failed after its retries, or at once for errors retrying cannot fix; the message gives Graph's status and code.",
    action: "Read Graph's code; a passing outage heals on the next run. Lasting, see the DsyncMicrosoftSyncFailing runbook.",
  },
  DSYNC_MICROSOFT_DELTA_EXPIRED: {
    status: 502,
    meaning: "Graph no longer knows the directory's delta token (410 Gone, resync required); a full round follows on its own.",
    action: 'Nothing: the next round reads the tenant in full.',
  },
  DSYNC_MICROSOFT_INCOMPLETE_ROUND: {
    status: 502,
    meaning: 'A Graph delta round did not end as a complete one does (no deltaLink, a repeated nextLink, a garbled page); nothing was deleted.',
    action: 'Nothing for one occurrence: the next run starts the round again. Lasting, see the DsyncMicrosoftSyncFailing runbook.',
  },
  DSYNC_MICROSOFT_CONSENT_REFUSED: {
    status: 400,
    meaning: "The admin-consent callback names another tenant than the directory's, the administrator refused, or the answer carries no code.",
    action: "An administrator of the directory's own tenant consents, from a new admin-consent URL.",
  },
  DSYNC_MICROSOFT_SIGN_IN_NOT_PROVED: {
    status: 400,
    meaning: "The administrator's sign-in did not prove a tenant: Microsoft refused the code, its ID token failed a check, or the account is a guest. Nothing was saved.",
    action: 'Sign in again with an account that belongs to the tenant (not a guest).',
  },
} satisfies Entries<string>;

const HRIS = {
  DSYNC_HRIS_INVALID_CREDENTIALS: {
    status: 400,
    meaning: 'The HR system refused the credentials (401 or 403): at connect nothing was stored; in a sync nothing was touched.',
    action: 'Check the credentials and the permissions they carry, then enter them again. See the DsyncHrisCredentialsRefused runbook.',
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
    meaning: 'The HR system answered with something other than its documented shape, or kept failing; nothing was deleted.',
    action: 'Read the message; a passing outage heals on the next run. Lasting, see the DsyncHrisSyncFailing runbook.',
  },
  DSYNC_HRIS_WEBHOOK_REFUSED: {
    status: 401,
    meaning: 'A call to the HRIS webhook did not check out: no webhook secret configured for the directory, or a bad or stale signature.',
    action: "Give the credentials the provider's webhook secret (`webhook_secret`), the same as set in the HR system.",
  },
} satisfies Entries<string>;

const PULL = {
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

/** RFC 7644's `scimType`s dsync answers with, as codes (ScimError). The IdP sees the `scimType` and the status. */
const SCIM_TYPES = {
  DSYNC_SCIM_INVALID_FILTER: { status: 400, meaning: 'A SCIM `filter` is malformed or uses what the server does not support.', action: "Fix the filter in the identity provider's request." },
  DSYNC_SCIM_TOO_MANY: { status: 400, meaning: 'A SCIM request asks for more than the server bounds allow (attributes, PATCH operations, values).', action: 'Split the request; the message names the bound.' },
  DSYNC_SCIM_UNIQUENESS: { status: 409, meaning: "A SCIM create or update would duplicate a unique value (a `userName`, a group's `displayName`, an `externalId`).", action: 'The identity provider resolves the duplicate (it usually reads the existing object and links it).' },
  DSYNC_SCIM_MUTABILITY: { status: 400, meaning: 'A SCIM request tried to change a read-only attribute.', action: 'The identity provider leaves the attribute out.' },
  DSYNC_SCIM_INVALID_SYNTAX: { status: 400, meaning: 'A SCIM request body is not valid JSON or not of the SCIM shape.', action: 'Fix the body; the message says where.' },
  DSYNC_SCIM_INVALID_PATH: { status: 400, meaning: 'A SCIM PATCH `path` or an attribute name is malformed or unknown.', action: 'Fix the path; the message names it.' },
  DSYNC_SCIM_NO_TARGET: { status: 400, meaning: 'A SCIM PATCH `path` matched nothing where it must match something.', action: 'Fix the path or its filter.' },
  DSYNC_SCIM_INVALID_VALUE: { status: 400, meaning: 'A SCIM attribute has a value of the wrong type or out of bounds, or a required one is missing.', action: 'Fix the value; the message names the attribute.' },
  DSYNC_SCIM_INVALID_VERS: { status: 412, meaning: "A SCIM request's `If-Match` names a version the resource no longer has.", action: 'Read the resource again and retry with its current version.' },
} satisfies Entries<string>;

/** SCIM errors without a `scimType`, named by their status (ScimError). */
const SCIM_STATUSES = {
  DSYNC_SCIM_400: { status: 400, meaning: 'A SCIM request the HTTP layer refused as malformed (an aborted or unreadable body).', action: 'The identity provider sends the request again.' },
  DSYNC_SCIM_401: { status: 401, meaning: "A SCIM request without a bearer token, or with one that is not the directory's.", action: "Enter the directory's SCIM token in the identity provider (from its setup page or `scim.secret`)." },
  DSYNC_SCIM_403: { status: 403, meaning: 'SCIM provisioning into a deactivated directory.', action: 'Reactivate the directory, or stop provisioning to it.' },
  DSYNC_SCIM_404: { status: 404, meaning: 'A SCIM user or group, or a resource type, that does not exist.', action: 'Usually none: the identity provider creates the object anew.' },
  DSYNC_SCIM_405: { status: 405, meaning: 'A SCIM method the endpoint does not allow.', action: "Check the identity provider's SCIM settings (the base URL)." },
  DSYNC_SCIM_412: { status: 412, meaning: 'A SCIM precondition failed.', action: 'Read the resource again and retry.' },
  DSYNC_SCIM_413: { status: 413, meaning: 'A SCIM request body over the size limit.', action: 'Split the request (fewer members per PATCH).' },
  DSYNC_SCIM_415: { status: 415, meaning: 'A SCIM request body in an encoding or charset the server does not read.', action: 'Send UTF-8 JSON.' },
  DSYNC_SCIM_429: { status: 429, meaning: 'A SCIM request over the rate limit.', action: 'The identity provider retries after `Retry-After`; see the rate limits page.' },
  DSYNC_SCIM_501: { status: 501, meaning: 'A SCIM resource or feature this server does not support (bulk, /Me).', action: 'Turn the feature off in the identity provider.' },
} satisfies Entries<string>;

const OPERATOR = {
  DSYNC_OPERATOR_INVALID_OPTION: {
    meaning: 'The operator (or one of its parts) got an invalid option; the message names it. The process exits.',
    action: 'Fix the `DSYNC_OPERATOR_*` or `DSYNC_LEADER_ELECTION_*` variable named.',
  },
  DSYNC_KUBE_API: {
    meaning: 'The Kubernetes API server answered a call with an error Status (its HTTP status and reason are kept).',
    action: "Read the server's message: RBAC (403), a missing object (404), a conflict (409) retried on its own.",
  },
  DSYNC_OPERATOR_TERMINAL: {
    meaning: "A reconcile outcome retrying cannot fix (an invalid spec, a Secret owned by someone else); it is logged and counted, and the resource's conditions say why. The next change to the resource tries again.",
    action: 'Fix the DirectoryConnection or the Secret its condition names.',
  },
  DSYNC_OPERATOR_RETRY: {
    meaning: "A reconcile stopped on an error that may pass (an API server refusal, the store down) and is retried with backoff; the resource's conditions say why.",
    action: 'Nothing for one occurrence. Lasting, see the DsyncReconcileErrors runbook.',
  },
  DSYNC_NOT_LEADER: {
    meaning: 'A write refused before it was sent because this operator replica no longer leads.',
    action: 'Nothing: the leader does the work.',
  },
  DSYNC_LEADER_ELECTION_LOST: {
    meaning: 'The operator lost its leader lease (it could not renew it in time) and stopped reconciling; the process exits and restarts.',
    action: "Nothing for one occurrence. Repeated, check the API server's latency and `DSYNC_LEADER_ELECTION_*`; see the DsyncOperatorNoLeader runbook.",
  },
  DSYNC_WATCH_EXPIRED: {
    meaning: 'The API server ended a watch with 410 Gone (the resourceVersion is too old); the operator lists again.',
    action: 'Nothing.',
  },
  DSYNC_DEADLINE_EXCEEDED: {
    meaning: 'A call of the operator to the directory store did not answer within its deadline; the reconcile reports it and retries.',
    action: 'Nothing for one occurrence. Lasting, check the store (see the DsyncStoreErrors runbook).',
  },
} satisfies Entries<string>;

/** The table in sections, as the reference page shows it. */
export const ERROR_CODE_SECTIONS = [
  { title: 'Requests', intro: 'Answers of the HTTP API to any request.', codes: CORE },
  { title: 'Processes', intro: 'Why a `dsync` process did not start.', codes: PROCESS },
  { title: 'Webhook delivery', intro: "Delivery of events to a directory's webhook.", codes: DELIVERY },
  { title: 'Authorization flows', intro: 'The browser flows that connect a Google or Microsoft directory (start links and callbacks).', codes: OAUTH },
  { title: 'Google Workspace', intro: '', codes: GOOGLE },
  { title: 'Microsoft Entra ID', intro: '', codes: MICROSOFT },
  { title: 'HRIS (BambooHR, HiBob, Personio)', intro: '', codes: HRIS },
  { title: 'Pull syncs', intro: "A sync's `error.code` (its status, its runs), shared by the pull providers.", codes: PULL },
  {
    title: 'SCIM',
    intro: "Codes of the SCIM endpoint's errors, seen in the logs; the identity provider gets the status and the `scimType` (RFC 7644 §3.12).",
    codes: { ...SCIM_TYPES, ...SCIM_STATUSES },
  },
  { title: 'Operator', intro: 'Errors of `dsync operator`, seen in its logs and in the DirectoryConnection conditions.', codes: OPERATOR },
] as const;

type CodesOf<S> = S extends { codes: infer C } ? keyof C : never;
/** A code of the table: DsyncError's `code` is one, so an undescribed code does not build. */
export type ErrorCode = CodesOf<(typeof ERROR_CODE_SECTIONS)[number]> & string;

export const ERROR_CODES: Readonly<Record<ErrorCode, ErrorCodeDoc>> = Object.assign({}, ...ERROR_CODE_SECTIONS.map((s) => s.codes));

/** The SCIM codes of `scimType`s and of bare statuses (ScimError picks one of them). */
export type ScimTypeCode = keyof typeof SCIM_TYPES;
export type ScimStatusCode = keyof typeof SCIM_STATUSES;
