/** Settings of the Microsoft Entra ID pull sync (DSYNC_MICROSOFT_* in config.ts). Plain data. */

export const MICROSOFT_DEFAULTS = {
  authorityUrl: 'https://login.microsoftonline.com',
  graphUrl: 'https://graph.microsoft.com',
  /** A run that would delete more than this share of a directory's users and groups stops for that directory. */
  maxDeleteShare: 0.2,
  /**
   * Lifetime asked for a subscription: 3 days, shorter than Graph's 41,760 minutes on purpose, so that a deleted
   * directory's (or a revoked tenant's) subscriptions stop notifying within days; every run renews those with
   * less than `renewWithinMinutes` left, so a daily schedule keeps them alive.
   */
  subscriptionMinutes: 3 * 24 * 60,
  /** A subscription expiring within this is renewed by the next sync run. */
  renewWithinMinutes: 36 * 60,
  /**
   * A refused subscription is tried again after this, doubling with each refusal in a row up to
   * `subscriptionRetryMaxMs`.
   */
  subscriptionRetryMs: 60_000,
  subscriptionRetryMaxMs: 60 * 60_000,
  /** Notifications arriving within this window after the first are one sync. */
  notificationDelayMs: 1_000,
} as const;

/**
 * Graph's longest subscription on users, groups and other directory resources, in minutes
 * (https://learn.microsoft.com/en-us/graph/api/resources/subscription#maximum-length-of-subscription-per-resource-type).
 */
export const MAX_SUBSCRIPTION_MINUTES = 41_760;

/** A certificate credential: the private key, and the certificate whose SHA-256 thumbprint Entra knows. */
export interface MicrosoftCertificate {
  privateKey: string;
  thumbprintSha256: string;
  /** The certificate (PEM), sent as x5c so a certificate rolled by subject name and issuer is accepted. */
  x5c: string;
}

export interface MicrosoftOptions {
  /** The multi-tenant app registration; unset = Entra directories cannot connect. */
  clientId?: string;
  clientSecret?: string;
  certificate?: MicrosoftCertificate;
  authorityUrl: string;
  graphUrl: string;
  /** Where admin consent returns: $DSYNC_EXTERNAL_URL/api/v1/dsync/microsoft/callback. */
  redirectUrl: string;
  /** Where Graph sends change notifications; unset (DSYNC_EXTERNAL_URL is not https) = scheduled syncs only. */
  notificationUrl?: string;
  maxDeleteShare: number;
  /** Seconds between in-process sync runs (`dsync serve`); unset = only the cron route / CronJob runs it. */
  syncIntervalSeconds?: number;
  subscriptionMinutes: number;
  renewWithinMinutes: number;
  subscriptionRetryMs: number;
  subscriptionRetryMaxMs: number;
  notificationDelayMs: number;
}

export function microsoftOptions(externalUrl: string, given: Partial<MicrosoftOptions> = {}): MicrosoftOptions {
  const base = externalUrl.replace(/\/+$/, '');
  return {
    authorityUrl: MICROSOFT_DEFAULTS.authorityUrl,
    graphUrl: MICROSOFT_DEFAULTS.graphUrl,
    redirectUrl: `${base}/api/v1/dsync/microsoft/callback`,
    // Graph delivers notifications only to an https URL it can reach: without one, the schedule alone syncs.
    ...(base.startsWith('https://') && { notificationUrl: `${base}/api/v1/dsync/microsoft/notifications` }),
    maxDeleteShare: MICROSOFT_DEFAULTS.maxDeleteShare,
    subscriptionMinutes: MICROSOFT_DEFAULTS.subscriptionMinutes,
    renewWithinMinutes: MICROSOFT_DEFAULTS.renewWithinMinutes,
    subscriptionRetryMs: MICROSOFT_DEFAULTS.subscriptionRetryMs,
    subscriptionRetryMaxMs: MICROSOFT_DEFAULTS.subscriptionRetryMaxMs,
    notificationDelayMs: MICROSOFT_DEFAULTS.notificationDelayMs,
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
  };
}

/** The Graph resource's `.default` scope: the application permissions the admin consented to. */
export const graphScope = (graphUrl: string): string => `${new URL(graphUrl).origin}/.default`;

/** Application permissions the app registration must list (read-only directory access). */
export const GRAPH_PERMISSIONS = ['User.Read.All', 'Group.Read.All', 'GroupMember.Read.All'] as const;
