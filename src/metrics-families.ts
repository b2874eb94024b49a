/**
 * The metric families built per provider (sync states read at scrape time, the HRIS families, the run families
 * every pull provider exports): helpers of metrics.ts, apart because the same shapes are made many times over.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { HRIS_TYPES, type HrisType } from './providers/hris/connector.js';
import type { HrisObserver } from './providers/hris/hris-sync.js';
import type { RunObserver } from './providers/pull/runner.js';

/** Counts of active directories of one provider by sync state, and by notification state. */
export interface MicrosoftStates {
  sync: Record<string, number>;
  notifications: Record<string, number>;
}

/** A gauge by `state`, read at scrape time (a sync run by the one-shot CronJob, never scraped, shows too). */
export function stateGauge(
  registry: Registry,
  name: string,
  help: string,
  read: () => Promise<Record<string, number> | undefined>,
): void {
  new Gauge({
    name,
    help,
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const states = await read();
      if (!states) return;
      this.reset();
      for (const [state, n] of Object.entries(states)) this.set({ state }, n);
    },
  });
}

export const HRIS_NAMES: Record<HrisType, string> = { bamboohr: 'BambooHR', hibob: 'HiBob', personio: 'Personio' };

/** Each HRIS provider's families: its runs (as every pull provider's), its API requests, retries and throttling. */
export function hrisFamilies(registry: Registry): HrisObserver {
  const of = Object.fromEntries(
    HRIS_TYPES.map((type) => {
      const name = HRIS_NAMES[type];
      return [
        type,
        {
          runs: pullRunFamilies(registry, type, name),
          requests: new Counter({
            name: `dsync_${type}_api_requests_total`,
            help: `${name} API requests made (retries included)`,
            registers: [registry],
          }),
          retries: new Counter({
            name: `dsync_${type}_api_retries_total`,
            help: `${name} API requests retried, by reason (429, 503, network, ...)`,
            labelNames: ['reason'] as const,
            registers: [registry],
          }),
          throttled: new Counter({
            name: `dsync_${type}_api_throttled_total`,
            help: `${name} answers that throttled a company (429, or 503 with Retry-After): its requests waited as told`,
            registers: [registry],
          }),
        },
      ];
    }),
  ) as Record<
    HrisType,
    { runs: RunObserver['directoryRun']; requests: Counter; retries: Counter<'reason'>; throttled: Counter }
  >;
  return {
    directoryRun: (type, ...run) => of[type].runs(...run),
    request: (type) => of[type].requests.inc(),
    retry: (type, reason) => of[type].retries.inc({ reason }),
    throttled: (type) => of[type].throttled.inc(),
  };
}

/** The run families every pull provider exports (`dsync_<provider>_sync_*`), as the observer of its runs. */
export function pullRunFamilies(registry: Registry, provider: string, name: string): RunObserver['directoryRun'] {
  const runs = new Counter({
    name: `dsync_${provider}_sync_runs_total`,
    help: `${name} pull-sync runs of one directory, by outcome (succeeded, failed, guarded, invalid_credentials, not_authorized)`,
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: `dsync_${provider}_sync_duration_seconds`,
    help: `Duration of the ${name} pull sync of one directory`,
    buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 900, 1800],
    registers: [registry],
  });
  const changes = new Counter({
    name: `dsync_${provider}_sync_changes_total`,
    help: `Changes a ${name} pull sync applied, by kind (users_created, members_added, ...)`,
    labelNames: ['change'] as const,
    registers: [registry],
  });
  return (state, seconds, counts) => {
    runs.inc({ outcome: state });
    duration.observe(seconds);
    for (const [change, n] of Object.entries(counts)) if (n > 0) changes.inc({ change }, n);
  };
}
