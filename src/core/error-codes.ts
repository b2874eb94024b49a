/**
 * Every error code of the product: a DsyncError's `code` (logs, the OAuth callbacks' `error=`, a sync's
 * `error.code`) and the codes of sync results, each with what it means and what to do. DsyncError's `code` is
 * typed to this table's keys, so a new code does not build until it is described here; an error's HTTP status
 * defaults to its entry's. docs/reference/errors.md is generated from it (scripts/docs/reference/errors.ts).
 */
import type { Entries, ErrorCodeDoc } from './error-code-doc.js';
import { GOOGLE, HRIS, MICROSOFT, PULL } from './error-codes-providers.js';

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
    meaning:
      "The request conflicts with what is stored: a duplicate, or a change the object's current state does not allow; the message says which.",
    action: 'Read the object as it is now, then send a request that fits it.',
  },
  DSYNC_FORBIDDEN: {
    status: 403,
    meaning:
      'The API key is valid but its scope does not allow this (a read-only key writing, a tenant key outside its tenant or on a cron route).',
    action: 'Use a key whose scope covers the request (`DSYNC_API_KEYS`).',
  },
  DSYNC_CONTENTION: {
    status: 503,
    meaning: 'A write lost an optimistic-concurrency race on the same object too many times in a row.',
    action: 'Retry after the `Retry-After` (1 s). Frequent, find what writes the same object many times at once.',
  },
  STORE_UNAVAILABLE: {
    status: 503,
    meaning:
      'The store (Redis) did not answer in time or cannot be reached: stalled, restarting, failing over. A write that failed so either committed whole, with its events, or not at all.',
    action: 'Retry after the `Retry-After` (1 s). Lasting, see the DsyncStoreErrors runbook.',
  },
  STORE_NOT_DURABLE: {
    status: 503,
    meaning:
      'A write ran, but fewer replicas than `DSYNC_REDIS_WAIT_REPLICAS` confirmed it in time: it may not survive a failover, so it is not acknowledged.',
    action:
      'Retry (safe: an update re-applies, a create that did survive answers 409). Lasting, see the DsyncStoreNotDurable runbook.',
  },
  DSYNC_INTERNAL: {
    status: 500,
    meaning:
      "A fault of dsync itself. The answer carries the error's instance id (and the request id), logged with the error.",
    action: 'Find the log line by the id in the answer and report it with that line.',
  },
} satisfies Entries<string>;

const PROCESS = {
  DSYNC_CONFIG: {
    meaning:
      'The configuration (environment variables, a kubeconfig, a certificate file) is invalid or incomplete; the process prints `dsync: configuration error: …` and exits with status 1.',
    action: 'Fix the variable the message names; the configuration reference lists them all.',
  },
  DSYNC_PORT_UNAVAILABLE: {
    meaning:
      'A port could not be bound: in use by another process, or below 1024 without the privilege. The process prints one line naming the variable and exits with status 1.',
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
    meaning:
      'A delivery was refused: the webhook URL resolves to a private, loopback, link-local or reserved address. The attempt fails like any other, retried on the schedule.',
    action: 'Use a public webhook URL. For a receiver inside your network, set `DSYNC_WEBHOOK_ALLOW_PRIVATE=true`.',
  },
  DSYNC_DELIVERY_INVALID_OPTION: {
    status: 500,
    meaning:
      'An application embedding dsync passed an invalid delivery option to `createDsync`; the message names the option.',
    action: 'Fix the option in the embedding code.',
  },
  DSYNC_DELIVERY_LEASE_LOST: {
    status: 503,
    meaning:
      "A directory's delivery lease was gone mid-run (the store lost it, or it lapsed and another process took over); the events sent are delivered again from the saved cursor, so a receiver may see them twice.",
    action:
      'Nothing for one occurrence (receivers deduplicate by event id). Repeated, check the store and `DSYNC_DELIVERY_LEASE`.',
  },
} satisfies Entries<string>;

