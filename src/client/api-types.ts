/** Generated from docs/openapi.json by openapi-typescript (`npm run openapi`): do not edit. */

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Answers 200 while the process serves HTTP; it does not look at the store (see /readyz).
         */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: the store answers, and no shard has fewer replicas in sync than DSYNC_REDIS_MIN_REPLICAS
         * @description Pings the store with a 500 ms deadline, so a stalled store reads as not ready rather than as a probe timeout. A shard whose master has fewer replicas in sync than DSYNC_REDIS_MIN_REPLICAS refuses writes: not ready either, told apart (`below-min-replicas`, naming the shards). Below DSYNC_REDIS_WAIT_REPLICAS but at the minimum, writes are taken (counted as degraded) and the service is ready, the shards listed under `degraded`. A process stopping (SIGTERM) answers `draining` until it exits, whatever the store says.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dsync/oauth/start/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Open a step-1 link: start the authorization in this browser
         * @description The link step 1 answers (the admin's browser, no Api-Key; valid 15 minutes, opened once). It sets an HttpOnly cookie binding the flow to this browser and redirects to the provider's consent page; a second opening is a 410.
         */
        get: operations["oauthStart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dsync/google/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Google's redirect after consent: steps 2 and 3 of the authorization
         * @description The admin's browser comes back here from Google's consent page (no Api-Key: the flow's single-use state and the browser's cookie set by the start link are the credential). The code is exchanged, the consenting account checked against the directory's google_domain and the tokens set on the directory; the answer is a page, or a 303 to the `redirect_url` given at step 1 with `directory_id` and `status` (and `error`, `error_description`).
         */
        get: operations["googleCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dsync/microsoft/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Microsoft's redirect after the admin's sign-in (on to the admin consent) and after the admin consent (connects the directory)
         * @description The tenant admin's browser comes back here twice (no Api-Key: the flow's single-use states and the browser's cookie are the credential). After Microsoft's sign-in, with `code`: the code is redeemed, the ID token verified (signature against the authority's keys, issuer, audience, lifetime, nonce) and its `tid` taken as the tenant, then a 303 on to Microsoft's admin-consent page of that tenant, with a new cookie. After the admin consent, with `admin_consent` and `tenant`: the tenant must be the one the sign-in proved (and the one the directory names), the grant is proved with a token, the directory connected, subscribed and synced; the answer is a page, or a 303 to the `redirect_url` given with the consent URL, with `directory_id` and `status` (and `error`, `error_description`).
         */
        get: operations["microsoftCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dsync/microsoft/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Microsoft Graph's change notifications (and its validation handshake)
         * @description Called by Microsoft Graph, never by a client (no Api-Key: each notification carries the clientState secret of its directory, checked; one that does not check out is ignored, and one naming a directory with another secret counts as a failed authentication of the caller: over DSYNC_AUTH_FAILURE_LIMIT, a 429). `?validationToken=` is Graph validating the URL: the token is echoed as text/plain. A notification batch is answered 202 at once; each directory named is synced through Graph's delta query within seconds (a burst is one sync).
         */
        post: operations["microsoftNotifications"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dsync/hris/webhooks/{directoryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An HR system's webhook (BambooHR, HiBob, Personio): a hint that starts a sync of the directory
         * @description Called by the HR system, never by a client (no Api-Key). The body is never trusted: the call only starts a sync of the directory within seconds (a burst is one sync), which reads from the provider what changed. BambooHR calls are checked: `X-BambooHR-Signature` must be the hex HMAC-SHA256 of the body followed by `X-BambooHR-Timestamp` (within 5 minutes), keyed with the webhook private key given as the credentials' `webhook_secret`; without one, BambooHR calls are refused. A call refused counts as a failed authentication of the caller (over DSYNC_AUTH_FAILURE_LIMIT, a 429).
         */
        post: operations["hrisWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description Public (no Api-Key): it holds no data, and client generators, gateways and fuzzers fetch it without a credential.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Events API: read the directory's event log by cursor
         * @description The events as committed (the webhook payloads), oldest first, from the cursor on; poll with the `next_cursor` of the previous page. Works with or without a webhook. The log keeps events for DSYNC_EVENT_RETENTION.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/events/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-deliver events since a time, or one dead letter
         * @description With `since`: every event still kept from that time on is delivered again, in order, with its original id (202; the deliverer applies it under its lease). A time before the oldest kept event (0, or before 1970) replays them all; a time after the newest replays nothing. With `dead_letter_id`: that dead letter is delivered now, and the answer says how it went (200).
         */
        post: operations["replayEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/dead-letters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the deliveries given up on
         * @description Deliveries that failed their last retry, oldest first; replay one with `dead_letter_id`.
         */
        get: operations["listDeadLetters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dsync/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a directory's webhook delivery attempts
         * @description Every delivery attempt of a directory with `log_webhook_events`, newest first, kept for DSYNC_WEBHOOK_LOG_RETENTION. Paged with `pageOffset`/`pageLimit`.
         */
        get: operations["listDeliveryLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dsync/events/{logId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one delivery attempt
         * @description One attempt, by the id listDeliveryLogs gave it.
         */
        get: operations["getDeliveryLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/google/authorization-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Step 1: a single-use link that sends an admin of the workspace to Google's consent page
         * @description Send an admin of the workspace to this URL (valid 15 minutes, opened once): it binds the flow to the browser that opens it (a cookie), then goes on to Google's consent page; after consent Google sends the browser to the callback, which does steps 2 and 3 in that browser only, for an account of the directory's google_domain. Needs the OAuth client configured (DSYNC_GOOGLE_CLIENT_ID/SECRET), else 409. Not for read-only keys.
         */
        get: operations["getGoogleAuthorizationUrl"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/google/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Step 3: set the tokens the sync uses
         * @description Stores the tokens on the directory (visible ASCII, as they travel in headers); the next sync uses them.
         */
        put: operations["setGoogleTokens"];
        /**
         * Step 2: exchange an authorization code for the token set
         * @description Exchanges the code Google gave the callback for the token set; nothing is stored (step 3 stores the tokens). With a google_domain, a code from an account of another workspace is a 400 (DSYNC_GOOGLE_WRONG_WORKSPACE).
         */
        post: operations["exchangeGoogleCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/google/service-account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Use a service account with domain-wide delegation instead of the OAuth flow
         * @description The service account's JSON key and the admin it acts for; the key is stored, never shown back.
         */
        put: operations["setGoogleServiceAccount"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/google/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The directory's last sync: state, times, counts, error
         * @description The state of the last (or running) sync of the directory, its counts and the error that stopped it.
         */
        get: operations["getGoogleSyncStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dsync/cron/sync-google": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sync every active Google directory (or one) now; with Prefer: respond-async, in the background
         * @description Pulls users, groups and memberships from Google and commits the differences with their events. A directory that fails is reported in the answer (`failed`), not as an error status. With `Prefer: respond-async` the answer is a 202 at once, with the `Location` of the run to read (kept in the store, so any replica answers for it); a request while a run for the same filter goes joins it instead of starting another.
         */
        post: operations["syncGoogle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dsync/cron/sync-google/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A background sync run (POST /dsync/cron/sync-google with Prefer: respond-async): state, each directory's progress and counts, errors
         * @description Running (each directory pending, running, then its outcome), then succeeded (every directory was tried, each reporting its own outcome) or failed (the run stopped: the store failed, or the process running it stopped). Kept in the store 24 h after its last change: any replica answers.
         */
        get: operations["getGoogleSyncRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/microsoft/admin-consent-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A single-use link that sends an admin of the directory's tenant to Microsoft's admin-consent page (read-only directory permissions)
         * @description Send an admin of the customer's tenant to this URL (valid 15 minutes, opened once): it binds the flow to the browser that opens it (a cookie), then goes on to Microsoft's admin-consent page; after consent Microsoft sends the browser to the callback, which, in that browser only, connects the directory (checking the tenant it names, if any), subscribes to change notifications and starts the first sync. Each URL is a flow of its own. Needs the app configured (DSYNC_MICROSOFT_CLIENT_ID and a secret or certificate), else 409. Not for read-only keys.
         */
        get: operations["getMicrosoftAdminConsentUrl"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/microsoft/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The directory's last sync: state, mode (full, delta, resync), counts, Graph requests, notifications
         * @description The state of the last (or running) sync of the directory: its mode, counts, Graph requests, throttling, the error that stopped it, and its change-notification subscriptions.
         */
        get: operations["getMicrosoftSyncStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dsync/cron/sync-microsoft": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sync every active Microsoft Entra ID directory (or one) now; with Prefer: respond-async, in the background
         * @description Runs Graph's delta query for every active Entra directory (or one) and commits the differences with their events. A directory that fails is reported in the answer (`failed`), not as an error status. With `Prefer: respond-async` the answer is a 202 at once, with the `Location` of the run to read (kept in the store, so any replica answers for it); a request while a run for the same filter goes joins it instead of starting another.
         */
        post: operations["syncMicrosoft"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dsync/cron/sync-microsoft/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A background sync run (POST /dsync/cron/sync-microsoft with Prefer: respond-async): state, each directory's progress and counts, errors
         * @description Running (each directory pending, running, then its outcome), then succeeded (every directory was tried, each reporting its own outcome) or failed (the run stopped: the store failed, or the process running it stopped). Kept in the store 24 h after its last change: any replica answers.
         */
        get: operations["getMicrosoftSyncRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/hris/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Connect the directory's HR system: credentials tried at once, kept only when accepted
         * @description The credentials of the directory's HR system, by its type: `{subdomain, api_key, webhook_secret?}` (bamboohr), `{service_user_id, token}` (hibob), `{client_id, client_secret}` (personio). They are tried with the provider at once: a refusal (401/403) is a 400 that names the provider's answer, and nothing is stored; accepted, they replace the previous ones (the next sync lists everything again) and a first sync starts within seconds. The answer never holds a secret. A directory managed by the operator takes them from its DirectoryConnection (403).
         */
        put: operations["setHrisCredentials"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/hris/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The directory's last sync: state, mode (full, changed-since), counts, provider requests
         * @description The state of the last (or running) sync of the directory: its mode, counts, employees read, provider requests, throttling, and the error that stopped it.
         */
        get: operations["getHrisSyncStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dsync/cron/sync-hris": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sync every active HRIS directory (BambooHR, HiBob, Personio) (or one) now; with Prefer: respond-async, in the background
         * @description Reads every active HRIS directory's employees (or, for BambooHR, only those changed since the last run) and commits the differences with their events. A directory that fails is reported in the answer (`failed`), not as an error status. With `Prefer: respond-async` the answer is a 202 at once, with the `Location` of the run to read (kept in the store, so any replica answers for it); a request while a run for the same filter goes joins it instead of starting another.
         */
        post: operations["syncHris"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dsync/cron/sync-hris/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A background sync run (POST /dsync/cron/sync-hris with Prefer: respond-async): state, each directory's progress and counts, errors
         * @description Running (each directory pending, running, then its outcome), then succeeded (every directory was tried, each reporting its own outcome) or failed (the run stopped: the store failed, or the process running it stopped). Kept in the store 24 h after its last change: any replica answers.
         */
        get: operations["getHrisSyncRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/setup-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the directory's setup links (never their URLs)
         * @description Every link of the directory (working, expired or revoked), oldest first; never a URL.
         */
        get: operations["listSetupLinks"];
        put?: never;
        /**
         * Create a setup link for the customer's IT admin (this directory's setup page, nothing else)
         * @description A link to this directory's setup page for the customer's IT admin (`$DSYNC_EXTERNAL_URL/setup/<token>`): it opens that page and its actions, nothing else. Shown once (only its hash is stored); 7 days unless `expires_in` says otherwise, at most 30. A directory has at most 20 working links (neither revoked nor expired), checked atomically as the link is saved: a 21st is 409 until one is revoked.
         */
        post: operations["createSetupLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/setup-links/{linkId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a setup link at once
         * @description The link stops working at once: its page then says it is no longer valid (410). Revoking it again is fine.
         */
        delete: operations["revokeSetupLink"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/scim-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the directory's SCIM tokens (never their values)
         * @description The working tokens, oldest first, with when each last authenticated a request (to the minute); never a value.
         */
        get: operations["listScimTokens"];
        put?: never;
        /**
         * Create a SCIM bearer token (at most two active per directory)
         * @description A new bearer token for the IdP, shown once (stored as its SHA-256). A directory holds at most two tokens, `scim.secret` counting as the first: a third is 409, so a token is replaced by creating the new one, updating the IdP, revoking the old.
         */
        post: operations["createScimToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/scim-tokens/{tokenId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a SCIM token at once
         * @description The token gets 401 at once. `scim-secret` empties the directory's `scim.secret`; on a directory the operator manages it is 403 (rotate it with the `dsync.io/rotate-token` annotation instead).
         */
        delete: operations["revokeScimToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The directory's recent SCIM requests, newest first, with the error detail of failures
         * @description The last SCIM requests of the directory (at most 1,000, within 7 days), newest first: time, method, path, status and the error detail it was answered with. No bodies, headers or queries. Requests that presented no token are not recorded; a wrong token is (a 401), without moving `last_request_at`, the last authenticated request, which outlives the entries.
         */
        get: operations["getActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the directories of a tenant and product
         * @description Every directory of the tenant and product, oldest first (not paged).
         */
        get: operations["listDirectories"];
        put?: never;
        /**
         * Create a directory connection
         * @description Creates a directory with its SCIM endpoint and bearer token (give `scim.endpoint` and `scim.secret` to the IdP), and its webhook when `webhook_url` is given (a `whsec_` secret is generated unless `webhook_secret` is given). `type: google` directories are filled by the Google sync instead of SCIM.
         */
        post: operations["createDirectory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users (of one directory, or of every directory of a tenant and product)
         * @description Give `directoryId`, or both `tenant` and `product` (every directory of that tenant and product); anything else is a 400. With `directoryId`, a `tenant` or `product` given too must be the directory's, else 404. Paged with `pageOffset`/`pageLimit`, oldest first.
         */
        get: operations["listUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a user
         * @description The user as the last event carried it. Give `directoryId`, or both `tenant` and `product` (every directory of that tenant and product); anything else is a 400. With `directoryId`, a `tenant` or `product` given too must be the directory's, else 404.
         */
        get: operations["getUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List groups (of one directory, or of every directory of a tenant and product)
         * @description Groups without their members (see listGroupMembers). Give `directoryId`, or both `tenant` and `product` (every directory of that tenant and product); anything else is a 400. With `directoryId`, a `tenant` or `product` given too must be the directory's, else 404. Paged with `pageOffset`/`pageLimit`, oldest first.
         */
        get: operations["listGroups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a group
         * @description The group with every member; page large groups with listGroupMembers instead. Give `directoryId`, or both `tenant` and `product` (every directory of that tenant and product); anything else is a 400. With `directoryId`, a `tenant` or `product` given too must be the directory's, else 404.
         */
        get: operations["getGroup"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/groups/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a group's members
         * @description The user ids of the group's members. Give `directoryId`, or both `tenant` and `product` (every directory of that tenant and product); anything else is a 400. With `directoryId`, a `tenant` or `product` given too must be the directory's, else 404. Paged with `pageOffset`/`pageLimit`, oldest first.
         */
        get: operations["listGroupMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/directory-sync/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a directory
         * @description The directory with its SCIM endpoint and token and its webhook.
         */
        get: operations["getDirectory"];
        put?: never;
        post?: never;
        /**
         * Delete a directory with its users, groups and events
         * @description Deletes the directory and everything it holds; no events are emitted for what it held.
         */
        delete: operations["deleteDirectory"];
        options?: never;
        head?: never;
        /**
         * Update a directory (tenant, product and type are immutable)
         * @description Changes the fields given. `tenant`, `product` and `type` are accepted only unchanged (a client may send back what it read). Setting the webhook again (any webhook field) re-enables one a 410 Gone disabled; `webhook_url: ""` removes it. A directory managed by the Kubernetes operator is changed through its resource (403).
         */
        patch: operations["updateDirectory"];
        trace?: never;
    };
    "/api/v1/dsync/cron/process-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver the events that are due (batch mode and retries)
         * @description One delivery pass over every directory with events due: batches in batch mode, retries whose time has come. Concurrent runs (replicas, CronJob pods) never send an event twice except as a retry.
         */
        post: operations["processEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "user.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * user.created (real-time mode: one event per POST)
         * @description Signed the Standard Webhooks way: verify `webhook-signature` over `webhook-id.webhook-timestamp.body` with the directory's webhook secret (e.g. with the `standardwebhooks` package, or `verifyWebhook` of `dsync-service/client`). Delivery is at least once: de-duplicate on `webhook-id`. A user's events, a group's events and a membership after its user and group arrive in order; `sequence` gives the directory's order of all its events.
         */
        post: operations["webhookUserCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "user.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * user.updated (real-time mode: one event per POST)
         * @description Signed the Standard Webhooks way: verify `webhook-signature` over `webhook-id.webhook-timestamp.body` with the directory's webhook secret (e.g. with the `standardwebhooks` package, or `verifyWebhook` of `dsync-service/client`). Delivery is at least once: de-duplicate on `webhook-id`. A user's events, a group's events and a membership after its user and group arrive in order; `sequence` gives the directory's order of all its events.
         */
        post: operations["webhookUserUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "user.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * user.deleted (real-time mode: one event per POST)
         * @description Signed the Standard Webhooks way: verify `webhook-signature` over `webhook-id.webhook-timestamp.body` with the directory's webhook secret (e.g. with the `standardwebhooks` package, or `verifyWebhook` of `dsync-service/client`). Delivery is at least once: de-duplicate on `webhook-id`. A user's events, a group's events and a membership after its user and group arrive in order; `sequence` gives the directory's order of all its events.
         */
        post: operations["webhookUserDeletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "group.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * group.created (real-time mode: one event per POST)
         * @description Signed the Standard Webhooks way: verify `webhook-signature` over `webhook-id.webhook-timestamp.body` with the directory's webhook secret (e.g. with the `standardwebhooks` package, or `verifyWebhook` of `dsync-service/client`). Delivery is at least once: de-duplicate on `webhook-id`. A user's events, a group's events and a membership after its user and group arrive in order; `sequence` gives the directory's order of all its events.
         */
        post: operations["webhookGroupCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "group.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * group.updated (real-time mode: one event per POST)
         * @description Signed the Standard Webhooks way: verify `webhook-signature` over `webhook-id.webhook-timestamp.body` with the directory's webhook secret (e.g. with the `standardwebhooks` package, or `verifyWebhook` of `dsync-service/client`). Delivery is at least once: de-duplicate on `webhook-id`. A user's events, a group's events and a membership after its user and group arrive in order; `sequence` gives the directory's order of all its events.
         */
        post: operations["webhookGroupUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "group.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * group.deleted (real-time mode: one event per POST)
         * @description Signed the Standard Webhooks way: verify `webhook-signature` over `webhook-id.webhook-timestamp.body` with the directory's webhook secret (e.g. with the `standardwebhooks` package, or `verifyWebhook` of `dsync-service/client`). Delivery is at least once: de-duplicate on `webhook-id`. A user's events, a group's events and a membership after its user and group arrive in order; `sequence` gives the directory's order of all its events.
         */
        post: operations["webhookGroupDeletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "group.user_added": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * group.user_added (real-time mode: one event per POST)
         * @description Signed the Standard Webhooks way: verify `webhook-signature` over `webhook-id.webhook-timestamp.body` with the directory's webhook secret (e.g. with the `standardwebhooks` package, or `verifyWebhook` of `dsync-service/client`). Delivery is at least once: de-duplicate on `webhook-id`. A user's events, a group's events and a membership after its user and group arrive in order; `sequence` gives the directory's order of all its events.
         */
        post: operations["webhookGroupUserAddedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "group.user_removed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * group.user_removed (real-time mode: one event per POST)
         * @description Signed the Standard Webhooks way: verify `webhook-signature` over `webhook-id.webhook-timestamp.body` with the directory's webhook secret (e.g. with the `standardwebhooks` package, or `verifyWebhook` of `dsync-service/client`). Delivery is at least once: de-duplicate on `webhook-id`. A user's events, a group's events and a membership after its user and group arrive in order; `sequence` gives the directory's order of all its events.
         */
        post: operations["webhookGroupUserRemovedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    batch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Batch mode (DSYNC_WEBHOOK_BATCH_SIZE): a JSON array of up to N events of one directory, in order
         * @description Signed the Standard Webhooks way: verify `webhook-signature` over `webhook-id.webhook-timestamp.body` with the directory's webhook secret (e.g. with the `standardwebhooks` package, or `verifyWebhook` of `dsync-service/client`). Delivery is at least once: de-duplicate on `webhook-id`. A user's events, a group's events and a membership after its user and group arrive in order; `sequence` gives the directory's order of all its events.
         */
        post: operations["webhookEventBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description What went wrong */
        ErrorDetail: {
            /** @description For a person; names the field on a 400 */
            message: string;
            /** @description The HTTP status */
            code: number;
            /** @description On a 500: the id of the logged error */
            id?: string;
            /** @description On a 500: the request id (also the X-Request-Id header) */
            requestId?: string;
        };
        /** @description Every error answer: data is null, error says what went wrong */
        ErrorEnvelope: {
            /**
             * @description null on an error
             * @constant
             */
            data: Record<string, never> | null;
            error: components["schemas"]["ErrorDetail"];
        };
        Liveness: {
            /** @constant */
            status: "ok";
        };
        Readiness: {
            /** @enum {string} */
            status: "ready" | "unavailable" | "below-min-replicas" | "draining";
            /**
             * @description Which store the service runs on
             * @enum {string}
             */
            store: "memory" | "redis";
            /** @description Ready: shards with fewer replicas in sync than DSYNC_REDIS_WAIT_REPLICAS (their writes count as degraded) */
            degraded?: components["schemas"]["ShardReplication"][];
            /** @description below-min-replicas: the shards that refuse writes */
            shards?: components["schemas"]["ShardReplication"][];
        };
        ShardReplication: {
            /** @description `host:port` of the master */
            master: string;
            /** @description Replicas connected and in sync (lag at most 3 s) */
            replicas_in_sync: number;
            /** @description DSYNC_REDIS_WAIT_REPLICAS */
            wait_replicas: number;
            /** @description DSYNC_REDIS_MIN_REPLICAS */
            min_replicas: number;
        };
        /**
         * @example {
         *       "events": [
         *         {
         *           "id": "evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N",
         *           "event": "user.created",
         *           "created_at": "2026-11-21T08:49:27.648Z",
         *           "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *           "tenant": "acme",
         *           "product": "app",
         *           "data": {
         *             "id": "7c0e8b1a-3f2d-4c5e-9a6b-1d2e3f4a5b6c",
         *             "first_name": "Ann",
         *             "last_name": "Lee",
         *             "email": "ann@acme.io",
         *             "active": true,
         *             "attributes": {
         *               "employee_number": "1042",
         *               "job_title": "Staff Engineer",
         *               "department": "Engineering",
         *               "manager_id": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a",
         *               "manager_email": "grace@acme.io"
         *             },
         *             "custom_attributes": {
         *               "badge": 1042,
         *               "country": "US"
         *             },
         *             "roles": [
         *               "admin",
         *               "member"
         *             ],
         *             "raw": {
         *               "schemas": [
         *                 "urn:ietf:params:scim:schemas:core:2.0:User",
         *                 "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
         *               ],
         *               "userName": "ann@acme.io",
         *               "name": {
         *                 "givenName": "Ann",
         *                 "familyName": "Lee"
         *               },
         *               "emails": [
         *                 {
         *                   "value": "ann@acme.io",
         *                   "primary": true
         *                 }
         *               ],
         *               "title": "Staff Engineer",
         *               "active": true,
         *               "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {
         *                 "employeeNumber": "1042",
         *                 "department": "Engineering",
         *                 "manager": {
         *                   "value": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a"
         *                 }
         *               }
         *             }
         *           },
         *           "sequence": 1042
         *         }
         *       ],
         *       "next_cursor": "1795251600000-0"
         *     }
         */
        EventPage: {
            /** @description The events as committed (the webhook payloads), oldest first */
            events: components["schemas"]["DirectorySyncEvent"][];
            /** @description Pass as `after` to read on; the same cursor when nothing new was committed */
            next_cursor: string | null;
        };
        /** @description Any event; `event` says which, and so what `data` holds. */
        DirectorySyncEvent: components["schemas"]["UserCreatedEvent"] | components["schemas"]["UserUpdatedEvent"] | components["schemas"]["UserDeletedEvent"] | components["schemas"]["GroupCreatedEvent"] | components["schemas"]["GroupUpdatedEvent"] | components["schemas"]["GroupDeletedEvent"] | components["schemas"]["GroupUserAddedEvent"] | components["schemas"]["GroupUserRemovedEvent"];
        /**
         * @example {
         *       "id": "evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N",
         *       "event": "user.created",
         *       "created_at": "2026-11-21T08:49:27.648Z",
         *       "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "tenant": "acme",
         *       "product": "app",
         *       "data": {
         *         "id": "7c0e8b1a-3f2d-4c5e-9a6b-1d2e3f4a5b6c",
         *         "first_name": "Ann",
         *         "last_name": "Lee",
         *         "email": "ann@acme.io",
         *         "active": true,
         *         "attributes": {
         *           "employee_number": "1042",
         *           "job_title": "Staff Engineer",
         *           "department": "Engineering",
         *           "manager_id": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a",
         *           "manager_email": "grace@acme.io"
         *         },
         *         "custom_attributes": {
         *           "badge": 1042,
         *           "country": "US"
         *         },
         *         "roles": [
         *           "admin",
         *           "member"
         *         ],
         *         "raw": {
         *           "schemas": [
         *             "urn:ietf:params:scim:schemas:core:2.0:User",
         *             "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
         *           ],
         *           "userName": "ann@acme.io",
         *           "name": {
         *             "givenName": "Ann",
         *             "familyName": "Lee"
         *           },
         *           "emails": [
         *             {
         *               "value": "ann@acme.io",
         *               "primary": true
         *             }
         *           ],
         *           "title": "Staff Engineer",
         *           "active": true,
         *           "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {
         *             "employeeNumber": "1042",
         *             "department": "Engineering",
         *             "manager": {
         *               "value": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a"
         *             }
         *           }
         *         }
         *       },
         *       "sequence": 1042
         *     }
         */
        UserCreatedEvent: {
            /** @description Unique per event; a receiver de-duplicates on it (delivery is at least once). */
            id: string;
            /**
             * @description The event type: says what data holds. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            event: "user.created";
            /**
             * Format: date-time
             * @description When the change was committed (UTC).
             */
            created_at: string;
            /** @description The directory the change happened in. */
            directory_id: string;
            /** @description The directory's tenant. */
            tenant: string;
            /** @description The directory's product. */
            product: string;
            data: components["schemas"]["User"];
            /** @description On updates: the changed top-level data fields with their old values; attributes and raw hold only their changed keys, each with its old value (null = absent before). */
            previous_attributes?: {
                [key: string]: unknown;
            };
            /** @description The event's place in its directory's log: a later event of the directory has a greater number, so a receiver can put what it got in order (delivery may run events of different users and groups in parallel). 0 only on an event logged by a dsync release before sequences were counted. */
            sequence: number;
        };
        /**
         * @description A user: SCIM name and primary email mapped, every attribute in raw.
         * @example {
         *       "id": "7c0e8b1a-3f2d-4c5e-9a6b-1d2e3f4a5b6c",
         *       "first_name": "Ann",
         *       "last_name": "Lee",
         *       "email": "ann@acme.io",
         *       "active": true,
         *       "attributes": {
         *         "employee_number": "1042",
         *         "job_title": "Staff Engineer",
         *         "department": "Engineering",
         *         "manager_id": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a",
         *         "manager_email": "grace@acme.io"
         *       },
         *       "custom_attributes": {
         *         "badge": 1042,
         *         "country": "US"
         *       },
         *       "roles": [
         *         "admin",
         *         "member"
         *       ],
         *       "raw": {
         *         "schemas": [
         *           "urn:ietf:params:scim:schemas:core:2.0:User",
         *           "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
         *         ],
         *         "userName": "ann@acme.io",
         *         "name": {
         *           "givenName": "Ann",
         *           "familyName": "Lee"
         *         },
         *         "emails": [
         *           {
         *             "value": "ann@acme.io",
         *             "primary": true
         *           }
         *         ],
         *         "title": "Staff Engineer",
         *         "active": true,
         *         "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {
         *           "employeeNumber": "1042",
         *           "department": "Engineering",
         *           "manager": {
         *             "value": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a"
         *           }
         *         }
         *       }
         *     }
         */
        User: {
            /** @description The user's id in dsync (its SCIM id), stable for the user's life. */
            id: string;
            /** @description From the SCIM name.givenName. */
            first_name?: string;
            /** @description From the SCIM name.familyName. */
            last_name?: string;
            /** @description The primary email (else the first; else userName when it is an address). */
            email?: string;
            /** @description False for a deactivated (suspended) user, who keeps their groups. */
            active: boolean;
            /** @description The predefined attributes ({} when none is known). */
            attributes: components["schemas"]["UserAttributes"];
            /** @description From the directory's attribute_mapping: each mapped name with the value its source path holds, of the source's JSON type ({} when none has a value). */
            custom_attributes: {
                [key: string]: unknown;
            };
            /** @description From the directory's role_mapping: the roles of every group of the user a rule matches, higher priority first, each once; else [default_role], or []. */
            roles: string[];
            /** @description Every SCIM attribute as the IdP sent it (normalised), with id. */
            raw: components["schemas"]["ScimResource"];
        };
        /** @description The predefined attributes: a key without a value is left out, never null. */
        UserAttributes: {
            /** @description SCIM enterprise employeeNumber; Google's organization external id; Entra's employeeId; the HRIS employee number. */
            employee_number?: string;
            /** @description SCIM title; Google's primary organization title; Entra's jobTitle; the HRIS job title. */
            job_title?: string;
            /** @description SCIM enterprise department; Google's primary organization department; Entra's department; the HRIS department. */
            department?: string;
            /** @description SCIM enterprise division; Entra's employeeOrgData.division; the HRIS division. */
            division?: string;
            /** @description SCIM enterprise costCenter; Google's primary organization costCenter; Entra's employeeOrgData.costCenter; the HRIS cost center. */
            cost_center?: string;
            /** @description The manager's id: SCIM enterprise manager.value (or the plain string Entra sends); Entra's manager; the HRIS manager's employee id. */
            manager_id?: string;
            /** @description The email of the directory's user whose id is manager_id (filled when that user arrives); Google's manager relation. */
            manager_email?: string;
            /** @description The HRIS start date (as the HR system gives it, e.g. 2024-03-01). */
            start_date?: string;
        };
        ScimResource: {
            [key: string]: unknown;
        };
        /**
         * @example {
         *       "id": "evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N",
         *       "event": "user.updated",
         *       "created_at": "2026-11-21T08:49:27.648Z",
         *       "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "tenant": "acme",
         *       "product": "app",
         *       "data": {
         *         "id": "7c0e8b1a-3f2d-4c5e-9a6b-1d2e3f4a5b6c",
         *         "first_name": "Ann",
         *         "last_name": "Lee",
         *         "email": "ann@acme.io",
         *         "active": true,
         *         "attributes": {
         *           "employee_number": "1042",
         *           "job_title": "Staff Engineer",
         *           "department": "Engineering",
         *           "manager_id": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a",
         *           "manager_email": "grace@acme.io"
         *         },
         *         "custom_attributes": {
         *           "badge": 1042,
         *           "country": "US"
         *         },
         *         "roles": [
         *           "admin",
         *           "member"
         *         ],
         *         "raw": {
         *           "schemas": [
         *             "urn:ietf:params:scim:schemas:core:2.0:User",
         *             "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
         *           ],
         *           "userName": "ann@acme.io",
         *           "name": {
         *             "givenName": "Ann",
         *             "familyName": "Lee"
         *           },
         *           "emails": [
         *             {
         *               "value": "ann@acme.io",
         *               "primary": true
         *             }
         *           ],
         *           "title": "Staff Engineer",
         *           "active": true,
         *           "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {
         *             "employeeNumber": "1042",
         *             "department": "Engineering",
         *             "manager": {
         *               "value": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a"
         *             }
         *           }
         *         }
         *       },
         *       "previous_attributes": {
         *         "active": false,
         *         "attributes": {
         *           "job_title": "Engineer"
         *         },
         *         "raw": {
         *           "active": false,
         *           "title": "Engineer"
         *         }
         *       },
         *       "sequence": 1042
         *     }
         */
        UserUpdatedEvent: {
            /** @description Unique per event; a receiver de-duplicates on it (delivery is at least once). */
            id: string;
            /**
             * @description The event type: says what data holds. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            event: "user.updated";
            /**
             * Format: date-time
             * @description When the change was committed (UTC).
             */
            created_at: string;
            /** @description The directory the change happened in. */
            directory_id: string;
            /** @description The directory's tenant. */
            tenant: string;
            /** @description The directory's product. */
            product: string;
            data: components["schemas"]["User"];
            /** @description On updates: the changed top-level data fields with their old values; attributes and raw hold only their changed keys, each with its old value (null = absent before). */
            previous_attributes?: {
                [key: string]: unknown;
            };
            /** @description The event's place in its directory's log: a later event of the directory has a greater number, so a receiver can put what it got in order (delivery may run events of different users and groups in parallel). 0 only on an event logged by a dsync release before sequences were counted. */
            sequence: number;
        };
        /**
         * @example {
         *       "id": "evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N",
         *       "event": "user.deleted",
         *       "created_at": "2026-11-21T08:49:27.648Z",
         *       "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "tenant": "acme",
         *       "product": "app",
         *       "data": {
         *         "id": "7c0e8b1a-3f2d-4c5e-9a6b-1d2e3f4a5b6c",
         *         "first_name": "Ann",
         *         "last_name": "Lee",
         *         "email": "ann@acme.io",
         *         "active": true,
         *         "attributes": {
         *           "employee_number": "1042",
         *           "job_title": "Staff Engineer",
         *           "department": "Engineering",
         *           "manager_id": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a",
         *           "manager_email": "grace@acme.io"
         *         },
         *         "custom_attributes": {
         *           "badge": 1042,
         *           "country": "US"
         *         },
         *         "roles": [
         *           "admin",
         *           "member"
         *         ],
         *         "raw": {
         *           "schemas": [
         *             "urn:ietf:params:scim:schemas:core:2.0:User",
         *             "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
         *           ],
         *           "userName": "ann@acme.io",
         *           "name": {
         *             "givenName": "Ann",
         *             "familyName": "Lee"
         *           },
         *           "emails": [
         *             {
         *               "value": "ann@acme.io",
         *               "primary": true
         *             }
         *           ],
         *           "title": "Staff Engineer",
         *           "active": true,
         *           "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {
         *             "employeeNumber": "1042",
         *             "department": "Engineering",
         *             "manager": {
         *               "value": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a"
         *             }
         *           }
         *         }
         *       },
         *       "sequence": 1042
         *     }
         */
        UserDeletedEvent: {
            /** @description Unique per event; a receiver de-duplicates on it (delivery is at least once). */
            id: string;
            /**
             * @description The event type: says what data holds. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            event: "user.deleted";
            /**
             * Format: date-time
             * @description When the change was committed (UTC).
             */
            created_at: string;
            /** @description The directory the change happened in. */
            directory_id: string;
            /** @description The directory's tenant. */
            tenant: string;
            /** @description The directory's product. */
            product: string;
            data: components["schemas"]["User"];
            /** @description On updates: the changed top-level data fields with their old values; attributes and raw hold only their changed keys, each with its old value (null = absent before). */
            previous_attributes?: {
                [key: string]: unknown;
            };
            /** @description The event's place in its directory's log: a later event of the directory has a greater number, so a receiver can put what it got in order (delivery may run events of different users and groups in parallel). 0 only on an event logged by a dsync release before sequences were counted. */
            sequence: number;
        };
        /**
         * @example {
         *       "id": "evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N",
         *       "event": "group.created",
         *       "created_at": "2026-11-21T08:49:27.648Z",
         *       "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "tenant": "acme",
         *       "product": "app",
         *       "data": {
         *         "id": "4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a0f",
         *         "name": "Engineering",
         *         "raw": {
         *           "schemas": [
         *             "urn:ietf:params:scim:schemas:core:2.0:Group"
         *           ],
         *           "displayName": "Engineering"
         *         }
         *       },
         *       "sequence": 1042
         *     }
         */
        GroupCreatedEvent: {
            /** @description Unique per event; a receiver de-duplicates on it (delivery is at least once). */
            id: string;
            /**
             * @description The event type: says what data holds. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            event: "group.created";
            /**
             * Format: date-time
             * @description When the change was committed (UTC).
             */
            created_at: string;
            /** @description The directory the change happened in. */
            directory_id: string;
            /** @description The directory's tenant. */
            tenant: string;
            /** @description The directory's product. */
            product: string;
            data: components["schemas"]["Group"];
            /** @description On updates: the changed top-level data fields with their old values; attributes and raw hold only their changed keys, each with its old value (null = absent before). */
            previous_attributes?: {
                [key: string]: unknown;
            };
            /** @description The event's place in its directory's log: a later event of the directory has a greater number, so a receiver can put what it got in order (delivery may run events of different users and groups in parallel). 0 only on an event logged by a dsync release before sequences were counted. */
            sequence: number;
        };
        /**
         * @description A group, without its members (membership travels as group.user_added/removed).
         * @example {
         *       "id": "4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a0f",
         *       "name": "Engineering",
         *       "raw": {
         *         "schemas": [
         *           "urn:ietf:params:scim:schemas:core:2.0:Group"
         *         ],
         *         "displayName": "Engineering"
         *       }
         *     }
         */
        Group: {
            /** @description The group's id in dsync (its SCIM id). */
            id: string;
            /** @description From the SCIM displayName. */
            name: string;
            /** @description Every SCIM attribute as the IdP sent it (normalised), members aside. */
            raw: components["schemas"]["ScimResource"];
        };
        /**
         * @example {
         *       "id": "evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N",
         *       "event": "group.updated",
         *       "created_at": "2026-11-21T08:49:27.648Z",
         *       "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "tenant": "acme",
         *       "product": "app",
         *       "data": {
         *         "id": "4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a0f",
         *         "name": "Engineering",
         *         "raw": {
         *           "schemas": [
         *             "urn:ietf:params:scim:schemas:core:2.0:Group"
         *           ],
         *           "displayName": "Engineering"
         *         }
         *       },
         *       "previous_attributes": {
         *         "name": "Eng",
         *         "raw": {
         *           "displayName": "Eng"
         *         }
         *       },
         *       "sequence": 1042
         *     }
         */
        GroupUpdatedEvent: {
            /** @description Unique per event; a receiver de-duplicates on it (delivery is at least once). */
            id: string;
            /**
             * @description The event type: says what data holds. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            event: "group.updated";
            /**
             * Format: date-time
             * @description When the change was committed (UTC).
             */
            created_at: string;
            /** @description The directory the change happened in. */
            directory_id: string;
            /** @description The directory's tenant. */
            tenant: string;
            /** @description The directory's product. */
            product: string;
            data: components["schemas"]["Group"];
            /** @description On updates: the changed top-level data fields with their old values; attributes and raw hold only their changed keys, each with its old value (null = absent before). */
            previous_attributes?: {
                [key: string]: unknown;
            };
            /** @description The event's place in its directory's log: a later event of the directory has a greater number, so a receiver can put what it got in order (delivery may run events of different users and groups in parallel). 0 only on an event logged by a dsync release before sequences were counted. */
            sequence: number;
        };
        /**
         * @example {
         *       "id": "evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N",
         *       "event": "group.deleted",
         *       "created_at": "2026-11-21T08:49:27.648Z",
         *       "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "tenant": "acme",
         *       "product": "app",
         *       "data": {
         *         "id": "4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a0f",
         *         "name": "Engineering",
         *         "raw": {
         *           "schemas": [
         *             "urn:ietf:params:scim:schemas:core:2.0:Group"
         *           ],
         *           "displayName": "Engineering"
         *         }
         *       },
         *       "sequence": 1042
         *     }
         */
        GroupDeletedEvent: {
            /** @description Unique per event; a receiver de-duplicates on it (delivery is at least once). */
            id: string;
            /**
             * @description The event type: says what data holds. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            event: "group.deleted";
            /**
             * Format: date-time
             * @description When the change was committed (UTC).
             */
            created_at: string;
            /** @description The directory the change happened in. */
            directory_id: string;
            /** @description The directory's tenant. */
            tenant: string;
            /** @description The directory's product. */
            product: string;
            data: components["schemas"]["Group"];
            /** @description On updates: the changed top-level data fields with their old values; attributes and raw hold only their changed keys, each with its old value (null = absent before). */
            previous_attributes?: {
                [key: string]: unknown;
            };
            /** @description The event's place in its directory's log: a later event of the directory has a greater number, so a receiver can put what it got in order (delivery may run events of different users and groups in parallel). 0 only on an event logged by a dsync release before sequences were counted. */
            sequence: number;
        };
        /**
         * @example {
         *       "id": "evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N",
         *       "event": "group.user_added",
         *       "created_at": "2026-11-21T08:49:27.648Z",
         *       "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "tenant": "acme",
         *       "product": "app",
         *       "data": {
         *         "id": "7c0e8b1a-3f2d-4c5e-9a6b-1d2e3f4a5b6c",
         *         "first_name": "Ann",
         *         "last_name": "Lee",
         *         "email": "ann@acme.io",
         *         "active": true,
         *         "attributes": {
         *           "employee_number": "1042",
         *           "job_title": "Staff Engineer",
         *           "department": "Engineering",
         *           "manager_id": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a",
         *           "manager_email": "grace@acme.io"
         *         },
         *         "custom_attributes": {
         *           "badge": 1042,
         *           "country": "US"
         *         },
         *         "roles": [
         *           "admin",
         *           "member"
         *         ],
         *         "raw": {
         *           "schemas": [
         *             "urn:ietf:params:scim:schemas:core:2.0:User",
         *             "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
         *           ],
         *           "userName": "ann@acme.io",
         *           "name": {
         *             "givenName": "Ann",
         *             "familyName": "Lee"
         *           },
         *           "emails": [
         *             {
         *               "value": "ann@acme.io",
         *               "primary": true
         *             }
         *           ],
         *           "title": "Staff Engineer",
         *           "active": true,
         *           "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {
         *             "employeeNumber": "1042",
         *             "department": "Engineering",
         *             "manager": {
         *               "value": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a"
         *             }
         *           }
         *         },
         *         "group": {
         *           "id": "4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a0f",
         *           "name": "Engineering",
         *           "raw": {
         *             "schemas": [
         *               "urn:ietf:params:scim:schemas:core:2.0:Group"
         *             ],
         *             "displayName": "Engineering"
         *           }
         *         }
         *       },
         *       "sequence": 1042
         *     }
         */
        GroupUserAddedEvent: {
            /** @description Unique per event; a receiver de-duplicates on it (delivery is at least once). */
            id: string;
            /**
             * @description The event type: says what data holds. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            event: "group.user_added";
            /**
             * Format: date-time
             * @description When the change was committed (UTC).
             */
            created_at: string;
            /** @description The directory the change happened in. */
            directory_id: string;
            /** @description The directory's tenant. */
            tenant: string;
            /** @description The directory's product. */
            product: string;
            data: components["schemas"]["Membership"];
            /** @description On updates: the changed top-level data fields with their old values; attributes and raw hold only their changed keys, each with its old value (null = absent before). */
            previous_attributes?: {
                [key: string]: unknown;
            };
            /** @description The event's place in its directory's log: a later event of the directory has a greater number, so a receiver can put what it got in order (delivery may run events of different users and groups in parallel). 0 only on an event logged by a dsync release before sequences were counted. */
            sequence: number;
        };
        /**
         * @description The user added to or removed from a group, with the group.
         * @example {
         *       "id": "7c0e8b1a-3f2d-4c5e-9a6b-1d2e3f4a5b6c",
         *       "first_name": "Ann",
         *       "last_name": "Lee",
         *       "email": "ann@acme.io",
         *       "active": true,
         *       "attributes": {
         *         "employee_number": "1042",
         *         "job_title": "Staff Engineer",
         *         "department": "Engineering",
         *         "manager_id": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a",
         *         "manager_email": "grace@acme.io"
         *       },
         *       "custom_attributes": {
         *         "badge": 1042,
         *         "country": "US"
         *       },
         *       "roles": [
         *         "admin",
         *         "member"
         *       ],
         *       "raw": {
         *         "schemas": [
         *           "urn:ietf:params:scim:schemas:core:2.0:User",
         *           "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
         *         ],
         *         "userName": "ann@acme.io",
         *         "name": {
         *           "givenName": "Ann",
         *           "familyName": "Lee"
         *         },
         *         "emails": [
         *           {
         *             "value": "ann@acme.io",
         *             "primary": true
         *           }
         *         ],
         *         "title": "Staff Engineer",
         *         "active": true,
         *         "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {
         *           "employeeNumber": "1042",
         *           "department": "Engineering",
         *           "manager": {
         *             "value": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a"
         *           }
         *         }
         *       },
         *       "group": {
         *         "id": "4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a0f",
         *         "name": "Engineering",
         *         "raw": {
         *           "schemas": [
         *             "urn:ietf:params:scim:schemas:core:2.0:Group"
         *           ],
         *           "displayName": "Engineering"
         *         }
         *       }
         *     }
         */
        Membership: {
            /** @description The user's id in dsync (its SCIM id), stable for the user's life. */
            id: string;
            /** @description From the SCIM name.givenName. */
            first_name?: string;
            /** @description From the SCIM name.familyName. */
            last_name?: string;
            /** @description The primary email (else the first; else userName when it is an address). */
            email?: string;
            /** @description False for a deactivated (suspended) user, who keeps their groups. */
            active: boolean;
            /** @description The predefined attributes ({} when none is known). */
            attributes: components["schemas"]["UserAttributes"];
            /** @description From the directory's attribute_mapping: each mapped name with the value its source path holds, of the source's JSON type ({} when none has a value). */
            custom_attributes: {
                [key: string]: unknown;
            };
            /** @description From the directory's role_mapping: the roles of every group of the user a rule matches, higher priority first, each once; else [default_role], or []. */
            roles: string[];
            /** @description Every SCIM attribute as the IdP sent it (normalised), with id. */
            raw: components["schemas"]["ScimResource"];
            /** @description The group, as it is when the change commits. */
            group: components["schemas"]["Group"];
        };
        /**
         * @example {
         *       "id": "evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N",
         *       "event": "group.user_removed",
         *       "created_at": "2026-11-21T08:49:27.648Z",
         *       "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "tenant": "acme",
         *       "product": "app",
         *       "data": {
         *         "id": "7c0e8b1a-3f2d-4c5e-9a6b-1d2e3f4a5b6c",
         *         "first_name": "Ann",
         *         "last_name": "Lee",
         *         "email": "ann@acme.io",
         *         "active": true,
         *         "attributes": {
         *           "employee_number": "1042",
         *           "job_title": "Staff Engineer",
         *           "department": "Engineering",
         *           "manager_id": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a",
         *           "manager_email": "grace@acme.io"
         *         },
         *         "custom_attributes": {
         *           "badge": 1042,
         *           "country": "US"
         *         },
         *         "roles": [
         *           "admin",
         *           "member"
         *         ],
         *         "raw": {
         *           "schemas": [
         *             "urn:ietf:params:scim:schemas:core:2.0:User",
         *             "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
         *           ],
         *           "userName": "ann@acme.io",
         *           "name": {
         *             "givenName": "Ann",
         *             "familyName": "Lee"
         *           },
         *           "emails": [
         *             {
         *               "value": "ann@acme.io",
         *               "primary": true
         *             }
         *           ],
         *           "title": "Staff Engineer",
         *           "active": true,
         *           "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {
         *             "employeeNumber": "1042",
         *             "department": "Engineering",
         *             "manager": {
         *               "value": "0b9f8e7d-6c5b-4a39-8281-7f6e5d4c3b2a"
         *             }
         *           }
         *         },
         *         "group": {
         *           "id": "4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a0f",
         *           "name": "Engineering",
         *           "raw": {
         *             "schemas": [
         *               "urn:ietf:params:scim:schemas:core:2.0:Group"
         *             ],
         *             "displayName": "Engineering"
         *           }
         *         }
         *       },
         *       "sequence": 1042
         *     }
         */
        GroupUserRemovedEvent: {
            /** @description Unique per event; a receiver de-duplicates on it (delivery is at least once). */
            id: string;
            /**
             * @description The event type: says what data holds. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            event: "group.user_removed";
            /**
             * Format: date-time
             * @description When the change was committed (UTC).
             */
            created_at: string;
            /** @description The directory the change happened in. */
            directory_id: string;
            /** @description The directory's tenant. */
            tenant: string;
            /** @description The directory's product. */
            product: string;
            data: components["schemas"]["Membership"];
            /** @description On updates: the changed top-level data fields with their old values; attributes and raw hold only their changed keys, each with its old value (null = absent before). */
            previous_attributes?: {
                [key: string]: unknown;
            };
            /** @description The event's place in its directory's log: a later event of the directory has a greater number, so a receiver can put what it got in order (delivery may run events of different users and groups in parallel). 0 only on an event logged by a dsync release before sequences were counted. */
            sequence: number;
        };
        EventPageEnvelope: {
            data: components["schemas"]["EventPage"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "delivered": true,
         *       "status": 200
         *     }
         */
        Redelivery: {
            delivered: boolean;
            /** @description The receiver's HTTP status */
            status?: number;
            error?: string;
        };
        RedeliveryEnvelope: {
            data: components["schemas"]["Redelivery"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "since": "2026-11-21T08:00:00.000Z"
         *     }
         */
        ReplayAccepted: {
            directory_id: string;
            /** @description The time replayed from, as ISO 8601 (six-digit signed years beyond 0000-9999) */
            since: string;
        };
        ReplayAcceptedEnvelope: {
            data: components["schemas"]["ReplayAccepted"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "since": "2026-11-21T08:00:00Z"
         *     }
         */
        ReplayInput: {
            /** @description Re-deliver every event still kept that was committed at or after this time (ISO 8601, or epoch ms up to 8.64e15); a time before the oldest kept event replays them all */
            since?: string | number;
            /** @description Re-deliver this dead letter now */
            dead_letter_id?: string;
        } & (unknown | unknown);
        /**
         * @example {
         *       "id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f_1795251600000-0",
         *       "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "webhook_id": "evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N",
         *       "events": [
         *         "{\"id\":\"evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N\",\"event\":\"user.created\",\"…\":\"…\"}"
         *       ],
         *       "batch": false,
         *       "status_code": 500,
         *       "error": null,
         *       "attempts": 13,
         *       "created_at": "2026-11-21T08:49:27.648Z"
         *     }
         */
        DeadLetter: {
            id: string;
            directory_id: string;
            webhook_id: string;
            /** @description The events as they were to be delivered (JSON strings, in order) */
            events: string[];
            /** @description Delivered as a JSON array (batch mode) or a single event */
            batch: boolean;
            status_code: number | null;
            error: string | null;
            attempts: number;
            /** Format: date-time */
            created_at: string;
        };
        DeadLetterListEnvelope: {
            data: components["schemas"]["DeadLetter"][];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f_1795251600000-0",
         *       "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "webhook_id": "evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N",
         *       "event_ids": [
         *         "evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N"
         *       ],
         *       "endpoint": "https://app.example.com/webhooks/dsync",
         *       "status_code": 200,
         *       "error": null,
         *       "latency_ms": 42.5,
         *       "attempt": 1,
         *       "outcome": "delivered",
         *       "delivered": true,
         *       "created_at": "2026-11-21T08:49:27.648Z"
         *     }
         */
        DeliveryLog: {
            id: string;
            directory_id: string;
            webhook_id: string;
            event_ids: string[];
            endpoint: string;
            status_code: number | null;
            error: string | null;
            latency_ms: number;
            attempt: number;
            /** @enum {string} */
            outcome: "delivered" | "retry" | "dead" | "disabled";
            delivered: boolean;
            /** Format: date-time */
            created_at: string;
        };
        DeliveryLogListEnvelope: {
            data: components["schemas"]["DeliveryLog"][];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        DeliveryLogEnvelope: {
            data: components["schemas"]["DeliveryLog"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "authorizationUrl": "https://dsync.example.com/api/v1/dsync/oauth/start/q8Hc0mXU3w2vJ3KjB1bH6bRk7mOa9sZl0y2uN4tE5pA"
         *     }
         */
        GoogleAuthorizationUrl: {
            /** @description A single-use start link of this service, which goes on to Google's consent page, under the name the API has always given it */
            authorizationUrl: string;
        };
        GoogleAuthorizationUrlEnvelope: {
            data: components["schemas"]["GoogleAuthorizationUrl"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "access_token": "ya29.a0AfB_byC3x",
         *       "refresh_token": "1//0gLx3bW2Q",
         *       "scope": "https://www.googleapis.com/auth/admin.directory.user.readonly",
         *       "token_type": "Bearer",
         *       "expiry_date": 1795255200000
         *     }
         */
        GoogleTokenSet: {
            access_token: string;
            refresh_token: string;
            /** @description Space-separated scopes granted */
            scope: string;
            token_type: string;
            /** @description When the access token expires, epoch milliseconds */
            expiry_date: number;
        };
        GoogleTokenSetEnvelope: {
            data: components["schemas"]["GoogleTokenSet"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        GoogleCodeInput: {
            code: string;
        };
        /**
         * @example {
         *       "id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "name": "Acme (Google)",
         *       "tenant": "acme",
         *       "product": "app",
         *       "type": "google",
         *       "google_domain": "acme.io",
         *       "google_access_token": "ya29.a0AfB_byC3x",
         *       "google_refresh_token": "1//0gLx3bW2Q"
         *     }
         */
        GoogleDirectory: {
            id: string;
            name: string;
            tenant: string;
            product: string;
            /** @enum {string} */
            type: "azure-scim-v2" | "okta-scim-v2" | "onelogin-scim-v2" | "jumpcloud-scim-v2" | "ping-scim-v2" | "rippling-scim-v2" | "generic-scim-v2" | "google" | "microsoft-entra" | "bamboohr" | "hibob" | "personio";
            google_domain?: string;
            google_access_token?: string;
            google_refresh_token?: string;
        };
        GoogleDirectoryEnvelope: {
            data: components["schemas"]["GoogleDirectory"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        GoogleTokensInput: {
            access_token: string;
            refresh_token: string;
        };
        /**
         * @example {
         *       "id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "client_email": "sync@acme.iam.gserviceaccount.com",
         *       "admin_email": "admin@acme.io"
         *     }
         */
        GoogleServiceAccount: {
            id: string;
            client_email: string;
            admin_email: string;
            client_id?: string;
        };
        GoogleServiceAccountEnvelope: {
            data: components["schemas"]["GoogleServiceAccount"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        GoogleServiceAccountInput: {
            key: {
                /** @constant */
                type: "service_account";
                /** Format: email */
                client_email: string;
                private_key: string;
                private_key_id?: string;
                client_id?: string;
            } & {
                [key: string]: unknown;
            };
            /** Format: email */
            admin_email: string;
        };
        /**
         * @example {
         *       "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "state": "succeeded",
         *       "started_at": "2026-11-21T08:00:00.000Z",
         *       "finished_at": "2026-11-21T08:00:04.210Z",
         *       "duration_ms": 4210,
         *       "counts": {
         *         "users_created": 30,
         *         "users_updated": 0,
         *         "users_deleted": 0,
         *         "groups_created": 5,
         *         "groups_updated": 0,
         *         "groups_deleted": 0,
         *         "members_added": 3,
         *         "members_removed": 0
         *       },
         *       "listed": {
         *         "users": 30,
         *         "groups": 5
         *       },
         *       "google_requests": 7,
         *       "error": null,
         *       "last_success_at": "2026-11-21T08:00:04.210Z"
         *     }
         */
        GoogleSyncStatus: {
            directory_id: string;
            /** @enum {string} */
            state: "pending" | "running" | "succeeded" | "failed" | "guarded" | "invalid_credentials" | "not_authorized";
            started_at: string | null;
            finished_at: string | null;
            duration_ms: number | null;
            counts: {
                users_created: number;
                users_updated: number;
                users_deleted: number;
                groups_created: number;
                groups_updated: number;
                groups_deleted: number;
                members_added: number;
                members_removed: number;
            };
            /** @description Why the last run did not succeed */
            error: {
                code: string;
                message: string;
            } | null;
            last_success_at: string | null;
            listed: {
                users: number;
                groups: number;
            };
            google_requests: number;
        };
        GoogleSyncStatusEnvelope: {
            data: components["schemas"]["GoogleSyncStatus"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "directories": [
         *         {
         *           "id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *           "name": "Acme (Google)",
         *           "tenant": "acme",
         *           "product": "app",
         *           "state": "succeeded",
         *           "counts": {
         *             "users_created": 30,
         *             "users_updated": 0,
         *             "users_deleted": 0,
         *             "groups_created": 0,
         *             "groups_updated": 0,
         *             "groups_deleted": 0,
         *             "members_added": 0,
         *             "members_removed": 0
         *           },
         *           "error": null
         *         }
         *       ],
         *       "created": 30,
         *       "updated": 0,
         *       "deleted": 0,
         *       "failed": 0
         *     }
         */
        GoogleSyncReport: {
            directories: {
                id: string;
                name: string;
                tenant: string;
                product: string;
                /**
                 * @description skipped: another run holds the directory right now
                 * @enum {string}
                 */
                state: "pending" | "running" | "succeeded" | "failed" | "guarded" | "invalid_credentials" | "not_authorized" | "skipped";
                counts: {
                    users_created: number;
                    users_updated: number;
                    users_deleted: number;
                    groups_created: number;
                    groups_updated: number;
                    groups_deleted: number;
                    members_added: number;
                    members_removed: number;
                };
                /** @description Why the last run did not succeed */
                error: {
                    code: string;
                    message: string;
                } | null;
            }[];
            created: number;
            updated: number;
            deleted: number;
            /** @description Directories whose run failed or was stopped by the mass-deletion guard */
            failed: number;
        };
        GoogleSyncReportEnvelope: {
            data: components["schemas"]["GoogleSyncReport"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "id": "5f0c2a1e-8d3b-4c6f-9a7e-1b2c3d4e5f60",
         *       "provider": "google",
         *       "state": "succeeded",
         *       "directory_id": null,
         *       "started_at": "2026-11-21T08:00:00.000Z",
         *       "finished_at": "2026-11-21T08:00:04.210Z",
         *       "progress": {
         *         "directories": 1,
         *         "done": 1
         *       },
         *       "directories": [
         *         {
         *           "id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *           "name": "Acme (Google)",
         *           "tenant": "acme",
         *           "product": "app",
         *           "state": "succeeded",
         *           "counts": {
         *             "users_created": 30,
         *             "users_updated": 0,
         *             "users_deleted": 0,
         *             "groups_created": 0,
         *             "groups_updated": 0,
         *             "groups_deleted": 0,
         *             "members_added": 0,
         *             "members_removed": 0
         *           },
         *           "error": null
         *         }
         *       ],
         *       "created": 30,
         *       "updated": 0,
         *       "deleted": 0,
         *       "failed": 0,
         *       "error": null
         *     }
         */
        GoogleSyncRun: {
            id: string;
            provider: string;
            /**
             * @description succeeded: every directory was tried (each reports its own outcome); failed: the run stopped (error)
             * @enum {string}
             */
            state: "running" | "succeeded" | "failed";
            /** @description The directoryId the run was asked for; null: every directory */
            directory_id: string | null;
            /** Format: date-time */
            started_at: string;
            finished_at: string | null;
            progress: {
                directories: number;
                done: number;
            };
            directories: {
                id: string;
                name: string;
                tenant: string;
                product: string;
                /**
                 * @description pending, running, then the outcome of its sync
                 * @enum {string}
                 */
                state: "pending" | "running" | "succeeded" | "failed" | "guarded" | "invalid_credentials" | "not_authorized" | "skipped";
                counts: {
                    users_created: number;
                    users_updated: number;
                    users_deleted: number;
                    groups_created: number;
                    groups_updated: number;
                    groups_deleted: number;
                    members_added: number;
                    members_removed: number;
                } | null;
                error: {
                    code: string;
                    message: string;
                } | null;
            }[];
            created: number;
            updated: number;
            deleted: number;
            /** @description Directories whose sync failed or was stopped by the mass-deletion guard */
            failed: number;
            /** @description Why the run stopped (state failed) */
            error: {
                code: string;
                message: string;
            } | null;
        };
        GoogleSyncRunEnvelope: {
            data: components["schemas"]["GoogleSyncRun"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "adminConsentUrl": "https://dsync.example.com/api/v1/dsync/oauth/start/q8Hc0mXU3w2vJ3KjB1bH6bRk7mOa9sZl0y2uN4tE5pA"
         *     }
         */
        MicrosoftAdminConsentUrl: {
            /** @description A single-use start link of this service, which goes on to Microsoft's admin-consent page */
            adminConsentUrl: string;
        };
        MicrosoftAdminConsentUrlEnvelope: {
            data: components["schemas"]["MicrosoftAdminConsentUrl"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "state": "succeeded",
         *       "started_at": "2026-11-21T08:00:00.000Z",
         *       "finished_at": "2026-11-21T08:00:00.640Z",
         *       "duration_ms": 640,
         *       "counts": {
         *         "users_created": 0,
         *         "users_updated": 2,
         *         "users_deleted": 0,
         *         "groups_created": 0,
         *         "groups_updated": 0,
         *         "groups_deleted": 0,
         *         "members_added": 0,
         *         "members_removed": 0
         *       },
         *       "error": null,
         *       "last_success_at": "2026-11-21T08:00:00.640Z",
         *       "tenant_id": "aaaaaaaa-1111-4111-8111-111111111111",
         *       "mode": "delta",
         *       "seen": {
         *         "users": 2,
         *         "groups": 0
         *       },
         *       "graph_requests": 2,
         *       "throttled": 0,
         *       "notifications": {
         *         "state": "active",
         *         "expires_at": "2026-11-24T08:00:00.000Z",
         *         "error": null,
         *         "retry_at": null
         *       }
         *     }
         */
        MicrosoftSyncStatus: {
            directory_id: string;
            /** @enum {string} */
            state: "pending" | "running" | "succeeded" | "failed" | "guarded" | "invalid_credentials" | "not_authorized";
            started_at: string | null;
            finished_at: string | null;
            duration_ms: number | null;
            counts: {
                users_created: number;
                users_updated: number;
                users_deleted: number;
                groups_created: number;
                groups_updated: number;
                groups_deleted: number;
                members_added: number;
                members_removed: number;
            };
            /** @description Why the last run did not succeed */
            error: {
                code: string;
                message: string;
            } | null;
            last_success_at: string | null;
            /** @description The Entra tenant synced */
            tenant_id: string | null;
            /** @description full: first sync; delta: changes only; resync: Graph refused the delta links */
            mode: ("full" | "delta" | "resync") | null;
            /** @description Users and groups the last run's delta rounds named */
            seen: {
                users: number;
                groups: number;
            };
            graph_requests: number;
            /** @description Answers of the last run that told it to slow down (429/503 with Retry-After) */
            throttled: number;
            /** @description The change-notification subscriptions, reported apart from the sync's own state */
            notifications: {
                /**
                 * @description off: no public https URL; active: both subscriptions live; failed: see error (the sync itself may have succeeded)
                 * @enum {string}
                 */
                state: "off" | "active" | "failed";
                expires_at: string | null;
                /** @description Why subscribing failed, with Microsoft Graph's message */
                error: string | null;
                /** @description When subscribing is tried again, after a failure (backing off) */
                retry_at: string | null;
            };
        };
        MicrosoftSyncStatusEnvelope: {
            data: components["schemas"]["MicrosoftSyncStatus"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "directories": [
         *         {
         *           "id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *           "name": "Contoso (Entra)",
         *           "tenant": "contoso",
         *           "product": "app",
         *           "state": "succeeded",
         *           "counts": {
         *             "users_created": 0,
         *             "users_updated": 2,
         *             "users_deleted": 0,
         *             "groups_created": 0,
         *             "groups_updated": 0,
         *             "groups_deleted": 0,
         *             "members_added": 0,
         *             "members_removed": 0
         *           },
         *           "error": null
         *         }
         *       ],
         *       "created": 0,
         *       "updated": 2,
         *       "deleted": 0,
         *       "failed": 0
         *     }
         */
        MicrosoftSyncReport: {
            directories: {
                id: string;
                name: string;
                tenant: string;
                product: string;
                /**
                 * @description skipped: another run holds the directory right now
                 * @enum {string}
                 */
                state: "pending" | "running" | "succeeded" | "failed" | "guarded" | "invalid_credentials" | "not_authorized" | "skipped";
                counts: {
                    users_created: number;
                    users_updated: number;
                    users_deleted: number;
                    groups_created: number;
                    groups_updated: number;
                    groups_deleted: number;
                    members_added: number;
                    members_removed: number;
                };
                /** @description Why the last run did not succeed */
                error: {
                    code: string;
                    message: string;
                } | null;
            }[];
            created: number;
            updated: number;
            deleted: number;
            /** @description Directories whose run failed or was stopped by the mass-deletion guard */
            failed: number;
        };
        MicrosoftSyncReportEnvelope: {
            data: components["schemas"]["MicrosoftSyncReport"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "id": "5f0c2a1e-8d3b-4c6f-9a7e-1b2c3d4e5f60",
         *       "provider": "microsoft",
         *       "state": "succeeded",
         *       "directory_id": null,
         *       "started_at": "2026-11-21T08:00:00.000Z",
         *       "finished_at": "2026-11-21T08:00:00.640Z",
         *       "progress": {
         *         "directories": 1,
         *         "done": 1
         *       },
         *       "directories": [
         *         {
         *           "id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *           "name": "Contoso (Entra)",
         *           "tenant": "contoso",
         *           "product": "app",
         *           "state": "succeeded",
         *           "counts": {
         *             "users_created": 0,
         *             "users_updated": 2,
         *             "users_deleted": 0,
         *             "groups_created": 0,
         *             "groups_updated": 0,
         *             "groups_deleted": 0,
         *             "members_added": 0,
         *             "members_removed": 0
         *           },
         *           "error": null
         *         }
         *       ],
         *       "created": 0,
         *       "updated": 2,
         *       "deleted": 0,
         *       "failed": 0,
         *       "error": null
         *     }
         */
        MicrosoftSyncRun: {
            id: string;
            provider: string;
            /**
             * @description succeeded: every directory was tried (each reports its own outcome); failed: the run stopped (error)
             * @enum {string}
             */
            state: "running" | "succeeded" | "failed";
            /** @description The directoryId the run was asked for; null: every directory */
            directory_id: string | null;
            /** Format: date-time */
            started_at: string;
            finished_at: string | null;
            progress: {
                directories: number;
                done: number;
            };
            directories: {
                id: string;
                name: string;
                tenant: string;
                product: string;
                /**
                 * @description pending, running, then the outcome of its sync
                 * @enum {string}
                 */
                state: "pending" | "running" | "succeeded" | "failed" | "guarded" | "invalid_credentials" | "not_authorized" | "skipped";
                counts: {
                    users_created: number;
                    users_updated: number;
                    users_deleted: number;
                    groups_created: number;
                    groups_updated: number;
                    groups_deleted: number;
                    members_added: number;
                    members_removed: number;
                } | null;
                error: {
                    code: string;
                    message: string;
                } | null;
            }[];
            created: number;
            updated: number;
            deleted: number;
            /** @description Directories whose sync failed or was stopped by the mass-deletion guard */
            failed: number;
            /** @description Why the run stopped (state failed) */
            error: {
                code: string;
                message: string;
            } | null;
        };
        MicrosoftSyncRunEnvelope: {
            data: components["schemas"]["MicrosoftSyncRun"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "type": "bamboohr",
         *       "provider": "BambooHR",
         *       "connected_at": "2026-11-21T08:00:00.000Z",
         *       "account": {
         *         "subdomain": "acme",
         *         "webhook_signing": "off"
         *       }
         *     }
         */
        HrisConnection: {
            directory_id: string;
            /** @enum {string} */
            type: "bamboohr" | "hibob" | "personio";
            /** @description BambooHR, HiBob or Personio */
            provider: string;
            /** Format: date-time */
            connected_at: string;
            /** @description The credentials’ fields that are not secret */
            account: {
                [key: string]: string;
            };
        };
        HrisConnectionEnvelope: {
            data: components["schemas"]["HrisConnection"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "subdomain": "acme",
         *       "api_key": "b5e1c0ffee0d15ea5e7b0b5e1c0ffee0d15ea5e7"
         *     }
         */
        HrisCredentialsInput: {
            /** @description BambooHR: the company part of <subdomain>.bamboohr.com */
            subdomain?: string;
            /** @description BambooHR: an API key of a user who may read every employee */
            api_key?: string;
            /** @description BambooHR (optional): the webhook's private key; without it, webhook calls are refused */
            webhook_secret?: string;
            /** @description HiBob: the service user id */
            service_user_id?: string;
            /** @description HiBob: the service user's token */
            token?: string;
            /** @description Personio: the API credential client id */
            client_id?: string;
            /** @description Personio: the API credential client secret */
            client_secret?: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * @example {
         *       "directory_id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "state": "succeeded",
         *       "started_at": "2026-11-21T08:00:00.000Z",
         *       "finished_at": "2026-11-21T08:00:01.200Z",
         *       "duration_ms": 1200,
         *       "counts": {
         *         "users_created": 0,
         *         "users_updated": 1,
         *         "users_deleted": 0,
         *         "groups_created": 0,
         *         "groups_updated": 0,
         *         "groups_deleted": 0,
         *         "members_added": 0,
         *         "members_removed": 0
         *       },
         *       "error": null,
         *       "last_success_at": "2026-11-21T08:00:01.200Z",
         *       "provider": "bamboohr",
         *       "mode": "changed-since",
         *       "employees_read": 1,
         *       "provider_requests": 2,
         *       "throttled": 0
         *     }
         */
        HrisSyncStatus: {
            directory_id: string;
            /** @enum {string} */
            state: "pending" | "running" | "succeeded" | "failed" | "guarded" | "invalid_credentials" | "not_authorized";
            started_at: string | null;
            finished_at: string | null;
            duration_ms: number | null;
            counts: {
                users_created: number;
                users_updated: number;
                users_deleted: number;
                groups_created: number;
                groups_updated: number;
                groups_deleted: number;
                members_added: number;
                members_removed: number;
            };
            /** @description Why the last run did not succeed */
            error: {
                code: string;
                message: string;
            } | null;
            last_success_at: string | null;
            provider: ("bamboohr" | "hibob" | "personio") | null;
            /** @description full: every employee listed and diffed; changed-since: only the employees BambooHR's feed named */
            mode: ("full" | "changed-since") | null;
            /** @description Employees the last run read */
            employees_read: number;
            /** @description Requests to the provider in the last run (retries included) */
            provider_requests: number;
            /** @description Answers of the last run that told it to slow down (429, or 503 with Retry-After) */
            throttled: number;
        };
        HrisSyncStatusEnvelope: {
            data: components["schemas"]["HrisSyncStatus"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "directories": [
         *         {
         *           "id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *           "name": "Acme (BambooHR)",
         *           "tenant": "acme",
         *           "product": "app",
         *           "state": "succeeded",
         *           "counts": {
         *             "users_created": 0,
         *             "users_updated": 1,
         *             "users_deleted": 0,
         *             "groups_created": 0,
         *             "groups_updated": 0,
         *             "groups_deleted": 0,
         *             "members_added": 0,
         *             "members_removed": 0
         *           },
         *           "error": null
         *         }
         *       ],
         *       "created": 0,
         *       "updated": 1,
         *       "deleted": 0,
         *       "failed": 0
         *     }
         */
        HrisSyncReport: {
            directories: {
                id: string;
                name: string;
                tenant: string;
                product: string;
                /**
                 * @description skipped: another run holds the directory right now
                 * @enum {string}
                 */
                state: "pending" | "running" | "succeeded" | "failed" | "guarded" | "invalid_credentials" | "not_authorized" | "skipped";
                counts: {
                    users_created: number;
                    users_updated: number;
                    users_deleted: number;
                    groups_created: number;
                    groups_updated: number;
                    groups_deleted: number;
                    members_added: number;
                    members_removed: number;
                };
                /** @description Why the last run did not succeed */
                error: {
                    code: string;
                    message: string;
                } | null;
            }[];
            created: number;
            updated: number;
            deleted: number;
            /** @description Directories whose run failed or was stopped by the mass-deletion guard */
            failed: number;
        };
        HrisSyncReportEnvelope: {
            data: components["schemas"]["HrisSyncReport"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "id": "7a1c2a1e-8d3b-4c6f-9a7e-1b2c3d4e5f61",
         *       "provider": "hris",
         *       "state": "succeeded",
         *       "directory_id": null,
         *       "started_at": "2026-11-21T08:00:00.000Z",
         *       "finished_at": "2026-11-21T08:00:01.200Z",
         *       "progress": {
         *         "directories": 1,
         *         "done": 1
         *       },
         *       "directories": [
         *         {
         *           "id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *           "name": "Acme (BambooHR)",
         *           "tenant": "acme",
         *           "product": "app",
         *           "state": "succeeded",
         *           "counts": {
         *             "users_created": 0,
         *             "users_updated": 1,
         *             "users_deleted": 0,
         *             "groups_created": 0,
         *             "groups_updated": 0,
         *             "groups_deleted": 0,
         *             "members_added": 0,
         *             "members_removed": 0
         *           },
         *           "error": null
         *         }
         *       ],
         *       "created": 0,
         *       "updated": 1,
         *       "deleted": 0,
         *       "failed": 0,
         *       "error": null
         *     }
         */
        HrisSyncRun: {
            id: string;
            provider: string;
            /**
             * @description succeeded: every directory was tried (each reports its own outcome); failed: the run stopped (error)
             * @enum {string}
             */
            state: "running" | "succeeded" | "failed";
            /** @description The directoryId the run was asked for; null: every directory */
            directory_id: string | null;
            /** Format: date-time */
            started_at: string;
            finished_at: string | null;
            progress: {
                directories: number;
                done: number;
            };
            directories: {
                id: string;
                name: string;
                tenant: string;
                product: string;
                /**
                 * @description pending, running, then the outcome of its sync
                 * @enum {string}
                 */
                state: "pending" | "running" | "succeeded" | "failed" | "guarded" | "invalid_credentials" | "not_authorized" | "skipped";
                counts: {
                    users_created: number;
                    users_updated: number;
                    users_deleted: number;
                    groups_created: number;
                    groups_updated: number;
                    groups_deleted: number;
                    members_added: number;
                    members_removed: number;
                } | null;
                error: {
                    code: string;
                    message: string;
                } | null;
            }[];
            created: number;
            updated: number;
            deleted: number;
            /** @description Directories whose sync failed or was stopped by the mass-deletion guard */
            failed: number;
            /** @description Why the run stopped (state failed) */
            error: {
                code: string;
                message: string;
            } | null;
        };
        HrisSyncRunEnvelope: {
            data: components["schemas"]["HrisSyncRun"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "id": "sl_5f0c2a9e7b1d4c3a",
         *       "url": "https://dsync.example.com/setup/Vq3k9…",
         *       "expires_at": "2026-11-28T08:00:00.000Z"
         *     }
         */
        CreatedSetupLink: {
            id: string;
            /** @description The link to send to the customer's IT admin; shown this once */
            url: string;
            /** Format: date-time */
            expires_at: string;
        };
        CreatedSetupLinkEnvelope: {
            data: components["schemas"]["CreatedSetupLink"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "id": "sl_5f0c2a9e7b1d4c3a",
         *       "created_at": "2026-11-21T08:00:00.000Z",
         *       "expires_at": "2026-11-28T08:00:00.000Z",
         *       "revoked": false
         *     }
         */
        SetupLink: {
            id: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            revoked: boolean;
        };
        SetupLinkListEnvelope: {
            data: components["schemas"]["SetupLink"][];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "id": "sl_5f0c2a9e7b1d4c3a",
         *       "revoked": true
         *     }
         */
        Revoked: {
            id: string;
            /** @constant */
            revoked: true;
        };
        RevokedEnvelope: {
            data: components["schemas"]["Revoked"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "id": "tok_8a1f3c5e7b9d2f4a",
         *       "token": "q9Xo2Lw…",
         *       "created_at": "2026-11-21T08:00:00.000Z"
         *     }
         */
        CreatedScimToken: {
            id: string;
            /** @description The bearer token for the identity provider; shown this once, stored only as a hash */
            token: string;
            /** Format: date-time */
            created_at: string;
        };
        CreatedScimTokenEnvelope: {
            data: components["schemas"]["CreatedScimToken"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "id": "scim-secret",
         *       "created_at": "2026-11-21T08:00:00.000Z",
         *       "last_used_at": "2026-11-21T09:12:00.000Z"
         *     }
         */
        ScimToken: {
            /** @description `scim-secret` is the directory's scim.secret */
            id: string;
            /** Format: date-time */
            created_at: string;
            /** @description When the token last authenticated a SCIM request (to the minute) */
            last_used_at: string | null;
            /**
             * Format: date-time
             * @description Set on the token an operator rotation replaced: it stops working then
             */
            expires_at?: string;
        };
        ScimTokenListEnvelope: {
            data: components["schemas"]["ScimToken"][];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "last_request_at": "2026-11-21T09:12:03.000Z",
         *       "recent": [
         *         {
         *           "at": "2026-11-21T09:12:03.000Z",
         *           "method": "POST",
         *           "path": "/Users",
         *           "status": 409,
         *           "error": "User with userName \"ann@acme.io\" already exists in this directory"
         *         },
         *         {
         *           "at": "2026-11-21T09:12:01.000Z",
         *           "method": "GET",
         *           "path": "/Users",
         *           "status": 200,
         *           "error": null
         *         }
         *       ]
         *     }
         */
        Activity: {
            /** @description The last SCIM request of the directory; null before the first */
            last_request_at: string | null;
            recent: {
                /** Format: date-time */
                at: string;
                method: string;
                /** @description Relative to the SCIM base URL, without the query */
                path: string;
                status: number;
                /** @description The error detail the request was answered with */
                error: string | null;
            }[];
        };
        ActivityEnvelope: {
            data: components["schemas"]["Activity"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @description A directory connection
         * @example {
         *       "id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "name": "Acme (Okta)",
         *       "tenant": "acme",
         *       "product": "app",
         *       "type": "okta-scim-v2",
         *       "log_webhook_events": false,
         *       "deactivated": false,
         *       "scim": {
         *         "path": "/api/scim/v2.0/2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *         "secret": "hD4sQk0V3m9w2bJx7YpLqR8tZc1nF6uE",
         *         "endpoint": "https://dsync.example.com/api/scim/v2.0/2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f"
         *       },
         *       "webhook": {
         *         "endpoint": "https://app.example.com/webhooks/dsync",
         *         "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
         *       },
         *       "inactive_users": "keep",
         *       "created_at": "2026-11-21T08:49:27.648Z",
         *       "updated_at": "2026-11-21T08:49:27.648Z"
         *     }
         */
        Directory: {
            id: string;
            name: string;
            tenant: string;
            product: string;
            /** @enum {string} */
            type: "azure-scim-v2" | "okta-scim-v2" | "onelogin-scim-v2" | "jumpcloud-scim-v2" | "ping-scim-v2" | "rippling-scim-v2" | "generic-scim-v2" | "google" | "microsoft-entra" | "bamboohr" | "hibob" | "personio";
            log_webhook_events: boolean;
            deactivated: boolean;
            scim: {
                path: string;
                /** @description Bearer token the IdP sends (Authorization: Bearer <secret>) */
                secret: string;
                /** @description SCIM base URL to give the IdP */
                endpoint: string;
            };
            webhook: {
                /** @description Empty when no webhook is set */
                endpoint: string;
                /** @description Standard Webhooks signing secret (whsec_…) */
                secret: string;
            };
            google_domain?: string;
            google_access_token?: string;
            google_refresh_token?: string;
            /** @description Google directories: expand nested groups into members */
            google_nested_groups?: boolean;
            /** @description Microsoft Entra ID directories: the tenant the admin consented from */
            microsoft_tenant_id?: string;
            /** @description Microsoft Entra ID directories: expand nested groups into members */
            microsoft_nested_groups?: boolean;
            /**
             * Format: date-time
             * @description Set when the receiver answered 410 Gone: delivery stops until the webhook is set again
             */
            webhook_disabled_at?: string;
            /** @description Set when a controller (the Kubernetes operator) owns the directory */
            managed_by?: string;
            /**
             * @description keep (the default): a user who turns inactive stays, active false; delete: they are deleted
             * @enum {string}
             */
            inactive_users: "keep" | "delete";
            /** @description The roles its users hold by group; absent: every user holds no role */
            role_mapping?: components["schemas"]["RoleMapping"];
            /** @description Its users' custom attributes by source path; absent: none */
            attribute_mapping?: components["schemas"]["AttributeMapping"];
            /** @description The evaluation of every user after the last change of role_mapping or attribute_mapping (in the background past 5 s); absent before the first */
            reevaluation?: {
                /** @enum {string} */
                state: "running" | "done";
                /** @description When the mapping change that asked for it was written */
                started_at: string;
                finished_at?: string;
                /** @description Users evaluated so far (written about once a second while running) */
                users_evaluated: number;
                /** @description Users whose roles or custom attributes changed: one user.updated each */
                users_updated: number;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * @example {
         *       "default_role": "member",
         *       "rules": [
         *         {
         *           "group": "Admins",
         *           "role": "admin",
         *           "priority": 10
         *         }
         *       ]
         *     }
         */
        RoleMapping: {
            /** @description The role of a user no rule matches (none: no role) */
            default_role?: string;
            /** @description A user holds the role of every group a rule matches (by id or current name), higher priority first, each role once */
            rules: {
                /** @description The group's id or its current displayName */
                group: string;
                /** @description The role of the group's members */
                role: string;
                /** @description Orders a user's roles: higher first */
                priority: number;
            }[];
        };
        /**
         * @example {
         *       "badge": "urn:ietf:params:scim:schemas:extension:acme:2.0:User:badge",
         *       "country": "addresses[type eq \"work\"].country",
         *       "org_unit": "google:orgUnitPath"
         *     }
         */
        AttributeMapping: {
            [key: string]: string;
        };
        DirectoryEnvelope: {
            data: components["schemas"]["Directory"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        CreateDirectoryInput: {
            name: string;
            tenant: string;
            product: string;
            /** @enum {string} */
            type: "azure-scim-v2" | "okta-scim-v2" | "onelogin-scim-v2" | "jumpcloud-scim-v2" | "ping-scim-v2" | "rippling-scim-v2" | "generic-scim-v2" | "google" | "microsoft-entra" | "bamboohr" | "hibob" | "personio";
            /** Format: uri */
            webhook_url?: string;
            webhook_secret?: string;
            log_webhook_events?: boolean;
            deactivated?: boolean;
            google_domain?: string;
            google_access_token?: string;
            google_refresh_token?: string;
            google_nested_groups?: boolean;
            microsoft_tenant_id?: string;
            microsoft_nested_groups?: boolean;
            /**
             * @description keep (the default): a user who turns inactive stays, active false; delete: they are deleted (group.user_removed per group, then user.deleted)
             * @enum {string}
             */
            inactive_users?: "keep" | "delete";
            role_mapping?: components["schemas"]["RoleMapping"];
            attribute_mapping?: components["schemas"]["AttributeMapping"];
        };
        DirectoryListEnvelope: {
            data: components["schemas"]["Directory"][];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        UserListEnvelope: {
            data: components["schemas"]["User"][];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        UserEnvelope: {
            data: components["schemas"]["User"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        GroupListEnvelope: {
            data: components["schemas"]["Group"][];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "id": "4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a0f",
         *       "name": "Engineering",
         *       "raw": {
         *         "schemas": [
         *           "urn:ietf:params:scim:schemas:core:2.0:Group"
         *         ],
         *         "displayName": "Engineering"
         *       },
         *       "members": [
         *         {
         *           "group_id": "4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a0f",
         *           "user_id": "7c0e8b1a-3f2d-4c5e-9a6b-1d2e3f4a5b6c"
         *         }
         *       ]
         *     }
         */
        GroupWithMembers: {
            /** @description The group's id in dsync (its SCIM id). */
            id: string;
            /** @description From the SCIM displayName. */
            name: string;
            /** @description Every SCIM attribute as the IdP sent it (normalised), members aside. */
            raw: components["schemas"]["ScimResource"];
            members: {
                group_id: string;
                user_id: string;
            }[];
        };
        GroupWithMembersEnvelope: {
            data: components["schemas"]["GroupWithMembers"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "user_id": "7c0e8b1a-3f2d-4c5e-9a6b-1d2e3f4a5b6c"
         *     }
         */
        Member: {
            user_id: string;
        };
        MemberListEnvelope: {
            data: components["schemas"]["Member"][];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        UpdateDirectoryInput: {
            name?: string;
            webhook_url?: string | "";
            webhook_secret?: string;
            webhook?: {
                endpoint?: string | "";
                secret?: string;
            };
            log_webhook_events?: boolean;
            deactivated?: boolean;
            google_domain?: string;
            google_access_token?: string;
            google_refresh_token?: string;
            google_nested_groups?: boolean;
            microsoft_tenant_id?: string;
            microsoft_nested_groups?: boolean;
            /**
             * @description keep (the default): a user who turns inactive stays, active false; delete: they are deleted (group.user_removed per group, then user.deleted)
             * @enum {string}
             */
            inactive_users?: "keep" | "delete";
            /** @description null removes the mapping (every user then holds no role) */
            role_mapping?: components["schemas"]["RoleMapping"] | null;
            /** @description The whole mapping, replaced; null (or {}) removes it (every user then has no custom attribute) */
            attribute_mapping?: components["schemas"]["AttributeMapping"] | null;
            /** @description Immutable: accepted only unchanged */
            tenant?: string;
            /** @description Immutable: accepted only unchanged */
            product?: string;
            /**
             * @description Immutable: accepted only unchanged
             * @enum {string}
             */
            type?: "azure-scim-v2" | "okta-scim-v2" | "onelogin-scim-v2" | "jumpcloud-scim-v2" | "ping-scim-v2" | "rippling-scim-v2" | "generic-scim-v2" | "google" | "microsoft-entra" | "bamboohr" | "hibob" | "personio";
        };
        /**
         * @example {
         *       "id": "2b6d4f1e-8a3c-4e5b-9d7f-0a1b2c3d4e5f",
         *       "deleted": true
         *     }
         */
        Deleted: {
            id: string;
            /** @constant */
            deleted: true;
        };
        DeletedEnvelope: {
            data: components["schemas"]["Deleted"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
        /**
         * @example {
         *       "directories": 3,
         *       "delivered": 120,
         *       "failed": 0
         *     }
         */
        DeliveryRun: {
            directories: number;
            delivered: number;
            failed: number;
        };
        DeliveryRunEnvelope: {
            data: components["schemas"]["DeliveryRun"];
            /**
             * @description null on success
             * @constant
             */
            error: components["schemas"]["ErrorDetail"] | null;
        };
    };
    responses: {
        /** @description Invalid input: the message names the field */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Missing or wrong Authorization: Api-Key <key> (answered before the rate limits, so without their headers) */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Beyond the API key's scope (a read-only key writing; a tenant key reaching another tenant's directory, or every directory), or the directory is managed by a controller (the Kubernetes operator): change its resource */
        Forbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description No such directory, user, group, dead letter or delivery log */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The request conflicts with the current state, the message says which: a provider not configured on this server (Google OAuth: DSYNC_GOOGLE_CLIENT_ID/SECRET, a service account still works), a deactivated directory, an HRIS directory without credentials yet */
        Conflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The body is over 1 MiB */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The body is not JSON (send application/json, or no Content-Type) */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Over a rate limit (when rate limits are configured), or too many failed authentications from this client (always) */
        TooManyRequests: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The request line and headers exceed 16 KiB (Node's limit: an over-long URL or header), refused by the HTTP parser before any route; any path can answer it */
        RequestHeaderFieldsTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description A fault of the server: the body carries the id of the logged error and the request id, to quote in a report */
        InternalError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Google refused or failed the request (after retries) */
        BadGateway: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The store does not answer, or a write lost a race it could not retry: retry shortly */
        ServiceUnavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The request id: the one the client sent when well-formed (1-128 of A-Z a-z 0-9 . _ : -), else a new UUID; every log line of the request carries it */
        "X-Request-Id": string;
        /** @description Seconds to wait before retrying */
        "Retry-After": number;
        /** @description Requests allowed in the window that binds (only when rate limits are configured) */
        "RateLimit-Limit": number;
        /** @description Requests left in that window (only when rate limits are configured) */
        "RateLimit-Remaining": number;
        /** @description Seconds until that window resets (only when rate limits are configured) */
        "RateLimit-Reset": number;
        /** @description Both windows, e.g. `"burst";q=10;w=1, "sustained";q=600;w=60` (draft-ietf-httpapi-ratelimit-headers) */
        "RateLimit-Policy": string;
        /** @description The Api-Key challenge, with error="invalid_token" when a credential was sent */
        "WWW-Authenticate": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is up */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Liveness"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready; `degraded` lists shards with fewer replicas in sync than DSYNC_REDIS_WAIT_REPLICAS */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description `unavailable`: the store does not answer; `below-min-replicas`: the `shards` listed refuse writes; `draining`: the process is stopping */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    oauthStart: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The link's single-use token
                 * @example q8Hc0mXU3w2vJ3KjB1bH6bRk7mOa9sZl0y2uN4tE5pA
                 */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider's consent page, with the flow's cookie set */
            303: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    /** @description The provider's consent page */
                    Location: string;
                    /** @description `__Host-dsync-oauth-<id>` (https) or `dsync-oauth-<id>` (http): HttpOnly, SameSite=Lax */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The directory cannot start this flow (not of the provider's type): a page saying why */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The directory is gone: a page saying so */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The provider is not configured on this server: a page saying so */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The link has expired or was already opened: a page saying so */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description A fault of the server: a page saying so (the error is logged) */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The store does not answer: a page saying so */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    googleCallback: {
        parameters: {
            query: {
                /**
                 * @description The state of the flow (single use)
                 * @example Zk3vJ8c1pQm2uN4tE5pAq8Hc0mXU3w2vJ3KjB1bH6bR
                 */
                state: string;
                /**
                 * @description Google's authorization code (absent when the admin refused)
                 * @example 4/0AfJohXl
                 */
                code?: string;
                /** @description Google's error when the admin refused (e.g. access_denied) */
                error?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Authorized: a page saying so */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Authorized or failed: back to the redirect_url given at step 1, with directory_id and status (and error, error_description) */
            303: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description The redirect_url with directory_id and status=success, or status=error with error (the code) and error_description (why) */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A missing, unknown, expired or used state, another browser, a refused code or an account of another workspace: a page saying why */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The directory of the state is gone: a page saying so */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Google OAuth is not configured on this server: a page saying so */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description A fault of the server: a page saying so (the error is logged) */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Google failed the code exchange: a page saying so */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The store does not answer: a page saying so */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    microsoftCallback: {
        parameters: {
            query: {
                /**
                 * @description The state of the flow (single use)
                 * @example Zk3vJ8c1pQm2uN4tE5pAq8Hc0mXU3w2vJ3KjB1bH6bR
                 */
                state: string;
                /** @description The sign-in's authorization code (first callback) */
                code?: string;
                /**
                 * @description `True` when the admin consented
                 * @example True
                 */
                admin_consent?: string;
                /**
                 * @description The id (GUID) of the tenant whose admin consented
                 * @example aaaaaaaa-1111-4111-8111-111111111111
                 */
                tenant?: string;
                /** @description The permissions granted */
                scope?: string;
                /** @description Microsoft's error when the admin declined (e.g. access_denied) */
                error?: string;
                /** @description Microsoft's explanation (AADSTS…) */
                error_description?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Connected: a page saying so (the first sync starts) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Signed in: on to Microsoft's admin-consent page of the proved tenant (with the next step's cookie). Connected or failed: back to the redirect_url given with the consent URL, with directory_id and status (and error, error_description) */
            303: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Microsoft's admin-consent page; or the redirect_url with directory_id and status=success, or status=error with error (the code) and error_description (why) */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A missing, unknown, expired or used state, another browser, a refusal, an ID token that does not check out, a guest account, or another tenant than the sign-in proved or the directory names: a page saying why */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The directory of the state is gone: a page saying so */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Microsoft Entra ID is not configured on this server: a page saying so */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description A fault of the server: a page saying so (the error is logged) */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Entra did not confirm the consent with a token, or its sign-in keys could not be read: a page saying so */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The store does not answer: a page saying so */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store */
                    "Cache-Control"?: string;
                    /** @description default-src 'none'; frame-ancestors 'none' */
                    "Content-Security-Policy"?: string;
                    /** @description DENY */
                    "X-Frame-Options"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    microsoftNotifications: {
        parameters: {
            query?: {
                /** @description Graph validating the URL: echoed as text/plain */
                validationToken?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    value: Record<string, never>[];
                };
            };
        };
        responses: {
            /** @description The validation token, echoed */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Accepted: the directories of the notifications whose clientState checks out are synced within seconds (no body) */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    hrisWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory whose webhook this is (the URL its setup page shows) */
                directoryId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Accepted: the directory is synced within seconds (no body) */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description The next_cursor of the previous page; absent = from the oldest kept event */
                after?: string;
                /** @description Events in the page */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The next events, oldest first */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventPageEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    replayEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplayInput"];
            };
        };
        responses: {
            /** @description The dead letter was re-delivered (or failed again) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RedeliveryEnvelope"];
                };
            };
            /** @description Replay since the time requested (delivered in the background) */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplayAcceptedEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listDeadLetters: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Oldest first */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeadLetterListEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listDeliveryLogs: {
        parameters: {
            query: {
                /** @description The directory id */
                directoryId: string;
                /** @description Items to skip */
                pageOffset?: number;
                /** @description Items in the page */
                pageLimit?: number;
                /**
                 * @deprecated
                 * @description Alias of pageOffset
                 */
                offset?: number;
                /**
                 * @deprecated
                 * @description Alias of pageLimit
                 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Newest first */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryLogListEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDeliveryLog: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The delivery log id */
                logId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attempt */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryLogEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getGoogleAuthorizationUrl: {
        parameters: {
            query?: {
                /** @description Where the callback sends the browser afterwards (with directory_id and status) */
                redirect_url?: string;
            };
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Send the admin there */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoogleAuthorizationUrlEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    setGoogleTokens: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GoogleTokensInput"];
            };
        };
        responses: {
            /** @description The directory (id, name, tenant, product, type and its google_* fields) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoogleDirectoryEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    exchangeGoogleCode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GoogleCodeInput"];
            };
        };
        responses: {
            /** @description The token set */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoogleTokenSetEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    setGoogleServiceAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GoogleServiceAccountInput"];
            };
        };
        responses: {
            /** @description The service account, without its key */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoogleServiceAccountEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getGoogleSyncStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sync status */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoogleSyncStatusEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    syncGoogle: {
        parameters: {
            query?: {
                /** @description Sync only this directory (absent: every active Google directory) */
                directoryId?: string;
            };
            header?: {
                /** @description `respond-async` (RFC 7240): answer 202 at once with the Location of a background run (joining the one going), instead of syncing first */
                prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What each directory did; a failing directory is reported, not an error */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoogleSyncReportEnvelope"];
                };
            };
            /** @description Prefer: respond-async: the run started, or the one already going for the same filter */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The run: /api/v1/dsync/cron/sync-google/<runId> */
                    Location: string;
                    /** @description `respond-async` */
                    "Preference-Applied": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoogleSyncRunEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getGoogleSyncRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id in the Location of the 202 */
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoogleSyncRunEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMicrosoftAdminConsentUrl: {
        parameters: {
            query?: {
                /** @description Where the callback sends the browser afterwards (with directory_id and status) */
                redirect_url?: string;
            };
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Send the admin there */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MicrosoftAdminConsentUrlEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMicrosoftSyncStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sync status */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MicrosoftSyncStatusEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    syncMicrosoft: {
        parameters: {
            query?: {
                /** @description Sync only this directory (absent: every active Entra directory) */
                directoryId?: string;
            };
            header?: {
                /** @description `respond-async` (RFC 7240): answer 202 at once with the Location of a background run (joining the one going), instead of syncing first */
                prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What each directory did; a failing directory is reported, not an error */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MicrosoftSyncReportEnvelope"];
                };
            };
            /** @description Prefer: respond-async: the run started, or the one already going for the same filter */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The run: /api/v1/dsync/cron/sync-microsoft/<runId> */
                    Location: string;
                    /** @description `respond-async` */
                    "Preference-Applied": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MicrosoftSyncRunEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMicrosoftSyncRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id in the Location of the 202 */
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MicrosoftSyncRunEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    setHrisCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["HrisCredentialsInput"];
            };
        };
        responses: {
            /** @description Connected */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HrisConnectionEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getHrisSyncStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sync status */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HrisSyncStatusEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    syncHris: {
        parameters: {
            query?: {
                /** @description Sync only this directory (absent: every active HRIS directory) */
                directoryId?: string;
            };
            header?: {
                /** @description `respond-async` (RFC 7240): answer 202 at once with the Location of a background run (joining the one going), instead of syncing first */
                prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What each directory did; a failing directory is reported, not an error */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HrisSyncReportEnvelope"];
                };
            };
            /** @description Prefer: respond-async: the run started, or the one already going for the same filter */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description The run: /api/v1/dsync/cron/sync-hris/<runId> */
                    Location: string;
                    /** @description `respond-async` */
                    "Preference-Applied": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HrisSyncRunEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getHrisSyncRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id in the Location of the 202 */
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HrisSyncRunEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listSetupLinks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Oldest first */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SetupLinkListEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createSetupLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Seconds until the link stops working; default 7 days, at most 30 */
                    expires_in?: number;
                };
            };
        };
        responses: {
            /** @description The link, shown this once */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedSetupLinkEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    revokeSetupLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
                /** @description The setup link id (`sl_…`) */
                linkId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevokedEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listScimTokens: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Oldest first */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimTokenListEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createScimToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token, shown this once */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedScimTokenEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    revokeScimToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
                /** @description The token id: `scim-secret` for the directory's scim.secret, `tok_…` for the others */
                tokenId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevokedEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getActivity: {
        parameters: {
            query?: {
                /** @description Newest entries to return */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The activity record */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActivityEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listDirectories: {
        parameters: {
            query: {
                /** @description The directories' tenant */
                tenant: string;
                /** @description The directories' product */
                product: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Oldest first */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DirectoryListEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createDirectory: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDirectoryInput"];
            };
        };
        responses: {
            /** @description The directory, with its SCIM endpoint and token */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DirectoryEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /** @description One directory, by id (give it, or both tenant and product) */
                directoryId?: string;
                /** @description With product: every directory of the tenant and product */
                tenant?: string;
                /** @description With tenant: every directory of the tenant and product */
                product?: string;
                /** @description Items to skip */
                pageOffset?: number;
                /** @description Items in the page */
                pageLimit?: number;
                /**
                 * @deprecated
                 * @description Alias of pageOffset
                 */
                offset?: number;
                /**
                 * @deprecated
                 * @description Alias of pageLimit
                 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserListEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUser: {
        parameters: {
            query?: {
                /** @description One directory, by id (give it, or both tenant and product) */
                directoryId?: string;
                /** @description With product: every directory of the tenant and product */
                tenant?: string;
                /** @description With tenant: every directory of the tenant and product */
                product?: string;
            };
            header?: never;
            path: {
                /** @description The user id (the id dsync gave it, as in SCIM) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listGroups: {
        parameters: {
            query?: {
                /** @description One directory, by id (give it, or both tenant and product) */
                directoryId?: string;
                /** @description With product: every directory of the tenant and product */
                tenant?: string;
                /** @description With tenant: every directory of the tenant and product */
                product?: string;
                /** @description Items to skip */
                pageOffset?: number;
                /** @description Items in the page */
                pageLimit?: number;
                /**
                 * @deprecated
                 * @description Alias of pageOffset
                 */
                offset?: number;
                /**
                 * @deprecated
                 * @description Alias of pageLimit
                 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of groups */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupListEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getGroup: {
        parameters: {
            query?: {
                /** @description One directory, by id (give it, or both tenant and product) */
                directoryId?: string;
                /** @description With product: every directory of the tenant and product */
                tenant?: string;
                /** @description With tenant: every directory of the tenant and product */
                product?: string;
            };
            header?: never;
            path: {
                /** @description The group id (the id dsync gave it, as in SCIM) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group with its members */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupWithMembersEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listGroupMembers: {
        parameters: {
            query?: {
                /** @description One directory, by id (give it, or both tenant and product) */
                directoryId?: string;
                /** @description With product: every directory of the tenant and product */
                tenant?: string;
                /** @description With tenant: every directory of the tenant and product */
                product?: string;
                /** @description Items to skip */
                pageOffset?: number;
                /** @description Items in the page */
                pageLimit?: number;
                /**
                 * @deprecated
                 * @description Alias of pageOffset
                 */
                offset?: number;
                /**
                 * @deprecated
                 * @description Alias of pageLimit
                 */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The group id (the id dsync gave it, as in SCIM) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of member user ids */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberListEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDirectory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The directory */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DirectoryEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteDirectory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateDirectory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The directory id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateDirectoryInput"];
            };
        };
        responses: {
            /** @description The updated directory */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DirectoryEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    processEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What the run did */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryRunEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    webhookUserCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The delivery id: the same on every retry of the same events
                 * @example evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the epoch when this attempt was signed
                 * @example 1795251600
                 */
                "webhook-timestamp": string;
                /**
                 * @description v1,<base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`> (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserCreatedEvent"];
            };
        };
        responses: {
            /** @description Delivered; any other status is retried on the schedule (410 Gone disables the webhook) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookUserUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The delivery id: the same on every retry of the same events
                 * @example evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the epoch when this attempt was signed
                 * @example 1795251600
                 */
                "webhook-timestamp": string;
                /**
                 * @description v1,<base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`> (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserUpdatedEvent"];
            };
        };
        responses: {
            /** @description Delivered; any other status is retried on the schedule (410 Gone disables the webhook) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookUserDeletedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The delivery id: the same on every retry of the same events
                 * @example evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the epoch when this attempt was signed
                 * @example 1795251600
                 */
                "webhook-timestamp": string;
                /**
                 * @description v1,<base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`> (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserDeletedEvent"];
            };
        };
        responses: {
            /** @description Delivered; any other status is retried on the schedule (410 Gone disables the webhook) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookGroupCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The delivery id: the same on every retry of the same events
                 * @example evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the epoch when this attempt was signed
                 * @example 1795251600
                 */
                "webhook-timestamp": string;
                /**
                 * @description v1,<base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`> (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GroupCreatedEvent"];
            };
        };
        responses: {
            /** @description Delivered; any other status is retried on the schedule (410 Gone disables the webhook) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookGroupUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The delivery id: the same on every retry of the same events
                 * @example evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the epoch when this attempt was signed
                 * @example 1795251600
                 */
                "webhook-timestamp": string;
                /**
                 * @description v1,<base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`> (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GroupUpdatedEvent"];
            };
        };
        responses: {
            /** @description Delivered; any other status is retried on the schedule (410 Gone disables the webhook) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookGroupDeletedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The delivery id: the same on every retry of the same events
                 * @example evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the epoch when this attempt was signed
                 * @example 1795251600
                 */
                "webhook-timestamp": string;
                /**
                 * @description v1,<base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`> (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GroupDeletedEvent"];
            };
        };
        responses: {
            /** @description Delivered; any other status is retried on the schedule (410 Gone disables the webhook) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookGroupUserAddedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The delivery id: the same on every retry of the same events
                 * @example evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the epoch when this attempt was signed
                 * @example 1795251600
                 */
                "webhook-timestamp": string;
                /**
                 * @description v1,<base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`> (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GroupUserAddedEvent"];
            };
        };
        responses: {
            /** @description Delivered; any other status is retried on the schedule (410 Gone disables the webhook) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookGroupUserRemovedEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The delivery id: the same on every retry of the same events
                 * @example evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the epoch when this attempt was signed
                 * @example 1795251600
                 */
                "webhook-timestamp": string;
                /**
                 * @description v1,<base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`> (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GroupUserRemovedEvent"];
            };
        };
        responses: {
            /** @description Delivered; any other status is retried on the schedule (410 Gone disables the webhook) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookEventBatch: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The delivery id: the same on every retry of the same events
                 * @example evt_01JD2Q8M0Y3W5Z7X9V1T3R5P7N
                 */
                "webhook-id": string;
                /**
                 * @description Seconds since the epoch when this attempt was signed
                 * @example 1795251600
                 */
                "webhook-timestamp": string;
                /**
                 * @description v1,<base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`> (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DirectorySyncEvent"][];
            };
        };
        responses: {
            /** @description Delivered; any other status is retried on the schedule (410 Gone disables the webhook) */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
