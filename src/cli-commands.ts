/**
 * The commands of `dsync` as data: the CLI (cli.ts) prints its usage from them and dispatches on their names, and
 * docs/reference/cli.md is generated from them (scripts/docs/reference/cli.ts). Configuration comes from
 * environment variables only (src/config.ts); the commands take no flags.
 */
import type { ENV_GROUPS } from './config-docs.js';
import { REDIS_STORE } from './config.js';

export const COMMAND_NAMES = [
  'serve',
  'operator',
  'cron process-events',
  'cron sync-google',
  'cron sync-microsoft',
  'cron sync-hris',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

export interface CliCommand {
  /** One line, in the usage. */
  summary: string;
  /** What it does and prints, for the reference. */
  details: string;
  /** The store it works on. */
  store: string;
  /** The groups of environment variables it reads (the sections of the configuration reference). */
  env: ReadonlyArray<(typeof ENV_GROUPS)[number]>;
}

const NEEDS_REDIS = `${REDIS_STORE[0]!.toUpperCase()}${REDIS_STORE.slice(1)}; it exits with status 1 on the in-memory store.`;

export const COMMANDS: Record<CommandName, CliCommand> = {
  serve: {
    summary: 'Run the HTTP service (management API, SCIM endpoint, webhook delivery)',
    details:
      "Serves the management API, the SCIM endpoint, the setup pages and the providers' callbacks on `PORT`, and metrics on `METRICS_PORT`; delivers webhook events, and runs the pull syncs in-process when their `*_SYNC_INTERVAL` is set. On the in-memory store without `DSYNC_API_KEYS`, it generates an API key for the run and prints it with a first `curl` (with Redis, the keys are required). Stops gracefully on SIGTERM or SIGINT: `/readyz` answers 503 at once, in-flight requests finish and every answer says `Connection: close`, connections idle for 1 s are closed, then delivery stops and the store closes (10 s at most).",
    store: 'The in-memory store by default (one process, nothing kept), or Redis.',
    env: [
      'HTTP service',
      'Store (Redis)',
      'Webhook delivery and events',
      'Rate limits',
      'Google Workspace',
      'Microsoft Entra ID',
      'HRIS (BambooHR, HiBob, Personio)',
      'Metrics and logs',
    ],
  },
  operator: {
    summary: 'Run the Kubernetes operator (reconciles DirectoryConnection resources; see docs/operator.md)',
    details:
      'Reconciles the DirectoryConnection resources of its namespaces into directories of the store that `dsync serve` reads, with their Secrets; one replica leads at a time (leader election). Serves no API, so it needs no API keys; metrics on `METRICS_PORT`. Stops gracefully on SIGTERM or SIGINT (releasing the leader Lease); a replica that loses the leadership exits with status 1, so that its pod restarts.',
    store: NEEDS_REDIS,
    env: ['Store (Redis)', 'Operator', 'Metrics and logs'],
  },
  'cron process-events': {
    summary: 'Deliver queued webhook events once (batch mode), then exit',
    details:
      'One pass over the queued events of every directory, then a summary line (`process-events: N directories, N events delivered, N deliveries failed`). A receiver that is down is reported and retried on the schedule; it does not fail the job.',
    store: NEEDS_REDIS,
    env: ['Store (Redis)', 'Webhook delivery and events', 'Metrics and logs'],
  },
  'cron sync-google': {
    summary: 'Pull every active Google Workspace directory once, then exit',
    details:
      "One sync of every active Google Workspace directory: a line per directory (its state, and the error's message if any), then the totals. One customer's revoked token or outage is reported in the output, its sync status and the metrics; it does not fail the job.",
    store: NEEDS_REDIS,
    env: ['Store (Redis)', 'Google Workspace', 'Metrics and logs'],
  },
  'cron sync-microsoft': {
    summary: 'Pull every active Microsoft Entra ID directory once (Graph delta), then exit',
    details:
      "One sync of every active Microsoft Entra ID directory through Graph's delta query: a line per directory, then the totals. One customer's revoked consent or outage does not fail the job.",
    store: NEEDS_REDIS,
    env: ['Store (Redis)', 'Microsoft Entra ID', 'Metrics and logs'],
  },
  'cron sync-hris': {
    summary: 'Pull every active BambooHR, HiBob and Personio directory once, then exit',
    details:
      "One sync of every active HRIS directory: a line per directory, then the totals. One customer's refused credentials or outage does not fail the job.",
    store: NEEDS_REDIS,
    env: ['Store (Redis)', 'HRIS (BambooHR, HiBob, Personio)', 'Metrics and logs'],
  },
};

/** The words that print the usage instead of running a command. */
export const HELP_WORDS = ['help', '--help', '-h'] as const;

export const EXIT_STATUSES: ReadonlyArray<{ status: number; meaning: string }> = [
  { status: 0, meaning: 'Done (a cron command), or stopped on SIGTERM or SIGINT after a graceful shutdown.' },
  {
    status: 1,
    meaning:
      'The command could not run: invalid configuration (`dsync: configuration error: …`), a port in use (one line naming the variable), the store unreachable for 5 s at start, a shutdown over 10 s, or a fault (its stack trace). See the [error codes](errors.md).',
  },
  { status: 2, meaning: 'An unknown command; the usage follows on stderr.' },
];

export const USAGE_EXIT = 2;

const width = Math.max(...COMMAND_NAMES.map((n) => n.length)) + 5;

/** The text `dsync help` prints. */
export function usage(): string {
  const lines = COMMAND_NAMES.map((name) => `  ${name.padEnd(width)}${COMMANDS[name].summary}`);
  return [
    'Usage: dsync <command>',
    '',
    'Commands:',
    ...lines,
    `  ${'help'.padEnd(width)}Show this help`,
    '',
    'Configuration is read from environment variables; see docs/reference/configuration.md.',
  ].join('\n');
}