const OAUTH = {
  DSYNC_OAUTH_INVALID_STATE: {
    status: 400,
    meaning:
      'An OAuth callback came with a `state` that is missing, unknown, expired, already used, for another provider, or from a setup link revoked or expired since.',
    action: 'Start the authorization again from a fresh link.',
  },
  DSYNC_OAUTH_BROWSER_MISMATCH: {
    status: 400,
    meaning:
      'The callback reached a browser other than the one that opened the start link (or the browser did not send its cookie back).',
    action: 'Open a new link and finish the authorization in the same browser, with cookies allowed.',
  },
  DSYNC_OAUTH_LINK_USED: {
    status: 410,
    meaning: 'An authorization start link is unknown, expired (15 minutes), or was already opened.',
    action: 'Ask for a new link (each opens once).',
  },
} satisfies Entries<string>;

/** RFC 7644's `scimType`s dsync answers with, as codes (ScimError). The IdP sees the `scimType` and the status. */
const SCIM_TYPES = {
  DSYNC_SCIM_INVALID_FILTER: {
    status: 400,
    meaning: 'A SCIM `filter` is malformed or uses what the server does not support.',
    action: "Fix the filter in the identity provider's request.",
  },
  DSYNC_SCIM_TOO_MANY: {
    status: 400,
    meaning: 'A SCIM request asks for more than the server bounds allow (attributes, PATCH operations, values).',
    action: 'Split the request; the message names the bound.',
  },
  DSYNC_SCIM_UNIQUENESS: {
    status: 409,
    meaning:
      "A SCIM create or update would duplicate a unique value (a `userName`, a group's `displayName`, an `externalId`).",
    action: 'The identity provider resolves the duplicate (it usually reads the existing object and links it).',
  },
  DSYNC_SCIM_MUTABILITY: {
    status: 400,
    meaning: 'A SCIM request tried to change a read-only attribute.',
    action: 'The identity provider leaves the attribute out.',
  },
  DSYNC_SCIM_INVALID_SYNTAX: {
    status: 400,
    meaning: 'A SCIM request body is not valid JSON or not of the SCIM shape.',
    action: 'Fix the body; the message says where.',
  },
  DSYNC_SCIM_INVALID_PATH: {
    status: 400,
    meaning: 'A SCIM PATCH `path` or an attribute name is malformed or unknown.',
    action: 'Fix the path; the message names it.',
  },
  DSYNC_SCIM_NO_TARGET: {
    status: 400,
    meaning: 'A SCIM PATCH `path` matched nothing where it must match something.',
    action: 'Fix the path or its filter.',
  },
  DSYNC_SCIM_INVALID_VALUE: {
    status: 400,
    meaning: 'A SCIM attribute has a value of the wrong type or out of bounds, or a required one is missing.',
    action: 'Fix the value; the message names the attribute.',
  },
  DSYNC_SCIM_INVALID_VERS: {
    status: 412,
    meaning: "A SCIM request's `If-Match` names a version the resource no longer has.",
    action: 'Read the resource again and retry with its current version.',
  },
} satisfies Entries<string>;

