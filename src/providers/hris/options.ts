/**
 * Settings of the HRIS pull syncs (DSYNC_BAMBOOHR_API_URL, DSYNC_HIBOB_API_URL, DSYNC_PERSONIO_API_URL, DSYNC_HRIS_*).
 */
import type { HrisType } from './connector.js';

export const HRIS_DEFAULTS = {
  apiUrls: {
    bamboohr: 'https://api.bamboohr.com',
    hibob: 'https://api.hibob.com',
    personio: 'https://api.personio.de',
  },
  maxDeleteShare: 0.2,
  /** A changed-since run reads each changed employee; past this many, one full listing costs fewer requests. */
  maxTargeted: 200,
  /** A webhook opens this window; those arriving within it join one sync. */
  webhookDelayMs: 2000,
  /**
   * At least this long between two webhook-triggered syncs of a directory: HiBob's and Personio's webhooks are not
   * signed, so anyone who knows the URL could otherwise keep a company's API busy (a Personio run reads everyone).
   */
  webhookMinIntervalMs: 60_000,
} as const;

export interface HrisOptions {
  apiUrls: Record<HrisType, string>;
  maxDeleteShare: number;
  maxTargeted: number;
  webhookDelayMs: number;
  webhookMinIntervalMs: number;
  /** Seconds between in-process sync runs (`dsync serve`); unset = only the cron route / CronJob runs them. */
  syncIntervalSeconds?: number;
  /** Requests per minute per company, instead of each provider's published limit (tests, a raised quota). */
  perMinute?: Partial<Record<HrisType, number>>;
}

export function hrisOptions(given: Partial<HrisOptions> = {}): HrisOptions {
  return {
    maxDeleteShare: HRIS_DEFAULTS.maxDeleteShare,
    maxTargeted: HRIS_DEFAULTS.maxTargeted,
    webhookDelayMs: HRIS_DEFAULTS.webhookDelayMs,
    webhookMinIntervalMs: HRIS_DEFAULTS.webhookMinIntervalMs,
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
    apiUrls: { ...HRIS_DEFAULTS.apiUrls, ...given.apiUrls },
  };
}
