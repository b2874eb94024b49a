// The metric families the chart's users rely on: the end-to-end test (chart-e2e.test.ts) expects each on the
// /metrics of the process named, and every family the dashboard or the alerts query must be listed here.
const BOTH = [
  'dsync_store_errors_total',
  'dsync_store_not_durable_total',
  'dsync_store_degraded_writes_total',
  'dsync_store_command_duration_seconds',
  'dsync_build_info',
] as const;

export const EXPECTED_METRIC_FAMILIES = {
  serve: [
    'http_request_duration_seconds',
    'webhook_delivery_attempts_total',
    'webhook_delivery_duration_seconds',
    'webhook_events_delivered_total',
    'webhook_events_dead_lettered_total',
    'dsync_webhook_backlog_events',
    'dsync_webhook_backlog_oldest_age_seconds',
    'dsync_dead_letters_pending',
    'dsync_webhooks_disabled',
    'dsync_cron_runs_total',
    'dsync_ratelimit_decisions_total',
    'dsync_google_directories',
    'dsync_google_api_requests_total',
    'dsync_google_api_retries_total',
    'dsync_microsoft_directories',
    'dsync_microsoft_subscriptions',
    'dsync_microsoft_graph_requests_total',
    'dsync_microsoft_graph_retries_total',
    'dsync_microsoft_graph_throttled_total',
    'dsync_microsoft_notifications_total',
    'dsync_microsoft_subscription_requests_total',
    ...['bamboohr', 'hibob', 'personio'].flatMap((p) => [
      `dsync_${p}_directories`,
      `dsync_${p}_api_requests_total`,
      `dsync_${p}_api_retries_total`,
      `dsync_${p}_api_throttled_total`,
    ]),
    ...BOTH,
  ],
  operator: [
    'controller_runtime_reconcile_total',
    'controller_runtime_reconcile_errors_total',
    'controller_runtime_reconcile_time_seconds',
    'workqueue_depth',
    'leader_election_master_status',
    'dsync_operator_writes_total',
    'dsync_directoryconnections',
    'rest_client_requests_total',
    ...BOTH,
  ],
} as const;

/** Serve's delivery families, which the operator (it delivers nothing) must not export. */
export const SERVE_ONLY_FAMILIES = ['webhook_delivery_attempts_total', 'dsync_webhook_backlog_events'] as const;