/** SCIM errors without a `scimType`, named by their status (ScimError). */
const SCIM_STATUSES = {
  DSYNC_SCIM_400: {
    status: 400,
    meaning: 'A SCIM request the HTTP layer refused as malformed (an aborted or unreadable body).',
    action: 'The identity provider sends the request again.',
  },
  DSYNC_SCIM_401: {
    status: 401,
    meaning: "A SCIM request without a bearer token, or with one that is not the directory's.",
    action: "Enter the directory's SCIM token in the identity provider (from its setup page or `scim.secret`).",
  },
  DSYNC_SCIM_403: {
    status: 403,
    meaning: 'SCIM provisioning into a deactivated directory.',
    action: 'Reactivate the directory, or stop provisioning to it.',
  },
  DSYNC_SCIM_404: {
    status: 404,
    meaning: 'A SCIM user or group, or a resource type, that does not exist.',
    action: 'Usually none: the identity provider creates the object anew.',
  },
  DSYNC_SCIM_405: {
    status: 405,
    meaning: 'A SCIM method the endpoint does not allow.',
    action: "Check the identity provider's SCIM settings (the base URL).",
  },
  DSYNC_SCIM_412: { status: 412, meaning: 'A SCIM precondition failed.', action: 'Read the resource again and retry.' },
  DSYNC_SCIM_413: {
    status: 413,
    meaning: 'A SCIM request body over the size limit.',
    action: 'Split the request (fewer members per PATCH).',
  },
  DSYNC_SCIM_415: {
    status: 415,
    meaning: 'A SCIM request body in an encoding or charset the server does not read.',
    action: 'Send UTF-8 JSON.',
  },
  DSYNC_SCIM_429: {
    status: 429,
    meaning: 'A SCIM request over the rate limit.',
    action: 'The identity provider retries after `Retry-After`; see the rate limits page.',
  },
  DSYNC_SCIM_501: {
    status: 501,
    meaning: 'A SCIM resource or feature this server does not support (bulk, /Me).',
    action: 'Turn the feature off in the identity provider.',
  },
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
    meaning:
      "A reconcile outcome retrying cannot fix (an invalid spec, a Secret owned by someone else); it is logged and counted, and the resource's conditions say why. The next change to the resource tries again.",
    action: 'Fix the DirectoryConnection or the Secret its condition names.',
  },
  DSYNC_OPERATOR_RETRY: {
    meaning:
      "A reconcile stopped on an error that may pass (an API server refusal, the store down) and is retried with backoff; the resource's conditions say why.",
    action: 'Nothing for one occurrence. Lasting, see the DsyncReconcileErrors runbook.',
  },
  DSYNC_NOT_LEADER: {
    meaning: 'A write refused before it was sent because this operator replica no longer leads.',
    action: 'Nothing: the leader does the work.',
  },
  DSYNC_LEADER_ELECTION_LOST: {
    meaning:
      'The operator lost its leader lease (it could not renew it in time) and stopped reconciling; the process exits and restarts.',
    action:
      "Nothing for one occurrence. Repeated, check the API server's latency and `DSYNC_LEADER_ELECTION_*`; see the DsyncOperatorNoLeader runbook.",
  },
  DSYNC_WATCH_EXPIRED: {
    meaning: 'The API server ended a watch with 410 Gone (the resourceVersion is too old); the operator lists again.',
    action: 'Nothing.',
  },
  DSYNC_DEADLINE_EXCEEDED: {
    meaning:
      'A call of the operator to the directory store did not answer within its deadline; the reconcile reports it and retries.',
    action: 'Nothing for one occurrence. Lasting, check the store (see the DsyncStoreErrors runbook).',
  },
} satisfies Entries<string>;

/** The table in sections, as the reference page shows it. */
export const ERROR_CODE_SECTIONS = [
  { title: 'Requests', intro: 'Answers of the HTTP API to any request.', codes: CORE },
  { title: 'Processes', intro: 'Why a `dsync` process did not start.', codes: PROCESS },
  { title: 'Webhook delivery', intro: "Delivery of events to a directory's webhook.", codes: DELIVERY },
  {
    title: 'Authorization flows',
    intro: 'The browser flows that connect a Google or Microsoft directory (start links and callbacks).',
    codes: OAUTH,
  },
  { title: 'Google Workspace', intro: '', codes: GOOGLE },
  { title: 'Microsoft Entra ID', intro: '', codes: MICROSOFT },
  { title: 'HRIS (BambooHR, HiBob, Personio)', intro: '', codes: HRIS },
  {
    title: 'Pull syncs',
    intro: "A sync's `error.code` (its status, its runs), shared by the pull providers.",
    codes: PULL,
  },
  {
    title: 'SCIM',
    intro:
      "Codes of the SCIM endpoint's errors, seen in the logs; the identity provider gets the status and the `scimType` (RFC 7644 §3.12).",
    codes: { ...SCIM_TYPES, ...SCIM_STATUSES },
  },
  {
    title: 'Operator',
    intro: 'Errors of `dsync operator`, seen in its logs and in the DirectoryConnection conditions.',
    codes: OPERATOR,
  },
] as const;

type CodesOf<S> = S extends { codes: infer C } ? keyof C : never;
/** A code of the table: DsyncError's `code` is one, so an undescribed code does not build. */
export type ErrorCode = CodesOf<(typeof ERROR_CODE_SECTIONS)[number]> & string;

export const ERROR_CODES: Readonly<Record<ErrorCode, ErrorCodeDoc>> = Object.assign(
  {},
  ...ERROR_CODE_SECTIONS.map((s) => s.codes),
);

/** The SCIM codes of `scimType`s and of bare statuses (ScimError picks one of them). */
export type ScimTypeCode = keyof typeof SCIM_TYPES;
export type ScimStatusCode = keyof typeof SCIM_STATUSES;
